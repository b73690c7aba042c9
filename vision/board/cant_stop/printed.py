"""The printed face of a Can't Stop board: the reader's expectation, the renderer's artwork, the box's print.

``print_image(layout, scale) -> bgr`` draws the board's top view at ``scale`` pixels per pitch over its
whole outline (board point ``(x, y)`` at top-view pixel ``to_top(layout, scale) @ (x, y, 1)``). The
print is neutral on purpose: a mid-grey face, lighter grey spaces with a light rim, the top space of each
column with a double rim, the column numbers in white under the first spaces; no colour that a marker
could be taken for, and grey enough that white runners and black pieces both stand out. The
``companion`` layout carries its four ArUco stickers (:mod:`.layouts`).

:func:`write_print` writes the board as a PNG or a one-page PDF at A4 or A3 (portrait, 300 dpi, the
board as large as the paper allows with 10 mm margins); :func:`sticker_sheet` the four stickers for a
published board.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np

from vision.board.aruco import marker_image
from vision.board.cant_stop.layouts import COLUMNS, STICKER_SIDE, CantStopLayout
from vision.files import write_atomic

FACE_BGR = (112, 108, 104)
SPACE_BGR = (146, 143, 140)
RIM_BGR = (215, 215, 212)
LABEL_BGR = (240, 240, 240)
PAPERS_MM = {"a4": (210.0, 297.0), "a3": (297.0, 420.0)}
"""Paper sizes (width, height) in millimetres, portrait."""
DPI = 300
MARGIN_MM = 10.0


def to_top(layout: CantStopLayout, scale: float) -> np.ndarray:
    """3x3: board ``(x, y, 1)`` in pitches -> top-view pixel at ``scale`` pixels per pitch."""
    x0, y0, _, _ = layout.outline
    return np.array([[scale, 0, -x0 * scale], [0, scale, -y0 * scale], [0, 0, 1]], np.float64)


def top_size(layout: CantStopLayout, scale: float) -> tuple[int, int]:
    """(width, height) of the top view in pixels."""
    w, h = layout.size
    return int(round(w * scale)), int(round(h * scale))


def _pixel(layout: CantStopLayout, scale: float, x: float, y: float) -> tuple[int, int]:
    x0, y0, _, _ = layout.outline
    return int(round((x - x0) * scale)), int(round((y - y0) * scale))


def print_image(layout: CantStopLayout, scale: float, face: tuple[int, int, int] = FACE_BGR) -> np.ndarray:
    """The board's top view, (h, w, 3) uint8 BGR at ``scale`` pixels per pitch (see the module docstring).
    ``face``: the face colour (the renderer varies it for published boards)."""
    w, h = top_size(layout, scale)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = face
    r = max(1, int(round(layout.space_radius * scale)))
    rim = max(1, int(round(scale * 0.05)))
    for column, k, (x, y) in layout.spaces():
        centre = _pixel(layout, scale, x, y)
        cv2.circle(img, centre, r, SPACE_BGR, -1, cv2.LINE_AA)
        cv2.circle(img, centre, r, RIM_BGR, rim, cv2.LINE_AA)
        if k == layout.height(column):
            cv2.circle(img, centre, r + 3 * rim, RIM_BGR, rim, cv2.LINE_AA)
    font_scale = scale / 55.0  # "10 11 12" side by side with room between them
    thickness = max(1, int(round(scale / 18)))
    for column in COLUMNS:
        text = str(column)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, font_scale, thickness)
        cx, cy = _pixel(layout, scale, *layout.label(column))
        cv2.putText(img, text, (cx - tw // 2, cy + th // 2), cv2.FONT_HERSHEY_DUPLEX, font_scale, LABEL_BGR,
                    thickness, cv2.LINE_AA)
    if layout.printed_stickers:
        for marker_id, (x, y) in layout.stickers.items():
            _paste_sticker(img, layout, scale, marker_id, x, y)
    return img


def _paste_sticker(img: np.ndarray, layout: CantStopLayout, scale: float, marker_id: int, x: float, y: float) -> None:
    """Sticker ``marker_id`` (its black square :data:`STICKER_SIDE` pitches, white border half as wide
    again) centred at board point ``(x, y)``, in place."""
    half = STICKER_SIDE * 0.75
    (left, top), (right, bottom) = _pixel(layout, scale, x - half, y - half), _pixel(layout, scale, x + half, y + half)
    sticker = marker_image(marker_id, right - left)
    sticker = cv2.resize(sticker, (right - left, bottom - top), interpolation=cv2.INTER_NEAREST)
    img[top:bottom, left:right] = sticker[..., None]


def paper_image(layout: CantStopLayout, paper: str) -> tuple[np.ndarray, float]:
    """(the page at :data:`DPI`, BGR uint8; the pitch in millimetres) for ``paper`` (``a4`` or ``a3``):
    the board centred, as large as fits within :data:`MARGIN_MM`. Raises ValueError for another paper."""
    if paper not in PAPERS_MM:
        raise ValueError(f"unknown paper {paper!r}: one of {', '.join(PAPERS_MM)}")
    pw, ph = PAPERS_MM[paper]
    bw, bh = layout.size
    pitch_mm = min((pw - 2 * MARGIN_MM) / bw, (ph - 2 * MARGIN_MM) / bh)
    scale = pitch_mm / 25.4 * DPI
    board = print_image(layout, scale)
    page = np.full((int(round(ph / 25.4 * DPI)), int(round(pw / 25.4 * DPI)), 3), 255, np.uint8)
    top, left = (page.shape[0] - board.shape[0]) // 2, (page.shape[1] - board.shape[1]) // 2
    page[top:top + board.shape[0], left:left + board.shape[1]] = board
    return page, pitch_mm


def _png_with_dpi(img: np.ndarray) -> bytes:
    """PNG bytes of ``img`` with a pHYs chunk saying :data:`DPI`, so a printer prints it at its size."""
    ok, data = cv2.imencode(".png", img)
    if not ok:
        raise ValueError("the board could not be encoded as PNG")
    raw = data.tobytes()
    per_metre = int(round(DPI / 0.0254))
    body = b"pHYs" + per_metre.to_bytes(4, "big") * 2 + b"\x01"
    chunk = (9).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    end_of_ihdr = 8 + 8 + 13 + 4  # signature, IHDR's length and type, its 13 bytes, its CRC
    return raw[:end_of_ihdr] + chunk + raw[end_of_ihdr:]


def _pdf(img: np.ndarray, paper: str) -> bytes:
    """A one-page PDF of ``paper`` size holding ``img`` (the whole page) as a JPEG at quality 95."""
    ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95])
    if not ok:
        raise ValueError("the board could not be encoded as JPEG")
    jpeg = jpeg.tobytes()
    pw, ph = (v / 25.4 * 72 for v in PAPERS_MM[paper])
    h, w = img.shape[:2]
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] /Resources << /XObject << /Im0 4 0 R >> >> "
        f"/Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB /BitsPerComponent 8 "
        f"/Filter /DCTDecode /Length {len(jpeg)} >>\nstream\n".encode() + jpeg + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def write_print(path: Path, layout: CantStopLayout, paper: str = "a4") -> float:
    """Write the board ``layout`` for ``paper`` to ``path`` (``.png`` or ``.pdf``, atomically); returns
    the pitch in millimetres (a marker should be at most about 0.6 of it wide). Raises ValueError for
    another suffix or paper, OSError when the file cannot be written."""
    page, pitch_mm = paper_image(layout, paper)
    suffix = Path(path).suffix.lower()
    if suffix == ".png":
        data = _png_with_dpi(page)
    elif suffix == ".pdf":
        data = _pdf(page, paper)  # imencode takes BGR and writes a JPEG of the right colours
    else:
        raise ValueError(f"{path}: the board is written as .png or .pdf, not {suffix or 'no suffix'}")
    write_atomic(path, data)
    return pitch_mm
