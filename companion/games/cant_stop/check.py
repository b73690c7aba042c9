"""The board on the table against the record: what differs, space by space (pure, no I/O).

``board_differences(state, markers_seen, runners_seen) -> tuple[BoardDifference, ...]`` compares what the
board reader saw (each seat's marker per column, the runners) with where the record has them: the
players' markers (cant-stop.md A.5.5: a runner becomes the player's marker where it stood; A.7: a claimed
column holds only its claimer's marker, on the top space) and the runners of the turn being played (none
between turns: A.5.3 and A.5.5 take them off). An empty tuple: the board agrees.

The session asks after every bank and every bust and when a game resumes; a difference is only ever
shown, never written into the record (issue #50).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.cant_stop.config import COLUMNS
from companion.games.cant_stop.rules import CantStopState

RUNNER = -1
"""``BoardDifference.seat`` of a runner (runners are neutral: cant-stop.md A.2)."""


@dataclass(frozen=True, order=True)
class BoardDifference:
    """One piece that is not where the record has it. column: 2-12. seat: the marker's seat, or
    :data:`RUNNER`. should: the space (1 = the column's bottom) the record has it on, 0 for none (it
    should be off the board). seen: the space it was seen on, 0 for not seen."""

    column: int
    seat: int
    should: int
    seen: int

    def __str__(self) -> str:
        """For the log: ``runner on 7: record off, board 1``; ``seat 0 on 3: record 1, board 2``."""
        who = "runner" if self.seat == RUNNER else f"seat {self.seat}"
        return f"{who} on {self.column}: record {self.should or 'off'}, board {self.seen or 'off'}"

    @property
    def kind(self) -> str:
        """``missing`` (should be there, not seen), ``extra`` (seen, should be off) or ``misplaced``."""
        if not self.seen:
            return "missing"
        return "extra" if not self.should else "misplaced"


def expected_board(state: CantStopState) -> tuple[dict[int, dict[int, int]], dict[int, int]]:
    """({seat: {column: space}}, {column: space}): the markers and the runners the record has on the
    board now."""
    markers = {seat: state.marker_map(seat) for seat in range(state.num_players)}
    return markers, dict(state.runner_map())


def board_differences(state: CantStopState, markers_seen: Mapping[int, Mapping[int, int]],
                      runners_seen: Mapping[int, int]) -> tuple[BoardDifference, ...]:
    """Every difference between the board seen and the record, by column, then seat (runners first).

    markers_seen: seat -> {column: space} of the markers seen (a seat absent: none of its markers seen);
    runners_seen: {column: space}. Spaces are 1-based from the column's bottom. Raises ``ValueError`` for a
    seat the game does not have or a column outside 2-12.
    """
    for seat in markers_seen:
        if not 0 <= seat < state.num_players:
            raise ValueError(f"seat {seat} is not in a game of {state.num_players} players")
    for column in [c for seen in markers_seen.values() for c in seen] + list(runners_seen):
        if column not in COLUMNS:
            raise ValueError(f"column {column} is not one of 2-12")
    markers, runners = expected_board(state)
    found = []
    for column in COLUMNS:
        should, seen = runners.get(column, 0), runners_seen.get(column, 0)
        if should != seen:
            found.append(BoardDifference(column, RUNNER, should, seen))
        for seat in range(state.num_players):
            should, seen = markers[seat].get(column, 0), markers_seen.get(seat, {}).get(column, 0)
            if should != seen:
                found.append(BoardDifference(column, seat, should, seen))
    return tuple(found)
