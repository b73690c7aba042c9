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

    A JPEG must hold its end-of-image marker (FF D9) after the start of its first scan (the segments
    before it are skipped by their lengths, so an EXIF thumbnail's own end marker does not count, and
    data after the end marker, as in phones' motion photos, is allowed): ITU-T T.81 B.1.1 and B.2. A PNG
    must reach its IEND chunk, chunk by chunk (ISO/IEC 15948 5.3, 5.6). OpenCV decodes a cut JPEG into a
    photo whose lower part is grey, which a reader would read as if it were whole. Raises OSError when
    the file cannot be read."""
    data = Path(path).read_bytes()
    if data.startswith(JPEG_START):
        return None if _jpeg_whole(data) else "truncated image (the JPEG ends before its end marker)"
    if data.startswith(PNG_START):
        return None if _png_whole(data) else "truncated image (the PNG ends before its IEND chunk)"
    return None


def _jpeg_whole(data: bytes) -> bool:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return False  # not a marker where one must be: damaged
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a length
            i += 2
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker == 0xDA:  # start of scan: entropy-coded data up to the end marker
            return data.find(JPEG_END, i + 2 + length) != -1
        i += 2 + length
    return False


def _png_whole(data: bytes) -> bool:
    i = len(PNG_START)
    while i + 8 <= len(data):
        length = int.from_bytes(data[i:i + 4], "big")
        if data[i + 4:i + 8] == PNG_END:
            return i + 12 + length <= len(data)
        i += 12 + length
    return False


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
