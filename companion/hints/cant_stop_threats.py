"""Threats between Can't Stop players: a column somebody is about to claim is worth little to the others.

Claiming a column removes every other player's markers in it and closes it (cant-stop.md A.7), so
progress in a column that an opponent will probably claim on their next turn is nearly worthless, and
a column we are about to claim is nearly lost to the opponents. The position value
(:mod:`companion.hints.cant_stop_value`) is fitted to solo play and knows nothing of this; this module
corrects the efforts it is computed from.

**Claim chance.** A player with ``r`` spaces left in open column ``c`` is taken to claim it on their
next turn with chance ``S x P(Binomial(R, q_c) >= r)``: ``R`` = :data:`THREAT_ROLLS` rolls in a turn,
each offering the total ``c`` with its exact chance ``q_c`` (A.5.2), the turn surviving (not busting)
with chance ``S`` = :data:`THREAT_SURVIVAL`. One or two spaces left in column 7 make about 0.73 and
0.65; three left in column 2 about 0.01.

**Correction.** With ``p`` the chance that some opponent claims column ``c`` first, the player's effort
there becomes ``e + p (F - e)`` (``F`` = :data:`companion.hints.cant_stop_value.FALLBACK_CAP`, the effort
at which a column no longer counts): a blend of keeping the column and losing it, after which the
value function's sorting picks the next cheapest column in its place. Scaled by :data:`THREAT_WEIGHT`
(0 switches the correction off).

Arrays: progress ``(N, 11)`` heights, ``closed (N, 11)`` bools; chances are ``(N, 11)`` floats in 0-1.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

from companion.hints.cant_stop_value import EFFORT_CAP, FALLBACK_CAP, column_chances, turns_from_efforts

THREAT_ROLLS = 4
"""Rolls a player is assumed to make in one turn (the Rule of 28 stops after about three to five)."""

THREAT_SURVIVAL = 0.75
"""Chance that such a turn does not bust (the Rule of 28 busts about one turn in four)."""

THREAT_WEIGHT = 1.0
"""Scale of the correction: 0 ignores the threats, 1 applies the blend as described."""


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
    """Chance that a player with pieces at ``progress`` claims each open column on their next turn."""
    left = np.clip(np.asarray(heights)[None, :] - progress.astype(int), 0, max(heights))
    chances = claim_table(tuple(heights), THREAT_ROLLS, THREAT_SURVIVAL)[np.arange(11)[None, :], left]
    return np.where(closed, 0.0, chances)


def threatened(efforts: np.ndarray, lost: np.ndarray) -> np.ndarray:
    """Efforts ``(N, 11)`` corrected for the chance ``lost (N, 11)`` that somebody else claims each column
    first: ``e + w p (F - e)`` where ``e < F``, unchanged elsewhere."""
    gap = np.maximum(FALLBACK_CAP - efforts, 0.0)
    return efforts + THREAT_WEIGHT * lost * gap

THREAT_SYMMETRIC = True
"""Whether the opponents' efforts are corrected for the columns we are about to claim, as ours are for
theirs (the same formula, our pieces after the bank)."""

THREAT_MODE = "mix"
"""``mix``: expected turns as the mixture over each threatened column being lost or kept (see
:func:`threatened_turns`); ``blend``: the efforts blended by :func:`threatened` before the value."""

THREAT_MIN = 0.02
"""Claim chances below this are ignored by :func:`threatened_turns` (cost bound)."""


def threatened_turns(efforts: np.ndarray, won: np.ndarray, to_win: int, lost: np.ndarray) -> np.ndarray:
    """Expected turns ``(N,)`` when each column ``c`` is lost (closed) with chance ``lost[:, c]``: ``T +
    sum_c p_c (T_without_c - T)``, the mixture of keeping and losing each threatened column taken one at a
    time (exact for one threatened column), scaled by :data:`THREAT_WEIGHT`."""
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
