"""What the ``read`` subcommands (``dice read``, ``board read``) do alike: each image file read in turn,
one line (or one JSON object) printed per file, an overlay PNG per file with ``--debug-out``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import cv2
import numpy as np

from companion.errors import UserError
from vision.frames import load_image

Reading = TypeVar("Reading")


def read_each_image(args: Any, command: str, read: Callable[[np.ndarray], Reading],
                    line: Callable[[str, Reading], str], record: Callable[[str, Reading], dict],
                    overlay: Callable[[np.ndarray, Reading], np.ndarray]) -> int:
    """Read every file of ``args.images`` with ``read(frame)`` (BGR uint8) and print ``record(name, reading)``
    as JSON (``args.json``) or ``line(name, reading)``; with ``args.debug_out`` write ``overlay(frame,
    reading)`` there as ``<stem>.png``. A file that does not load is reported (``load_image``) and the
    others are still read. Returns 0, or 1 when a file did not load. Raises :class:`UserError` when the
    ``--debug-out`` folder cannot be made (before any file is read)."""
    debug_dir = Path(args.debug_out) if args.debug_out else None
    if debug_dir:
        try:
            debug_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # a file of that name, no permission: say so before reading anything
            raise UserError(f"{command}: --debug-out {debug_dir}: cannot make that folder "
                            f"({error.strerror or error})") from None
    failed = 0
    for name in args.images:
        frame = load_image(name, command)
        if frame is None:
            failed += 1
            continue
        reading = read(frame)
        print(json.dumps(record(name, reading)) if args.json else line(name, reading), flush=True)
        if debug_dir:
            cv2.imwrite(str(debug_dir / f"{Path(name).stem}.png"), overlay(frame, reading))
    return 1 if failed else 0
