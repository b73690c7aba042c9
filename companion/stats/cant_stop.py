"""Can't Stop after the game: each player's progress turn by turn, and their busts against the odds.

Progress (0 to the number of columns): per column, the banked marker's height over the column's height,
a claimed column counting 1 for its owner (cant-stop.md A.5.5); the course is read at the end of each
turn. Busts (A.5.3): a roll none of whose pairings is usable; ``expected`` sums, over every roll a
player made, the exact chance that this roll would bust (``games.cant_stop.odds.bust_chance`` of the
state before it): what fair dice would have given that player on average, for the risks they took.
"""

from __future__ import annotations

from companion.games.cant_stop import CantStopConfig, Phase, Roll, action_from_dict, bust_chance
from companion.i18n import N_, Nn_
from companion.session.cant_stop import replay_state
from companion.stats.base import Course, GameSummary, Tally


def progress(state, seat: int) -> float:
    """Banked progress of ``seat`` (module docstring), 0 to 11."""
    heights = state.config.column_heights
    return sum(1.0 if owner == seat else (state.markers[seat][c] / heights[c] if owner < 0 else 0.0)
               for c, owner in enumerate(state.claimed))


def summarise(events, players: list[str], config: CantStopConfig) -> GameSummary:
    """The summary of one game's event log (``companion.store`` events); raises ``CorruptLog`` as its replay."""
    n = len(players)
    course: list[list[float]] = [[] for _ in range(n)]
    rolls, busts, expected = [0] * n, [0] * n, [0.0] * n
    turns: set[int] = set()

    def step(event, before, after):
        action = action_from_dict(event.payload)
        if isinstance(action, Roll) and before.phase is Phase.ROLL:
            turns.add(before.turn)  # a turn played: one with a roll (A.5.1)
            seat = before.active
            rolls[seat] += 1
            expected[seat] += float(bust_chance(before))
            if after.last_bust:  # set only by a roll that busts
                busts[seat] += 1
        if before.turn != after.turn or after.phase is Phase.OVER:
            if before.turn >= 1:
                for seat in range(n):
                    course[seat].append(progress(after, seat))

    final = replay_state(events, n, config, step=step)
    outcome = final.outcome()
    tallies = tuple(Tally(s, "busts", busts[s], round(expected[s], 2), rolls[s]) for s in range(n))
    return GameSummary("cant-stop", tuple(players), outcome.placings if outcome else (),
                       tuple(final.columns_claimed(s) for s in range(n)), Nn_("column", "columns"),
                       Course(N_("columns climbed (a claimed column counts 1)"), N_("turn"), tuple(tuple(c) for c in course),
                              high=None), tallies, turns=len(turns))
