"""Drawing a page of the rules (:class:`companion.screens.rules.RulesView`), any size: the title bar with
the prompt, the page's heading and its text wrapped to fit, the key legend."""

from __future__ import annotations

import pygame

from companion.display.pages import draw_page
from companion.display.text import draw_text, draw_wrapped
from companion.screens import palette
from companion.screens.rules import RulesView


def draw(surface: pygame.Surface, view: RulesView) -> None:
    """Draw ``view`` over the whole of ``surface``."""
    body, unit = draw_page(surface, view.title, view.prompt, view.keys)
    draw_text(surface, view.heading, pygame.Rect(body.x, body.y, body.width, unit), unit * 9 // 10,
              palette.FOREGROUND, bold=True)
    draw_wrapped(surface, view.text, pygame.Rect(body.x, body.y + unit + unit // 3, body.width,
                                                 body.height - unit - unit // 3), unit * 3 // 4, palette.FOREGROUND,
                 max_lines=8)
