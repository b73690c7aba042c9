"""Pieces: a player's token (colour + shape + initial) and the neutral runner (white disc, black ring)."""

from __future__ import annotations

import math

import pygame

from companion.display import fonts
from companion.display.palette import INK, RUNNER_FILL, RUNNER_RING, PlayerStyle, Shape


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
    the initial is written in black bold in the middle when ``letter`` and the token is at least 12 px.
    """
    size = max(4.0, float(size))
    edge = max(1, round(size / 12))
    cx, cy = centre
    if style.shape is Shape.CIRCLE:
        radius = size / 2
        box = pygame.draw.circle(surface, style.colour, (cx, cy), radius)
        pygame.draw.circle(surface, INK, (cx, cy), radius, edge)
        text_y = cy
    else:
        points = shape_points(style.shape, centre, size)
        box = pygame.draw.polygon(surface, style.colour, points)
        pygame.draw.polygon(surface, INK, points, edge)
        text_y = cy + (size * 0.06 if style.shape is Shape.TRIANGLE else 0)
    if letter and size >= 12 and style.letter:
        scale = 0.42 if style.shape is Shape.TRIANGLE else 0.6
        font = fonts.font(max(fonts.MIN_SIZE, round(size * scale)), bold=True)
        image = font.render(style.letter[:1], True, INK)
        ink = image.get_bounding_rect()  # centre the glyph's ink, not its line box
        surface.blit(image, (cx - ink.centerx, text_y - ink.centery))
    return box


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
