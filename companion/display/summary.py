"""Drawing the after-game summary (:class:`companion.screens.summary.SummaryView`), any size (800x480 is
the reference): the title bar with the prompt, the page (the results' lines, or the course's chart), the
key legend."""

from __future__ import annotations

import pygame

from companion.display import text
from companion.display.charts import draw_line_chart
from companion.display.pages import draw_page
from companion.display.text import draw_text
from companion.screens import palette
from companion.screens.summary import SummaryView


def draw(surface: pygame.Surface, view: SummaryView) -> None:
    """Draw ``view`` over the whole of ``surface``: the page's frame, then the chart (its title above it)
    or the lines, each wrapped onto as many lines as it needs."""
    layout = draw_page(surface, view.title, view.prompt, view.keys)
    body, sizes = layout.body, layout.type
    if view.chart is not None:
        chart = view.chart
        title_h = text.line_height(sizes.normal, bold=True)
        draw_text(surface, chart.title, pygame.Rect(body.x, body.y, body.width, title_h), sizes.normal,
                  palette.FOREGROUND, bold=True)
        draw_line_chart(surface, pygame.Rect(body.x, body.y + title_h, body.width, body.height - title_h), chart.series,
                        chart.names, chart.x_label, chart.y_label, chart.high, chart.colours)
        return
    size = sizes.normal
    wrapped = [text.wrap_all(line, size, body.width) for line in view.lines]
    gap = layout.pad
    if sum(len(w) for w in wrapped) * text.line_height(size) + gap * len(wrapped) > body.height:
        size = sizes.floor
        wrapped = [text.wrap_all(line, size, body.width) for line in view.lines]
    y = body.y
    for line, lines in zip(view.lines, wrapped, strict=True):
        area = pygame.Rect(body.x, y, body.width, len(lines) * text.line_height(size))
        text.draw_lines(surface, lines, area, size, palette.FOREGROUND, whole=line)
        y = area.bottom + gap
