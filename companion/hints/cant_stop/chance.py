"""The win chance a Can't Stop hint shows: against players who play as well as the advisor.

The advisor's own utilities (:mod:`companion.hints.cant_stop.search`) assume an opponent paced like the
Rule of 28 (1.5 times our turns): right for choosing, but a number both players would read as "90 %". The
chance shown instead is a fitted race between equals: every player needs the turns the value function
gives for their banked markers (:func:`companion.hints.cant_stop.value.expected_turns`, cant-stop.md
A.4). With ``T`` our expected turns and ``T_j`` opponent ``j``'s::

    P(win) = prod_j Phi(SCALE * (ln(T_j + 1) - ln(T + 1)) + s)

where ``s`` is +:data:`FIRST_MOVE` at the start of our turn (we move first) and -:data:`FIRST_MOVE` once
it is over (the others move next; the two are each other's complement for two players). The ratio of
turns, not their difference, is what decides a race of few turns; both constants were fitted on games
between advisors (seeds 101 and 102, 500 games each, 13,477 turn starts: Brier score 0.214,
every bin of 200 or more turn starts within 0.03 of its observed rate) and are checked on other seeds
with ``companion simulate cant-stop --agents advisor,advisor --calibration`` (docs/CLI.md). Tried and
dropped: a normal race on the difference of turns (variance fitted, 0.4-2.0 per turn): its bins missed
by up to 0.05 (too sure about the player behind).
"""

from __future__ import annotations

import math

import numpy as np

from companion.games.cant_stop import CantStopState
from companion.hints.cant_stop.value import expected_turns

SCALE = 1.4
"""How sharply the ratio of expected turns decides the race (see the module docstring; fitted)."""
FIRST_MOVE = 0.2
"""The edge of moving first, on the probit scale (see the module docstring; fitted)."""


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def remaining_turns(state: CantStopState, seat: int, markers=None) -> float:
    """Expected turns ``seat`` still needs to win from ``markers`` (default: its banked markers), >= 0."""
    heights = tuple(state.config.column_heights)
    pieces = np.asarray(state.markers[seat] if markers is None else markers, dtype=float)[None, :]
    closed = (np.asarray(state.claimed) >= 0)[None, :]
    claims = (pieces >= np.asarray(heights)[None, :]) & ~closed  # banking there claims the column (A.7)
    won = np.array([state.columns_claimed(seat)]) + claims.sum(axis=1)
    if won[0] >= state.config.columns_to_win:
        return 0.0
    return float(expected_turns(pieces, closed | claims, won, heights, state.config.columns_to_win)[0])


def win_chance(state: CantStopState, seat: int, *, moves_first: bool = True, markers=None) -> float:
    """The chance (0-1) that ``seat`` wins against players as strong as the advisor: at the start of its
    turn (``moves_first``), or once its turn is over with ``markers`` banked (``moves_first`` False: the
    others move next). 1.0 when it has already won; solo play has no opponent: 1.0."""
    if state.winner is not None:
        return 1.0 if state.winner == seat else 0.0
    if state.num_players == 1:
        return 1.0
    ours = remaining_turns(state, seat, markers)
    if ours <= 0.0:
        return 1.0
    shift = FIRST_MOVE if moves_first else -FIRST_MOVE
    chance = 1.0
    for other in range(state.num_players):
        if other != seat:
            theirs = remaining_turns(state, other)
            chance *= _phi(SCALE * (math.log(theirs + 1.0) - math.log(ours + 1.0)) + shift)
    return chance
