"""The donkey card race after the race: each player's token on the track round by round, and the points.

Positions (donkey-race.md D.6): the track square of each token after each round. There is no luck to
report: the hands are hidden from the box, so it cannot tell a lucky deal.
"""

from __future__ import annotations

from companion.games.donkey_race import DonkeyRaceConfig, Pass, Play, step_actions
from companion.i18n import N_, Nn_
from companion.session.donkey_race import replay_state
from companion.stats.base import Course, GameSummary


def summarise(events, players: list[str], config: DonkeyRaceConfig) -> GameSummary:
    """The summary of one race's event log (``companion.store`` events); raises ``CorruptLog`` as its replay."""
    n = len(players)
    course: list[list[float]] = [[] for _ in range(n)]
    rounds: set[int] = set()

    def step(event, before, after):
        if any(isinstance(a, (Play, Pass)) for a in step_actions(event.payload)):
            rounds.add(before.round_no)  # a round played: one with a play or a pass (D.4)
        if after.last_round and after.last_round != before.last_round:  # a round was scored (D.5, D.6)
            for seat in range(n):
                course[seat].append(float(after.positions[seat]))

    final = replay_state(events, n, config, step=step)
    outcome = final.outcome()
    return GameSummary("donkey-race", tuple(players), outcome.placings if outcome else (),
                       tuple(final.points) if final.points else (0,) * n, Nn_("point", "points"),
                       Course(N_("position on the track"), N_("round"), tuple(tuple(c) for c in course),
                              high=float(config.track_length)), turns=len(rounds))
