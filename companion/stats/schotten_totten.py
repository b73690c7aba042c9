"""Schotten Totten after the match: the stones each player held, turn by turn over the match's games, and
the match points (schotten-totten.md C.8).

Stones held: the stones a player has claimed (C.6), read after every turn and at the end of each game (the
claim that wins it, C.7, included); each game of the match starts again from none. There is no luck to
report: the draws are hidden, so the box cannot tell a lucky hand.
"""

from __future__ import annotations

from companion.games.schotten_totten import (Claim, EndClaims, Pass, Phase, Play, SchottenTottenConfig,
    action_from_dict)
from companion.i18n import N_, Nn_
from companion.session.schotten_totten import replay_match
from companion.stats.base import Course, GameSummary


def summarise(events, players: list[str], config: SchottenTottenConfig) -> GameSummary:
    """The summary of one match's event log (``companion.store`` events); raises ``CorruptLog`` as its replay."""
    course: list[list[float]] = [[], []]
    turns: set[tuple[int, int]] = set()
    game = 0

    def step(event, before, after):
        nonlocal game
        if event.payload.get("type") == "next_game":
            game += 1  # the game that ended was read when it ended
            return
        if isinstance(action_from_dict(event.payload, config.max_value), (Play, Pass, Claim, EndClaims)):
            turns.add((game, before.turn))  # a turn played: one with a play, a pass or a claim (C.4)
        ended = after.phase is Phase.OVER and before.phase is not Phase.OVER  # C.7: the claim that wins
        if after.turn != before.turn or ended:
            for seat in (0, 1):
                course[seat].append(float(after.stones_of(seat)))

    match = replay_match(events, config, step=step)
    outcome = match.state.outcome()
    points = list(match.points)
    games = len(match.winners)
    if outcome is not None:
        points = [points[s] + outcome.scores[s] for s in (0, 1)]
        games += 1
    over = match.state.phase is Phase.OVER and games >= config.match_length
    placings = tuple(sorted((0, 1), key=lambda s: (-points[s], s))) if over else ()
    return GameSummary("schotten-totten", tuple(players), placings, tuple(points), Nn_("match point", "match points"),
                       Course(N_("stones held"), N_("turn"), tuple(tuple(c) for c in course), high=5.0),
                       turns=len(turns))
