"""Colours and shapes: four player styles that colour-blind players can tell apart, and the screen's theme.

Player colours come from the Okabe-Ito palette (Okabe, M. & Ito, K. (2008). *Color Universal Design
(CUD): How to make figures and presentations that are friendly to colorblind people.*
https://jfly.uni-koeln.de/color/). Of its colours, the four below were chosen because every pair stays
far apart (CIELAB distance of at least 20) under simulated protanopia, deuteranopia and tritanopia
(Machado et al. 2009, full severity), and all four stand out on the dark background. Seats 0 and 1, the
pair in every two-player game, differ most (vermillion against sky blue). Orange was left out: next to
vermillion it is the pair most often confused.

Colour is never the only cue: each seat also has a shape (circle, square, triangle, diamond) and every
token carries the player's badge: the initial, made distinct when two players share it (see
:func:`badges`, :func:`player_styles`).

This module is plain data; it needs no pygame (names are marked for translation with ``N_``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from companion.i18n import N_, Np_

RGB = tuple[int, int, int]


class Shape(Enum):
    """The outline of a player's token; one per seat, so shape alone identifies the seat."""

    CIRCLE = "circle"
    SQUARE = "square"
    TRIANGLE = "triangle"
    DIAMOND = "diamond"


# Okabe-Ito (2008) colours used for the four seats, in seat order.
VERMILLION: RGB = (0xD5, 0x5E, 0x00)
SKY_BLUE: RGB = (0x56, 0xB4, 0xE9)
YELLOW: RGB = (0xF0, 0xE4, 0x42)
REDDISH_PURPLE: RGB = (0xCC, 0x79, 0xA7)

PLAYER_COLOURS: tuple[RGB, ...] = (VERMILLION, SKY_BLUE, YELLOW, REDDISH_PURPLE)
PLAYER_COLOUR_NAMES: tuple[tuple[str, str], ...] = (
    Np_("token colour", "orange"), Np_("token colour", "light blue"), Np_("token colour", "yellow"),
    Np_("token colour", "pink"))
"""The seats' colour names as players say them (a new user read "vermillion" and "reddish purple" as
nobody's words), untranslated (context and message for ``pgettext``)."""
SHAPE_NAMES: dict[Shape, str] = {Shape.CIRCLE: N_("circle"), Shape.SQUARE: N_("square"),
                                 Shape.TRIANGLE: N_("triangle"), Shape.DIAMOND: N_("diamond")}
"""The shapes' names, untranslated (marked for the catalogues)."""
PLAYER_SHAPES: tuple[Shape, ...] = (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE, Shape.DIAMOND)

# Theme: light text on a near-black background (contrast ratio about 16:1).
BACKGROUND: RGB = (0x12, 0x15, 0x19)
PANEL: RGB = (0x1E, 0x23, 0x2A)  # bars and side panel
FOREGROUND: RGB = (0xF4, 0xF4, 0xF4)
MUTED: RGB = (0xAE, 0xB6, 0xC0)  # secondary text, still above 8:1 on BACKGROUND
INK: RGB = (0x00, 0x00, 0x00)  # outlines and letters on tokens
HIGHLIGHT: RGB = (0xFF, 0xFF, 0xFF)  # selected option / die: white, drawn thick or inverted
HIGHLIGHT_TEXT: RGB = (0x10, 0x10, 0x10)  # text on a HIGHLIGHT background

# Board.
SLOT: RGB = (0x2C, 0x33, 0x3C)  # a column's spaces
SLOT_EDGE: RGB = (0x5C, 0x66, 0x72)  # lines between spaces
TOP_SPACE: RGB = (0x3A, 0x43, 0x4E)  # the top space of a column (the one that claims it)
RUNNER_FILL: RGB = (0xFF, 0xFF, 0xFF)
RUNNER_RING: RGB = (0x00, 0x00, 0x00)

# Ludo's pawns: the colours of the board's seats (ludo.md B.2), named in text wherever they matter.
LUDO_COLOURS: dict[str, RGB] = {"red": (214, 48, 49), "green": (39, 160, 72), "yellow": (240, 200, 40),
                                "blue": (40, 104, 212)}
LUDO_LIGHT: dict[str, RGB] = {"red": (246, 190, 190), "green": (190, 232, 198), "yellow": (250, 236, 170),
                              "blue": (186, 206, 246)}
"""The light tint of each Ludo colour: its yard places, home column and start square."""

# Dice on the photo.
DIE_OK: RGB = (0xFF, 0xFF, 0xFF)
DIE_FLAGGED: RGB = (0xF0, 0xE4, 0x42)  # with a dashed outline and a "?", never by colour alone


@dataclass(frozen=True)
class PlayerStyle:
    """How one seat is drawn: fill colour, token shape and the letter written on the token."""

    colour: RGB
    shape: Shape
    letter: str


def player_colour(index: int) -> RGB:
    """The colour of palette index ``index`` (0-3; larger indices wrap around)."""
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


def initial(name: str, seat: int = 0) -> str:
    """The first letter or digit of ``name``, upper-cased (one character); the 1-based seat number
    ``seat + 1`` when the name has none."""
    first = next((ch for ch in name if ch.isalnum()), None)
    return first.upper()[:1] if first is not None else str(seat + 1)


def _word_initials(name: str) -> str:
    """Initials of the first and the last word ("Player 2" -> "P2", "Ada King Lovelace" -> "AL"); one
    character for a one-word name, "" for none."""
    words = [w for w in ("".join(ch if ch.isalnum() else " " for ch in name)).split()]
    if not words:
        return ""
    return words[0][0].upper()[:1] + (words[-1][0].upper()[:1] if len(words) > 1 else "")


def badges(names: Sequence[str]) -> tuple[str, ...]:
    """The badge written on each seat's token, seat order; every badge differs from the others.

    A player whose initial (:func:`initial`) no other player shares gets that one character. The
    players who share one get the initials of their first and last words when those tell them all
    apart ("Player 1", "Player 2" -> "P1", "P2"; "Ada Byron", "Ada King" -> "AB", "AK"), otherwise the
    initial followed by the 1-based seat number ("Anna", "Alex" -> "A1", "A2"). Badges are one or two
    characters for up to nine seats.
    """
    first = [initial(name, seat) for seat, name in enumerate(names)]
    result = list(first)
    for letter in dict.fromkeys(first):
        seats = [seat for seat, f in enumerate(first) if f == letter]
        if len(seats) < 2:
            continue
        words = [_word_initials(names[seat]) for seat in seats]
        if all(len(w) == 2 and w[0] == letter for w in words) and len(set(words)) == len(words):
            chosen = words
        else:
            chosen = [letter + str(seat + 1) for seat in seats]
        for seat, badge in zip(seats, chosen, strict=True):
            result[seat] = badge
    if len(set(result)) != len(result):  # cannot happen with the rules above; seat numbers always differ
        result = [str(seat + 1) for seat in range(len(names))]
    return tuple(result)


def player_style(index: int, name: str = "", letter: str | None = None) -> PlayerStyle:
    """The style of palette index ``index`` for a player called ``name``.

    The letter is ``letter`` when given (a badge from :func:`badges`), else the name's first letter or
    digit, upper-cased; a seat number (1-4) when the name has none.
    """
    if letter is None:
        letter = initial(name, index % len(PLAYER_COLOURS))
    return PlayerStyle(player_colour(index), PLAYER_SHAPES[index % len(PLAYER_SHAPES)], letter)


def player_styles(names: Sequence[str], colours: Sequence[int] | None = None) -> list[PlayerStyle]:
    """The styles of the players ``names`` in seat order, with distinct :func:`badges`.

    colours: each seat's palette index (default: the seat number itself, 0-3).
    """
    indices = list(range(len(names))) if colours is None else list(colours)
    return [player_style(index, name, badge) for index, name, badge in zip(indices, names, badges(names), strict=True)]


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio between two colours (1 to 21)."""

    def luminance(c: RGB) -> float:
        lin = [(v / 255) / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
