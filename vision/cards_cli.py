"""``companion cards read IMAGE... --game GAME --json``: the card readers behind one command.

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

from vision.image_files import load_image

READERS = {
    "schotten-totten": "vision.cards_schotten_totten",
    "donkey-race": "vision.cards_donkey_race",
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


def _read(args) -> int:
    cv2.setNumThreads(1)
    reader = _reader(args.game)
    status = 0
    for path in args.images:
        frame = load_image(path, "companion cards read")
        if frame is None:
            status = 2
            continue
        started = time.perf_counter()
        record = reader.read_cards_json(frame, args)
        record = {"file": str(path), **record, "ms": round((time.perf_counter() - started) * 1000, 2)}
        print(json.dumps(record) if args.json else record)
    return status
