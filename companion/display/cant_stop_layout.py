"""Where the Can't Stop body's regions lie: the board on the left, the side panel on the right and, for a
hint too long for the panel, a band across the body's width under them.

The body is what the shared frame (``companion.display.chrome``: header, notice band, player strip, key
chips) leaves; everything is derived from its rectangle and the screen's size, so it scales with the
screen (type is 1.5 times larger at 1280 x 720 than at 800 x 480, and never under the floor,
``companion.display.text.floor_px``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from companion.display import text

BOARD_SHARE = 0.55
"""The board's share of the body's width (the mountain of 11 columns reads well at about 430 px)."""


@dataclass(frozen=True)
class ScreenLayout:
    """Rectangles (pixels) of the body's regions and the type sizes, for a screen of ``size``.

    ``unit`` is the scale against the 800 x 480 design size (1.0 there, 1.5 at 1280 x 720). ``body`` is
    the frame's body; ``hint_band`` the full-width band of a long hint at its bottom (zero height when
    the hint stays in the side panel).
    """

    size: tuple[int, int]
    unit: float
    pad: int
    body: pygame.Rect
    board: pygame.Rect
    side: pygame.Rect
    hint_band: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))

    @property
    def small(self) -> int:
        """Font size of secondary text (effects, status, hint): the floor, 18 px at 800 x 480."""
        return text.floor_px(self.size)

    @property
    def normal(self) -> int:
        """Font size of ordinary text (option labels, column numbers), 21 px at 800 x 480."""
        return max(self.small, round(21 * self.unit))

    @property
    def large(self) -> int:
        """Font size of figures that must stand out (the bust chance), 26 px at 800 x 480."""
        return max(self.small, round(26 * self.unit))

    @classmethod
    def for_body(cls, size: tuple[int, int], body: pygame.Rect, hint_band: int = 0) -> "ScreenLayout":
        """The layout of ``body`` on a ``(width, height)`` screen, with a hint band ``hint_band`` pixels
        high (0: none) at the bottom of the body."""
        w, h = int(size[0]), int(size[1])
        unit = text.unit_of((w, h))
        pad = max(2, round(6 * unit))
        body = pygame.Rect(body)
        bottom = body.bottom
        band = pygame.Rect(body.x, bottom, body.width, 0)
        if hint_band > 0:
            band = pygame.Rect(body.x, bottom - int(hint_band), body.width, int(hint_band))
            bottom = band.y - pad
        board_w = round(body.width * BOARD_SHARE)
        board = pygame.Rect(body.x, body.y, board_w - pad, bottom - body.y)
        side = pygame.Rect(body.x + board_w, body.y, body.right - body.x - board_w, bottom - body.y)
        return cls((w, h), unit, pad, body, board, side, band)
