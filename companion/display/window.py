"""The box's window, and drawing any game's view on a surface without one.

Each game's drawing module (``companion.display.<game>``, found through ``companion.registry``) has
``draw(surface, view)``; :class:`Display` shows a view with the ``draw`` it is given, and
:func:`render_surface` draws one on a new surface (tests, screenshots).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from companion.display import text
from companion.errors import DisplayError

log = logging.getLogger(__name__)
_driver_logged = False

Draw = Callable[[pygame.Surface, Any], object]
"""A game's ``draw(surface, view)``."""


def render_surface(draw: Draw, view: Any, size: tuple[int, int] = (800, 480), mode: str = "") -> pygame.Surface:
    """A new ``size`` (width, height) pixel surface with ``view`` drawn on it by ``draw``; needs no window.
    The text log (``companion.display.text``) counts it as a frame of ``mode``."""
    if not pygame.font.get_init():
        pygame.font.init()
    surface = pygame.Surface((int(size[0]), int(size[1])))
    text.begin_frame(mode)
    draw(surface, view)
    return surface


class Display:
    """The box's window: ``width`` x ``height`` pixels, or the whole screen when ``fullscreen``.

    ``headless`` sets ``SDL_VIDEODRIVER=dummy`` unless the environment already names a video driver, so
    it runs without any screen (CI, screenshots). The SDL driver in use is logged once. Full screen uses
    the screen's own resolution and hides the mouse cursor; drawing adapts to any size. Raises
    :class:`~companion.errors.DisplayError` with SDL's reason when no window can be opened.
    """

    def __init__(self, width: int = 800, height: int = 480, fullscreen: bool = False, headless: bool = False):
        if headless and "SDL_VIDEODRIVER" not in os.environ:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        try:
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
        except pygame.error as error:
            if fullscreen or "too large" not in str(error).lower():
                raise DisplayError(str(error)) from None
            # SDL's reason alone ("Window is too large.") names nothing the user can change: the config's keys do
            raise DisplayError(f"cannot open a {int(width)}x{int(height)} window ({error}): set the config's "
                               "[display] width and height to the screen's size or less, or fullscreen = true") from None
        self._title = ""

    @property
    def size(self) -> tuple[int, int]:
        """The window's size in pixels."""
        return self._window.get_size()

    @property
    def surface(self) -> pygame.Surface:
        """The window's surface (what :meth:`render` draws on)."""
        return self._window

    def render(self, view: Any, draw: Draw, mode: str = "") -> pygame.Surface:
        """Draw ``view`` with ``draw`` (the game's ``companion.display.<game>.draw``) on the window's
        surface (not yet shown) and return that surface; the window's caption follows the view's title.
        The text log (``companion.display.text``) counts it as a frame of ``mode``."""
        title = getattr(view, "title", "")
        if title and title != self._title:
            pygame.display.set_caption(title)
            self._title = title
        text.begin_frame(mode)
        draw(self._window, view)
        return self._window

    def show(self, view: Any, draw: Draw, mode: str = "") -> None:
        """Draw ``view`` with ``draw`` and put it on the screen (a frame of ``mode`` in the text log)."""
        self.render(view, draw, mode)
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
