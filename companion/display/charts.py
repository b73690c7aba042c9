"""Charts drawn with Pygame: a line chart (a game's course) and a bar chart (dice faces, wins), for the
after-game summary, the menu's statistics and the PNG files of ``companion stats --plots``.

Each seat's line is drawn in its palette colour with its shape at every point, so that colour is never
the only cue (``companion.screens.palette``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from companion.display import text
from companion.display.text import draw_text
from companion.display.tokens import draw_shape
from companion.i18n import decimal, number
from companion.screens import palette


def tick_text(value: float) -> str:
    """An axis value as players read it: whole numbers without a point, others with one decimal."""
    return number(int(round(value))) if abs(value - round(value)) < 0.05 else decimal(value)


def whole_ticks(top: float, most: int = 6) -> tuple[int, ...]:
    """The value axis' ticks for counts (columns, stones, pawns, spaces, dice, wins): whole numbers from 0,
    a step of 1, 2, 5, 10, 20, 50... so that there are at most ``most`` (>= 2) ticks; the last tick, the
    axis' top, is ``top`` (>= 0) rounded up to a step (at least 1). E.g. 3.9 -> (0, 1, 2, 3, 4); 5 -> (0,
    1, 2, 3, 4, 5); 11 -> (0, 5, 10, 15); 20 -> (0, 5, 10, 15, 20)."""
    top = max(1, math.ceil(top - 1e-9))
    scale = 1
    while True:
        for base in (1, 2, 5):
            step = base * scale
            if math.ceil(top / step) + 1 <= max(2, most):
                return tuple(step * k for k in range(math.ceil(top / step) + 1))
        scale *= 10


def label_size(surface: pygame.Surface) -> int:
    """The type size of the charts' labels: the floor (``companion.display.text.surface_floor``)."""
    return text.surface_floor(surface)


def label_height(surface: pygame.Surface, unit: int) -> int:
    """The height of a label's line: a line of :func:`label_size` type."""
    return text.line_height(label_size(surface))


def _axes(surface: pygame.Surface, rect: pygame.Rect, x_label: str, y_label: str, high: float,
          unit: int) -> pygame.Rect:
    """Draw the axes and their labels inside ``rect``; return the plot area."""
    label_h = label_height(surface, unit)
    area = pygame.Rect(rect.x + unit * 2, rect.y + label_h * 2, rect.width - unit * 2 - unit // 2,
                       rect.height - label_h * 4 - 6)
    size = label_size(surface)
    draw_text(surface, y_label, pygame.Rect(rect.x, rect.y, rect.width, label_h), size, palette.MUTED)
    draw_text(surface, x_label, pygame.Rect(area.x, area.bottom + label_h + 4, area.width, label_h), size,
              palette.MUTED, align="center")
    pygame.draw.line(surface, palette.SLOT_EDGE, area.bottomleft, area.bottomright, 2)
    pygame.draw.line(surface, palette.SLOT_EDGE, area.bottomleft, area.topleft, 2)
    for value in whole_ticks(high):  # whole numbers: counts are never labelled "1.9 columns"
        y = area.bottom - int(area.height * value / high) if high else area.bottom
        draw_text(surface, tick_text(value), pygame.Rect(rect.x, y - label_h // 2, unit * 2 - 6, label_h), size,
                  palette.MUTED, align="right")
        if value:
            pygame.draw.line(surface, palette.SLOT, (area.x + 2, y), (area.right, y), 1)
    return area


def draw_line_chart(surface: pygame.Surface, rect: pygame.Rect, series: Sequence[Sequence[float]],
                    names: Sequence[str], x_label: str, y_label: str, high: float | None = None,
                    colours: Sequence[tuple[int, int, int]] = ()) -> None:
    """One line a seat (``series[seat][k]``: the value after step ``k``) inside ``rect``, with a legend
    of ``names``; the value axis runs from 0 to ``high`` (default: the largest value, at least 1), rounded
    up to a whole tick (:func:`whole_ticks`: counts are never labelled with fractions). ``colours``: each
    line's colour (the players' own, Ludo's pawns), else the palette's; each seat keeps its shape."""
    unit = max(10, rect.height // 12)
    top = whole_ticks(max([high or 0.0] + [v for s in series for v in s] + [1.0]))[-1]
    legend_h = max(unit, text.line_height(text.surface_floor(surface)) + 2)
    area = _axes(surface, pygame.Rect(rect.x, rect.y, rect.width, rect.height - legend_h), x_label, y_label, top,
                 unit)
    steps = max((len(s) for s in series), default=0)
    label_h = label_height(surface, unit)
    draw_text(surface, str(steps), pygame.Rect(area.right - unit * 2, area.bottom + 2, unit * 2, label_h),
              label_size(surface), palette.MUTED, align="right")
    radius = max(3, unit // 4)
    def colour_of(seat: int) -> tuple[int, int, int]:
        return colours[seat] if seat < len(colours) else palette.PLAYER_COLOURS[seat % len(palette.PLAYER_COLOURS)]

    for seat, values in enumerate(series):
        colour = colour_of(seat)
        points = [(area.x + (area.width * (k + 1)) // max(1, steps), area.bottom - int(area.height * v / top))
                  for k, v in enumerate(values)]
        if len(points) > 1:
            pygame.draw.lines(surface, colour, False, points, max(2, unit // 6))
        every = max(1, len(points) // 12)
        for k, point in enumerate(points):
            if k % every == 0 or k == len(points) - 1:
                draw_shape(surface, palette.PLAYER_SHAPES[seat % 4], point, radius, colour)
    x = rect.x + unit * 2
    for seat, name in enumerate(names):
        colour = colour_of(seat)
        y = rect.bottom - legend_h // 2
        draw_shape(surface, palette.PLAYER_SHAPES[seat % 4], (x + radius, y), radius, colour)
        width = (rect.width - unit * 2) // max(1, len(names))
        draw_text(surface, name, pygame.Rect(x + radius * 3, rect.bottom - legend_h, width - radius * 4, legend_h),
                  label_size(surface), palette.FOREGROUND)
        x += width


def draw_bar_chart(surface: pygame.Surface, rect: pygame.Rect, values: Sequence[float], labels: Sequence[str],
                   y_label: str, reference: float | None = None) -> None:
    """One bar per value inside ``rect``, labelled below; ``reference``: a dashed level across (e.g. the
    count a fair die would give each face)."""
    unit = max(10, rect.height // 12)
    top = whole_ticks(max(list(values) + [reference or 0.0, 1.0]))[-1]
    area = _axes(surface, rect, "", y_label, top, unit)
    n = max(1, len(values))
    slot = area.width // n
    for i, (value, label) in enumerate(zip(values, labels)):
        height = int(area.height * value / top)
        bar = pygame.Rect(area.x + i * slot + slot // 6, area.bottom - height, max(2, slot * 2 // 3), height)
        pygame.draw.rect(surface, palette.SKY_BLUE, bar)
        label_h = label_height(surface, unit)
        draw_text(surface, label, pygame.Rect(area.x + i * slot, area.bottom + 2, slot, label_h),
                  label_size(surface), palette.FOREGROUND, align="center")
        draw_text(surface, tick_text(value), pygame.Rect(area.x + i * slot, bar.y - label_h, slot, label_h),
                  label_size(surface), palette.MUTED, align="center")
    if reference:
        y = area.bottom - int(area.height * reference / top)
        for x in range(area.x, area.right, 12):
            pygame.draw.line(surface, palette.FOREGROUND, (x, y), (min(x + 6, area.right), y), 2)
