"""Drawing a page of the rules (:class:`companion.screens.rules.RulesView`), any size: the title bar with
the prompt, the page's heading and its text wrapped to fit, the key legend."""

from __future__ import annotations

import pygame

from companion.display.text import draw_text, draw_wrapped
from companion.screens import palette
from companion.screens.rules import RulesView


def draw(surface: pygame.Surface, view: RulesView) -> None:
    """Draw ``view`` over the whole of ``surface``."""
    width, height = surface.get_size()
    unit = max(8, height // 12)
    margin = max(4, width // 40)
    surface.fill(palette.BACKGROUND)
    pygame.draw.rect(surface, palette.PANEL, pygame.Rect(0, 0, width, unit * 2))
    draw_text(surface, view.title, pygame.Rect(margin, 0, width - 2 * margin, unit), unit * 4 // 5,
              palette.FOREGROUND, bold=True)
    draw_text(surface, view.prompt, pygame.Rect(margin, unit, width - 2 * margin, unit), unit * 2 // 3,
              palette.MUTED)
    top = unit * 2 + unit // 2
    draw_text(surface, view.heading, pygame.Rect(margin, top, width - 2 * margin, unit), unit * 9 // 10,
              palette.FOREGROUND, bold=True)
    body = pygame.Rect(margin, top + unit + unit // 3, width - 2 * margin, height - top - unit * 3)
    draw_wrapped(surface, view.text, body, unit * 3 // 4, palette.FOREGROUND, max_lines=8)
    legend = "   ".join(f"{button}: {what}" for button, what in view.keys)
    pygame.draw.rect(surface, palette.PANEL, pygame.Rect(0, height - unit, width, unit))
    draw_text(surface, legend, pygame.Rect(margin, height - unit, width - 2 * margin, unit), unit * 2 // 3,
              palette.MUTED)
