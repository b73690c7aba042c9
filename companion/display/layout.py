"""Where the screen's regions lie, derived only from the surface size (no fixed pixel sizes).

At 800 x 480: a top bar of about 100 px (title row, then the prompt in about 34 px type), a bottom bar
of about 60 px (scores row, key legend row), and between them the board on the left (57 % of the width)
and the side panel (photo, bust chance, options, hint) on the right. Everything scales with the surface;
at 1920 x 1080 type is 2.25 times larger.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame


@dataclass(frozen=True)
class ScreenLayout:
    """Rectangles (pixels) of the screen's regions and the base type sizes, for a surface of ``size``.

    ``unit`` is the scale against the 800 x 480 design size (1.0 there, 2.25 at 1920 x 1080); type sizes
    are font sizes in pixels.
    """

    size: tuple[int, int]
    unit: float
    pad: int
    top_bar: pygame.Rect
    title_row: pygame.Rect
    prompt_row: pygame.Rect
    board: pygame.Rect
    side: pygame.Rect
    bottom_bar: pygame.Rect
    scores_row: pygame.Rect
    keys_row: pygame.Rect

    @property
    def small(self) -> int:
        """Font size of secondary text (legend, status), about 19 px at 480 px height."""
        return max(8, round(19 * self.unit))

    @property
    def normal(self) -> int:
        """Font size of ordinary text (options, scores, hint), about 22 px at 480 px height."""
        return max(9, round(22 * self.unit))

    @property
    def large(self) -> int:
        """Font size of the prompt, about 34 px at 480 px height."""
        return max(12, round(34 * self.unit))

    @classmethod
    def for_size(cls, size: tuple[int, int]) -> "ScreenLayout":
        """The layout of a ``width`` x ``height`` surface."""
        w, h = int(size[0]), int(size[1])
        unit = max(0.25, min(w / 800, h / 480))
        pad = max(2, round(6 * unit))
        title_h = round(h * 0.068)
        prompt_h = round(h * 0.105)
        top = pygame.Rect(0, 0, w, pad + title_h + prompt_h + pad)
        title_row = pygame.Rect(pad, pad, w - 2 * pad, title_h)
        prompt_row = pygame.Rect(pad, title_row.bottom, w - 2 * pad, prompt_h)
        row_h = round(h * 0.06)
        bottom = pygame.Rect(0, h - (2 * row_h + 2 * pad), w, 2 * row_h + 2 * pad)
        scores_row = pygame.Rect(pad, bottom.y + pad, w - 2 * pad, row_h)
        keys_row = pygame.Rect(pad, scores_row.bottom, w - 2 * pad, row_h)
        main_top, main_bottom = top.bottom + pad, bottom.y - pad
        board_w = round(w * 0.57)
        board = pygame.Rect(pad, main_top, board_w - 2 * pad, main_bottom - main_top)
        side = pygame.Rect(board_w, main_top, w - board_w - pad, main_bottom - main_top)
        return cls((w, h), unit, pad, top, title_row, prompt_row, board, side, bottom, scores_row, keys_row)
