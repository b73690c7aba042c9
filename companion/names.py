"""Players' names: what the box takes, wherever a name comes from (``--players``, the config's
``[players] names``).

A name is 1 to :data:`~companion.registry.MAX_NAME_LENGTH` characters, each printable (no control or
format characters, no line breaks, the plain space the only blank) and drawn by the bundled fonts
(``assets/fonts``, DejaVu Sans and its bold: Latin, Greek, Cyrillic and more, but no Chinese, Japanese or
Korean), so no name is shown as empty boxes. :func:`name_problem` says why a name is refused.

The fonts' coverage is FreeType's (``pygame.freetype``), loaded at the first name checked.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from companion.i18n import N_, _, every_translation
from companion.registry import MAX_NAME_LENGTH

__all__ = ["name_problem", "drawable", "FONT_FILES", "seat_name", "is_seat_name"]

SEAT_NAME = N_("Player {n}")
"""The name of a seat nobody named (``{n}``: 1 for the first seat), in the language spoken."""


def seat_name(seat: int) -> str:
    """The default name of ``seat`` (0-based) in the language spoken now: "Player 1", "Spieler 1"."""
    return _(SEAT_NAME).format(n=seat + 1)


@functools.cache
def _seat_name_pattern() -> re.Pattern[str]:
    forms = sorted(every_translation(SEAT_NAME))
    return re.compile("|".join(re.escape(form).replace(re.escape("{n}"), r"[0-9]+") for form in forms))


def is_seat_name(name: str) -> bool:
    """Whether ``name`` is a default seat name in any language the box speaks ("Player 2", "Игрок 3"):
    a seat, not a person, so it is kept on no scoreboard and offered as nobody's name later."""
    return _seat_name_pattern().fullmatch(name) is not None

FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
"""The bundled fonts every name is drawn with (``companion.display.fonts``: REGULAR and BOLD)."""


def name_problem(name: str) -> str | None:
    """Why ``name`` (already stripped) cannot be a player's name, in a few words naming the character
    (``"a control character (U+0007)"``, ``"'你' (U+4F60), which the box's font cannot draw"``), or None
    when it can."""
    if not name:
        return "an empty name"
    if len(name) > MAX_NAME_LENGTH:
        return f"longer than {MAX_NAME_LENGTH} characters"
    for char in name:
        code = f"U+{ord(char):04X}"
        if not char.isprintable():
            kind = "a control character" if unicodedata.category(char) == "Cc" else "a character that is not printed"
            return f"{kind} ({code})"
        if not drawable(char):
            return f"{char!r} ({code}), which the box's font cannot draw"
    return None


def drawable(char: str) -> bool:
    """Whether every bundled font (:data:`FONT_FILES`) has a glyph for ``char`` (the space always), as
    FreeType finds it (``pygame.freetype``: no metrics for a character the font lacks)."""
    return char == " " or all(font.get_metrics(char)[0] is not None for font in _fonts())


@functools.lru_cache(maxsize=1)
def _fonts() -> tuple:
    """The bundled fonts opened with FreeType; none (every character drawable) when they are missing, as
    ``companion.display.fonts`` then falls back to Pygame's own font."""
    import io

    import pygame.freetype  # here, not at import: the command line checks names before it needs Pygame

    from companion.display.fonts import font_bytes

    pygame.freetype.init()
    try:
        return tuple(pygame.freetype.Font(io.BytesIO(font_bytes(bold)), 20) for bold in (False, True))
    except (OSError, FileNotFoundError):
        return ()
