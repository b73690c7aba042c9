"""Pieces: a player's token (colour + shape + badge) and the neutral runner (white disc, black ring)."""

from __future__ import annotations

import math

import pygame

from companion.display import fonts, text
from companion.screens.palette import INK, RUNNER_FILL, RUNNER_RING, PlayerStyle, Shape


def shape_points(shape: Shape, centre: tuple[float, float], size: float) -> list[tuple[float, float]]:
    """Corner points of a square, triangle or diamond ``size`` pixels across, centred on ``centre``."""
    cx, cy = centre
    r = size / 2
    if shape is Shape.SQUARE:
        s = r * 0.86  # a square looks bigger than a circle of the same width
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape is Shape.TRIANGLE:  # pointing up, centroid on centre
        h = size * math.sqrt(3) / 2
        top, bottom = cy - h * 2 / 3 * 1.05, cy + h / 3 * 1.05
        return [(cx, top), (cx + r * 1.05, bottom), (cx - r * 1.05, bottom)]
    if shape is Shape.DIAMOND:
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    raise ValueError(shape)


def draw_shape(surface: pygame.Surface, shape: Shape, centre: tuple[float, float], radius: float, colour) -> None:
    """A filled ``shape`` ``2 * radius`` pixels across on ``centre``, outlined in ink (chart markers)."""
    if shape is Shape.CIRCLE:
        pygame.draw.circle(surface, colour, centre, radius)
        pygame.draw.circle(surface, INK, centre, radius, 1)
        return
    points = shape_points(shape, centre, radius * 2)
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, INK, points, 1)


def draw_token(
    surface: pygame.Surface,
    centre: tuple[float, float],
    size: float,
    style: PlayerStyle,
    *,
    letter: bool = True,
) -> pygame.Rect:
    """Draw a player's token ``size`` pixels across centred on ``centre``; return its bounding box.

    The shape is filled with the player's colour and outlined in black (outline about size/12 wide);
    the badge (``style.letter``, one or two characters) is written in black bold in the middle when
    ``letter``, shrunk until it fits inside the outline (:func:`badge_fits`); a token too small for its
    badge in the floor size of type (``companion.display.text.surface_floor``, 18 px at 800 x 480) shows
    none: its shape and colour still tell the seat, and the player strip names them.
    """
    size = max(4.0, float(size))
    edge = max(1, round(size / 12))
    cx, cy = centre
    if style.shape is Shape.CIRCLE:
        radius = size / 2
        box = pygame.draw.circle(surface, style.colour, (cx, cy), radius)
        pygame.draw.circle(surface, INK, (cx, cy), radius, edge)
    else:
        points = shape_points(style.shape, centre, size)
        box = pygame.draw.polygon(surface, style.colour, points)
        pygame.draw.polygon(surface, INK, points, edge)
    floor = text.surface_floor(surface)
    if letter and size >= floor and style.letter:
        badge = _badge(style, size, edge, floor)
        if badge is not None:  # None: too small a token for this badge; its shape and colour tell the seat
            image, dy, font_size = badge
            ink = image.get_bounding_rect()  # centre the glyph's ink, not its line box
            at = (round(cx - ink.centerx), round(cy + dy - ink.centery))
            surface.blit(image, at)
            text.log_line(style.letter, font_size, ink.move(at).move(surface.get_abs_offset()))
    return box


def _badge(style: PlayerStyle, size: float, edge: int, floor: int) -> tuple[pygame.Surface, float, int] | None:
    """The badge's image in the largest type (from 0.6 of ``size``, 0.42 in a triangle, down to
    ``floor`` px) that :func:`badge_fits`, its ink's offset below the token's centre and the type's
    size; None when even the floor's type does not fit."""
    font_size = max(floor, round(size * (0.42 if style.shape is Shape.TRIANGLE else 0.6)))
    while True:
        image = fonts.font(font_size, bold=True).render(style.letter, True, INK)
        ink = image.get_bounding_rect().size
        offsets = [0.0]
        if style.shape is Shape.TRIANGLE:  # a little low looks centred; lower still is wider
            offsets = [size * 0.06, _triangle_lowest(size, edge, ink[1])]
        for dy in offsets:
            if badge_fits(style.shape, size, edge, ink, dy):
                return image, dy, font_size
        if font_size <= floor:
            return None
        font_size = max(floor, int(font_size * 0.9))


def _triangle(size: float) -> tuple[float, float, float]:
    """(apex y, base y, half the base) of a triangle token ``size`` pixels across, relative to its
    centre (the shape of :func:`shape_points`)."""
    height = size * math.sqrt(3) / 2
    return -height * 2 / 3 * 1.05, height / 3 * 1.05, size / 2 * 1.05


def _triangle_lowest(size: float, edge: int, ink_h: int) -> float:
    """The lowest offset of an ``ink_h``-pixel-tall badge in a triangle token: just above the base."""
    return _triangle(size)[1] - (edge + BADGE_CLEARANCE) - ink_h / 2


BADGE_CLEARANCE = 0.0
"""Pixels kept between a badge's ink and the inside of the token's outline (beside the rounding)."""


def badge_fits(shape: Shape, size: float, edge: int, ink: tuple[int, int], dy: float = 0.0) -> bool:
    """Whether a badge whose ink is ``ink`` = (w, h) pixels, centred ``dy`` pixels below the token's
    centre, stays inside the ``edge``-pixel outline of a ``shape`` token ``size`` pixels across (the
    shapes of :func:`shape_points`), :data:`BADGE_CLEARANCE` away from it."""
    half_w, half_h = ink[0] / 2, ink[1] / 2
    margin = edge + BADGE_CLEARANCE
    r = size / 2
    if shape is Shape.CIRCLE:
        return math.hypot(half_w, abs(dy) + half_h) <= r - margin
    if shape is Shape.SQUARE:
        inner = r * 0.86 - margin
        return half_w <= inner and abs(dy) + half_h <= inner
    if shape is Shape.DIAMOND:
        return half_w + abs(dy) + half_h <= r - margin * math.sqrt(2)
    apex, base, base_half = _triangle(size)
    slope = base_half / (base - apex)  # half-width gained per pixel down
    return (dy + half_h <= base - margin
            and slope * (dy - half_h - apex) - margin * math.sqrt(1 + slope * slope) >= half_w)


def draw_runner(surface: pygame.Surface, centre: tuple[float, float], size: float) -> pygame.Rect:
    """Draw a neutral runner ``size`` pixels across: a white disc with a thick black ring and black dot.

    It has no letter and is round with two rings, so it differs from every player's token by more than
    colour.
    """
    size = max(4.0, float(size))
    r = size / 2
    box = pygame.draw.circle(surface, RUNNER_FILL, centre, r)
    pygame.draw.circle(surface, RUNNER_RING, centre, r, max(1, round(size / 12)))
    pygame.draw.circle(surface, RUNNER_RING, centre, r * 0.62, max(2, round(size / 7)))
    pygame.draw.circle(surface, RUNNER_RING, centre, max(1.0, r * 0.16))
    return box
