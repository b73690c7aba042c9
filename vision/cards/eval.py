"""Benchmark of the card readers: prints accuracy and time as JSON (targets live here, not in tests).

``python -m vision.cards.eval [--photos DIR] [--renders N] [--seed S] [--st-size WxH] [--st-perspective F]``

- photos: ``../shared/data/cards/handwritten_battle`` (measure only): per photo one card per sector is
  expected (4 players, sectors as in vision.cards.donkey_race); reports cards found, value accuracy over
  all cards, over digit cards (0-9) and over picture cards (J/Q/K), and ms per photo (after warm-up).
- donkey renders: N scenes of 2-4 players with 1-3 white number cards (0-13) each.
- Schotten Totten renders: N scenes with 6-40 reference-deck cards in columns, perspective, uneven light,
  colour cast, shadow, noise and JPEG; reports cards found, code accuracy, stone/side accuracy, and the
  same after a colour calibration under a strong colour cast.
- photos again with the k-NN digit votes instead of the digit network (``photos_donkey_race_knn_digits``).
- another deck design (vision.cards.render_other: coloured border and background, artwork, an unseen font)
  after ``calibrate_deck`` on one frame of six cards: code+place accuracy on single cards and on
  overlapping columns (``covered_accuracy``: the cards showing only their top strip), ms per frame; and
  our reference deck read the same way (calibrate_deck and the corner reader instead of its index boxes).
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from vision.cards import digit_net as card_digit_net
from vision.cards import digits as card_digits
from vision.cards import donkey_race as dr
from vision.cards import render as card_render
from vision.cards import render_other as card_render_other
from vision.cards import schotten_totten as st
from vision.cards.reference_deck import COLOURS

DEFAULT_PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "data" / "cards" / "handwritten_battle"
SEATS = ("P1_south", "P2_east", "P3_north", "P4_west")


def eval_photos(folder: Path) -> dict:
    """Donkey race reader on the handwritten_battle photos against labels.csv (values only)."""
    rows = list(csv.DictReader((folder / "labels.csv").open(encoding="utf-8")))
    card_digits._model()  # warm-up: trains the digit classifier (about a second, once per process)
    found = correct = digits = digits_ok = pictures = pictures_ok = pictures_seen = 0
    times, wrong = [], []
    for row in rows:
        frame = cv2.imread(str(folder / row["file"]), cv2.IMREAD_COLOR)
        start = time.perf_counter()
        obs = dr.read_cards(frame, players=4)
        times.append((time.perf_counter() - start) * 1000)
        for seat, name in zip(SEATS, dr.sector_names(4)):
            label = row[seat][:-1]
            got = obs.extra["sectors"][name]
            found += len(got) == 1
            ok = got == [label]
            correct += ok
            if label in ("J", "Q", "K"):
                pictures += 1
                pictures_ok += ok
                pictures_seen += len(got) == 1 and got[0] in ("J", "Q", "K")
            else:
                digits += 1
                digits_ok += ok
            if not ok:
                wrong.append(f"{row['file']} {name}: label {label} read {got}")
    n = 4 * len(rows)
    return {"photos": len(rows), "cards": n, "found": found, "found_rate": round(found / n, 3),
            "value_accuracy": round(correct / n, 3), "digit_cards": digits,
            "digit_accuracy": round(digits_ok / max(digits, 1), 3), "picture_cards": pictures,
            "picture_detected": round(pictures_seen / max(pictures, 1), 3),
            "picture_rank_accuracy": round(pictures_ok / max(pictures, 1), 3),
            "ms_median": round(float(np.median(times)), 1), "ms_max": round(float(np.max(times)), 1),
            "wrong": wrong}


def offered_wrong(offered: list[str], flagged: int, truth: list[str]) -> bool:
    """Whether the cards a reading offers at one place (sector or stone side) would mislead the session.

    A reading offers its unflagged cards (docs/CLI.md, ``cards read``); a flagged card is a question the
    box asks the players. So the offer at a place is wrong when an unflagged code is not among the cards laid
    there (counted with repeats), or when more laid cards are missing from the offer than there are flagged
    cards at that place to ask about them. An extra flagged card where nothing is missing is a question
    too many, not a false accept.

    Args:
        offered: codes of the unflagged cards read at the place, e.g. ``["R5", "B7"]`` or ``["13"]``.
        flagged: how many flagged cards were read at the place (0 or more).
        truth: codes of the cards laid there.
    """
    left = Counter(truth)
    left.subtract(Counter(offered))
    if any(count < 0 for count in left.values()):
        return True
    return sum(left.values()) > flagged


def eval_donkey_renders(n: int, seed: int) -> dict:
    """``n`` rendered donkey race tables (2-4 players, 1-3 cards each): accuracy, ``refused`` and
    ``false_accepts`` (offered, and some sector's offer not the cards laid there: see
    :func:`offered_wrong`)."""
    rng = np.random.default_rng(seed)
    total = found = correct = refused = false_accepts = 0
    times = []
    for i in range(n):
        players = (2, 3, 4)[i % 3]
        hands = [[int(v) for v in rng.integers(0, 14, int(rng.integers(1, 4)))] for _ in range(players)]
        frame, _ = card_render.render_donkey_scene(rng, hands)
        start = time.perf_counter()
        obs = dr.read_cards(frame, players=players)
        times.append((time.perf_counter() - start) * 1000)
        wrong = False
        for seat, hand in enumerate(hands):
            name = dr.sector_names(players)[seat]
            got = obs.extra["sectors"][name]
            total += len(hand)
            found += min(len(hand), len(got))
            correct += sum(a == str(b) for a, b in zip(got, hand))
            at_sector = [c for c in obs.cards if c.sector == name]
            wrong |= offered_wrong([c.code for c in at_sector if not c.flagged],
                                   sum(c.flagged for c in at_sector), [str(v) for v in hand])
        if obs.problem:
            refused += 1
        elif wrong:
            false_accepts += 1
    return {"scenes": n, "cards": total, "found_rate": round(found / total, 3),
            "value_accuracy": round(correct / total, 3), "refused": refused, "false_accepts": false_accepts,
            "ms_median": round(float(np.median(times)), 1)}


def _score_st(obs, columns) -> tuple[int, int, int]:
    expected = {key: [f"{c[0][0].upper()}{v}" for c, v in [((col,), val) for col, val in cards]]
                for key, cards in columns.items()}
    n = found = correct = 0
    for stone in range(9):
        for side in "ab":
            want = expected.get((stone, side), [])
            got = obs.extra["stones"][stone][side]
            n += len(want)
            found += min(len(want), len(got))
            correct += sum(a == b for a, b in zip(want, got))
    return n, found, correct


BROKEN_SHARE = 0.1
"""Share of rendered Schotten Totten scenes given a fourth card at one side of a stone, and as many again
with one card twice: tables the reader must refuse (schotten-totten.md C.2, C.3)."""


def _break_rules(rng: np.random.Generator, columns: dict) -> str:
    """Maybe break a rule of the table in ``columns`` (in place): ``"crowded"``, ``"twice"`` or ``""``."""
    roll = rng.random()
    full = [key for key, cards in columns.items() if len(cards) == 3]
    if roll < BROKEN_SHARE and full:
        unused = [(c, v) for c in COLOURS for v in range(1, 10) if all((c, v) not in cs for cs in columns.values())]
        columns[full[int(rng.integers(len(full)))]].append(unused[int(rng.integers(len(unused)))])
        return "crowded"
    if roll < 2 * BROKEN_SHARE:
        keys = [key for key, cards in columns.items() if len(cards) < 3]
        source = [card for cards in columns.values() for card in cards]
        if keys and source:
            columns[keys[int(rng.integers(len(keys)))]].append(source[int(rng.integers(len(source)))])
            return "twice"
    return ""


def _st_wrong(obs, truth) -> bool:
    """Whether what a reading offers at some place (stone, side) is not the table there (see
    :func:`offered_wrong`)."""
    places = {(t["stone"], t["side"]) for t in truth} | {(c.stone, c.side) for c in obs.cards}
    for place in places:
        here = [c for c in obs.cards if (c.stone, c.side) == place]
        if offered_wrong([c.code for c in here if not c.flagged], sum(c.flagged for c in here),
                         [t["code"] for t in truth if (t["stone"], t["side"]) == place]):
            return True
    return False


def eval_st_renders(n: int, seed: int, size: tuple[int, int] = (1280, 720), perspective: float = 0.04) -> dict:
    """``n`` rendered Schotten Totten tables (6-40 cards; :data:`BROKEN_SHARE` of them with four cards at a
    side, as many with a card twice). Besides accuracy: ``refused`` (readings with a ``problem``) and
    ``false_accepts`` (offered though the table breaks a rule, or offering at some stone side what is not
    there: see :func:`offered_wrong`)."""
    rng = np.random.default_rng(seed)
    total = found = correct = extra = refused = false_accepts = broken = 0
    times = []
    for _ in range(n):
        columns = card_render.random_st_columns(rng, int(rng.integers(6, 41)))
        rule = _break_rules(rng, columns)
        broken += bool(rule)
        frame, truth, stones = card_render.render_st_scene(rng, columns, size=size, perspective=perspective)
        start = time.perf_counter()
        obs = st.read_cards(frame, st.StCalibration(stones=tuple(stones)))
        times.append((time.perf_counter() - start) * 1000)
        k, f, c = _score_st(obs, columns)
        total, found, correct = total + k, found + f, correct + c
        extra += max(0, len(obs.cards) - len(truth))
        if obs.problem:
            refused += 1
        elif rule or _st_wrong(obs, truth):
            false_accepts += 1
    return {"scenes": n, "size": list(size), "perspective": perspective, "cards": total,
            "found_rate": round(found / total, 3), "code_and_place_accuracy": round(correct / total, 3), "extra_cards": extra,
            "broken_tables": broken, "refused": refused, "false_accepts": false_accepts,
            "ms_median": round(float(np.median(times)), 1), "ms_max": round(float(np.max(times)), 1)}


def _tinted(frame: np.ndarray, gains) -> np.ndarray:
    return np.clip(frame.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(np.uint8)


def eval_st_calibration(n: int, seed: int) -> dict:
    """A strong warm colour cast (B x0.65, R x1.15): codes read with the default palette and after
    calibrate_colours on one frame with the six colours at stones 0-5 under the same cast."""
    rng = np.random.default_rng(seed)
    gains = (0.65, 0.95, 1.15)
    calib_columns = {(i, "b"): [(c, 5)] for i, c in enumerate(COLOURS)}
    frame, _, stones = card_render.render_st_scene(rng, calib_columns, shadow=False)
    base = st.StCalibration(stones=tuple(stones))
    calibrated = st.calibrate_colours(_tinted(frame, gains), base)
    results = {}
    for name, make in (("default_palette", lambda s: st.StCalibration(stones=s)),
                       ("calibrated_palette", lambda s: st.StCalibration(stones=s, palette=calibrated.palette))):
        r = np.random.default_rng(seed + 1)
        total = correct = 0
        for _ in range(n):
            columns = card_render.random_st_columns(r, 30)
            frame, _, stones = card_render.render_st_scene(r, columns)
            obs = st.read_cards(_tinted(frame, gains), make(tuple(stones)))
            k, _, c = _score_st(obs, columns)
            total, correct = total + k, correct + c
        results[name] = round(correct / total, 3)
    return {"cast_gains_bgr": gains, "scenes": n, **results}


@contextmanager
def digit_method(method: str):
    """Within the block, readers use the k-NN digit votes ("knn") or the digit network ("auto")."""
    saved = card_digit_net.available
    if method == "knn":
        card_digit_net.available = lambda: False
    try:
        yield
    finally:
        card_digit_net.available = saved


def _other_scenes(rng: np.random.Generator, n: int, singles: bool):
    for _ in range(n):
        if singles:  # 12 cards, one per column
            deck = [(c, v) for c in COLOURS for v in range(1, 10)]
            cards = [deck[i] for i in rng.permutation(len(deck))[:12]]
            slots = [(s, side) for s in range(9) for side in "ab"]
            chosen = [slots[i] for i in rng.permutation(len(slots))[:12]]
            columns = {slot: [card] for slot, card in zip(chosen, cards)}
        else:
            columns = card_render.random_st_columns(rng, int(rng.integers(20, 41)))
        yield columns, card_render_other.render_other_scene(rng, columns)


def eval_other_design(n: int, seed: int) -> dict:
    """Another deck design (vision.cards.render_other, an unseen font) after calibrate_deck on one frame
    with one card of each colour: code+place accuracy on single cards and on overlapping columns (cards
    covered by later ones show only their top strip), the covered cards alone, and columns under a strong
    warm colour cast (B x0.65, R x1.15) that the calibration frame did not have."""
    rng = np.random.default_rng(seed)
    calib_columns = {(i, "b"): [(c, int(v))] for i, (c, v) in enumerate(zip(COLOURS, rng.integers(1, 10, 6)))}
    frame, _, stones = card_render_other.render_other_scene(rng, calib_columns, shadow=False)
    design = st.calibrate_deck(frame, st.StCalibration(stones=tuple(stones))).design
    report = {"calibration": design.to_dict() | {"colours": sorted(design.colours)}}
    for name, singles, gains in (("single_cards", True, None), ("columns", False, None),
                                 ("columns_colour_cast", False, (0.65, 0.95, 1.15))):
        total = found = correct = covered = covered_ok = extra = 0
        times = []
        for columns, (frame, truth, stones) in _other_scenes(rng, n, singles):
            calibration = st.StCalibration(stones=tuple(stones), design=design)
            if gains is not None:  # a warm light after calibrating under a neutral one
                frame = _tinted(frame, gains)
            start = time.perf_counter()
            obs = st.read_cards(frame, calibration)
            times.append((time.perf_counter() - start) * 1000)
            k, f, c = _score_st(obs, columns)
            total, found, correct = total + k, found + f, correct + c
            extra += max(0, len(obs.cards) - len(truth))
            for (stone, side), cards in columns.items():
                got = obs.extra["stones"][stone][side]
                for i, (colour, value) in enumerate(cards[:-1]):
                    covered += 1
                    covered_ok += i < len(got) and got[i] == f"{colour[0].upper()}{value}"
        report[name] = {"scenes": n, "cards": total, "found_rate": round(found / total, 3),
                        "code_and_place_accuracy": round(correct / total, 3), "extra_cards": extra,
                        "ms_median": round(float(np.median(times)), 1)}
        if covered:
            report[name]["covered_cards"] = covered
            report[name]["covered_accuracy"] = round(covered_ok / covered, 3)
    return report


def eval_reference_as_other(n: int, seed: int) -> dict:
    """Our reference deck read like any other deck (calibrate_deck and the corner reader, not its
    index-box reader): code+place accuracy on n scenes of 30 cards in columns."""
    rng = np.random.default_rng(seed)
    calib_columns = {(i, "b"): [(c, int(v))] for i, (c, v) in enumerate(zip(COLOURS, rng.integers(1, 10, 6)))}
    frame, _, stones = card_render.render_st_scene(rng, calib_columns, shadow=False)
    design = st.calibrate_deck(frame, st.StCalibration(stones=tuple(stones))).design
    total = correct = 0
    for _ in range(n):
        columns = card_render.random_st_columns(rng, 30)
        frame, _, stones = card_render.render_st_scene(rng, columns)
        k, _, c = _score_st(st.read_cards(frame, st.StCalibration(stones=tuple(stones), design=design)), columns)
        total, correct = total + k, correct + c
    return {"scenes": n, "cards": total, "polarity": design.polarity,
            "code_and_place_accuracy": round(correct / total, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS)
    parser.add_argument("--renders", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--st-size", default="1280x720", help="Schotten Totten render size WxH")
    parser.add_argument("--st-perspective", type=float, default=0.04,
                        help="Schotten Totten renders: table corners moved up to this fraction of the frame")
    args = parser.parse_args(argv)
    size = tuple(int(v) for v in args.st_size.lower().split("x"))
    cv2.setNumThreads(1)
    report = {}
    if (args.photos / "labels.csv").is_file():
        report["photos_donkey_race"] = eval_photos(args.photos)
        with digit_method("knn"):
            report["photos_donkey_race_knn_digits"] = eval_photos(args.photos)
    report["renders_donkey_race"] = eval_donkey_renders(args.renders, args.seed)
    report["renders_schotten_totten"] = eval_st_renders(args.renders, args.seed, size, args.st_perspective)
    report["renders_schotten_totten_colour_cast"] = eval_st_calibration(max(3, args.renders // 5), args.seed)
    report["renders_other_design"] = eval_other_design(max(3, args.renders // 3), args.seed)
    report["renders_reference_deck_as_other"] = eval_reference_as_other(max(3, args.renders // 3), args.seed)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
