"""Threats between Can't Stop players: a column somebody is about to claim is worth little to the others.

Claiming a column removes every other player's markers in it and closes it (cant-stop.md A.7), so
progress in a column that an opponent will probably claim on their next turn is nearly worthless, and
a column we are about to claim is nearly lost to the opponents. The position value
(:mod:`companion.hints.cant_stop.value`) is fitted to solo play and knows nothing of this; this module
corrects the expected turns it gives.

**Claim chance** (:func:`claim_chances`). A player with ``r`` spaces left in open column ``c`` is taken
to claim it on their next turn with chance ``S x P(Binomial(R, q_c) >= r)``: ``R`` =
:data:`THREAT_ROLLS` rolls in a turn, each offering the total ``c`` with its exact chance ``q_c``
(A.5.2), the turn surviving (not busting) with chance ``S`` = :data:`THREAT_SURVIVAL`. One or two spaces
left in column 7 make about 0.74 and 0.65; three left in column 2 about 0.01.

**Correction** (:func:`threatened_turns`, the default :data:`THREAT_MODE` ``mix``). With ``p_c`` the
chance that somebody else claims column ``c`` first, a player's expected turns become ``T + sum_c p_c
(T_without_c - T)``: the mixture of keeping each threatened column and losing it (the column closed, so
the value function falls back on the next cheapest one), one column at a time. The alternative ``blend``
(:func:`threatened`) moves the column's effort towards :data:`companion.hints.cant_stop.value.FALLBACK_CAP`
instead. :data:`THREAT_WEIGHT` scales either (0 switches them off).

Measured against the Rule of 28 (``companion simulate cant-stop --agents advisor,rule28`` and
``rule28,advisor``, 500 games each, seeds 2 and 3, advisor's share of the 2000 games): no threats 80.6 %,
``blend`` 78.7 %, ``mix`` 82.1 %; ``mix`` on seed 4 (1000 games each order) 78.3 %. The differences are
within about two standard errors (0.9 points each on 2000 games): the threat model is no proven gain
in win rate, it makes the advice sensible in the positions it is about (see the tests).

Arrays: progress ``(N, 11)`` heights, ``closed (N, 11)`` bools, claim chances ``(N, 11)`` floats in 0-1,
efforts as in :mod:`companion.hints.cant_stop.value`.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

from companion.hints.cant_stop.value import EFFORT_CAP, FALLBACK_CAP, column_chances, turns_from_efforts

THREAT_ROLLS = 4
"""Rolls a player is assumed to make in one turn (the Rule of 28 stops after about three to five)."""

THREAT_SURVIVAL = 0.75
"""Chance that such a turn does not bust (the Rule of 28 busts about one turn in four)."""

THREAT_WEIGHT = 1.0
"""Scale of the correction: 0 ignores the threats, 1 applies it as described."""

THREAT_MODE = "mix"
"""``mix`` (:func:`threatened_turns`) or ``blend`` (:func:`threatened`)."""

THREAT_SYMMETRIC = True
"""Whether the opponents' expected turns are corrected for the columns we are about to claim, as ours
are for theirs (the same formula, our pieces after the bank)."""

THREAT_MIN = 0.02
"""Claim chances below this are ignored by :func:`threatened_turns` (cost bound)."""


@lru_cache(maxsize=16)
def claim_table(heights: tuple[int, ...], rolls: int = THREAT_ROLLS,
                survival: float = THREAT_SURVIVAL) -> np.ndarray:
    """``(11, max(heights) + 1)``: chance to claim column ``c`` next turn with ``r`` spaces left (``r`` =
    0, a claimed column, gives 0)."""
    q = column_chances()
    table = np.zeros((11, max(heights) + 1))
    for c in range(11):
        for r in range(1, max(heights) + 1):
            table[c, r] = survival * sum(comb(rolls, k) * q[c] ** k * (1 - q[c]) ** (rolls - k)
                                         for k in range(r, rolls + 1))
    return table


def claim_chances(progress: np.ndarray, closed: np.ndarray, heights: tuple[int, ...]) -> np.ndarray:
    """Chance ``(N, 11)`` that a player with pieces at ``progress`` claims each open column on their next
    turn (0 for closed columns)."""
    left = np.clip(np.asarray(heights)[None, :] - progress.astype(int), 0, max(heights))
    chances = claim_table(tuple(heights), THREAT_ROLLS, THREAT_SURVIVAL)[np.arange(11)[None, :], left]
    return np.where(closed, 0.0, chances)


def threatened_turns(efforts: np.ndarray, won: np.ndarray, to_win: int, lost: np.ndarray) -> np.ndarray:
    """Expected turns ``(N,)`` when each column ``c`` is lost (closed) with chance ``lost[:, c]``: ``T +
    w sum_c p_c (T_without_c - T)`` (``w`` = :data:`THREAT_WEIGHT`), the mixture of keeping and losing
    each threatened column taken one at a time (exact for one threatened column). ``won (N,)``: columns
    the player has claimed; ``to_win``: columns needed (A.4)."""
    won = np.asarray(won)
    base = turns_from_efforts(efforts, won, to_win)
    result = base.copy()
    for column in np.nonzero((lost > THREAT_MIN).any(axis=0))[0]:
        rows = lost[:, column] > THREAT_MIN
        without = efforts[rows].copy()
        without[:, column] = EFFORT_CAP
        result[rows] += THREAT_WEIGHT * lost[rows, column] * (turns_from_efforts(without, won[rows], to_win)
                                                              - base[rows])
    return result


def threatened(efforts: np.ndarray, lost: np.ndarray) -> np.ndarray:
    """Efforts ``(N, 11)`` blended towards the fall-back for the chance ``lost (N, 11)`` that somebody else
    claims each column first: ``e + w p (F - e)`` where ``e < F``, unchanged elsewhere."""
    gap = np.maximum(FALLBACK_CAP - efforts, 0.0)
    return efforts + THREAT_WEIGHT * lost * gap
