"""Where the screen's regions lie, derived only from the surface size (no fixed pixel sizes).

At 800 x 480: a top bar of about 100 px (title row, then the prompt in about 34 px type), a bottom bar
of about 60 px (scores row, key legend row), and between them the board on the left (57 % of the width)
and the side panel (photo, bust chance, options, hint) on the right. Everything scales with the surface;
at 1920 x 1080 type is 2.25 times larger.

Two things a view may need more room for (``companion.display.cant_stop.screen_layout`` decides): the
scores on two rows (three or four players whose names do not fit one row), which makes the bottom bar
about half a row taller, and a hint too long for the side panel, which gets a band across the whole width above the
bottom bar; the board and the side panel give up that height.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

SCORE_ROW_SHARE = 0.8
"""Height of each of several scores rows, as a share of one row (a bottom bar of two scores rows is 0.6
of a row taller than one of a single row)."""


@dataclass(frozen=True)
class ScreenLayout:
    """Rectangles (pixels) of the screen's regions and the base type sizes, for a surface of ``size``.

    ``unit`` is the scale against the 800 x 480 design size (1.0 there, 2.25 at 1920 x 1080); type sizes
    are font sizes in pixels. ``scores_row`` covers every row of scores (``score_rows`` of them, each
    ``scores_row.height // score_rows`` high); ``hint_band`` is the full-width band of a long hint (zero
    height when the hint stays in the side panel).
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
    score_rows: int = 1
    hint_band: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))

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
    def for_size(cls, size: tuple[int, int], score_rows: int = 1, hint_band: int = 0) -> "ScreenLayout":
        """The layout of a ``width`` x ``height`` surface, with ``score_rows`` rows of scores (1 or more)
        and a hint band ``hint_band`` pixels high (0: none)."""
        w, h = int(size[0]), int(size[1])
        unit = max(0.25, min(w / 800, h / 480))
        pad = max(2, round(6 * unit))
        title_h = round(h * 0.068)
        prompt_h = round(h * 0.105)
        top = pygame.Rect(0, 0, w, pad + title_h + prompt_h + pad)
        title_row = pygame.Rect(pad, pad, w - 2 * pad, title_h)
        prompt_row = pygame.Rect(pad, title_row.bottom, w - 2 * pad, prompt_h)
        row_h = round(h * 0.06)
        rows = max(1, int(score_rows))
        score_h = row_h if rows == 1 else round(row_h * SCORE_ROW_SHARE)
        bottom_h = rows * score_h + row_h + 2 * pad
        bottom = pygame.Rect(0, h - bottom_h, w, bottom_h)
        scores_row = pygame.Rect(pad, bottom.y + pad, w - 2 * pad, rows * score_h)
        keys_row = pygame.Rect(pad, scores_row.bottom, w - 2 * pad, row_h)
        main_top, main_bottom = top.bottom + pad, bottom.y - pad
        band = pygame.Rect(pad, main_bottom, w - 2 * pad, 0)
        if hint_band > 0:
            band = pygame.Rect(pad, main_bottom - int(hint_band), w - 2 * pad, int(hint_band))
            main_bottom = band.y - pad
        board_w = round(w * 0.57)
        board = pygame.Rect(pad, main_top, board_w - 2 * pad, main_bottom - main_top)
        side = pygame.Rect(board_w, main_top, w - board_w - pad, main_bottom - main_top)
        return cls((w, h), unit, pad, top, title_row, prompt_row, board, side, bottom, scores_row, keys_row,
                   rows, band)
