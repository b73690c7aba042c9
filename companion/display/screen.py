"""Drawing a :class:`ScreenView`, on any surface or in a window.

:func:`render_to_surface` needs no window (tests, screenshots); :class:`Display` owns the pygame window
on the box. Regions (see :mod:`companion.display.layout`): top bar with the prompt, the board on the left,
the side panel (photo, bust chance, options, hint) on the right, scores and keys at the bottom, and a
winner banner over it all when the game is over.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from companion.display import palette
from companion.display.bars import draw_bottom_bar, draw_top_bar, draw_winner_banner, score_rows_needed
from companion.display.cant_stop_board import BoardLayout, board_styles, draw_board
from companion.display.hint import draw_hint, hint_band_height
from companion.display.layout import ScreenLayout
from companion.display.panel import draw_side_panel
from companion.screens.cant_stop import ScreenView

log = logging.getLogger(__name__)
_driver_logged = False

RENDERERS: dict[type, Callable[[pygame.Surface, Any], object]] = {}
"""Drawing functions of the other games' views, by view type (Can't Stop's :class:`ScreenView` is built in)."""


def register_renderer(view_type: type, draw: Callable[[pygame.Surface, Any], object]) -> None:
    """Let :class:`Display` draw views of ``view_type`` with ``draw(surface, view)`` (one per game)."""
    RENDERERS[view_type] = draw


def screen_layout(view: ScreenView, size: tuple[int, int] = (800, 480)) -> ScreenLayout:
    """The layout of ``view`` on a ``size`` screen: :meth:`ScreenLayout.for_size`, with the scores on two
    rows when the names do not fit one (``bars.score_rows_needed``) and a band for a hint too long for
    the side panel (``hint.hint_band_height``)."""
    layout = ScreenLayout.for_size(size)
    rows = score_rows_needed(view, layout)
    if rows > 1:
        layout = ScreenLayout.for_size(size, score_rows=rows)
    band = hint_band_height(view, layout)
    if band:
        layout = ScreenLayout.for_size(size, score_rows=rows, hint_band=band)
    return layout


def draw_view(surface: pygame.Surface, view: ScreenView) -> BoardLayout:
    """Draw ``view`` over the whole of ``surface`` (any size), laid out by :func:`screen_layout`; return
    where the board was drawn.

    Reads no file once the fonts are loaded (they are cached in memory after the first use).
    """
    layout = screen_layout(view, surface.get_size())
    styles = board_styles(view.players)
    surface.fill(palette.BACKGROUND)
    old_clip = surface.get_clip()
    board = draw_board(surface, layout.board, view.board, styles, layout.normal)
    draw_side_panel(surface, view, layout)
    draw_hint(surface, view, layout)
    draw_top_bar(surface, view, styles, layout)
    draw_bottom_bar(surface, view, styles, layout)
    if view.winner is not None:
        draw_winner_banner(surface, view, styles, layout)
    surface.set_clip(old_clip)
    return board


def render_to_surface(view: ScreenView, size: tuple[int, int] = (800, 480)) -> pygame.Surface:
    """A new ``size`` (width, height) pixel surface with ``view`` drawn on it; needs no window."""
    if not pygame.font.get_init():
        pygame.font.init()
    surface = pygame.Surface((int(size[0]), int(size[1])))
    draw_view(surface, view)
    return surface


def board_layout(view: ScreenView, size: tuple[int, int] = (800, 480)) -> BoardLayout:
    """Where the board of ``view`` lies on a ``size`` screen (for finding pieces in screenshots)."""
    return BoardLayout(screen_layout(view, size).board, dict(view.board.heights))


class Display:
    """The box's window: ``width`` x ``height`` pixels, or the whole screen when ``fullscreen``.

    ``headless`` sets ``SDL_VIDEODRIVER=dummy`` unless the environment already names a video driver, so
    it runs without any screen (CI, screenshots). The SDL driver in use is logged once. Full screen uses
    the screen's own resolution and hides the mouse cursor; drawing adapts to any size.
    """

    def __init__(self, width: int = 800, height: int = 480, fullscreen: bool = False, headless: bool = False):
        if headless and "SDL_VIDEODRIVER" not in os.environ:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        pygame.display.init()
        pygame.font.init()
        global _driver_logged
        if not _driver_logged:
            log.info("pygame display driver: %s", pygame.display.get_driver())
            _driver_logged = True
        if fullscreen:
            self._window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            pygame.mouse.set_visible(False)
        else:
            self._window = pygame.display.set_mode((int(width), int(height)))
        self._last: ScreenView | None = None

    @property
    def size(self) -> tuple[int, int]:
        """The window's size in pixels."""
        return self._window.get_size()

    @property
    def surface(self) -> pygame.Surface:
        """The window's surface (what :meth:`render` draws on)."""
        return self._window

    def render(self, view: Any) -> pygame.Surface:
        """Draw ``view`` (a :class:`ScreenView`, or a view type given to :func:`register_renderer`) on the
        window's surface (not yet shown) and return that surface. Raises ``TypeError`` for another type."""
        title = getattr(view, "title", "")
        if title and (self._last is None or getattr(self._last, "title", "") != title):
            pygame.display.set_caption(title)
        if isinstance(view, ScreenView):
            draw_view(self._window, view)
        elif type(view) in RENDERERS:
            RENDERERS[type(view)](self._window, view)
        else:
            raise TypeError(f"no renderer for {type(view).__name__}")
        self._last = view
        return self._window

    def show(self, view: ScreenView) -> None:
        """Draw ``view`` and put it on the screen."""
        self.render(view)
        pygame.display.flip()

    def save_png(self, path: str | os.PathLike[str]) -> Path:
        """Save what the window shows now as a PNG file at ``path`` (folders are created); return the path."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self._window, str(target))
        return target

    def events(self) -> list[pygame.event.Event]:
        """All pending pygame events (keys, quit), removed from the queue."""
        return pygame.event.get()

    def close(self) -> None:
        """Close the window (fonts stay loaded)."""
        pygame.display.quit()

    def __enter__(self) -> "Display":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
