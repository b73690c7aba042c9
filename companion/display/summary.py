"""Drawing the after-game summary (:class:`companion.screens.summary.SummaryView`), any size (800x480 is
the reference): the title bar with the prompt, the page (the results' lines, or the course's chart), the
key legend."""

from __future__ import annotations

import pygame

from companion.display.charts import draw_line_chart
from companion.display.pages import draw_page
from companion.display.text import draw_text, draw_wrapped
from companion.screens import palette
from companion.screens.summary import SummaryView


def draw(surface: pygame.Surface, view: SummaryView) -> None:
    """Draw ``view`` over the whole of ``surface``."""
    body, unit = draw_page(surface, view.title, view.prompt, view.keys)
    if view.chart is not None:
        chart = view.chart
        draw_text(surface, chart.title, pygame.Rect(body.x, body.y, body.width, unit), unit * 3 // 4,
                  palette.FOREGROUND, bold=True)
        draw_line_chart(surface, pygame.Rect(body.x, body.y + unit, body.width, body.height - unit), chart.series,
                        chart.names, chart.x_label, chart.y_label, chart.high)
        return
    line_h = min(unit, max(12, body.height // (2 * max(1, len(view.lines)))) * 2)
    y = body.y
    for line in view.lines:
        used = draw_wrapped(surface, line, pygame.Rect(body.x, y, body.width, line_h * 2), line_h * 3 // 4,
                            palette.FOREGROUND, max_lines=2)
        y += max(line_h, used.height) + line_h // 4
