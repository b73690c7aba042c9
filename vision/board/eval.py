"""Measure the board reader against labels: per-square accuracy, yard counts, pawn precision and recall.

Label format (one frame; see ``tests/fixtures/ludo_board/labels.json``): ``{"squares": {"<track index>":
"<colour>" or [colours]}, "yards": {colour: count or null when not visible}, "homes": {colour: [k, ...]},
"clockwise": [colours]}``. An observation is compared with :func:`compare`; :func:`summarise` adds up
many comparisons.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.errors import FileFormatError, MissingFileError
from vision.board.geometry import BoardGeometry, Boards
from vision.board.reader import read_board
from vision.frames import image_file_problem
from vision.board.render import Render, Scene, random_position, render
from vision.observation import BoardObservation


def _label_squares(label: dict) -> dict[int, tuple[str, ...]]:
    out = {}
    for k, v in label.get("squares", {}).items():
        out[int(k)] = tuple(sorted([v] if isinstance(v, str) else v))
    return out


def compare(obs: BoardObservation, label: dict, track_length: int, hidden: frozenset = frozenset()) -> dict:
    """Counts for one frame.

    Returns ``{"found": 0/1, "orientation": 0/1 (printed colour order right), "squares": places compared
    (every track square and every home square), "squares_right": those read right (same colours or both
    empty), "pawns": labelled pawns on squares, "pawns_found": of them read on the right square in the
    right colour, "pawns_read": pawns read on squares, "yards": yard counts compared (visible ones),
    "yards_right": counts read exactly (a yard labelled null must be reported covered)}``.
    """
    truth = {k: v for k, v in _label_squares(label).items() if ("track", k) not in hidden}
    got = {k: tuple(sorted(v)) for k, v in obs.squares.items() if ("track", k) not in hidden}
    seen = [i for i in range(track_length) if ("track", i) not in hidden]
    right = sum(1 for i in seen if truth.get(i, ()) == got.get(i, ()))
    homes_truth = {c: set(v) for c, v in label.get("homes", {}).items()}
    home_places = right_homes = 0
    for colour, occupied in obs.homes.items():
        n = max([*occupied, *homes_truth.get(colour, ()), 4]) + 1
        for k in range(n):
            if ("home", colour, k) in hidden:
                continue
            home_places += 1
            right_homes += (k in occupied) == (k in homes_truth.get(colour, set()))
    pawns = sum(len(v) for v in truth.values())
    pawns_found = sum(len(set(v) & set(got.get(i, ()))) for i, v in truth.items())
    pawns_read = sum(len(v) for v in got.values())
    yards = yards_right = 0
    for colour, count in label.get("yards", {}).items():
        if ("yard", colour) in hidden:
            continue
        yards += 1
        if count is None:  # labelled as not visible: right when the reader says it is covered
            yards_right += int(colour in obs.covered_yards)
        else:
            yards_right += int(obs.yards.get(colour) == count and colour not in obs.covered_yards)
    if not obs.found:  # nothing was read: no place counts as right
        right = right_homes = yards_right = 0
    return {
        "found": int(obs.found),
        "orientation": int(obs.found and list(obs.clockwise) == list(label.get("clockwise", obs.clockwise))),
        "squares": len(seen) + home_places,
        "squares_right": right + right_homes,
        "pawns": pawns, "pawns_found": pawns_found, "pawns_read": pawns_read,
        "yards": yards, "yards_right": yards_right,
    }


def summarise(results: list[dict]) -> dict:
    """Totals and rates over many :func:`compare` results (rates 0-1, rounded to 4 places)."""
    tot = {k: sum(r[k] for r in results) for k in results[0]} if results else {}
    if not tot:
        return {}

    def rate(a: str, b: str) -> float:
        return round(tot[a] / tot[b], 4) if tot[b] else 1.0

    return {
        "frames": len(results),
        "found_rate": round(tot["found"] / len(results), 4),
        "orientation_rate": round(tot["orientation"] / len(results), 4),
        "square_accuracy": rate("squares_right", "squares"),
        "pawn_recall": rate("pawns_found", "pawns"),
        "pawn_precision": rate("pawns_found", "pawns_read"),
        "yard_count_accuracy": rate("yards_right", "yards"),
        **tot,
    }


def random_scene(rng: np.random.Generator, size: tuple[int, int] = (800, 600)) -> Scene:
    """A random photo setting: any turn, tilt up to 30 degrees, board 55-95 % of the short side, light
    gain 0.7-1.2 with a gradient, a shadow band (30 %), a hand over the board (30 %), noise."""
    hand = None
    if rng.random() < 0.3:
        hand = (float(rng.uniform(2, 12)), float(rng.uniform(2, 12)))
    return Scene(size=size, turn=float(rng.uniform(0, 360)), tilt=float(rng.uniform(0, 30)),
                 fill=float(rng.uniform(0.55, 0.95)), focal=float(rng.uniform(0.9, 1.5)),
                 gain=float(rng.uniform(0.7, 1.2)), gradient=float(rng.uniform(0, 0.25)),
                 shadow=bool(rng.random() < 0.3), hand=hand, noise=float(rng.uniform(1, 4)),
                 seed=int(rng.integers(1 << 30)))


def render_label(rend: Render) -> dict:
    """The label dict of a render's truth (format of :func:`compare`)."""
    pos = rend.position
    return {"squares": {str(k): v for k, v in pos.squares.items()}, "yards": dict(pos.yards),
            "homes": {c: list(v) for c, v in pos.homes.items()}}


def corner_error(obs: BoardObservation, truth: np.ndarray, n: int) -> float:
    """Mean distance in cells between the grid corners placed by the read and the true homography
    (inf when not found). Over 0.5 means the board was placed or turned wrongly."""
    hom = obs.homography_array()
    if hom is None:
        return float("inf")
    pts = np.array([[[0, 0]], [[n - 1, 0]], [[n - 1, n - 1]], [[0, n - 1]]], np.float64)
    a = cv2.perspectiveTransform(pts, hom).reshape(-1, 2)
    b = cv2.perspectiveTransform(pts, truth).reshape(-1, 2)
    back = cv2.perspectiveTransform(a.reshape(-1, 1, 2), np.linalg.inv(truth)).reshape(-1, 2)
    return float(np.mean(np.linalg.norm(back - pts.reshape(-1, 2), axis=1)))


def accepted(obs: BoardObservation) -> bool:
    """Whether a reading is offered as the board's state (issue 25): found, no ``problem``, no covered
    yard, no covered place."""
    return obs.found and not obs.problem and not obs.covered_yards and not obs.unknown


def exact(obs: BoardObservation, label: dict) -> bool:
    """Whether a reading gives every pawn of ``label`` where it is: squares, yard counts, homes."""
    squares = {k: tuple(sorted(v)) for k, v in obs.squares.items()}
    homes = {c: tuple(sorted(v)) for c, v in obs.homes.items() if v}
    return (squares == _label_squares(label) and {c: n for c, n in obs.yards.items() if n} ==
            {c: n for c, n in label.get("yards", {}).items() if n} and
            homes == {c: tuple(sorted(v)) for c, v in label.get("homes", {}).items() if v})


def evaluate_renders(geometry: BoardGeometry, count: int, seed: int, boards: Boards) -> dict:
    """Read ``count`` random renders of ``geometry`` as the players named it
    (:func:`vision.board.recognise.read_known_board`, which tells ``boards``, the known boards by name,
    apart); :func:`summarise` plus orientation by homography
    (corner error under half a cell), timing (``median_ms``, ``max_ms``), and what the players feel:
    ``refused`` (readings not offered: :func:`accepted`) and ``false_accepts`` (offered and not
    :func:`exact`)."""
    from vision.board.recognise import read_known_board

    rng = np.random.default_rng(seed)
    results, times = [], []
    refused = false_accepts = 0
    for _ in range(count):
        rend = render(geometry, random_position(geometry, rng), random_scene(rng))
        obs = read_known_board(rend.image, boards, geometry.name)
        times.append(obs.ms)
        label = render_label(rend)
        res = compare(obs, label, geometry.track_length, rend.hidden)
        res["orientation"] = int(corner_error(obs, rend.homography, geometry.grid_size) < 0.5)
        results.append(res)
        if not accepted(obs):
            refused += 1
        elif not exact(obs, label):
            false_accepts += 1
    out = summarise(results)
    out.update(board=geometry.name, median_ms=round(float(np.median(times)), 1), max_ms=round(max(times), 1),
               refused=refused, false_accepts=false_accepts)
    return out


def evaluate_labelled(folder: str | Path, labels_file: str | Path, boards: Boards) -> dict:
    """Read every labelled frame in ``folder`` (labels file format: ``tests/fixtures/ludo_board/labels.json``;
    its ``board`` one of ``boards``, the known boards by name); :func:`summarise` plus per-frame results
    and timing. Raises OSError for a missing labels file, :class:`~vision.errors.FileFormatError` for one
    that is not such a file (or names another board), :class:`~vision.errors.MissingFileError` for a
    missing frame."""
    path = Path(labels_file)
    try:
        labels = json.loads(path.read_text(encoding="utf-8"))
        if labels["board"] not in boards:
            raise ValueError(f"unknown board {labels['board']!r}; one of {', '.join(boards)}")
        geometry = boards[labels["board"]]
        items = list(labels["frames"].items())
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        raise FileFormatError(f"{path}: not a board labels file ({type(error).__name__}: {error}); its format is "
                              f"that of tests/fixtures/ludo_board/labels.json") from None
    results, frames, times = [], {}, []
    for name, label in items:
        problem = image_file_problem(Path(folder) / name)  # nothing decoded whose header claims too many pixels
        if problem and problem.startswith("image too large"):
            raise FileFormatError(f"{Path(folder) / name}: {problem}")
        frame = None if problem else cv2.imread(str(Path(folder) / name), cv2.IMREAD_COLOR)
        if frame is None:
            raise MissingFileError(f"{Path(folder) / name}: missing or not an image")
        start = time.perf_counter()
        obs = read_board(frame, geometry)
        times.append((time.perf_counter() - start) * 1000.0)
        res = compare(obs, label, geometry.track_length)
        results.append(res)
        frames[name] = res
    out = summarise(results)
    out.update(board=geometry.name, median_ms=round(float(np.median(times)), 1), max_ms=round(max(times), 1),
               per_frame=frames)
    return out
