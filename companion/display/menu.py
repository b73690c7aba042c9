"""Drawing a :class:`companion.screens.menu.MenuView` full screen (any size; 800x480 is the reference).

Layout, top to bottom: the title bar, the plain-text lines (scoreboard, names chosen so far), the
items (the highlighted one inverted, greyed ones in the muted colour; a window of items around the
highlight when they do not all fit, with a triangle in the right margin where more lie above or below), the message, and the button help line at the bottom.
"""

from __future__ import annotations

import pygame

from companion.display.charts import draw_bar_chart
from companion.display.text import draw_text
from companion.screens import palette
from companion.screens.menu import MenuView


def visible_window(count: int, selected: int, rows: int) -> range:
    """The item indices shown when only ``rows`` (>= 1) of ``count`` fit, keeping ``selected`` in view
    (it sits in the middle where it can)."""
    if count <= rows:
        return range(count)
    start = min(max(0, selected - rows // 2), count - rows)
    return range(start, start + rows)


def draw(surface: pygame.Surface, view: MenuView) -> None:
    """Draw ``view`` over the whole of ``surface``."""
    width, height = surface.get_size()
    unit = max(8, height // 12)  # one row; 40 px at 480 px high
    margin = max(4, width // 40)
    surface.fill(palette.BACKGROUND)
    pygame.draw.rect(surface, palette.PANEL, pygame.Rect(0, 0, width, unit + unit // 2))
    draw_text(surface, view.title, pygame.Rect(margin, 0, width - 2 * margin, unit + unit // 2), unit,
              palette.FOREGROUND, bold=True)
    y = unit * 2
    line_height = unit * 3 // 4
    bottom = height - unit * 2
    for line in view.lines[: max(0, (bottom - y) // line_height - 2)]:
        draw_text(surface, line, pygame.Rect(margin, y, width - 2 * margin, line_height), line_height * 4 // 5,
                  palette.MUTED)
        y += line_height
    if view.lines:
        y += unit // 4
    if view.chart is not None:
        chart_h = max(unit * 2, bottom - y - unit)
        chart = view.chart
        draw_bar_chart(surface, pygame.Rect(margin, y, width - 2 * margin, chart_h), chart.values, chart.labels,
                       chart.what, chart.reference)
        y += chart_h
    rows = max(1, (bottom - y) // unit)
    shown = visible_window(len(view.items), view.selected, rows)
    _scroll_marks(surface, pygame.Rect(width - margin, y, margin, rows * unit), shown.start > 0,
                  shown.stop < len(view.items))
    for index in shown:
        item = view.items[index]
        rect = pygame.Rect(margin, y, width - 2 * margin, unit - 4)
        if index == view.selected:
            pygame.draw.rect(surface, palette.HIGHLIGHT, rect, border_radius=6)
            colour = palette.HIGHLIGHT_TEXT if item.enabled else palette.MUTED
        else:
            colour = palette.FOREGROUND if item.enabled else palette.MUTED
        draw_text(surface, item.label, rect.inflate(-2 * margin, 0), unit * 3 // 4, colour,
                  bold=index == view.selected, min_size=max(12, unit * 3 // 8))  # long saved-game lines shrink
        y += unit
    if view.message:
        draw_text(surface, view.message, pygame.Rect(margin, height - unit * 2, width - 2 * margin, unit),
                  unit * 2 // 3, palette.FOREGROUND, bold=True)
    pygame.draw.rect(surface, palette.PANEL, pygame.Rect(0, height - unit, width, unit))
    draw_text(surface, view.help, pygame.Rect(margin, height - unit, width - 2 * margin, unit), unit // 2,
              palette.MUTED)


def _scroll_marks(surface: pygame.Surface, column: pygame.Rect, above: bool, below: bool) -> None:
    """Triangles in the right margin ``column`` saying that more items lie above or below the window."""
    half = max(3, column.width // 3)
    x = column.centerx
    if above:
        top = column.top + half
        pygame.draw.polygon(surface, palette.FOREGROUND, [(x - half, top + half), (x + half, top + half), (x, top)])
    if below:
        low = column.bottom - half
        pygame.draw.polygon(surface, palette.FOREGROUND, [(x - half, low - half), (x + half, low - half), (x, low)])
