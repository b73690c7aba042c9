"""Loading the photos named on a ``read`` command line (dice, board, cards) the same way."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

JPEG_START, JPEG_END = b"\xff\xd8", b"\xff\xd9"
PNG_START, PNG_END = b"\x89PNG\r\n\x1a\n", b"IEND"


def truncation(path: str | Path) -> str | None:
    """Why the JPEG or PNG file ``path`` is cut short, or None when it is whole or of another format.

    A JPEG must end with its end-of-image marker (FF D9; trailing zero or blank padding allowed), a PNG
    with its IEND chunk (JPEG: ITU-T T.81 B.2.1; PNG: ISO/IEC 15948 5.6). OpenCV decodes a cut JPEG
    into a photo whose lower part is grey, which a reader would read as if it were whole. Raises
    OSError when the file cannot be read."""
    with open(path, "rb") as f:
        head = f.read(8)
        f.seek(0, 2)
        size = f.tell()
        f.seek(max(0, size - 64))
        tail = f.read()
    if head.startswith(JPEG_START) and not tail.rstrip(b"\x00\r\n\t ").endswith(JPEG_END):
        return "truncated image (the JPEG ends before its end marker)"
    if head.startswith(PNG_START) and PNG_END not in tail[-16:]:
        return "truncated image (the PNG has no IEND chunk)"
    return None


def load_image(name: str | Path, command: str) -> np.ndarray | None:
    """The BGR uint8 image in file ``name``, or None after printing ``"<command>: <name>: <why>"`` on
    stderr (``no such file``, ``a folder, not an image file``, ``truncated image (...)`` or ``not a
    readable image``), so a command reads the other files on."""
    path = Path(name)
    if not path.exists():
        why = "no such file"
    elif path.is_dir():
        why = "a folder, not an image file"
    else:
        try:
            why = truncation(path)
        except OSError as error:
            why = f"cannot read it ({error.strerror or error})"
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR) if why is None else None
        if frame is not None:
            return frame
        why = why or "not a readable image"
    print(f"{command}: {name}: {why}", file=sys.stderr)
    return None
