"""Frames and image files, checked the same way for every reader (dice, board, cards).

:func:`check_frame` refuses input that is not an image (:class:`vision.errors.FrameError`);
:func:`frame_problem` says why an image cannot show anything (too small, black, saturated, uniform);
:func:`load_image` loads a photo named on a ``read`` command line, saying why it cannot.
"""

from __future__ import annotations

import io
import os
import struct
import sys
from pathlib import Path

import cv2
import imagesize
import numpy as np

from vision.errors import FrameError

# Smallest frame side read (pixels): below this no die is big enough to show pips (the board reader
# asks for more).
MIN_FRAME_SIDE = 32
# A frame whose mean grey level is below this is "black" (lens cap, lights off); above it "saturated"
# (overexposed). A frame with almost no contrast (grey-level standard deviation below MIN_CONTRAST)
# shows nothing readable either.
BLACK_LEVEL, SATURATED_LEVEL, MIN_CONTRAST = 12.0, 245.0, 3.0

def check_frame(frame_bgr, grey_ok: bool = False) -> None:
    """Raise :class:`FrameError` naming the problem unless ``frame_bgr`` is a non-empty (h, w, 3) uint8
    numpy array (a BGR image), or with ``grey_ok`` a (h, w) one (a grey image)."""
    if frame_bgr is None:
        raise FrameError("no frame (None)")
    if not isinstance(frame_bgr, np.ndarray):
        raise FrameError(f"frame is a {type(frame_bgr).__name__}, not a numpy array")
    if frame_bgr.dtype != np.uint8:
        raise FrameError(f"frame dtype is {frame_bgr.dtype}, expected uint8 (BGR 0-255)")
    if frame_bgr.size == 0:
        raise FrameError(f"frame is empty (shape {frame_bgr.shape})")
    if (frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3) and not (grey_ok and frame_bgr.ndim == 2):
        raise FrameError(f"frame shape is {frame_bgr.shape}, expected (height, width, 3) BGR")


def frame_problem(image: np.ndarray, min_side: int = MIN_FRAME_SIDE, min_contrast: float = MIN_CONTRAST) -> str | None:
    """A short reason when an image (grey (h, w) or BGR (h, w, 3) uint8, already checked) cannot show
    anything: smaller than ``min_side`` pixels a side, black, saturated, or with a grey-level standard
    deviation under ``min_contrast``; else None."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    if min(grey.shape[:2]) < min_side:
        return f"frame is too small ({grey.shape[1]}x{grey.shape[0]} px, at least {min_side} px a side)"
    mean = float(grey.mean())
    if mean < BLACK_LEVEL:
        return f"frame is black (mean level {mean:.0f} of 255)"
    if mean > SATURATED_LEVEL:
        return f"frame is saturated (mean level {mean:.0f} of 255)"
    if float(grey.std()) < min_contrast:
        return "frame has no contrast (uniform)"
    return None


def frame_problem_bgr(frame_bgr, min_side: int = MIN_FRAME_SIDE, min_contrast: float = MIN_CONTRAST) -> str | None:
    """:func:`check_frame` (raises :class:`FrameError`), then :func:`frame_problem` of the frame."""
    check_frame(frame_bgr)
    return frame_problem(frame_bgr, min_side, min_contrast)


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
    return data_truncation(Path(path).read_bytes())


def data_truncation(data: bytes) -> str | None:
    """:func:`truncation` of a file's bytes."""
    if data.startswith(JPEG_START):
        return None if _jpeg_whole(data) else "truncated image (the JPEG ends before its end marker)"
    if data.startswith(PNG_START):
        return None if _png_whole(data) else "truncated image (the PNG ends before its IEND chunk)"
    return None


def _jpeg_whole(data: bytes) -> bool:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:  # stray bytes before a marker: skipped, as libjpeg does
            i = data.find(b"\xff", i)
            if i == -1:
                return False
            continue
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
        frame, why = decode_file(path)
        if frame is not None:
            return frame
    print(f"{command}: {name}: {why}", file=sys.stderr)
    return None


def decode_file(path: str | Path) -> tuple[np.ndarray | None, str]:
    """(the BGR uint8 image in file ``path``, "") or (None, why: ``cannot read it (...)``, ``image too
    large (...)`` (:func:`size_problem`, checked before anything is decoded), ``truncated image (...)`` or
    ``not a readable image``); the file is read once."""
    data, why = _read_image_bytes(path)
    if data is None:
        return None, why
    why = data_truncation(data) or size_problem(data)
    if why:
        return None, why
    try:
        frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    except cv2.error:  # OpenCV's own checks (its pixel limit, a header it refuses)
        frame = None
    return (frame, "") if frame is not None else (None, "not a readable image")


def image_file_problem(path: str | Path) -> str | None:
    """Why the image file ``path`` must not be decoded (it cannot be read, is larger than
    :data:`MAX_IMAGE_BYTES`, or its header claims more than :data:`MAX_IMAGE_PIXELS`), else None: the
    check of :func:`decode_file` for code that decodes the file itself (the evals' ``cv2.imread``)."""
    data, why = _read_image_bytes(path)
    return why if data is None else size_problem(data)


def _read_image_bytes(path: str | Path) -> tuple[bytes | None, str]:
    """(the file's bytes, "") or, for a file that cannot be read or is larger than
    :data:`MAX_IMAGE_BYTES` (then not read), (None, why)."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_IMAGE_BYTES:
                return None, (f"image too large (a file of {size / 2 ** 20:.0f} MiB; images of at most "
                              f"{MAX_IMAGE_BYTES // 2 ** 20} MiB are read)")
            data = handle.read(MAX_IMAGE_BYTES + 1)
    except OSError as error:
        return None, f"cannot read it ({error.strerror or error})"
    return data, ""


# --- image sizes from the headers, before anything is decoded ---------------------------------------

MAX_IMAGE_PIXELS = 50_000_000
"""The most pixels (width x height) an image file may claim in its header to be decoded: 50 megapixels,
150 MB as a BGR frame (a phone's photo is 12-50). A file claiming more is refused before decoding
(``image too large``): a PNG of a few hundred KB can claim 20000 x 20000 pixels, 1.2 GB once decoded."""

MAX_IMAGE_BYTES = 200 * 2 ** 20
"""The largest image file read (bytes): a 50-megapixel photo even uncompressed (BMP) is smaller."""

IMAGE_FORMATS = "JPEG, PNG, BMP, GIF, WebP, TIFF, PNM"
"""The image formats whose size :func:`header_size` reads; files of other formats are not decoded."""


def size_problem(data: bytes) -> str | None:
    """Why an image file's bytes must not be decoded: its header claims more than
    :data:`MAX_IMAGE_PIXELS` (``image too large (...)``), or it is of a format whose size cannot be read
    from its header (``not a readable image (...)``); None when it may be decoded (or is empty, which
    decodes to nothing)."""
    if not data:
        return None
    size = header_size(data)
    if size is None:
        return f"not a readable image (no size in its header; {IMAGE_FORMATS} images are read)"
    width, height = size
    if width * height > MAX_IMAGE_PIXELS:
        return (f"image too large ({width}x{height} pixels in its header; at most "
                f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels are read)")
    return None


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) in pixels that an image file's header claims, read without decoding (the
    ``imagesize`` library: PNG, JPEG, GIF, TIFF, WebP, PNM, BMP...). None for another format or a header too
    short or malformed to say."""
    try:
        width, height = imagesize.get(io.BytesIO(data))
    except (ValueError, OSError, struct.error, IndexError):  # a header that lies about its own length
        return None
    return (width, height) if width >= 0 and height >= 0 else None
