"""The Ludo advisor (issue 4 step 4) and `simulate ludo` (ARCHITECTURE.md contract)."""

import pytest

from companion.games.ludo import YARD, Move, Roll
from companion.games.ludo_position import state_from_position
from companion.hints.ludo import advise, danger, pawn_value
from companion.simulate import run_simulation
from companion.simulate_ludo import simulate

Y = "yard"


def waiting(pawns, roll, to_move="red", **variant):
    state, _ = state_from_position({"board": variant.pop("board", "ludo52"), "variant": variant, "pawns": pawns,
                                    "to_move": to_move, "roll": roll})
    return state.apply(Roll(roll))


def test_capture_is_recommended_with_reason():
    # green 40 = absolute 1: red at 0 captures with a 1; red at 20 could just advance
    s = waiting({"red": [0, 20, Y, Y], "green": [40, Y, Y, Y]}, 1)
    hint = advise(s, 0)
    assert hint.action == Move(0, 1) and hint.kind == "capture" and "green" in hint.reason
    assert hint.numbers["captures"] == 1.0


def test_escape_a_threat():
    # green 44, 45 = absolute 5, 6: behind red's pawn at 9 (B.5 capture threat); red at 30 is out of reach
    s = waiting({"red": [9, 30, 56, 56], "green": [44, 45, 51, 52]}, 6)
    hint = advise(s, 0)
    assert hint.action == Move(9, 6) and hint.kind == "escape"
    assert hint.numbers["danger_before"] > hint.numbers["danger"]


def test_safe_square_with_starts_and_stars():
    # red 3 -> 8 lands on the star (B.2 safe index 8), out of reach of green at 47-... (abs 8 is safe)
    s = waiting({"red": [3, 20, Y, Y], "green": [40, 41, Y, Y]}, 5, safe_squares="starts_and_stars")
    hint = advise(s, 0)
    assert hint.action == Move(3, 5) and hint.kind == "escape" and hint.numbers["danger"] == 0
    s = waiting({"red": [3, 20, Y, Y], "green": [Y, Y, Y, Y]}, 5, safe_squares="starts_and_stars")
    assert advise(s, 0).kind in ("safe", "progress")


def test_enter_when_nothing_else_matters():
    s = waiting({"red": [20, Y, Y, Y], "green": [Y, Y, Y, Y]}, 6)
    hint = advise(s, 0)
    assert hint.action == Move(YARD, 6) and hint.kind == "enter"


def test_hint_is_always_legal_and_ranked():
    s = waiting({"red": [3, 9, 14, Y], "green": [1, 5, Y, Y]}, 6)
    hint = advise(s, 0)
    assert hint.action in s.legal_actions() and len(hint.ranking) == len(s.legal_actions())
    values = [v for _, v in hint.ranking]
    assert values == sorted(values, reverse=True)


def test_advise_refuses_when_no_move_is_due():
    s, _ = state_from_position({"pawns": {"red": [Y] * 4, "green": [Y] * 4}, "to_move": "red", "roll": 3})
    with pytest.raises(ValueError):
        advise(s, 0)


def test_value_and_danger_numbers():
    s = waiting({"red": [10, Y, Y, Y], "green": [45, Y, Y, Y]}, 1)  # green 45 = abs 6, 4 behind red
    assert pawn_value(s, YARD) == 0 and pawn_value(s, 56) > pawn_value(s, 50) > pawn_value(s, 0) > 0
    occ = s.occupancy()
    assert danger(s, s.pawns, 0, 10, occ) == pytest.approx(1 / 6)
    assert danger(s, s.pawns, 0, 52, occ) == 0.0  # home column: private (B.5)


def test_simulate_shape_and_determinism():
    a = simulate(["advisor", "random"], 6, 3, {"board": "mensch40"})
    b = run_simulation("ludo", ["advisor", "random"], 6, 3, {"board": "mensch40"})
    assert a == b and a["games"] == 6 and sum(a["wins"].values()) == 6 == sum(a["wins_by_seat"])
    assert set(a) == {"games", "wins", "wins_by_seat", "mean_turns"} and a["mean_turns"] > 10


def test_simulate_errors():
    with pytest.raises(ValueError, match="2 to 4"):
        simulate(["advisor"], 1, 1)
    with pytest.raises(ValueError, match="unknown agent"):
        simulate(["advisor", "genius"], 1, 1)
    with pytest.raises(ValueError, match="at least 1"):
        simulate(["advisor", "random"], 0, 1)


def test_weights_follow_the_rule_set():
    from companion.hints.ludo import BASE_WEIGHTS, SAFE_WEIGHTS, weights_for

    plain = waiting({"red": [3, Y, Y, Y], "green": [Y] * 4}, 2)
    safe = waiting({"red": [3, Y, Y, Y], "green": [Y] * 4}, 2, safe_squares="starts")
    assert weights_for(plain) is BASE_WEIGHTS and weights_for(safe) is SAFE_WEIGHTS
    assert SAFE_WEIGHTS.danger > BASE_WEIGHTS.danger and SAFE_WEIGHTS.safe_bonus > 0
