"""The Ludo advisor (issue 4 step 4) and `simulate ludo` (ARCHITECTURE.md contract)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.agents import run_simulation
from companion.agents.ludo import simulate
from companion.bench.advisor import measure
from companion.errors import UserError
from companion.games.ludo import YARD, Move, Roll, state_from_position
from companion.hints.ludo import SAFE_WEIGHTS, advise, danger, pawn_value
from companion.hints.ludo.danger import hit_chance, threat_count, turn_hit_chance

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


def test_a_move_forced_by_clearing_the_start_square_says_so():
    """ludo.md B.2b must_clear_start (mensch40): the pawn on the start square must move while pawns wait in
    the yard; the hint says that rule picked it, in plain words, not "the best progress" (issue 37)."""
    s = waiting({"red": [0, 20, Y, Y], "green": [Y, Y, Y, Y]}, 3, board="mensch40")
    assert s.legal_actions() == (Move(0, 3),)
    hint = advise(s, 0)
    assert hint.action == Move(0, 3) and hint.kind == "clear_start"
    assert hint.reason == ("Your start square must be cleared while pawns wait in the yard, so the pawn on it "
                           "moves on.")
    assert "progress" not in hint.reason and ".md" not in hint.reason
    # green at 33 (absolute 3 on the 40-square track, green starting at 10) is captured by the forced move
    s = waiting({"red": [0, 20, Y, Y], "green": [33, Y, Y, Y]}, 3, board="mensch40")
    hint = advise(s, 0)
    assert hint.kind == "clear_start" and hint.reason.endswith("moves on and captures a green pawn.")
    # without the rule (ludo52) the same position is a free choice again
    s = waiting({"red": [0, 20, Y, Y], "green": [Y, Y, Y, Y]}, 3)
    assert len(s.legal_actions()) == 2 and advise(s, 0).kind != "clear_start"


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
    with pytest.raises(UserError, match="2 to 4"):
        simulate(["advisor"], 1, 1)
    with pytest.raises(UserError, match="unknown agent"):
        simulate(["advisor", "genius"], 1, 1)
    with pytest.raises(UserError, match="at least 1"):
        simulate(["advisor", "random"], 0, 1)


def test_advisor_moves_out_of_reach_rather_than_advance():
    # green 4 = absolute 17, three behind red's pawn at 20 (B.5 capture threat); red 30 is far ahead of it.
    # Moving 30 -> 34 would be the larger progress; 20 -> 24 leaves green 7 behind (only a six then a one).
    for variant in ({}, {"safe_squares": "starts_and_stars"}):
        s = waiting({"red": [20, 30, Y, Y], "green": [4, Y, Y, Y]}, 4, **variant)
        hint = advise(s, 0)
        assert hint.action == Move(20, 4) and hint.kind == "escape"
        assert [m for m, _v in hint.ranking] == [Move(20, 4), Move(30, 4)]
        assert hint.numbers["danger_before"] > hint.numbers["danger"]


def test_advisor_prefers_the_star_square():
    # starts_and_stars (B.2, B.7): 3 -> 8 lands on the star; 30 -> 35 would be the same five steps for
    # the leading pawn, on an ordinary square. Nobody is near either pawn.
    s = waiting({"red": [3, 30, Y, Y], "green": [Y, Y, Y, Y]}, 5, safe_squares="starts_and_stars")
    hint = advise(s, 0)
    assert hint.action == Move(3, 5) and hint.kind == "safe" and "safe square" in hint.reason
    (first, v1), (second, v2) = hint.ranking
    assert second == Move(30, 5) and v1 - v2 == pytest.approx(2.37, abs=0.01)


def test_exact_finish_plateau():
    # B.5 exact finish: a pawn at 51 needs one exact roll like a pawn at 54, so with the plateau the advisor
    # spends the 3 on the track pawn; the value is flat over the last six steps before the finish
    s = waiting({"red": [51, 20, Y, Y], "green": [Y, Y, Y, Y]}, 3, safe_squares="starts_and_stars")
    hint = advise(s, 0)
    assert hint.action == Move(20, 3) and hint.kind == "progress"
    assert pawn_value(s, 50) + SAFE_WEIGHTS.home_bonus == pawn_value(s, 51) == pawn_value(s, 55)
    assert pawn_value(s, 56) > pawn_value(s, 55) > pawn_value(s, 49)


def test_move_inside_home_is_not_called_entering_home():
    s = waiting({"red": [51, 20, Y, Y], "green": [Y, Y, Y, Y]}, 3)  # base weights: no plateau
    hint = advise(s, 0)
    assert hint.action == Move(51, 3) and hint.kind == "progress"


def test_turn_hit_chance_values():
    # one pawn 4 behind: a 4 (1/6), or a six used elsewhere and then a 4 on the bonus roll (B.4.4: 1/36)
    assert turn_hit_chance({4}, (), 0) == pytest.approx(7 / 36)
    assert turn_hit_chance({6}, (), 0) == pytest.approx(1 / 6)  # a six hits directly
    assert turn_hit_chance({9}, (), 0) == pytest.approx(1 / 36)  # six, then three
    assert turn_hit_chance({1, 2, 3, 4, 5, 6}, (), 0) == pytest.approx(1.0)
    # the opponent's own start square with a pawn in its yard (B.5 entering captures), entry rolls 1 and 6
    assert turn_hit_chance(set(), (1, 6), 0) == pytest.approx(2 / 6)
    # two squares past its start: enter with a six, then a two (1/36)
    assert turn_hit_chance(set(), (), 2) == pytest.approx(1 / 36)


def test_hit_chance_on_the_board():
    # green 45 = absolute 6, four behind red's pawn at 10; green has pawns in its yard
    s = waiting({"red": [10, 20, Y, Y], "green": [45, Y, Y, Y]}, 1)
    occ = s.occupancy()
    assert hit_chance(s, s.pawns, 0, 10, occ) == pytest.approx(7 / 36)
    assert threat_count(s, s.pawns, 0, 10, occ) == pytest.approx(1 / 6)
    assert hit_chance(s, s.pawns, 0, 20, occ) == 0.0  # 14 behind: beyond one turn
    # two opponents each two behind (yellow with none in its yard): independent, 1 - (1 - 7/36)^2
    s = waiting({"red": [30, Y, Y, Y], "green": [15, Y, Y, Y], "yellow": [2, 51, 52, 53]}, 1)
    assert hit_chance(s, s.pawns, 0, 30, s.occupancy()) == pytest.approx(1 - (29 / 36) ** 2)
    # with yellow pawns in its yard, yellow may also enter with a six (4 before red) and then roll a 4
    s = waiting({"red": [30, Y, Y, Y], "green": [15, Y, Y, Y], "yellow": [2, Y, Y, Y]}, 1)
    assert hit_chance(s, s.pawns, 0, 30, s.occupancy()) == pytest.approx(1 - (29 / 36) * (28 / 36))
    # the star square is safe under starts_and_stars (B.2, B.7)
    s = waiting({"red": [8, Y, Y, Y], "green": [45, Y, Y, Y]}, 1, safe_squares="starts_and_stars")
    assert hit_chance(s, s.pawns, 0, 8, s.occupancy()) == 0.0
    # green's start square (absolute 13 = red 13) with green pawns in the yard: an entering six captures
    s = waiting({"red": [13, Y, Y, Y], "green": [Y, Y, Y, Y]}, 1)
    assert hit_chance(s, s.pawns, 0, 13, s.occupancy()) == pytest.approx(1 / 6)


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(1, 12)), st.integers(1, 12), st.sampled_from([(), (6,), (1, 6)]), st.integers(0, 6))
def test_turn_hit_chance_is_a_monotone_probability(behind, extra, entry, then):
    p = turn_hit_chance(behind, entry, then)
    assert 0.0 <= p <= 1.0
    assert turn_hit_chance(behind | {extra}, entry, then) >= p - 1e-12  # one more pawn behind never helps


def test_bench_measures_every_decision():
    figures = measure("ludo", games=1, seed=2, variant={"safe_squares": "starts_and_stars"})
    assert figures["decisions"] > 10 and 0 < figures["median_ms"] <= figures["p95_ms"] <= figures["max_ms"]
    assert 0 < figures["choices"] < figures["decisions"] and figures["choice_median_ms"] > 0
    assert (figures["players"], figures["opponent"]) == (4, "random")
    with pytest.raises(UserError):
        measure("ludo", games=0)


def test_weights_follow_the_rule_set():
    from companion.hints.ludo import BASE_WEIGHTS, SAFE_WEIGHTS, weights_for

    plain = waiting({"red": [3, Y, Y, Y], "green": [Y] * 4}, 2)
    safe = waiting({"red": [3, Y, Y, Y], "green": [Y] * 4}, 2, safe_squares="starts")
    assert weights_for(plain) is BASE_WEIGHTS and weights_for(safe) is SAFE_WEIGHTS
    assert SAFE_WEIGHTS.danger > BASE_WEIGHTS.danger and SAFE_WEIGHTS.safe_bonus > 0


@pytest.mark.parametrize("language", ["en", "de", "nl", "pt_BR", "ru"])
def test_a_hint_reads_as_one_sentence_after_its_label(language):
    """#51: "Tip: the leading pawn: captures blue" had two colons. Over seeded games, every reason of the
    advisor, shown after "Hint: ", holds no colon of its own and starts with a capital letter."""
    import random as _random

    from companion.agents.ludo import chance as chance_of
    from companion.games import CHANCE, TERMINAL
    from companion.games.ludo import LudoGame
    from companion.i18n import speaking

    kinds = set()
    with speaking(language):
        for seed in range(4):
            rng = _random.Random(seed)
            state = LudoGame(2).new_initial_state()
            while state.current_player != TERMINAL:
                if state.current_player == CHANCE:
                    state = state.apply(chance_of(state, rng))
                    continue
                hint = advise(state, state.current_player)
                assert ":" not in hint.reason and hint.reason[:1] == hint.reason[:1].upper(), hint.reason
                kinds.add(hint.kind)
                state = state.apply(hint.action)
    assert {"capture", "progress", "enter", "home"} <= kinds
