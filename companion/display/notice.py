"""Drawing a notice (:class:`companion.screens.notice.NoticeView`), any size: the page's frame with the
notice's heading as its prompt, the paragraphs wrapped in the largest type that holds them, the key
chips."""

from __future__ import annotations

import pygame

from companion.display import text
from companion.display.pages import draw_page
from companion.screens import palette
from companion.screens.notice import NoticeView


def draw(surface: pygame.Surface, view: NoticeView) -> None:
    """Draw ``view`` over the whole of ``surface``: each paragraph whole, in ``normal`` type when all of
    them fit, else in the floor's."""
    layout = draw_page(surface, view.title, view.heading, view.keys)
    body, sizes, pad = layout.body, layout.type, layout.pad
    size = sizes.normal
    wrapped = [text.wrap_all(p, size, body.width) for p in view.paragraphs]
    if sum(len(w) for w in wrapped) * text.line_height(size) + 2 * pad * len(wrapped) > body.height:
        size = sizes.floor
        wrapped = [text.wrap_all(p, size, body.width) for p in view.paragraphs]
    y = body.y + pad
    for paragraph, lines in zip(view.paragraphs, wrapped, strict=True):
        area = pygame.Rect(body.x, y, body.width, len(lines) * text.line_height(size))
        text.draw_lines(surface, lines, area, size, palette.FOREGROUND, whole=paragraph)
        y = area.bottom + 2 * pad
