"""What the full-screen pages that are no game board share (the summary, the rules): the title bar with
its prompt and the key legend at the bottom, any size (800x480 is the reference)."""

from __future__ import annotations

import pygame

from companion.display.text import draw_text
from companion.screens import palette


def draw_page(surface: pygame.Surface, title: str, prompt: str, keys: tuple[tuple[str, str], ...]) -> tuple[
        pygame.Rect, int]:
    """Clear ``surface``, draw the title bar (``title``, ``prompt``) and the legend of ``keys``; return the
    body's rectangle (between them) and the row unit in pixels (a twelfth of the height)."""
    width, height = surface.get_size()
    unit = max(8, height // 12)
    margin = max(4, width // 40)
    surface.fill(palette.BACKGROUND)
    pygame.draw.rect(surface, palette.PANEL, pygame.Rect(0, 0, width, unit * 2))
    draw_text(surface, title, pygame.Rect(margin, 0, width - 2 * margin, unit), unit * 4 // 5, palette.FOREGROUND,
              bold=True)
    draw_text(surface, prompt, pygame.Rect(margin, unit, width - 2 * margin, unit), unit * 2 // 3, palette.MUTED)
    legend = "   ".join(f"{button}: {what}" for button, what in keys)
    pygame.draw.rect(surface, palette.PANEL, pygame.Rect(0, height - unit, width, unit))
    draw_text(surface, legend, pygame.Rect(margin, height - unit, width - 2 * margin, unit), unit * 2 // 3,
              palette.MUTED)
    return pygame.Rect(margin, unit * 2 + unit // 3, width - 2 * margin, height - unit * 3 - unit // 2), unit
