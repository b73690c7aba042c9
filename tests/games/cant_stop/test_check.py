"""companion.games.cant_stop.check: the board read against the record (issue 50)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import CHANCE
from companion.games.cant_stop import Bank, CantStopState, Choose, Phase, Roll, RollAgain, StartWith
from companion.games.cant_stop.check import RUNNER, BoardDifference, board_differences, expected_board


def _reached(players: int, seed: int, steps: int) -> CantStopState:
    """A position random play reaches in ``steps`` actions (or the end)."""
    rng = random.Random(seed)
    state = CantStopState.new(players)
    for _ in range(steps):
        if state.phase is Phase.OVER:
            break
        if state.current_player == CHANCE:
            action = StartWith(rng.randrange(players)) if state.phase is Phase.FIRST_PLAYER else \
                Roll(tuple(rng.randint(1, 6) for _ in range(4)))
        elif state.phase is Phase.DECIDE:
            action = Bank() if rng.random() < 0.3 else RollAgain()
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply(action)
    return state


@settings(max_examples=120, deadline=None)
@given(players=st.integers(1, 4), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 300),
       pick=st.integers(0, 10**6), to=st.integers(1, 13))
def test_the_record_agrees_with_itself_and_one_piece_moved_is_one_difference(players, seed, steps, pick, to):
    state = _reached(players, seed, steps)
    markers, runners = expected_board(state)
    assert board_differences(state, markers, runners) == ()
    pieces = [(seat, column, space) for seat, seen in markers.items() for column, space in seen.items()]
    pieces += [(RUNNER, column, space) for column, space in runners.items()]
    if not pieces:
        return
    seat, column, space = pieces[pick % len(pieces)]
    moved = {s: dict(m) for s, m in markers.items()}
    moved_runners = dict(runners)
    place = moved_runners if seat == RUNNER else moved[seat]
    if to == space:
        del place[column]  # taken off the board
        assert board_differences(state, moved, moved_runners) == (BoardDifference(column, seat, space, 0),)
    else:
        place[column] = to
        (diff,) = board_differences(state, moved, moved_runners)
        assert diff == BoardDifference(column, seat, space, to) and diff.kind == "misplaced"


def test_a_marker_left_behind_after_a_bust_and_a_runner_not_taken_off_are_named():
    state = CantStopState.new(2).apply(StartWith(0)).apply(Roll((1, 2, 3, 4)))
    state = state.apply(Choose((3, 7))).apply(RollAgain()).apply(Roll((1, 1, 1, 1)))  # 1 1 1 1: the pairing 2+2
    state = state.apply(Choose((2, 2)))
    state = state.apply(Bank())  # Ada banks 2 (space 2), 3 and 7 (space 1)
    assert state.marker_map(0) == {2: 2, 3: 1, 7: 1} and state.active == 1
    assert board_differences(state, {0: {2: 2, 3: 1, 7: 1}}, {}) == ()
    # a runner still on 7 and Ada's marker on 3 one space too high
    found = board_differences(state, {0: {2: 2, 3: 2, 7: 1}}, {7: 1})
    assert found == (BoardDifference(3, 0, 1, 2), BoardDifference(7, RUNNER, 0, 1))
    assert [d.kind for d in found] == ["misplaced", "extra"]
    gone = board_differences(state, {0: {2: 2, 3: 1}, 1: {4: 1}}, {})  # Ada's 7 gone, a marker of Ben's on 4
    assert gone == (BoardDifference(4, 1, 0, 1), BoardDifference(7, 0, 1, 0))
    assert [d.kind for d in gone] == ["extra", "missing"]


def test_a_seat_or_a_column_the_game_does_not_have_is_refused():
    state = CantStopState.new(2)
    with pytest.raises(ValueError, match="seat 2"):
        board_differences(state, {2: {}}, {})
    with pytest.raises(ValueError, match="column 13"):
        board_differences(state, {}, {13: 1})


def test_the_variants_name_the_layouts_and_colours_the_reader_knows():
    """The rules package lists the board layouts and marker colours without importing the reader (it loads
    OpenCV); the lists must stay those of ``vision.board.cant_stop``."""
    from companion.games.cant_stop.config import BOARD_LAYOUTS, MARKER_COLOURS
    from vision.board.cant_stop import LAYOUTS
    from vision.board.cant_stop import MARKER_COLOURS as READ

    assert BOARD_LAYOUTS == ("none", *LAYOUTS) and MARKER_COLOURS == READ
