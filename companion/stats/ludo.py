"""Ludo after the game: each player's pawns home turn by turn, the sixes they rolled against a fair die's
share, and their captures.

Pawns home: pawns at the end of their journey (the finish on ludo52, a home square on mensch40; ludo.md
B.6), read at the end of each turn. Sixes: rolls of 6 against ``rolls / 6``, what a fair die gives on
average. Captures (B.5): opponents' pawns a player's moves sent back to their yards.
"""

from __future__ import annotations

from companion.games.ludo import YARD, LudoConfig, Move, Roll, action_from_dict
from companion.i18n import N_, Nn_
from companion.session.ludo import replay_state
from companion.stats.base import Course, GameSummary, Tally


def pawns_home(state, seat: int) -> int:
    """Pawns of ``seat`` at the end of their journey (B.6)."""
    return sum(1 for p in state.pawns[seat] if p != YARD and state.is_finished_position(p))


def summarise(events, players: list[str], config: LudoConfig) -> GameSummary:
    """The summary of one game's event log (``companion.store`` events); raises ``CorruptLog`` as its replay."""
    n = len(players)
    course: list[list[float]] = [[] for _ in range(n)]
    rolls, sixes, captures = [0] * n, [0] * n, [0] * n
    turns: set[int] = set()

    def step(event, before, after):
        action = action_from_dict(event.payload)
        if isinstance(action, Roll):
            turns.add(before.turn)  # a turn played: one with a roll (B.4.1)
            rolls[before.active] += 1
            sixes[before.active] += action.value == 6
        elif isinstance(action, Move):
            for other in range(n):
                if other != before.active:
                    captures[before.active] += max(0, after.pawns[other].count(YARD) - before.pawns[other].count(YARD))
        if after.turn != before.turn or (after.outcome() is not None and before.outcome() is None):
            if before.turn >= 1:
                for seat in range(n):
                    course[seat].append(float(pawns_home(after, seat)))

    final = replay_state(events, n, config, step=step)
    outcome = final.outcome()
    tallies = tuple(t for s in range(n) for t in (Tally(s, "sixes", sixes[s], round(rolls[s] / 6, 2), rolls[s]),
                                                  Tally(s, "captures", captures[s])))
    return GameSummary("ludo", tuple(players), outcome.placings if outcome else (),
                       tuple(pawns_home(final, s) for s in range(n)), Nn_("pawn home", "pawns home"),
                       Course(N_("pawns home"), N_("turn"), tuple(tuple(c) for c in course), high=4.0), tallies,
                       turns=len(turns), colours=tuple(final.colours))
