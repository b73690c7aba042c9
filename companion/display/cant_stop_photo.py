"""The photo of the roll with each die's box and value drawn on it, or dice drawn as faces when no photo."""

from __future__ import annotations

import cv2
import numpy as np
import pygame

from companion.display import fonts, text
from companion.screens import palette
from companion.screens.cant_stop import DieView


def fit_rect(source: tuple[int, int], area: pygame.Rect) -> pygame.Rect:
    """The largest rectangle with the aspect ratio of ``source`` (w, h) centred inside ``area``."""
    sw, sh = max(1, source[0]), max(1, source[1])
    scale = min(area.width / sw, area.height / sh)
    rect = pygame.Rect(0, 0, max(1, int(sw * scale)), max(1, int(sh * scale)))
    rect.center = area.center
    return rect


def frame_to_surface(frame_bgr: np.ndarray, size: tuple[int, int]) -> pygame.Surface:
    """A BGR (or grey) ``uint8`` frame resized to ``size`` (w, h) as an RGB pygame surface."""
    frame = np.asarray(frame_bgr)
    if frame.dtype != np.uint8:
        frame = np.clip(frame, 0, 255).astype(np.uint8)
    w, h = max(1, size[0]), max(1, size[1])
    small = cv2.resize(frame, (w, h), interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        rgb = cv2.cvtColor(small, cv2.COLOR_GRAY2RGB)
    elif small.shape[2] == 4:
        rgb = cv2.cvtColor(small, cv2.COLOR_BGRA2RGB)
    else:
        rgb = cv2.cvtColor(small, cv2.COLOR_BGR2RGB)
    return pygame.image.frombuffer(np.ascontiguousarray(rgb).tobytes(), (w, h), "RGB")


def die_label(die: DieView) -> str:
    """What is written beside a die: its value, "5?" when flagged, "?" when the value is not known, "+"
    on the empty place where the next die entered by hand goes."""
    if die.slot:
        return "+"
    if die.value < 1:
        return "?"
    return f"{die.value}?" if die.flagged else str(die.value)


def crop_for_dice(
    frame_size: tuple[int, int], boxes: list[tuple[int, int, int, int]], aspect: float, max_zoom: float = 2.0
) -> tuple[int, int, int, int]:
    """The part of a ``frame_size`` (w, h) photo to show: around the dice, at most ``max_zoom`` times closer.

    The region holds every box with a margin of an eighth of the dice's spread plus one die, is at least
    1/``max_zoom`` of the frame in each direction (so the table around the dice stays visible), and has
    the ``aspect`` (w/h) of the place it is drawn in where the frame allows. Without boxes: the whole frame.
    """
    fw, fh = frame_size
    if not boxes or fw < 2 or fh < 2:
        return (0, 0, fw, fh)
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y1 = max(b[3] for b in boxes)
    die = sorted(max(b[2] - b[0], b[3] - b[1]) for b in boxes)[len(boxes) // 2]
    margin = max(x1 - x0, y1 - y0) / 8 + die
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    need_w = max(x1 - x0 + 2 * margin, fw / max_zoom)
    need_h = max(y1 - y0 + 2 * margin, fh / max_zoom)
    rw, rh = need_w, need_h
    if aspect > 0:  # widen or heighten to the target's shape, never shrink below what the dice need
        rw, rh = max(need_w, need_h * aspect), max(need_h, need_w / aspect)
    rw, rh = min(rw, fw), min(rh, fh)
    left = min(max(0.0, cx - rw / 2), fw - rw)
    top = min(max(0.0, cy - rh / 2), fh - rh)
    return (round(left), round(top), round(left + rw), round(top + rh))


def draw_photo(
    surface: pygame.Surface,
    area: pygame.Rect,
    frame_bgr: np.ndarray,
    dice: tuple[DieView, ...],
    label_size: int,
) -> pygame.Rect:
    """Draw the photo in ``area`` with every die that has a box; return the photo's rectangle on screen.

    The photo is cut around the dice (:func:`crop_for_dice`, at most 2x closer) and scaled to fit. Each
    die's box is outlined (white, solid; flagged or unknown: yellow and dashed) and its value is written
    in a tag beside it, ``label_size`` px bold, placed where it covers no other die or tag. The selected
    die gets a thick white-and-black outline and a larger, black-framed tag.
    """
    fh, fw = frame_bgr.shape[:2]
    boxes = [d.box for d in dice if d.box is not None]
    cx0, cy0, cx1, cy1 = crop_for_dice((fw, fh), boxes, area.width / max(1, area.height))
    rect = fit_rect((cx1 - cx0, cy1 - cy0), area)
    surface.blit(frame_to_surface(frame_bgr[cy0:cy1, cx0:cx1], rect.size), rect)
    scale = rect.width / max(1, cx1 - cx0)
    old_clip = surface.get_clip()
    surface.set_clip(rect.clip(old_clip))
    placed = []
    for die in dice:
        if die.box is None:
            continue
        x0, y0, x1, y1 = die.box
        box = pygame.Rect(rect.x + round((x0 - cx0) * scale), rect.y + round((y0 - cy0) * scale),
                          max(2, round((x1 - x0) * scale)), max(2, round((y1 - y0) * scale)))
        placed.append((die, box))
    for die, box in placed:
        _draw_die_box(surface, box, die, label_size)
    tags: list[pygame.Rect] = []
    obstacles = [box for _d, box in placed]
    for die, box in sorted(placed, key=lambda p: not p[0].selected):  # the selected die picks first
        tags.append(_draw_die_tag(surface, box, rect, die, label_size, obstacles + tags))
    surface.set_clip(old_clip)
    return rect


CARET_SHARE = 0.22
"""The share of the dice row's height kept under the dice for the selected die's caret."""


def draw_dice_faces(surface: pygame.Surface, area: pygame.Rect, dice: tuple[DieView, ...]) -> pygame.Rect:
    """Draw ``dice`` as a row of white squares with their values (for dice without a photo box).

    Flagged dice get a dashed yellow frame and a "?"; the selected die a thick white frame and a white
    caret under it (:data:`CARET_SHARE` of the row's height).
    """
    if not dice:
        return pygame.Rect(area.x, area.y, 0, 0)
    gap = max(2, area.height // 8)
    marked = any(die.selected for die in dice)
    tall = int(area.height * (1 - CARET_SHARE)) if marked else area.height
    side = min(tall, (area.width - gap * (len(dice) - 1)) // len(dice))
    caret = round(side * CARET_SHARE / (1 - CARET_SHARE)) if marked else 0
    x = area.x
    used = pygame.Rect(area.x, area.y, 0, 0)
    for die in dice:
        face = pygame.Rect(x, area.y + (area.height - side - caret) // 2, side, side)
        if die.selected:  # a caret under the die: white frames alone vanish beside white dice
            tip, base = face.bottom + caret // 3, face.bottom + caret
            pygame.draw.polygon(surface, palette.HIGHLIGHT, [(face.centerx, tip), (face.centerx - caret, base),
                                                             (face.centerx + caret, base)])
            used = used.union(pygame.Rect(face.centerx - caret, face.bottom, 2 * caret, caret))
        inner = face.inflate(-max(4, side // 6), -max(4, side // 6))
        pygame.draw.rect(surface, palette.SLOT if die.slot else palette.DIE_OK, inner, border_radius=max(2, side // 8))
        size = max(text.surface_floor(surface), int(inner.height * 0.6))
        ink = palette.FOREGROUND if die.slot else palette.INK
        image = fonts.font(size, bold=True).render(die_label(die), True, ink)
        surface.blit(image, image.get_rect(center=inner.center))
        text.log_line(die_label(die), size, image.get_rect(center=inner.center).move(surface.get_abs_offset()),
                      cut=image.get_width() > face.width)
        _draw_die_box(surface, face, die, side // 3)
        used = used.union(face)
        x += side + gap
    return used


def _outlined(box: pygame.Rect, die: DieView, label_size: int) -> pygame.Rect:
    """``box`` grown by what :func:`_draw_die_box` draws outside it: the outline, wider when selected."""
    width = max(2, label_size // 8)
    reach = 3 * width if die.selected else width
    return box.inflate(2 * reach, 2 * reach)


def _draw_die_box(surface: pygame.Surface, box: pygame.Rect, die: DieView, label_size: int) -> None:
    width = max(2, label_size // 8)
    if die.selected:
        outer = box.inflate(width * 4, width * 4)
        pygame.draw.rect(surface, palette.INK, outer.inflate(width * 2, width * 2), width * 4)
        pygame.draw.rect(surface, palette.HIGHLIGHT, outer, width * 2)
    if die.flagged or die.value < 1:
        pygame.draw.rect(surface, palette.INK, box.inflate(width * 2, width * 2), width)
        _dashed_rect(surface, box, palette.DIE_FLAGGED, width, dash=max(4, width * 3))
    else:
        pygame.draw.rect(surface, palette.INK, box.inflate(width * 2, width * 2), width)
        pygame.draw.rect(surface, palette.DIE_OK, box, width)


def _draw_die_tag(
    surface: pygame.Surface,
    box: pygame.Rect,
    photo: pygame.Rect,
    die: DieView,
    label_size: int,
    avoid: list[pygame.Rect],
) -> pygame.Rect:
    size = round(label_size * (1.25 if die.selected else 1.0))
    font = fonts.font(size, bold=True)
    image = font.render(die_label(die), True, palette.INK)
    ink = image.get_bounding_rect()
    pad = max(2, size // 5)
    border = max(1, size // (6 if die.selected else 14))
    tag = pygame.Rect(0, 0, ink.width + 2 * (pad + border), ink.height + 2 * (pad + border))
    # measured from the die's drawn outline, so that the tag never touches it
    tag = _place_tag(tag, _outlined(box, die, label_size), photo, [r for r in avoid if r != box], gap=max(2, size // 6))
    fill = palette.DIE_FLAGGED if (die.flagged or die.value < 1) else palette.DIE_OK
    radius = max(2, tag.height // 4)
    pygame.draw.rect(surface, palette.INK, tag, border_radius=radius)
    pygame.draw.rect(surface, fill, tag.inflate(-2 * border, -2 * border), border_radius=max(1, radius - border))
    at = (tag.centerx - ink.centerx, tag.centery - ink.centery)
    surface.blit(image, at)
    text.log_line(die_label(die), size, ink.move(at).move(surface.get_abs_offset()))
    return tag


def _place_tag(
    tag: pygame.Rect, box: pygame.Rect, photo: pygame.Rect, avoid: list[pygame.Rect], gap: int
) -> pygame.Rect:
    """Right of the box, else left, above, below, then on its four corners: the first spot inside the photo
    that covers none of ``avoid`` (the other dice's boxes, tags already placed); else the spot that covers
    least."""
    candidates = []
    for side in ("right", "left", "top", "bottom", "topright", "topleft", "bottomright", "bottomleft"):
        t = tag.copy()
        if side == "right":
            t.midleft = (box.right + gap, box.centery)
        elif side == "left":
            t.midright = (box.left - gap, box.centery)
        elif side == "top":
            t.midbottom = (box.centerx, box.top - gap)
        elif side == "bottom":
            t.midtop = (box.centerx, box.bottom + gap)
        else:  # on a corner, overlapping it by a third of the tag so that it is seen to belong to this die
            dx, dy = t.width // 3, t.height // 3
            if side.startswith("top"):
                t.bottom = box.top + dy
            else:
                t.top = box.bottom - dy
            if side.endswith("right"):
                t.left = box.right - dx
            else:
                t.right = box.left + dx
        inside = photo.contains(t)
        t = t.clamp(photo)
        covered = sum(t.clip(r).width * t.clip(r).height for r in avoid)
        if inside and covered == 0:
            return t
        candidates.append((covered + (0 if inside else t.width * t.height), t))
    return min(candidates, key=lambda c: c[0])[1]


def _dashed_rect(surface: pygame.Surface, rect: pygame.Rect, colour: palette.RGB, width: int, dash: int) -> None:
    corners = [rect.topleft, rect.topright, rect.bottomright, rect.bottomleft]
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        length = max(abs(bx - ax), abs(by - ay))
        for start in range(0, length, dash * 2):
            end = min(length, start + dash)
            t0, t1 = start / max(1, length), end / max(1, length)
            pygame.draw.line(surface, colour, (ax + (bx - ax) * t0, ay + (by - ay) * t0),
                             (ax + (bx - ax) * t1, ay + (by - ay) * t1), width)
