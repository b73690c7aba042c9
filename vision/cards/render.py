"""Synthetic table scenes for developing and testing the card readers: cards warped into a camera view
with perspective, uneven light, a colour cast, a shadow, noise, blur and JPEG compression.

All randomness comes from the ``numpy.random.Generator`` passed in, so a seed gives the same scene.
Public API: :func:`render_st_scene` (Schotten Totten: columns of reference-deck cards at nine stones),
:func:`random_st_columns`, :func:`render_number_card` and :func:`render_donkey_scene` (donkey race:
white number cards in player sectors), :func:`degrade`.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.reference_deck import CARD_MM, COLOURS, LETTER, render_card

STONE_PITCH_MM = 75.0   # distance between stone centres
FIRST_GAP_MM = 20.0     # from the stone line to the top edge of a side's first card
OVERLAP_STEP_MM = 28.0  # each further card of a column starts this much further from the line
TABLE_MM = (700.0, 360.0)
TABLE_BGR = (150, 165, 172)


def random_st_columns(rng: np.random.Generator, n_cards: int) -> dict[tuple[int, str], list[tuple[str, int]]]:
    """``n_cards`` distinct reference cards (<= 54) dealt at random to (stone 0-8, side "a"/"b") columns
    of at most 3 cards (schotten-totten.md C.3)."""
    deck = [(c, v) for c in COLOURS for v in range(1, 10)]
    order = rng.permutation(len(deck))[:n_cards]
    columns: dict[tuple[int, str], list[tuple[str, int]]] = {}
    slots = [(s, side) for s in range(9) for side in "ab"]
    for index in order:
        open_slots = [slot for slot in slots if len(columns.get(slot, [])) < 3]
        slot = open_slots[int(rng.integers(len(open_slots)))]
        columns.setdefault(slot, []).append(deck[index])
    return columns


def _table_to_frame(rng: np.random.Generator, size: tuple[int, int], perspective: float) -> np.ndarray:
    w, h = size
    tw, th = TABLE_MM
    scale = min(w * 0.92 / tw, h * 0.92 / th)
    cx, cy = w / 2, h / 2
    dst = np.array([[cx - tw * scale / 2, cy - th * scale / 2], [cx + tw * scale / 2, cy - th * scale / 2],
                    [cx + tw * scale / 2, cy + th * scale / 2], [cx - tw * scale / 2, cy + th * scale / 2]])
    dst += rng.uniform(-perspective, perspective, (4, 2)) * np.array([w, h])
    src = np.array([[0, -th / 2], [tw, -th / 2], [tw, th / 2], [0, th / 2]], np.float32)
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def _background(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    low = rng.normal(0, 6, (6, 10, 1)).repeat(3, axis=2).astype(np.float32)
    low = cv2.resize(low, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(np.array(TABLE_BGR, np.float32) + low + rng.normal(0, 3, (h, w, 3)), 0, 255).astype(np.uint8)


def _paste(frame: np.ndarray, card: np.ndarray, m: np.ndarray) -> None:
    h, w = frame.shape[:2]
    warped = cv2.warpPerspective(card, m, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(card.shape[:2], 255, np.uint8), m, (w, h), flags=cv2.INTER_LINEAR)
    alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
    frame[:] = (frame * (1 - alpha) + warped * alpha).astype(np.uint8)


def degrade(frame: np.ndarray, rng: np.random.Generator, light: bool = True, shadow: bool = True,
            noise: bool = True) -> np.ndarray:
    """Uneven light and a colour cast (light), one soft shadow (shadow), blur, noise and JPEG (noise)."""
    h, w = frame.shape[:2]
    out = frame.astype(np.float32)
    if light:
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy = rng.uniform(-0.25, 0.25, 2)
        gain = 1.0 + gx * (xs / w - 0.5) + gy * (ys / h - 0.5)
        out *= gain[:, :, None] * rng.uniform(0.75, 1.05)
        out *= rng.uniform(0.9, 1.1, 3)[None, None, :]
    if shadow:
        shade = np.zeros((h, w), np.float32)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        pts = np.array([[cx + rng.uniform(-0.35, 0.35) * w, cy + rng.uniform(-0.35, 0.35) * h] for _ in range(5)])
        cv2.fillPoly(shade, [cv2.convexHull(pts.astype(np.int32))], 1.0)
        shade = cv2.GaussianBlur(shade, (0, 0), 0.02 * w)
        out *= (1.0 - rng.uniform(0.25, 0.45) * shade)[:, :, None]
    out = np.clip(out, 0, 255).astype(np.uint8)
    if noise:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.0))
        out = np.clip(out.astype(np.float32) + rng.normal(0, 3.0, out.shape), 0, 255).astype(np.uint8)
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 92))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def render_st_scene(rng: np.random.Generator, columns: dict[tuple[int, str], list[tuple[str, int]]],
                    size: tuple[int, int] = (1280, 720), perspective: float = 0.04, light: bool = True,
                    shadow: bool = True, noise: bool = True, card_px: int = 240, card_image=render_card):
    """A Schotten Totten table seen from above.

    columns: {(stone 0-8, side "a"|"b"): [(colour, value), ...]} in the order played (first nearest the
    stone line); side "a" lies above the stone line in the frame (its cards face the top edge), "b" below.
    Returns (frame BGR uint8 (h, w, 3), truth, stones): truth a list of {"code", "stone", "side"} and
    stones the nine stone centres in frame pixels, left to right. card_image(colour, value, width) draws
    one card (default the reference deck's; vision.cards.render_other.render_other_card another design).
    """
    w, h = size
    frame = _background(rng, size)
    table = _table_to_frame(rng, size, perspective)
    cw = card_px
    s = CARD_MM[0] / cw
    stones = []
    for i in range(9):
        x = 50.0 + STONE_PITCH_MM * i
        p = cv2.perspectiveTransform(np.array([[[x, 0.0]]], np.float32), table)[0, 0]
        stones.append((float(p[0]), float(p[1])))
        r = cv2.perspectiveTransform(np.array([[[x + 11.0, 0.0]]], np.float32), table)[0, 0]
        cv2.circle(frame, (int(p[0]), int(p[1])), int(np.hypot(*(r - p))), (95, 100, 105), -1, cv2.LINE_AA)
    truth = []
    for (stone, side), cards in sorted(columns.items()):
        x = 50.0 + STONE_PITCH_MM * stone
        for k, (colour, value) in enumerate(cards):
            img = card_image(colour, value, cw)
            jitter = rng.normal(0, 1.2, 2)
            angle = np.deg2rad(rng.normal(0, 2.0))
            ca, sa = np.cos(angle), np.sin(angle)
            if side == "b":  # upright, top edge toward the line (y grows away from it)
                a = np.array([[s * ca, -s * sa, 0], [s * sa, s * ca, 0], [0, 0, 1]])
                a[:2, 2] = [x - 31.5 + jitter[0], FIRST_GAP_MM + OVERLAP_STEP_MM * k + jitter[1]]
            else:  # turned by 180 degrees: faces the top edge
                a = np.array([[-s * ca, s * sa, 0], [-s * sa, -s * ca, 0], [0, 0, 1]])
                a[:2, 2] = [x + 31.5 + jitter[0], -FIRST_GAP_MM - OVERLAP_STEP_MM * k + jitter[1]]
            _paste(frame, img, table @ a)
            truth.append({"code": f"{LETTER[colour]}{value}", "stone": stone, "side": side})
    return degrade(frame, rng, light, shadow, noise), truth, stones


def render_number_card(value: int, width: int = 240) -> np.ndarray:
    """A plain white card (63 x 88 proportions) with a thin grey frame and a large black value 0-13 in the
    middle (the donkey race's number cards in our renders); BGR uint8."""
    h = int(round(width * CARD_MM[1] / CARD_MM[0]))
    img = np.full((h, width, 3), 250, np.uint8)
    cv2.rectangle(img, (3, 3), (width - 4, h - 4), (90, 90, 90), max(2, width // 60))
    text = str(value)
    font = cv2.FONT_HERSHEY_SIMPLEX
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 2)
    scale = min(0.6 * width / tw, 0.38 * h / th)
    thick = max(2, int(scale * 1.7))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cv2.putText(img, text, ((width - tw) // 2, (h + th) // 2), font, scale, (20, 20, 20), thick, cv2.LINE_AA)
    small = scale * 0.22
    cv2.putText(img, text, (int(width * 0.08), int(h * 0.12)), font, small, (20, 20, 20), max(1, thick // 4),
                cv2.LINE_AA)
    return img


def render_donkey_scene(rng: np.random.Generator, hands: list[list[int]], size: tuple[int, int] = (960, 960),
                        light: bool = True, shadow: bool = True, noise: bool = True, card_px: int = 110):
    """Cards laid in 2-4 sectors around the frame centre, each facing its player (see
    vision.cards.donkey_race): hands[k] are seat k's values, laid side by side. Returns (frame, truth) with
    truth a list of {"value", "seat"}."""
    w, h = size
    frame = _background(rng, size)
    n = len(hands)
    cw = card_px
    ch = int(round(cw * CARD_MM[1] / CARD_MM[0]))
    truth = []
    for seat, values in enumerate(hands):
        direction = np.deg2rad(90.0 - seat * 360.0 / n)  # image angle of the seat (south = 90 degrees)
        ux, uy = np.cos(direction), np.sin(direction)  # from the centre toward the player
        for k, value in enumerate(values):
            img = render_number_card(value, cw)
            along = (k - (len(values) - 1) / 2) * cw * 1.15
            dist = 0.3 * min(w, h) + rng.normal(0, 4)
            # card axes: "down" (top -> bottom) points toward the player, "right" is 90 degrees clockwise
            rot = np.deg2rad(rng.normal(0, 4))
            dx, dy = ux * np.cos(rot) - uy * np.sin(rot), ux * np.sin(rot) + uy * np.cos(rot)
            rx, ry = dy, -dx
            cx = w / 2 + ux * dist + rx * along
            cy = h / 2 + uy * dist + ry * along
            m = np.array([[rx, dx, cx - rx * cw / 2 - dx * ch / 2],
                          [ry, dy, cy - ry * cw / 2 - dy * ch / 2], [0, 0, 1]])
            _paste(frame, img, m)
            truth.append({"value": value, "seat": seat})
    return degrade(frame, rng, light, shadow, noise), truth
