"""Font loading that works from any working directory and in an installed wheel.

The bundled DejaVu Sans (``assets/fonts``, licence beside it) is found through ``importlib.resources``.
If it is missing, pygame's own default font (freesansbold.ttf, shipped inside the pygame package) is used.
Each file is read once into memory; every :class:`pygame.font.Font` is then made from those bytes, so
asking for a new size while drawing reads no file.
"""

from __future__ import annotations

import functools
import io
import logging
from importlib import resources

import pygame

log = logging.getLogger(__name__)

REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
MIN_SIZE = 6


@functools.lru_cache(maxsize=None)
def font_bytes(bold: bool = False) -> bytes:
    """The TTF file for the regular or bold face: the bundled DejaVu Sans, else pygame's default font."""
    name = BOLD if bold else REGULAR
    try:
        return (resources.files("assets") / "fonts" / name).read_bytes()
    except (OSError, ModuleNotFoundError) as exc:
        log.warning("bundled font %s not found (%s); using pygame's default font", name, exc)
        return (resources.files("pygame") / pygame.font.get_default_font()).read_bytes()


@functools.lru_cache(maxsize=512)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """A font whose nominal size is ``size`` pixels (at least ``MIN_SIZE``); cached per size and weight.

    For DejaVu Sans the line height (``get_linesize()``) is about 1.16 times ``size`` and capital letters
    are about 0.73 times ``size`` tall.
    """
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(io.BytesIO(font_bytes(bold)), max(MIN_SIZE, int(size)))


def size_for_height(height: float) -> int:
    """The font size whose line height fits in ``height`` pixels."""
    return max(MIN_SIZE, int(height / 1.17))


def clear_cache() -> None:
    """Forget every loaded font (call after ``pygame.font.quit()``; fonts do not survive it)."""
    font.cache_clear()
