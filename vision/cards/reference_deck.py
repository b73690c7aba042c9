"""Our own printable Schotten Totten reference deck (schotten-totten.md C.2: 54 clan cards, 6 colours x
values 1-9), drawn with OpenCV: PNG sheets and a PDF for A4 paper in ``assets/cards/``.

Design (63 x 88 mm, poker size): the card's colour runs to the cut line (a white card margin would merge
with a neighbour's index box in a column); a white rectangular index box in the top-left corner holding
the value in black and the colour's symbol (the box the reader reads: a white rectangle about 2:1 inside
the colour); a white disc
with the value turned by 180 degrees in the bottom-right corner (for a player holding the cards the other
way up; round, so the reader never mistakes it for the index box); a white oval in the centre with a
large value between two symbols.
Colours were picked far apart in hue for a camera (red, orange, yellow, green, blue, purple) and each has
a black symbol for colour-blind players: red circle, orange triangle, yellow square, green diamond,
blue cross, purple star. Lay each player's cards at a stone in a column that leaves the top quarter of
every earlier card visible (each new card at least 28 mm, a third of a card, further from the stone):
the index boxes are what the reader reads.

``python -m vision.cards.reference_deck --write [--out DIR]`` regenerates ``reference_deck_sheet{1..6}.png``
(3 x 3 cards per A4 sheet, DPMM pixels a millimetre) and ``reference_deck.pdf`` (the sheets as JPEG pages)
in assets/cards/. Public API: :data:`COLOURS`, :data:`COLOUR_BGR`, :func:`render_card`,
:func:`render_sheets`, :func:`write_pdf`, :func:`card_layout`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
LETTER = {"red": "R", "orange": "O", "yellow": "Y", "green": "G", "blue": "B", "purple": "P"}
COLOUR_BGR = {  # printed body colours, BGR 0-255
    "red": (45, 38, 215), "orange": (25, 135, 245), "yellow": (30, 210, 250),
    "green": (75, 155, 35), "blue": (205, 100, 30), "purple": (165, 55, 135),
}
SYMBOL = {"red": "circle", "orange": "triangle", "yellow": "square", "green": "diamond", "blue": "cross",
          "purple": "star"}
CARD_MM = (63.0, 88.0)
DPMM = 8  # pixels per millimetre of the PNG sheets (203 dpi)
MARGIN_MM = 0.0  # the colour runs to the cut line: a neighbour never touches an index box with white
SHEET_MM = (210.0, 297.0)  # A4
ASSET_DIR = Path(__file__).resolve().parents[2] / "assets" / "cards"


def card_layout(width: int) -> dict:
    """Boxes of a card ``width`` px wide (height = width * 88/63) as (x0, y0, x1, y1) pixel tuples:
    ``body`` (coloured), ``index`` (top-left white box), ``digit`` (the value inside it), ``symbol``,
    ``round`` (the bottom-right disc's box), ``centre`` (the oval's bounding box). The reader uses the same
    fractions."""
    h = int(round(width * CARD_MM[1] / CARD_MM[0]))
    m = int(round(width * MARGIN_MM / CARD_MM[0]))
    f = lambda fx0, fy0, fx1, fy1: (int(fx0 * width), int(fy0 * h), int(fx1 * width), int(fy1 * h))
    return {"size": (width, h), "margin": m, "body": (m, m, width - m, h - m),
            "index": f(0.10, 0.075, 0.64, 0.27), "digit": f(0.12, 0.085, 0.36, 0.26),
            "symbol": f(0.40, 0.12, 0.60, 0.225), "round": f(0.62, 0.76, 0.88, 0.945),
            "centre": f(0.24, 0.34, 0.76, 0.66)}


def _symbol(img: np.ndarray, kind: str, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, min(x1 - x0, y1 - y0) / 2
    black = (0, 0, 0)
    if kind == "circle":
        cv2.circle(img, (int(cx), int(cy)), int(r), black, -1, cv2.LINE_AA)
        return
    if kind == "square":
        s = r * 0.85
        pts = [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    elif kind == "triangle":
        pts = [(cx, cy - r), (cx + r * 0.95, cy + r * 0.8), (cx - r * 0.95, cy + r * 0.8)]
    elif kind == "diamond":
        pts = [(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)]
    elif kind == "cross":
        t = r * 0.33
        pts = [(cx - t, cy - r), (cx + t, cy - r), (cx + t, cy - t), (cx + r, cy - t), (cx + r, cy + t),
               (cx + t, cy + t), (cx + t, cy + r), (cx - t, cy + r), (cx - t, cy + t), (cx - r, cy + t),
               (cx - r, cy - t), (cx - t, cy - t)]
    else:  # star
        pts = []
        for k in range(10):
            a = -np.pi / 2 + k * np.pi / 5
            rr = r if k % 2 == 0 else r * 0.45
            pts.append((cx + rr * np.cos(a), cy + rr * np.sin(a)))
    cv2.fillPoly(img, [np.array(pts, np.float64).round().astype(np.int32)], black, cv2.LINE_AA)


def _text_in(img: np.ndarray, text: str, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize("8", font, 1.0, 2)
    scale = min((x1 - x0) / tw, (y1 - y0) / th) * 0.95
    thickness = max(2, int(round(scale * 2)))
    (tw, th), _ = cv2.getTextSize("8", font, scale, thickness)
    scale *= min((x1 - x0) / tw, (y1 - y0) / th)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thickness)
    org = (int((x0 + x1 - tw) / 2), int((y0 + y1 + th) / 2))
    cv2.putText(img, text, org, font, scale, (0, 0, 0), thickness, cv2.LINE_AA)


def render_card(colour: str, value: int, width: int = int(CARD_MM[0] * DPMM)) -> np.ndarray:
    """One card as a BGR uint8 image (width x width*88/63). Raises ValueError for an unknown colour or a
    value outside 1-9."""
    if colour not in COLOUR_BGR or not 1 <= value <= 9:
        raise ValueError(f"no reference card {colour!r} {value!r}")
    lay = card_layout(width)
    w, h = lay["size"]
    img = np.full((h, w, 3), 255, np.uint8)
    x0, y0, x1, y1 = lay["body"]
    r = max(2, width // 16)
    cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), COLOUR_BGR[colour], -1)
    cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), COLOUR_BGR[colour], -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(img, (cx, cy), r, COLOUR_BGR[colour], -1, cv2.LINE_AA)
    ix0, iy0, ix1, iy1 = lay["index"]
    index = np.full((iy1 - iy0, ix1 - ix0, 3), 255, np.uint8)
    dx0, dy0, dx1, dy1 = lay["digit"]
    _text_in(index, str(value), (dx0 - ix0, dy0 - iy0, dx1 - ix0, dy1 - iy0))
    sx0, sy0, sx1, sy1 = lay["symbol"]
    _symbol(index, SYMBOL[colour], (sx0 - ix0, sy0 - iy0, sx1 - ix0, sy1 - iy0))
    img[iy0:iy1, ix0:ix1] = index
    rx0, ry0, rx1, ry1 = lay["round"]  # bottom-right: a round index, the value turned by 180 degrees
    side = min(rx1 - rx0, ry1 - ry0)
    disc = np.zeros((side, side, 3), np.uint8)
    disc[:] = COLOUR_BGR[colour]
    cv2.circle(disc, (side // 2, side // 2), side // 2 - 1, (255, 255, 255), -1, cv2.LINE_AA)
    _text_in(disc, str(value), (side // 4, side // 5, side - side // 4, side - side // 5))
    img[ry0:ry0 + side, rx0:rx0 + side] = cv2.rotate(disc, cv2.ROTATE_180)
    cx0, cy0, cx1, cy1 = lay["centre"]
    cv2.ellipse(img, (((cx0 + cx1) / 2, (cy0 + cy1) / 2), (cx1 - cx0, cy1 - cy0), 0.0), (255, 255, 255), -1,
                cv2.LINE_AA)
    _text_in(img, str(value), (cx0 + (cx1 - cx0) // 4, cy0 + (cy1 - cy0) // 6, cx1 - (cx1 - cx0) // 4,
                               cy1 - (cy1 - cy0) // 6))
    sym = (cx1 - cx0) // 9
    for sx in (cx0 + (cx1 - cx0) // 8, cx1 - (cx1 - cx0) // 8 - sym):
        _symbol(img, SYMBOL[colour], (sx, (cy0 + cy1) // 2 - sym // 2, sx + sym, (cy0 + cy1) // 2 + sym // 2))
    return img


def deck() -> list[tuple[str, int]]:
    """The 54 cards (colour, value) in sheet order: colour by colour, values 1-9."""
    return [(c, v) for c in COLOURS for v in range(1, 10)]


def render_sheets(dpmm: int = DPMM) -> list[np.ndarray]:
    """Six A4 sheets (BGR uint8, 210 x 297 mm at ``dpmm``), 3 x 3 cards each, with grey cutting marks."""
    sw, sh = int(SHEET_MM[0] * dpmm), int(SHEET_MM[1] * dpmm)
    cw, ch = int(CARD_MM[0] * dpmm), int(CARD_MM[1] * dpmm)
    ox, oy = (sw - 3 * cw) // 2, (sh - 3 * ch) // 2
    cards = deck()
    sheets = []
    for s in range(6):
        sheet = np.full((sh, sw, 3), 255, np.uint8)
        for k, (colour, value) in enumerate(cards[9 * s:9 * s + 9]):
            x, y = ox + (k % 3) * cw, oy + (k // 3) * ch
            sheet[y:y + ch, x:x + cw] = render_card(colour, value, cw)
            cv2.rectangle(sheet, (x, y), (x + cw - 1, y + ch - 1), (200, 200, 200), 1)
        cv2.putText(sheet, f"Schotten Totten reference deck (tabletop companion) - sheet {s + 1}/6 - print at 100%",
                    (ox, sh - oy // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.35 * dpmm / 8 * 2, (120, 120, 120), 1,
                    cv2.LINE_AA)
        sheets.append(sheet)
    return sheets


def write_pdf(pages: list[np.ndarray], path: Path, page_mm: tuple[float, float] = SHEET_MM,
              quality: int = 90) -> Path:
    """Write a PDF with one full-page JPEG image (DCTDecode) per BGR page image; returns the path."""
    pw, ph = page_mm[0] / 25.4 * 72, page_mm[1] / 25.4 * 72
    objects: list[bytes] = []
    kids = []
    for i, page in enumerate(pages):
        ok, jpeg = cv2.imencode(".jpg", page, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise ValueError("could not encode a page as JPEG")
        jpeg = jpeg.tobytes()
        img_id, content_id, page_id = 3 + 3 * i, 4 + 3 * i, 5 + 3 * i
        h, w = page.shape[:2]
        objects.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
                       b"/BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n" % (w, h, len(jpeg))
                       + jpeg + b"\nendstream")
        content = b"q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q" % (pw, ph)
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject "
                       b"<< /Im0 %d 0 R >> >> /Contents %d 0 R >>" % (pw, ph, img_id, content_id))
        kids.append(b"%d 0 R" % page_id)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % len(pages)] + objects
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path = Path(path)
    path.write_bytes(bytes(out))
    return path


def write_assets(out: Path = ASSET_DIR) -> list[Path]:
    """Write the six PNG sheets and the PDF into ``out``; returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    sheets = render_sheets()
    paths = []
    for i, sheet in enumerate(sheets, start=1):
        path = out / f"reference_deck_sheet{i}.png"
        cv2.imwrite(str(path), sheet, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        paths.append(path)
    paths.append(write_pdf(sheets, out / "reference_deck.pdf"))
    return paths


def sheet_card(sheet: np.ndarray, k: int, dpmm: int = DPMM) -> np.ndarray:
    """Cut card ``k`` (0-8, row by row) out of a sheet image rendered at ``dpmm``."""
    sh, sw = sheet.shape[:2]
    cw, ch = int(CARD_MM[0] * dpmm), int(CARD_MM[1] * dpmm)
    ox, oy = (sw - 3 * cw) // 2, (sh - 3 * ch) // 2
    x, y = ox + (k % 3) * cw, oy + (k // 3) * ch
    return sheet[y:y + ch, x:x + cw].copy()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the PNG sheets and the PDF")
    parser.add_argument("--out", type=Path, default=ASSET_DIR)
    args = parser.parse_args(argv)
    if not args.write:
        parser.print_help()
        return 0
    for path in write_assets(args.out):
        print(path, path.stat().st_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
