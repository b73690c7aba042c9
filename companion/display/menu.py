"""Drawing a :class:`companion.screens.menu.MenuView` full screen (any size; 800x480 is the reference).

The shared frame of every screen (``companion.display.chrome``: the title in the header, the message in
the notice band, the key chips at the bottom) and in its body, top to bottom: the plain-text lines
(scoreboard, names chosen so far), a chart, and the items in one type size (the highlighted one
inverted, greyed ones in the muted colour; a window of items around the highlight when they do not all
fit, with a triangle in the right margin where more lie above or below).
"""

from __future__ import annotations

import pygame

from companion.display import text
from companion.display.charts import draw_bar_chart
from companion.display.pages import draw_page
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
    """Draw ``view`` over the whole of ``surface``: the frame (the title in the header, the message in the
    notice band, the key chips), then in the body the plain lines, the chart and a window of the items."""
    layout = draw_page(surface, view.title, "", view.keys, view.message)
    body, sizes, pad = layout.body, layout.type, layout.pad
    width = body.width
    line_h = text.line_height(sizes.floor)
    margin = max(4, pad * 3)
    label_w = width - margin - 3 * pad
    item_size, item_lines = item_type(view, label_w, sizes)
    item_h = item_lines * text.line_height(item_size, bold=True) + 2 * pad
    y = body.y
    room = max(0, (body.height - (item_h if view.items else 0)) // line_h)
    for line in view.lines:  # each plain line wrapped onto as many lines as it needs, while there is room
        wrapped = text.wrap_all(line, sizes.floor, width)
        if len(wrapped) > room:
            break
        text.draw_lines(surface, wrapped, pygame.Rect(body.x, y, width, len(wrapped) * line_h), sizes.floor,
                        palette.MUTED, whole=line)
        y += len(wrapped) * line_h
        room -= len(wrapped)
    if view.lines:
        y += pad
    if view.chart is not None:
        chart_h = max(item_h * 2, body.bottom - y - (item_h if view.items else 0))
        chart = view.chart
        draw_bar_chart(surface, pygame.Rect(body.x, y, width, chart_h), chart.values, chart.labels, chart.what,
                       chart.reference)
        y += chart_h
    rows = max(1, (body.bottom - y) // item_h)
    shown = visible_window(len(view.items), view.selected, rows)
    _scroll_marks(surface, pygame.Rect(body.right - margin, y, margin, rows * item_h), shown.start > 0,
                  shown.stop < len(view.items))
    for index in shown:
        item = view.items[index]
        rect = pygame.Rect(body.x, y, width - margin - pad, item_h - pad // 2)
        if index == view.selected:
            pygame.draw.rect(surface, palette.HIGHLIGHT, rect, border_radius=pad)
            colour = palette.HIGHLIGHT_TEXT if item.enabled else palette.MUTED
        else:
            colour = palette.FOREGROUND if item.enabled else palette.MUTED
        lines = text.wrap_all(item.label, item_size, label_w, bold=True)
        lines_h = len(lines) * text.line_height(item_size, bold=True)
        text.draw_lines(surface, lines, pygame.Rect(rect.x + pad, rect.centery - lines_h // 2, label_w, lines_h),
                        item_size, colour, bold=index == view.selected, whole=item.label)
        y += item_h


def item_type(view: MenuView, width: int, sizes) -> tuple[int, int]:
    """(type size, lines a row) of the items: one line of ``normal`` when every label fits, else up to two
    lines of ``normal``, else as many lines of the floor as the longest label needs."""
    labels = [item.label for item in view.items]
    if all(text.fits(label, sizes.normal, width, bold=True) for label in labels):
        return sizes.normal, 1
    if all(len(text.wrap_all(label, sizes.normal, width, bold=True)) <= 2 for label in labels):
        return sizes.normal, 2
    return sizes.floor, max(len(text.wrap_all(label, sizes.floor, width, bold=True)) for label in labels)


def _scroll_marks(surface: pygame.Surface, column: pygame.Rect, above: bool, below: bool) -> None:
    """Triangles in the right margin ``column`` saying that more items lie above or below the window."""
    half = max(3, column.width * 2 // 5)
    x = column.centerx
    if above:
        top = column.top + half
        pygame.draw.polygon(surface, palette.FOREGROUND, [(x - half, top + half), (x + half, top + half), (x, top)])
    if below:
        low = column.bottom - half
        pygame.draw.polygon(surface, palette.FOREGROUND, [(x - half, low - half), (x + half, low - half), (x, low)])
