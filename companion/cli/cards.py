"""``companion cards read IMAGE... --game GAME --json``: the card readers behind one command; and
``companion cards calibrate IMAGE --game schotten-totten --out FILE [--deck reference|other]``: learn the
colours (reference deck) or another deck's design from one frame showing one card of each colour at
stones 0-5, and write the calibration JSON that ``cards read --st-calibration FILE`` takes.

Each game's reader lives in its own module with ``read_cards_json(frame_bgr, args) -> dict`` (the JSON
object for one image, without ``file`` and ``ms``, which this module adds) and ``add_arguments(parser)``
for its own flags. This module only dispatches by ``--game``.
"""

from __future__ import annotations

import importlib
import json
import time
from pathlib import Path

import cv2

from vision.frames import load_image

READERS = {
    "schotten-totten": "vision.cards.schotten_totten",
    "donkey-race": "vision.cards.donkey_race",
}


def _reader(game: str):
    module_name = READERS[game]
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise ValueError(f"cards read: no card reader for {game} yet") from None


def add_commands(subparsers) -> None:
    cards = subparsers.add_parser("cards", help="read the cards lying face up in photos")
    sub = cards.add_subparsers(dest="cards_command", metavar="COMMAND")
    sub.required = True
    read = sub.add_parser("read", help="read the cards in each image")
    read.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    read.add_argument("--game", required=True, choices=sorted(READERS))
    read.add_argument("--json", action="store_true", help="one JSON object a line")
    read.add_argument("--debug-out", type=Path, metavar="DIR", help="write an overlay PNG per image")
    for module_name in READERS.values():
        try:
            importlib.import_module(module_name).add_arguments(read)
        except ModuleNotFoundError:
            pass
    read.set_defaults(handler=_read)
    calibrate = sub.add_parser("calibrate", help="schotten-totten: learn the deck from one card of each colour")
    calibrate.add_argument("image", type=Path, metavar="IMAGE")
    calibrate.add_argument("--game", required=True, choices=("schotten-totten",))
    calibrate.add_argument("--deck", choices=("reference", "other"), default="reference",
                           help="reference: our printed deck (colours only); other: any deck with its value in "
                                "a top corner (default reference)")
    calibrate.add_argument("--out", type=Path, required=True, metavar="FILE", help="calibration JSON to write")
    from vision.cards import schotten_totten as cards_schotten_totten
    cards_schotten_totten.add_arguments(calibrate)
    calibrate.set_defaults(handler=_calibrate)


def _calibrate(args) -> int:
    """Write the calibration learnt from one image; print one JSON line (file, deck, out, colours)."""
    cv2.setNumThreads(1)
    from vision.cards import schotten_totten as st
    frame = load_image(args.image, "companion cards calibrate")
    if frame is None:
        return 2
    base = st.calibration_from_args(args, frame.shape)
    learn = st.calibrate_deck if args.deck == "other" else st.calibrate_colours
    calibration = learn(frame, base)
    args.out.write_text(calibration.to_json() + "\n", encoding="utf-8")
    record = {"file": str(args.image), "deck": args.deck, "out": str(args.out), "colours": list(st.COLOURS)}
    if calibration.design is not None:
        record["index"] = [round(v, 3) for v in calibration.design.index]
        record["polarity"] = calibration.design.polarity
    print(json.dumps(record))
    return 0


def _read(args) -> int:
    cv2.setNumThreads(1)
    reader = _reader(args.game)
    status = 0
    for path in args.images:
        frame = load_image(path, "companion cards read")
        if frame is None:
            status = 1  # as dice/board read: the other files are still read
            continue
        started = time.perf_counter()
        record = reader.read_cards_json(frame, args)
        record = {"file": str(path), **record, "ms": round((time.perf_counter() - started) * 1000, 2)}
        print(json.dumps(record) if args.json else record)
    return status
