"""Ludo rules engine: one test per rule, CONFIG switch and B.8 edge case of ludo.md (section cited)."""

import json
import subprocess
import sys

import pytest

from companion.errors import IllegalMove, VariantError
from companion.games import CHANCE, TERMINAL
from companion.games.ludo import (YARD, LudoConfig, LudoState, Move, Phase, Roll, StartWith, action_from_dict,
    action_to_dict, position_moves, state_from_position)
from tests.paths import FIXTURES

FIXTURES = FIXTURES / "ludo"


def pos(pawns, roll=None, to_move="red", sixes=0, board="ludo52", **variant):
    """A ROLL-phase state (or, with ``roll``, the state after that roll)."""
    state, _ = state_from_position({"board": board, "variant": variant, "pawns": pawns, "to_move": to_move,
                                    "roll": 1, "sixes_in_row": sixes})
    return state if roll is None else state.apply(Roll(roll))


def moves(pawns, roll, to_move="red", sixes=0, board="ludo52", **variant):
    return position_moves({"board": board, "variant": variant, "pawns": pawns, "to_move": to_move,
                           "roll": roll, "sixes_in_row": sixes})


Y4 = ["yard"] * 4


# -- B.4 turn structure ----------------------------------------------------------------------------

def test_b4_third_six_forfeits_and_keeps_earlier_moves():
    """B.4.2 / B.8: the third six moves nothing; moves made with the first two sixes stand."""
    s = pos({"red": Y4, "green": Y4})
    s = s.apply(Roll(6)).apply(Move(YARD, 6))          # enter with the first six
    assert s.phase is Phase.ROLL and s.active == 0 and s.sixes_in_row == 1
    s = s.apply(Roll(6)).apply(Move(0, 6))             # move 0 -> 6 with the second
    assert s.sixes_in_row == 2
    s = s.apply(Roll(6))                               # third six
    assert s.last_event == "third_six" and s.active == 1 and s.phase is Phase.ROLL
    assert s.pawns[0] == (YARD, YARD, YARD, 6)
    assert moves({"red": [6, "yard", "yard", "yard"], "green": Y4}, 6, sixes=2) == {"forfeit": True, "moves": [], "next": "green"}


def test_b7_triple_six_undo_turn_takes_back_all_moves_and_captures():
    """B.7 triple_six_penalty = undo_turn: all moves this turn are taken back (a capture too)."""
    s = pos({"red": [2, "yard", "yard", "yard"], "green": ["yard", "yard", "yard", 47]},
            triple_six_penalty="undo_turn")  # green 47 = absolute 8
    s = s.apply(Roll(6)).apply(Move(2, 6))           # captures green
    assert s.pawns[1] == (YARD,) * 4
    s = s.apply(Roll(6)).apply(Move(YARD, 6))
    assert s.pawns[0] == (YARD, YARD, 0, 8)
    s = s.apply(Roll(6))
    assert s.pawns[0] == (YARD, YARD, YARD, 2) and s.pawns[1] == (YARD, YARD, YARD, 47) and s.active == 1


def test_b7_triple_six_last_moved_to_yard():
    """B.7 triple_six_penalty = last_moved_to_yard: the pawn moved last goes back to the yard."""
    s = pos({"red": [2, 10, "yard", "yard"], "green": Y4}, triple_six_penalty="last_moved_to_yard")
    s = s.apply(Roll(6)).apply(Move(2, 6)).apply(Roll(6)).apply(Move(10, 6))
    s = s.apply(Roll(6))
    assert s.pawns[0] == (YARD, YARD, YARD, 8)


def test_b8_all_in_yard_non_six_ends_turn():
    """B.8: all pawns in the yard and a non-6: the turn ends, no move."""
    s = pos({"red": Y4, "green": Y4}, roll=4)
    assert s.active == 1 and s.phase is Phase.ROLL and s.last_event == "no_move"


def test_b8_all_in_yard_six_must_enter_then_rolls_again():
    """B.8: with a 6 the only legal move is to enter; then the player rolls again (B.4.4)."""
    s = pos({"red": Y4, "green": Y4}, roll=6)
    assert s.phase is Phase.MOVE and s.legal_actions() == (Move(YARD, 6),)
    s = s.apply(Move(YARD, 6))
    assert s.phase is Phase.ROLL and s.active == 0 and s.pawns[0] == (YARD, YARD, YARD, 0)


def test_b4_four_bonus_granted_for_unused_six_by_default_and_not_with_switch():
    """B.4.4 DEFAULT: an unusable 6 still grants the bonus; B.7 six_bonus_if_unused = false: it does not."""
    s = pos({"red": [53, 54, 55, 56], "green": Y4}, roll=6)
    assert s.active == 0 and s.phase is Phase.ROLL and s.last_event == "no_move"
    s = pos({"red": [53, 54, 55, 56], "green": Y4}, roll=6, six_bonus_if_unused=False)
    assert s.active == 1


def test_b4_non_six_passes_turn_clockwise_and_resets_counter():
    """B.4.5: after a non-6 the turn passes clockwise; the six counter resets."""
    s = pos({"red": [3, "yard", "yard", "yard"], "green": Y4, "blue": Y4}, sixes=1, roll=2)
    s = s.apply(Move(3, 2))
    assert s.active == 1 and s.sixes_in_row == 0 and s.colours == ("red", "green", "blue")


# -- B.5 legality ------------------------------------------------------------------------------------

def test_b5_exact_finish_and_b8_overshoot_only_move_passes():
    """B.5 exact finish; B.8: a roll that only allows an overshoot: no move, pass (not a 6)."""
    assert moves({"red": [53, 56, 56, 56], "green": Y4}, 4) == {"forfeit": False, "moves": [], "next": "green"}
    assert moves({"red": [53, 56, 56, 56], "green": Y4}, 3)["moves"] == [[53, 56]]
    s = pos({"red": [53, 56, 56, 56], "green": Y4}, roll=4)
    assert s.active == 1


def test_b7_overshoot_bounce():
    """B.7 overshoot = bounce: advance to the finish, then back by the excess."""
    assert moves({"red": [53, 56, 56, 56], "green": Y4}, 5, overshoot="bounce")["moves"] == [[53, 54]]
    # mensch40: a bounce that would leave the home squares is not allowed (engine decision)
    assert moves({"red": [42, 41, 5, 9], "green": Y4}, 5, board="mensch40", overshoot="bounce",
                 home_no_jump=False)["moves"] == [[5, 10], [9, 14], [41, 40]]  # 42 + 5 -> 39: off home
    assert moves({"red": [40, 12, 5, 9], "green": Y4}, 6, board="mensch40", overshoot="bounce",
                 home_no_jump=False)["moves"] == [[5, 11], [9, 15], [12, 18]]   # 40 + 6 -> 40: no move


def test_b5_own_pawn_on_destination_forbidden_and_b7_allowed():
    """B.5: no landing on an own pawn; B.7 own_stacking = allowed: they share."""
    p = {"red": [3, 5, "yard", "yard"], "green": Y4}
    assert moves(p, 2)["moves"] == [[5, 7]]
    assert moves(p, 2, own_stacking="allowed")["moves"] == [[3, 5], [5, 7]]


def test_b5_entering_blocked_by_own_pawn_on_start():
    """B.5: entering is blocked when the player's own pawn already sits on the start square."""
    assert moves({"red": [0, "yard", "yard", "yard"], "green": Y4}, 6)["moves"] == [[0, 6]]


def test_b5_capture_sends_opponent_home_and_passing_is_allowed():
    """B.5: an opponent on the destination is captured; passing over pawns is allowed."""
    # green relative 40 = absolute (13 + 40) % 52 = 1; red at 0 rolls 1
    s = pos({"red": [0, "yard", "yard", "yard"], "green": [40, 39, "yard", "yard"]}, roll=1)
    s = s.apply(Move(0, 1))
    assert s.pawns[1] == (YARD, YARD, YARD, 39) and s.pawns[0] == (YARD, YARD, YARD, 1)


def test_b8_capture_with_the_entering_move():
    """B.8 / B.5: an opponent on your start square is captured by entering."""
    # green relative 39 = absolute 0 (red's start)
    s = pos({"red": Y4, "green": [39, "yard", "yard", "yard"]}, roll=6).apply(Move(YARD, 6))
    assert s.pawns[1] == (YARD,) * 4 and s.pawns[0] == (YARD, YARD, YARD, 0)


def test_b5_home_column_is_private():
    """B.5: home squares are private: an opponent never lands there and nothing is captured there."""
    s = pos({"red": [51, "yard", "yard", "yard"], "green": [50, "yard", "yard", "yard"]}, to_move="green", roll=1)
    s = s.apply(Move(50, 1))
    assert s.pawns[0] == (YARD, YARD, YARD, 51) and s.pawns[1] == (YARD, YARD, YARD, 51)


def test_b2_relative_50_leads_into_home_column_not_past_start():
    """B.2: relative 50 is below the home column; the pawn never passes its own start again."""
    assert moves({"red": [48, "yard", "yard", "yard"], "green": Y4}, 4)["moves"] == [[48, 52]]
    assert moves({"red": [35, "yard", "yard", "yard"], "green": Y4}, 5, board="mensch40")["moves"] == [[35, 40]]


# -- B.7 variants ----------------------------------------------------------------------------------

def test_b7_entry_rolls_one_and_six():
    """B.7 entry_rolls = {1, 6}: a 1 also enters."""
    assert moves({"red": Y4, "green": Y4}, 1)["moves"] == []
    assert moves({"red": Y4, "green": Y4}, 1, entry_rolls=[1, 6])["moves"] == [["yard", 0]]


def test_b7_safe_squares_no_capture_and_coexist():
    """B.7 safe_squares: on a star or start square different colours coexist (B.2 indices)."""
    p = {"red": [5, "yard", "yard", "yard"], "green": [47, "yard", "yard", "yard"]}  # green 47 = abs 8 (star)
    s = pos(p, roll=3, safe_squares="starts_and_stars").apply(Move(5, 3))
    assert s.pawns[1] == (YARD, YARD, YARD, 47) and s.pawns[0] == (YARD, YARD, YARD, 8)
    s = pos(p, roll=3, safe_squares="starts").apply(Move(5, 3))
    assert s.pawns[1] == (YARD,) * 4


def test_b7_capture_on_opponent_start_false():
    """B.7 capture_on_opponent_start = false: a pawn on its own start cannot be captured; both share."""
    p = {"red": [10, "yard", "yard", "yard"], "green": [0, "yard", "yard", "yard"]}  # green start = abs 13
    assert pos(p, roll=3).apply(Move(10, 3)).pawns[1] == (YARD,) * 4
    s = pos(p, roll=3, capture_on_opponent_start=False).apply(Move(10, 3))
    assert s.pawns[1] == (YARD, YARD, YARD, 0) and s.pawns[0] == (YARD, YARD, YARD, 13)


def test_b8_two_opponents_on_one_square_both_captured():
    """B.8 DEFAULT: a capture sends both opponent pawns on the square home (stacking variant)."""
    p = {"red": [10, "yard", "yard", "yard"], "green": [2, 2, "yard", "yard"]}  # abs 15
    s = pos(p, roll=5, own_stacking="allowed").apply(Move(10, 5))
    assert s.pawns[1] == (YARD,) * 4


def test_b7_blocks_cannot_be_passed_or_landed_on():
    """B.7 own_stacking = block: two own pawns form a blockade no pawn may pass or land on."""
    p = {"red": [10, "yard", "yard", "yard"], "green": [2, 2, "yard", "yard"]}  # green block at abs 15
    assert moves(p, 5, own_stacking="block")["moves"] == []
    assert moves(p, 6, own_stacking="block")["moves"] == [["yard", 0]]
    assert moves(p, 4, own_stacking="block")["moves"] == [[10, 14]]
    # own pawns may form a block by landing on one own pawn
    assert moves({"red": [3, 5, "yard", "yard"], "green": Y4}, 2, own_stacking="block")["moves"] == [[3, 5], [5, 7]]


def test_b7_bonus_on_capture_and_finish():
    """B.7 bonus_on_capture / bonus_on_finish: one extra roll each."""
    p = {"red": [0, "yard", "yard", "yard"], "green": [40, "yard", "yard", "yard"]}
    assert pos(p, roll=1).apply(Move(0, 1)).active == 1
    s = pos(p, roll=1, bonus_on_capture=True).apply(Move(0, 1))
    assert s.active == 0 and s.phase is Phase.ROLL
    f = {"red": [53, "yard", "yard", "yard"], "green": Y4}
    assert pos(f, roll=3).apply(Move(53, 3)).active == 1
    assert pos(f, roll=3, bonus_on_finish=True).apply(Move(53, 3)).active == 0


def test_b7_split_six_moves_pools_rolls():
    """B.7 split_six_moves: keep the 6, roll again, spend 6 and 3 on different pawns in any order."""
    s = pos({"red": [10, "yard", "yard", "yard"], "green": Y4}, roll=6, split_six_moves=True)
    assert s.phase is Phase.ROLL and s.pool == (6,)
    s = s.apply(Roll(3))
    assert set(s.legal_actions()) == {Move(10, 3), Move(10, 6), Move(YARD, 6)}
    s = s.apply(Move(10, 3))
    assert s.active == 0 and s.legal_actions() == (Move(YARD, 6), Move(13, 6))
    s = s.apply(Move(YARD, 6))
    assert s.active == 1 and s.pawns[0] == (YARD, YARD, 0, 13)


def test_b6_places_and_finished_players_are_skipped():
    """B.6: a player with all pawns home takes the next place; the last remaining takes the last."""
    s = pos({"red": [53, 56, 56, 56], "green": [1, "yard", "yard", "yard"], "yellow": Y4}, roll=3)
    s = s.apply(Move(53, 3))
    assert s.placings == (0,) and s.active == 1
    s = s.apply(Roll(2)).apply(Move(1, 2)).apply(Roll(1))  # yellow loses the roll -> green, never red
    assert s.active == 1
    s2 = pos({"red": [53, 56, 56, 56], "green": Y4}, roll=3).apply(Move(53, 3))
    assert s2.phase is Phase.OVER and s2.outcome().placings == (0, 1) and s2.current_player == TERMINAL


def test_b6_play_for_places_false_stops_at_first_finisher():
    """B.7 play_for_places = false: the game stops when the first player finishes."""
    s = pos({"red": [53, 56, 56, 56], "green": [3, "yard", "yard", "yard"], "yellow": [30, 2, "yard", "yard"]},
            roll=3, play_for_places=False).apply(Move(53, 3))
    assert s.phase is Phase.OVER and s.outcome().placings == (0, 2, 1) and s.outcome().winner == 0


# -- B.2b mensch40 ---------------------------------------------------------------------------------

def test_b2b_mensch40_three_entry_attempts():
    """B.2b entry_attempts_when_all_in_yard = 3 (mensch40 DEFAULT): up to three rolls for a 6."""
    s = pos({"red": Y4, "green": Y4}, board="mensch40", roll=2)
    assert s.active == 0 and s.phase is Phase.ROLL
    s = s.apply(Roll(3))
    assert s.active == 0
    s = s.apply(Roll(4))
    assert s.active == 1
    assert pos({"red": Y4, "green": Y4}, board="mensch40", entry_attempts_when_all_in_yard=1, roll=2).active == 1
    # a pawn on the track: one roll only
    assert pos({"red": [5, "yard", "yard", "yard"], "green": Y4}, board="mensch40", roll=2).apply(
        Move(5, 2)).active == 1


def test_b2b_three_tries_only_when_no_pawn_could_move_with_any_roll():
    """B.2b (reworded): a pawn on the first home square can still step on with a 1-3, so its player rolls
    once; the same pawn packed on the last home square cannot, so the player gets the tries."""
    may_step = {"red": ["yard", "yard", "yard", 40], "yellow": Y4}
    assert moves(may_step, 5, board="mensch40") == {"forfeit": False, "moves": [], "next": "yellow"}
    assert pos(may_step, board="mensch40").stuck_outside_yard() is False
    packed = {"red": ["yard", "yard", "yard", 43], "yellow": Y4}
    assert pos(packed, board="mensch40").stuck_outside_yard() is True
    assert moves(packed, 5, board="mensch40")["next"] == "red"


def test_position_tries_count_the_rolls_already_used_for_a_six():
    def after(tries: int, roll: int = 5) -> dict:
        return position_moves({"board": "mensch40", "pawns": {"red": Y4, "yellow": Y4}, "to_move": "red",
                               "roll": roll, "tries": tries})

    assert after(1)["next"] == "red" and after(2)["next"] == "yellow"
    assert after(2, roll=6) == {"forfeit": False, "moves": [["yard", 0]], "next": None}
    with pytest.raises(ValueError, match="tries must be 0-2"):
        after(3)
    with pytest.raises(ValueError, match="tries must be 0-0"):
        position_moves({"board": "ludo52", "pawns": {"red": Y4, "yellow": Y4}, "to_move": "red", "roll": 5,
                        "tries": 1})


def test_next_after_a_lost_roll_and_after_a_third_six():
    assert moves({"red": [3, "yard", "yard", "yard"], "green": Y4}, 6, sixes=2) == {
        "forfeit": True, "moves": [], "next": "green"}
    assert moves({"red": Y4, "green": Y4}, 6, sixes=0)["next"] is None  # a six enters a pawn


def test_b2b_mensch40_must_clear_start():
    """B.2b must_clear_start: the pawn on the start square must move away first while others wait."""
    p = {"red": [0, 7, "yard", "yard"], "green": Y4}
    assert moves(p, 3, board="mensch40")["moves"] == [[0, 3]]
    assert moves(p, 3, board="mensch40", must_clear_start=False)["moves"] == [[0, 3], [7, 10]]
    # when the start pawn cannot move, another may
    assert moves({"red": [0, 3, "yard", "yard"], "green": Y4}, 3, board="mensch40")["moves"] == [[3, 6]]


def test_b2b_mensch40_home_no_jump_and_journey_ends_in_home():
    """B.2b home_no_jump: inside home no passing or landing on own pawns; 4 home squares 40..43."""
    p = {"red": [38, 41, "yard", "yard"], "green": Y4}
    assert moves(p, 4, board="mensch40")["moves"] == []            # 38 -> 42 would pass 41
    assert moves(p, 2, board="mensch40")["moves"] == [[38, 40], [41, 43]]
    assert moves(p, 4, board="mensch40", home_no_jump=False)["moves"] == [[38, 42]]
    s = pos({"red": [39, 41, 42, 43], "green": Y4}, board="mensch40", roll=1).apply(Move(39, 1))
    assert s.phase is Phase.OVER and s.placings == (0, 1)


def test_b2b_must_capture():
    """B.2b must_capture (house rule): when a capture is possible only capturing moves are legal."""
    p = {"red": [0, 20, "yard", "yard"], "green": [33, "yard", "yard", "yard"]}  # green 33 = abs 3 on mensch40
    assert moves(p, 3, board="mensch40", must_clear_start=False)["moves"] == [[0, 3], [20, 23]]
    assert moves(p, 3, board="mensch40", must_clear_start=False, must_capture=True)["moves"] == [[0, 3]]


def test_b8_unused_colours_start_is_ordinary_square():
    """B.8: with 2 players an unused colour's start square is ordinary (capture_on_opponent_start only
    protects a pawn on its OWN start)."""
    p = {"red": [10, "yard", "yard", "yard"], "yellow": [39, "yard", "yard", "yard"]}  # yellow 39 = abs 13
    s = pos(p, roll=3, capture_on_opponent_start=False).apply(Move(10, 3))
    assert s.pawns[1] == (YARD,) * 4


def test_b8_must_move_player_may_not_decline():
    """B.8: the player chooses among legal moves but cannot pass while one exists."""
    s = pos({"red": [3, 9, "yard", "yard"], "green": Y4}, roll=2)
    assert s.phase is Phase.MOVE and s.current_player == 0 and len(s.legal_actions()) == 2
    with pytest.raises(IllegalMove, match="B.5"):
        s.apply(Move(4, 2))
    with pytest.raises(IllegalMove, match="B.4.1"):
        s.apply(Roll(3))


# -- plumbing ---------------------------------------------------------------------------------------

def test_first_player_and_chance_outcomes():
    """B.3: the first player is a chance outcome; then the die has six faces."""
    s = LudoState.new(3)
    assert s.current_player == CHANCE and len(s.chance_outcomes()) == 3
    s = s.apply(StartWith(2))
    assert s.active == 2 and [a for a, _ in s.chance_outcomes()] == [Roll(v) for v in range(1, 7)]
    with pytest.raises(IllegalMove):
        s.apply(Roll(7))


def test_json_round_trip_and_actions():
    s = pos({"red": [3, 9, "yard", "yard"], "green": Y4}, roll=6, own_stacking="block")
    assert LudoState.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    for a in (StartWith(1), Roll(4), Move(YARD, 6), Move(12, 3)):
        assert action_from_dict(action_to_dict(a)) == a


def test_variant_errors():
    with pytest.raises(VariantError, match="unknown Ludo variant key"):
        LudoConfig.from_variant({"colour": "red"})
    with pytest.raises(VariantError):
        LudoConfig.from_variant({"overshoot": "wrap"})
    with pytest.raises(VariantError):
        LudoConfig.from_variant({"entry_rolls": "7"})
    assert LudoConfig.from_variant({"board": "mensch40"}).entry_attempts_when_all_in_yard == 3
    assert LudoConfig.from_variant({"entry_rolls": "1,6"}).entry_rolls == (1, 6)


def test_position_errors():
    with pytest.raises(ValueError, match="4 pawns"):
        moves({"red": ["yard"], "green": Y4}, 6)
    with pytest.raises(ValueError, match="0-43"):
        moves({"red": [44, "yard", "yard", "yard"], "green": Y4}, 6, board="mensch40")
    with pytest.raises(ValueError, match="to_move"):
        moves({"red": Y4, "green": Y4}, 6, to_move="blue")


def test_cli_contract_exact_output(tmp_path):
    """`companion ludo moves FILE... --json`: one JSON line per file (issue 4 contract)."""
    files = [str(FIXTURES / "issue_example.json"), str(FIXTURES / "third_six.json")]
    out = subprocess.run([sys.executable, "-m", "companion", "ludo", "moves", *files, "--json"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert [json.loads(line) for line in out] == [
        {"file": files[0], "forfeit": False, "moves": [["yard", 0], [5, 11], [51, 55]], "next": None},
        {"file": files[1], "forfeit": True, "moves": [], "next": "green"},
    ]


# -- B.2c dga56 ------------------------------------------------------------------------------------

def test_b2c_dga56_seats_its_colours_clockwise_as_printed():
    dga = LudoConfig.from_variant({"board": "dga56"})
    assert LudoState.new(4, dga).colours == ("red", "blue", "yellow", "green")
    assert LudoState.new(3, dga).colours == ("red", "blue", "yellow")
    assert LudoState.new(2, dga).colours == ("red", "yellow")
    assert LudoState.new(3, LudoConfig()).colours == ("red", "green", "yellow")
    from companion.games.ludo import load_board

    geo = load_board("dga56")
    assert (geo.track_length, geo.track_positions, geo.last_relative) == (56, 56, 61)
    assert [geo.colours[c].start_offset for c in geo.clockwise] == [0, 14, 28, 42]


def test_b2c_dga56_numbering_track_0_55_home_56_60_finish_61():
    pawns = {"red": ["yard", 5, 55, 60], "blue": Y4, "yellow": Y4, "green": Y4}
    assert moves(pawns, 6, board="dga56")["moves"] == [["yard", 0], [5, 11], [55, 61]]
    assert moves(pawns, 1, board="dga56")["moves"] == [[5, 6], [55, 56], [60, 61]]
    s = pos({"red": Y4, "blue": [0, "yard", "yard", "yard"]}, board="dga56")
    assert s.absolute(1, 0) == 14  # blue's start square
    with pytest.raises(ValueError, match="0-61 on dga56"):
        moves({"red": [62, "yard", "yard", "yard"], "yellow": Y4}, 1, board="dga56")
