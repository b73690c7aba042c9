"""Move checking (issue 4 step 3): decode the legal move between two board readings, never guess."""

import pytest

from companion.games.ludo import (CAPTURE_PENDING, ILLEGAL, MOVED, UNCHANGED, YARD, Misplaced, Move, Roll, check_move,
    state_from_position)

Y = "yard"


def seen(*seats):
    """Pawns as read, per seat; "yard" -> YARD."""
    return [[YARD if x == Y else x for x in seat] for seat in seats]


def waiting(pawns, roll, **variant):
    state, _ = state_from_position({"board": variant.pop("board", "ludo52"), "variant": variant, "pawns": pawns,
                                    "to_move": "red", "roll": roll})
    return state.apply(Roll(roll))


def test_unchanged_board_waits():
    s = waiting({"red": [3, Y, Y, Y], "green": [Y] * 4}, 4)
    assert check_move(s, s.pawns).status == UNCHANGED


def test_legal_move_decoded_in_any_pawn_order():
    s = waiting({"red": [3, 10, Y, Y], "green": [Y] * 4}, 4)
    c = check_move(s, seen([Y, 14, 3, Y], [Y] * 4))
    assert c.status == MOVED and c.move == Move(10, 4) and c.info.to == 14
    assert check_move(s, seen([7, 10, Y, Y], [Y] * 4)).move == Move(3, 4)


def test_entering_decoded():
    s = waiting({"red": [3, Y, Y, Y], "green": [Y] * 4}, 6)
    assert check_move(s, seen([3, 0, Y, Y], [Y] * 4)).move == Move(YARD, 6)


def test_capture_with_pawn_returned_is_moved():
    s = waiting({"red": [0, Y, Y, Y], "green": [40, Y, Y, Y]}, 1)  # green 40 = absolute 1 (B.5 capture)
    c = check_move(s, seen([1, Y, Y, Y], [Y] * 4))
    assert c.status == MOVED and c.info.captures == ((1, 1),)


def test_capture_pending_asks_the_pawn_back():
    """B.5: the captured pawn still on the track: nothing recorded, the box asks it back to its yard."""
    s = waiting({"red": [0, Y, Y, Y], "green": [40, Y, Y, Y]}, 1)
    c = check_move(s, seen([1, Y, Y, Y], [40, Y, Y, Y]))
    assert c.status == CAPTURE_PENDING and c.move == Move(0, 1)
    assert c.misplaced == (Misplaced("green", 40, YARD),)


def test_wrong_distance_is_illegal_not_guessed():
    s = waiting({"red": [3, 10, Y, Y], "green": [Y] * 4}, 4)
    c = check_move(s, seen([3, 15, Y, Y], [Y] * 4))
    assert c.status == ILLEGAL and c.move is None
    assert c.misplaced == (Misplaced("red", 15, 14),)  # B.4.3: it belongs 4 squares on, on 14
    assert "not legal" in c.problems[0] and "3->7" in c.problems[0]


def test_wrong_entry_is_shown_on_the_start_square():
    """B.4.3: a 6 brings a yard pawn onto its start square (relative 0); shown on 2, it belongs on 0."""
    s = waiting({"red": [Y, Y, Y, Y], "green": [Y] * 4}, 6)
    c = check_move(s, seen([2, Y, Y, Y], [Y] * 4))
    assert c.status == ILLEGAL and c.misplaced == (Misplaced("red", 2, 0),)


def test_pawn_unseen_on_ludo52_is_missing_not_finished():
    """A pawn the reader sees nowhere counts as finished (taken off the board) on ludo52; a finish no
    legal move makes is reported as the pawn missing, with where it belongs."""
    s = waiting({"red": [3, 10, Y, Y], "green": [Y] * 4}, 4)
    c = check_move(s, seen([3, 56, Y, Y], [Y] * 4))
    assert c.status == ILLEGAL and c.misplaced == (Misplaced("red", None, 10),)
    assert "missing" in c.problems[0]
    s = waiting({"red": [52, Y, Y, Y], "green": [Y] * 4}, 4)
    assert check_move(s, seen([56, Y, Y, Y], [Y] * 4)).move == Move(52, 4)


def test_other_colour_moved_is_illegal():
    s = waiting({"red": [3, Y, Y, Y], "green": [5, Y, Y, Y]}, 4)
    c = check_move(s, seen([3, Y, Y, Y], [9, Y, Y, Y]))
    assert c.status == ILLEGAL and c.misplaced == (Misplaced("green", 9, 5),)


def test_missing_and_extra_pawns_reported():
    s = waiting({"red": [3, 10, Y, Y], "green": [Y] * 4}, 4)
    c = check_move(s, seen([3, Y, Y], [Y] * 4))
    assert c.status == ILLEGAL and c.misplaced == (Misplaced("red", None, 10),)
    c = check_move(s, seen([3, 10, 20, Y, Y], [Y] * 4))
    assert c.status == ILLEGAL and c.misplaced == (Misplaced("red", 20, None),)


def test_not_waiting_for_a_move_raises():
    s, _ = state_from_position({"board": "ludo52", "pawns": {"red": [Y] * 4, "green": [Y] * 4},
                                "to_move": "red", "roll": 6})
    with pytest.raises(ValueError):
        check_move(s, s.pawns)


def test_mensch40_home_move():
    s = waiting({"red": [38, Y, Y, Y], "green": [Y] * 4}, 3, board="mensch40")
    assert check_move(s, seen([41, Y, Y, Y], [Y] * 4)).move == Move(38, 3)
