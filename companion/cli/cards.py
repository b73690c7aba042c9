"""``companion cards read IMAGE... --game GAME --json``: the card readers behind one command; and
``companion cards calibrate IMAGE --game schotten-totten --out FILE [--deck reference|other]``: learn the
colours (reference deck) or another deck's design from one frame showing one card of each colour at
stones 0-5, and write the calibration JSON that ``cards read --st-calibration FILE`` takes.

The games whose camera reads cards come from the registry; each has its own flags (``--st-...`` for
Schotten Totten, ``--dr-...`` for the donkey race) and its reader in ``vision.cards``.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import cv2
import numpy as np

from companion.cli.common import add_reader_commands, in_range
from companion.errors import FileFormatError, UserError
from companion.registry import names
from vision.cards import StCalibration, calibrate_colours, calibrate_deck, read_donkey_race, read_schotten_totten
from vision.cards.common import draw_overlay
from vision.cards.reference_deck import COLOURS
from vision.frames import load_image


def add_commands(subparsers) -> None:
    """Register ``cards read`` and ``cards calibrate``."""
    sub, read = add_reader_commands(subparsers, "cards", "read the cards lying face up in photos",
                                    "read the cards in each image", _read)
    read.add_argument("--game", required=True, choices=names(reads="cards"))
    _stone_flags(read)
    read.add_argument("--dr-players", type=int, default=4, choices=(2, 3, 4),
                      help="donkey race: players, one sector each (default 4)")
    read.add_argument("--dr-donkey-value", type=int, default=0, help="donkey race: the donkey card's value, 0-99 (default 0)")
    calibrate = sub.add_parser("calibrate", help="schotten-totten: learn the deck from one card of each colour")
    calibrate.add_argument("image", type=Path, metavar="IMAGE")
    calibrate.add_argument("--game", required=True, choices=("schotten-totten",))
    calibrate.add_argument("--deck", choices=("reference", "other"), default="reference",
                           help="reference: our printed deck (colours only); other: any deck with its value in "
                                "a top corner (default reference)")
    calibrate.add_argument("--out", type=Path, required=True, metavar="FILE", help="calibration JSON to write")
    _stone_flags(calibrate)
    calibrate.set_defaults(handler=_calibrate)


def _stone_flags(parser) -> None:
    parser.add_argument("--st-calibration", type=Path, metavar="FILE",
                        help="schotten-totten: JSON with the nine stones' pixel centres (and a palette)")
    parser.add_argument("--st-stones", metavar="X,Y;...", help="schotten-totten: the nine stones' pixel centres, left to right")


def stones_calibration(args, frame_shape) -> StCalibration:
    """The calibration given by ``--st-calibration`` or ``--st-stones`` (else the default for the frame);
    raises :class:`FileFormatError` or :class:`UserError` naming the bad file or list."""
    path = args.st_calibration
    if path is not None:
        try:
            return StCalibration.from_json(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise UserError(f"--st-calibration {path}: {error.strerror or error}") from None
        except (KeyError, TypeError, ValueError) as error:  # not UTF-8, not JSON, not a calibration
            raise FileFormatError(f"--st-calibration {path}: not a stone calibration: {error}") from None
    if args.st_stones:
        try:
            points = tuple(tuple(float(v) for v in p.split(",")) for p in args.st_stones.split(";") if p.strip())
            if not all(len(p) == 2 and all(math.isfinite(v) and 0 <= v <= 100_000 for v in p) for p in points):
                raise ValueError("each centre is two numbers X,Y of 0-100000 pixels")
            return StCalibration(stones=points)
        except ValueError as error:
            raise UserError(f"--st-stones takes X,Y;X,Y;... pixel centres: {error}") from None
    return StCalibration.default(frame_shape)


def _overlay_path(folder: Path, game: str) -> Path:
    index = len(list(folder.glob(f"{game}-*.png"))) if folder.is_dir() else 0
    return folder / f"{game}-{index:03d}.png"


def read_cards_json(frame_bgr: np.ndarray, args) -> dict:
    """The JSON object for one image (without ``file`` and ``ms``); writes an overlay into
    ``args.debug_out`` when given."""
    marks: list = []
    if args.game == "schotten-totten":
        calibration = stones_calibration(args, frame_bgr.shape)
        observation = read_schotten_totten(frame_bgr, calibration)
        marks = list(calibration.stones)
    else:
        observation = read_donkey_race(frame_bgr, players=args.dr_players, donkey_value=args.dr_donkey_value)
    if args.debug_out is not None:
        draw_overlay(frame_bgr, observation, _overlay_path(Path(args.debug_out), args.game), marks)
    return observation.to_dict()


def _calibrate(args) -> int:
    """Write the calibration learnt from one image; print one JSON line (file, deck, out, colours)."""
    cv2.setNumThreads(1)
    frame = load_image(args.image, "companion cards calibrate")
    if frame is None:
        return 2
    base = stones_calibration(args, frame.shape)
    learn = calibrate_deck if args.deck == "other" else calibrate_colours
    calibration = learn(frame, base)
    args.out.write_text(calibration.to_json() + "\n", encoding="utf-8")
    record = {"file": str(args.image), "deck": args.deck, "out": str(args.out), "colours": list(COLOURS)}
    if calibration.design is not None:
        record["index"] = [round(v, 3) for v in calibration.design.index]
        record["polarity"] = calibration.design.polarity
    print(json.dumps(record))
    return 0


def _read(args) -> int:
    in_range(args.dr_donkey_value, "--dr-donkey-value", 0, 99)  # the rules' range (D.5, DonkeyRaceConfig)
    cv2.setNumThreads(1)
    status = 0
    for path in args.images:
        frame = load_image(path, "companion cards read")
        if frame is None:
            status = 1  # as dice/board read: the other files are still read
            continue
        started = time.perf_counter()
        record = read_cards_json(frame, args)
        record = {"file": str(path), **record, "ms": round((time.perf_counter() - started) * 1000, 2)}
        print(json.dumps(record) if args.json else record)
    return status
