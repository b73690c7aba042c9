"""Schotten Totten / Battle Line cards and formations: the vocabulary of ``../shared/rules/schotten-totten.md``.

A **card** is a clan card (Schotten Totten) or troop card (Battle Line): a colour and a value (C.2, C.9).
Its **code** is the colour letter (``R O Y G B P``: red, orange, yellow, green, blue, purple) and the
value, e.g. ``"R5"``, ``"P10"``. A **formation** is the cards on one side of one stone, judged by its
**key** ``(rank, sum)`` (C.5): rank 5 colour run (wedge), 4 three of a kind (phalanx), 3 colour
(battalion order), 2 run (skirmish line), 1 sum (host); a higher key is stronger.

Formations are judged on any number of cards (three normally, four under Mud, C.10), so tactics cards
can later reuse :func:`formation_key`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from companion.i18n import N_, Np_, pgettext

COLOURS = ("R", "O", "Y", "G", "B", "P")
"""Colour letters in deck order (C.2: six colours): red, orange, yellow, green, blue, purple."""

COLOUR_NAMES = ("red", "orange", "yellow", "green", "blue", "purple")
"""English colour names, index-aligned with :data:`COLOURS` (translate with ``companion.i18n._``)."""

COLOUR_LETTERS = (Np_("card colour letter", "R"), Np_("card colour letter", "O"), Np_("card colour letter", "Y"),
                  Np_("card colour letter", "G"), Np_("card colour letter", "B"), Np_("card colour letter", "P"))
"""The letters the players read for each colour, translated under the context ``card colour letter``
(German ``R O Ge Gr B V``: gelb and grün share a G; Russian two letters, ``Зл`` and ``Ор``, since ``З`` and
``О`` read as the digits 3 and 0): one or two letters, unique in each language."""

RANK_COLOUR_RUN = 5
RANK_THREE_OF_A_KIND = 4
RANK_COLOUR = 3
RANK_RUN = 2
RANK_SUM = 1

FORMATION_NAMES = {
    "schotten-totten": {5: N_("colour run"), 4: N_("three of a kind"), 3: N_("colour"), 2: N_("run"), 1: N_("sum")},
    "battle-line": {5: N_("wedge"), 4: N_("phalanx"), 3: N_("battalion order"), 2: N_("skirmish line"),
                    1: N_("host")},
}
"""Formation names by rank per game (C.5 table); translate with ``companion.i18n._`` for display."""


class Card(NamedTuple):
    """One clan/troop card (C.2). colour: 0-5, index into :data:`COLOURS`; value: 1-9 (ST) or 1-10 (BL)."""

    colour: int
    value: int

    @property
    def code(self) -> str:
        """``"R5"``-style code: colour letter then value."""
        return f"{COLOURS[self.colour]}{self.value}"

    @property
    def name(self) -> str:
        """The card as the players read it, in the language spoken: the colour's letter (see
        :data:`COLOUR_LETTERS`) and the value, ``"Y5"``, German ``"Ge5"``, Russian ``"Жл5"``."""
        return pgettext(*COLOUR_LETTERS[self.colour]) + str(self.value)

    def __str__(self) -> str:
        return self.code


def card_name(code: str) -> str:
    """:attr:`Card.name` of a card code (``"Y5"``); a text that is no code (an empty slot) as it is."""
    try:
        return parse_card(code).name
    except ValueError:
        return code


def parse_card(code: str, max_value: int = 10) -> Card:
    """Parse ``"R5"`` / ``"p10"`` into a :class:`Card`.

    max_value: highest value of the deck (9 for Schotten Totten, 10 for Battle Line, C.9).
    Raises ``ValueError`` naming the code when the colour letter or value is not in the deck.
    """
    text = str(code).strip().upper()
    if len(text) < 2 or text[0] not in COLOURS or not text[1:].isdigit():
        raise ValueError(f"bad card code {code!r}: a colour letter of {''.join(COLOURS)} and a value, like R5")
    value = int(text[1:])
    if not 1 <= value <= max_value:
        raise ValueError(f"bad card code {code!r}: values are 1-{max_value}")
    return Card(COLOURS.index(text[0]), value)


@lru_cache(maxsize=None)
def full_deck(max_value: int) -> tuple[Card, ...]:
    """Every card of the deck (C.2/C.9): 6 colours x values 1..max_value, colour-major order (one
    tuple per ``max_value``, built once: states ask for it at every draw)."""
    return tuple(Card(c, v) for c in range(len(COLOURS)) for v in range(1, max_value + 1))


def formation_rank(cards: Iterable[Card]) -> int:
    """Rank of a complete formation (C.5): 5 colour run, 4 three of a kind, 3 colour, 2 run, 1 sum.

    ``cards``: the 3 (or, under Mud, 4) cards of one side; works for any count >= 1. Runs are
    consecutive values in any order with no wrap-around (9-1-2 is not a run, C.5).
    """
    cards = tuple(cards)
    values = sorted(c.value for c in cards)
    same_colour = len({c.colour for c in cards}) == 1
    consecutive = all(b == a + 1 for a, b in zip(values, values[1:], strict=False))
    if same_colour and consecutive:
        return RANK_COLOUR_RUN
    if values[0] == values[-1]:
        return RANK_THREE_OF_A_KIND
    if same_colour:
        return RANK_COLOUR
    if consecutive:
        return RANK_RUN
    return RANK_SUM


def formation_key(cards: Iterable[Card]) -> tuple[int, int]:
    """Comparison key ``(rank, total value)`` of a complete formation (C.5); higher wins.

    Equal keys are a tie, broken by who completed the side first (C.5, see the engine).
    """
    cards = tuple(cards)
    return formation_rank(cards), sum(c.value for c in cards)


def formation_name(rank: int, variant: str = "schotten-totten") -> str:
    """The English name of ``rank`` (1-5) in ``variant`` (``schotten-totten`` or ``battle-line``), C.5."""
    return FORMATION_NAMES[variant][rank]


def cards_to_codes(cards: Iterable[Card]) -> list[str]:
    """``[Card(0, 5)] -> ["R5"]``."""
    return [c.code for c in cards]
