"""What the full-screen pages that are no game board share (the summary, the rules, the notices): the
shared frame of ``companion.display.chrome`` with a title and a prompt in its header, the key chips at
the bottom and a notice band when there is one; any size (800x480 is the reference)."""

from __future__ import annotations

import pygame

from companion.display.chrome import ChromeLayout, draw_chrome
from companion.screens.common import Chrome, Tone


def draw_page(surface: pygame.Surface, title: str, prompt: str, keys: tuple[tuple[str, str], ...],
              notice: str = "", tone: str = Tone.EVENT) -> ChromeLayout:
    """Clear ``surface`` and draw the frame of a page (``title`` and ``prompt`` in the header, ``keys`` as
    chips, ``notice`` in its band); return the layout, whose ``body`` is the page's."""
    return draw_chrome(surface, Chrome(title, (), None, prompt, keys, notice, tone))
