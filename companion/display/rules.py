"""Drawing a page of the rules (:class:`companion.screens.rules.RulesView`), any size: the title bar with
the prompt, the page's heading and its text wrapped to fit, the key legend."""

from __future__ import annotations

import pygame

from companion.display import text
from companion.display.pages import draw_page
from companion.display.text import draw_text, draw_wrapped
from companion.screens import palette
from companion.screens.rules import RulesView


def draw(surface: pygame.Surface, view: RulesView) -> None:
    """Draw ``view`` over the whole of ``surface``: the page's frame, the heading, and the text wrapped in
    the largest type from ``normal`` down to the floor that holds it whole."""
    layout = draw_page(surface, view.title, view.prompt, view.keys)
    body, sizes = layout.body, layout.type
    heading_h = text.line_height(sizes.large, bold=True)
    draw_text(surface, view.heading, pygame.Rect(body.x, body.y, body.width, heading_h), sizes.large,
              palette.FOREGROUND, bold=True)
    draw_wrapped(surface, view.text, pygame.Rect(body.x, body.y + heading_h + layout.pad, body.width,
                                                 body.height - heading_h - layout.pad), sizes.normal,
                 palette.FOREGROUND, max_lines=99)
