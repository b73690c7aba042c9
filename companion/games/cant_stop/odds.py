"""Exact Can't Stop odds: the chance that the next roll of four dice busts (cant-stop.md A.5.3, A.6).

Computed by enumerating the 126 distinct rolls with their multinomial weights (out of 6**4 = 1296),
so every figure is an exact :class:`fractions.Fraction`.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

from companion.games.cant_stop.config import COLUMNS
from companion.games.cant_stop.rules import CantStopState, pairings, roll_distribution


def bust_probability_for_columns(columns: Iterable[int]) -> Fraction:
    """Chance that no pairing of the next roll totals one of ``columns`` (each 2-12).

    This is the bust chance once every runner is placed on exactly these columns and none is at its
    top (e.g. 6, 7, 8: 13/162). Raises ``ValueError`` for a column outside 2-12.
    """
    usable = set(columns)
    if not usable <= set(COLUMNS):
        raise ValueError(f"columns must be 2 to 12, not {sorted(usable - set(COLUMNS))}")
    return sum((p for roll, p in roll_distribution()
                if not any(a in usable or b in usable for a, b in pairings(roll))), Fraction(0))


def bust_probability(state: CantStopState) -> Fraction:
    """Exact chance that the active player's next roll from ``state`` busts, with the engine's own
    legality (free runners, claimed and topped columns, the entry space)."""
    return sum((p for roll, p in roll_distribution() if not state.choices_for(roll)), Fraction(0))


@lru_cache(maxsize=None)
def _bust_for_usable(usable: frozenset[int]) -> Fraction:
    """Exact bust chance when exactly the totals ``usable`` may be used (cached; A.5.3)."""
    return bust_probability_for_columns(usable)


def bust_chance(state: CantStopState) -> Fraction:
    """:func:`bust_probability` of ``state``, fast: cached by the set of totals usable on their own (a roll
    busts iff none of its totals is usable; A.5.3, A.6). The tests check that the two agree."""
    return _bust_for_usable(frozenset(c for c in COLUMNS if state.usable(c)))
