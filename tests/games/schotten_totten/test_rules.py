"""Schotten Totten / Battle Line rules: one test per rule or edge case of schotten-totten.md C.2-C.11."""

from fractions import Fraction

import pytest

from companion.errors import IllegalMove, VariantError
from companion.games import CHANCE, TERMINAL
from companion.games.schotten_totten import (Card, Claim, Draw, EndClaims, Pass, Phase, Play, SchottenTottenConfig,
    SchottenTottenGame, SchottenTottenState, StartWith, Stone, action_from_dict, action_to_dict, formation_key,
    formation_rank, parse_card, state_from_position)


def C(code: str) -> Card:
    return parse_card(code)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(C(c) for c in text.split())


def dealt(config=None, hands=("R1 R2 R3 R4 R5 R6", "B1 B2 B3 B4 B5 B6"), start=0) -> SchottenTottenState:
    """A full state after START and the deal, seat ``start`` to play."""
    state = SchottenTottenState.new(config).apply(StartWith(start))
    order = [cards(hands[start]), cards(hands[1 - start])]
    for i in range(len(order[0])):
        state = state.apply(Draw(order[0][i])).apply(Draw(order[1][i]))
    return state


def position(stones: dict[int, dict], variant="schotten-totten") -> SchottenTottenState:
    raw = [{"a": [], "b": [], "first_complete": None, "owner": None} for _ in range(9)]
    for i, stone in stones.items():
        raw[i].update(stone)
    return state_from_position({"variant": variant, "stones": raw})


# -- C.2 / C.9 components and parameters ---------------------------------------------------------------

def test_c2_deck_has_54_cards_of_6_colours_and_values_1_to_9():
    deck = SchottenTottenConfig().deck
    assert len(deck) == 54 and len(set(deck)) == 54
    assert {c.value for c in deck} == set(range(1, 10)) and {c.colour for c in deck} == set(range(6))


def test_c9_battle_line_has_values_1_to_10_and_hand_7():
    config = SchottenTottenConfig(game="battle-line")
    assert len(config.deck) == 60 and config.max_value == 10 and config.hand_size == 7
    assert SchottenTottenConfig().hand_size == 6


def test_c9_card_codes_parse_and_reject_values_outside_the_deck():
    assert C("R5") == Card(0, 5) and C("p10") == Card(5, 10) and Card(3, 7).code == "G7"
    with pytest.raises(ValueError):
        parse_card("R10", 9)
    with pytest.raises(ValueError):
        parse_card("X5")


def test_config_rejects_unknown_keys_bad_values_and_tactics():
    with pytest.raises(VariantError, match="claim_timing"):
        SchottenTottenConfig.from_variant({"claim_timing": "never"})
    with pytest.raises(VariantError, match="unknown"):
        SchottenTottenConfig.from_variant({"speed": "1"})
    with pytest.raises(VariantError, match="C.10"):
        SchottenTottenConfig.from_variant({"tactics": "true"})
    config = SchottenTottenConfig.from_variant({"variant": "battle-line", "match_length": "5"})
    assert config.game == "battle-line" and config.match_length == 5


# -- C.3 setup ------------------------------------------------------------------------------------------

def test_c3_start_then_deal_six_each_alternating_from_the_starter():
    state = SchottenTottenState.new()
    assert state.current_player == CHANCE and state.pile == 54
    assert state.chance_outcomes() == ((StartWith(0), Fraction(1, 2)), (StartWith(1), Fraction(1, 2)))
    state = state.apply(StartWith(1)).apply(Draw(C("R1")))
    assert state.hands == ((), (C("R1"),))
    state = dealt(start=1)
    assert state.phase is Phase.PLAY and state.active == 1 and state.pile == 42 and state.turn == 1
    assert state.hands[1] == cards("B1 B2 B3 B4 B5 B6")


def test_c3_battle_line_deals_seven():
    state = dealt(SchottenTottenConfig(game="battle-line"),
                  hands=("R1 R2 R3 R4 R5 R6 R7", "B1 B2 B3 B4 B5 B6 B7"))
    assert state.phase is Phase.PLAY and state.pile == 46


def test_full_state_draws_are_uniform_over_the_pile():
    state = dealt()
    state = state.apply(Play(C("R1"), 0))
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 42 and all(p == Fraction(1, 42) for _, p in outcomes)
    assert Draw(C("R1")) not in [a for a, _ in outcomes]


# -- C.4 turn -------------------------------------------------------------------------------------------

def test_c4_play_then_draw_then_the_other_player():
    state = dealt().apply(Play(C("R3"), 4))
    assert state.stones[4].cards[0] == (C("R3"),) and state.phase is Phase.DRAW and state.current_player == CHANCE
    state = state.apply(Draw(C("G9")))
    assert C("G9") in state.hands[0] and len(state.hands[0]) == 6
    assert state.active == 1 and state.phase is Phase.PLAY and state.turn == 2


def test_c4_card_must_come_from_hand():
    with pytest.raises(IllegalMove, match="C.4"):
        dealt().apply(Play(C("B1"), 0))


def test_c4_at_most_three_cards_a_side():
    state = position({0: {"a": ["R1", "R2", "R3"]}})
    state = SchottenTottenState(config=state.config, phase=Phase.PLAY, active=0, stones=state.stones,
                                hands=(cards("R4"), ()), pile=10, turn=1)
    with pytest.raises(IllegalMove, match="3 cards"):
        state.apply(Play(C("R4"), 0))
    assert Play(C("R4"), 0) not in state.legal_actions()


def test_c6_nobody_plays_at_a_claimed_stone():
    state = position({2: {"owner": "b"}})
    state = SchottenTottenState(config=state.config, phase=Phase.PLAY, active=0, stones=state.stones,
                                hands=(cards("R4"), ()), pile=10, turn=1)
    with pytest.raises(IllegalMove, match="C.6"):
        state.apply(Play(C("R4"), 2))


def test_c4_pass_only_when_no_card_can_be_played():
    with pytest.raises(IllegalMove, match="may not pass"):
        dealt().apply(Pass())
    full = Stone((cards("R1 R2 R3"), ()), (1, None), None)
    closed = Stone(((), ()), (None, None), 1)
    stones = (full,) * 4 + (closed,) * 5
    state = SchottenTottenState(config=SchottenTottenConfig(), phase=Phase.PLAY, active=0, stones=stones,
                                hands=(cards("G5"), cards("B5")), pile=3, turn=5)
    assert state.legal_actions() == (Pass(),)
    after = state.apply(Pass())  # C.11: stuck with cards in hand -> skip the play step, still draw
    assert after.phase is Phase.DRAW and after.hands[0] == cards("G5")


def test_c4_empty_pile_skips_the_draw():
    state = dealt()
    state = SchottenTottenState(config=state.config, phase=Phase.PLAY, active=0, stones=state.stones,
                                hands=state.hands, pile=0, turn=3)
    after = state.apply(Play(C("R1"), 0))
    assert after.phase is Phase.PLAY and after.active == 1 and len(after.hands[0]) == 5
    with pytest.raises(IllegalMove, match="empty"):
        SchottenTottenState(config=state.config, phase=Phase.DRAW, active=0, stones=state.stones,
                            hands=state.hands, pile=0).apply(Draw(None))


def test_c4_claim_after_play_before_draw_by_default():
    state = dealt(hands=("R7 R8 O1 O2 O3 O4", "B1 B2 B3 B4 B5 B6"))
    stones = list(state.stones)
    stones[0] = Stone((cards("R9"), ()), (None, None), None)
    state = SchottenTottenState(config=state.config, phase=Phase.PLAY, active=0, stones=tuple(stones),
                                hands=state.hands, pile=10, turn=1)
    state = state.apply(Play(C("R8"), 0)).apply(Draw(C("Y1"))).apply(Play(C("B1"), 5)).apply(Draw(C("Y2")))
    state = state.apply(Play(C("R7"), 0))
    assert state.phase is Phase.CLAIM and state.legal_actions() == (Claim(0), EndClaims())
    state = state.apply(Claim(0))  # nothing else claimable: on to the draw
    assert state.stones[0].owner == 0 and state.phase is Phase.DRAW


def test_c4_start_of_turn_claim_timing():
    config = SchottenTottenConfig(claim_timing="start_of_turn")
    state = dealt(config, hands=("R7 R8 O1 O2 O3 O4", "B1 B2 B3 B4 B5 B6"))
    stones = list(state.stones)
    stones[0] = Stone((cards("R9"), ()), (None, None), None)
    state = SchottenTottenState(config=config, phase=Phase.PLAY, active=0, stones=tuple(stones),
                                hands=state.hands, pile=10, turn=1)
    state = state.apply(Play(C("R8"), 0)).apply(Draw(C("Y1"))).apply(Play(C("B1"), 5)).apply(Draw(C("Y2")))
    state = state.apply(Play(C("R7"), 0))
    assert state.phase is Phase.DRAW  # no claim right after the play under start_of_turn
    state = state.apply(Draw(C("Y3"))).apply(Play(C("B2"), 5)).apply(Draw(C("Y4")))
    assert state.active == 0 and state.phase is Phase.CLAIM and Claim(0) in state.legal_actions()
    state = state.apply(Claim(0))
    assert state.phase is Phase.PLAY and state.stones[0].owner == 0


# -- C.5 formations ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("codes, key", [
    ("R4 R6 R5", (5, 15)),  # colour run, any order
    ("R7 B7 G7", (4, 21)),  # three of a kind
    ("B1 B5 B9", (3, 15)),  # colour
    ("R3 B4 G5", (2, 12)),  # run
    ("R9 B1 G2", (1, 12)),  # 9-1-2 is not a run (no wrap-around)
    ("R1 R2 R4", (3, 7)),
])
def test_c5_formation_keys(codes, key):
    assert formation_key(cards(codes)) == key


def test_c5_rank_order_beats_sum():
    assert formation_key(cards("R1 R2 R3")) > formation_key(cards("R9 B9 G9"))
    assert formation_key(cards("R9 B9 G9")) > formation_key(cards("P2 P5 P9"))
    assert formation_key(cards("P1 P2 P4")) > formation_key(cards("R7 B8 G9"))
    assert formation_key(cards("R1 B2 G3")) > formation_key(cards("R9 B9 G8"))
    assert formation_rank(cards("R1 R2 R3 R4")) == 5  # four-card formations (Mud, C.10) are judged too


def test_c5_tie_goes_to_the_side_completed_first():
    state = dealt(hands=("R3 O1 O2 O3 O4 O5", "B3 Y1 Y2 Y4 Y5 Y6"))
    stones = list(state.stones)
    stones[0] = Stone((cards("R1 R2"), cards("B1 B2")), (None, None), None)
    state = SchottenTottenState(config=state.config, phase=Phase.PLAY, active=0, stones=tuple(stones),
                                hands=state.hands, pile=10, turn=1, plays=4)
    state = state.apply(Play(C("R3"), 0))  # a completes first: colour run (5, 6)
    assert state.phase is Phase.CLAIM  # b can only equal it with B3: the proof holds (C.6)
    state = state.apply(EndClaims()).apply(Draw(C("G1")))
    state = state.apply(Play(C("B3"), 0))  # b: B1 B2 B3, equal key (5, 6), completed second
    assert state.stones[0].completed == (5, 6) and state.stones[0].first_complete() == 0
    assert state.claim_verdict(0, 0).claimable and state.claim_verdict(0, 1).reason == "weaker"


# -- C.6 claims -----------------------------------------------------------------------------------------

def test_c6_claim_needs_three_own_cards_even_when_certain():
    state = position({0: {"a": ["R8", "R9"], "b": ["B1", "G2", "Y4"]}})
    assert state.claim_verdict(0, 0).reason == "incomplete"
    assert state.claimable_stones(0) == () and state.claimable_stones(1) == ()


def test_c6_proof_before_the_opponent_completes():
    state = position({0: {"a": ["R7", "R8", "R9"], "b": ["B2", "B3"]}})
    assert state.claimable_stones(0) == (0,)  # colour run 24 is the best formation of the deck


def test_c6_proof_refused_with_a_beating_completion():
    state = position({0: {"a": ["R1", "O1", "Y1"], "b": ["B2", "B3"]}})
    verdict = state.claim_verdict(0, 0)
    assert not verdict.claimable and verdict.reason == "proof"
    assert verdict.beating[:2] == cards("B2 B3") and formation_key(verdict.beating) > (4, 3)


def test_c6_proof_succeeds_when_the_needed_cards_are_on_the_table():
    # b holds B8 B9: a colour run needs B7, a colour any blue; a's three 9s... use the table to block.
    stones = {0: {"a": ["R9", "O9", "Y9"], "b": ["B8", "G8"]}, 1: {"a": ["P8", "R8"], "b": ["O8", "Y8"]}}
    assert position(stones).claimable_stones(0) == (0,)  # no 8 left: b's best is a run/sum below 27
    stones[1] = {"a": ["P8"], "b": ["O8"]}  # R8 and Y8 unseen: b could make a three of a kind of 8s = 24 < 27
    assert position(stones).claimable_stones(0) == (0,)


def test_c6_equal_key_is_enough_for_a_proof():
    # a: colour run 7-8-9 of red (24); b: B7 B8 -> B9 gives an equal colour run 24, not strictly better.
    state = position({0: {"a": ["R7", "R8", "R9"], "b": ["B7", "B8"]}})
    assert state.claimable_stones(0) == (0,)


def test_c6_hands_are_not_proof():
    # The cards that would beat a lie in a's own hand: the claim is still refused.
    base = position({0: {"a": ["R1", "O1", "Y1"], "b": ["B2", "B3"]}})
    state = SchottenTottenState(config=base.config, phase=Phase.PLAY, active=0, stones=base.stones,
                                hands=(cards("B1 B4"), ()), pile=10, turn=1)
    assert state.claim_verdict(0, 0).reason == "proof"


def test_c6_claimed_stone_cannot_be_claimed_again():
    state = position({0: {"a": ["R7", "R8", "R9"], "b": ["B2", "B3"], "owner": "a"}})
    assert state.claimable_stones(0) == () and state.claim_verdict(0, 0).reason == "claimed"


def test_c6_claim_of_an_unprovable_stone_is_illegal():
    base = position({0: {"a": ["R1", "O1", "Y1"], "b": ["B2", "B3"]}})
    state = SchottenTottenState(config=base.config, phase=Phase.CLAIM, active=0, stones=base.stones,
                                hands=((), ()), pile=10, turn=1)
    with pytest.raises(IllegalMove, match="C.6"):
        state.apply(Claim(0))


def test_position_with_unknown_first_complete_and_equal_keys_blocks_both():
    state = position({0: {"a": ["R1", "R2", "R3"], "b": ["B1", "B2", "B3"]}})
    assert state.claimable_stones(0) == () and state.claimable_stones(1) == ()
    assert state.claim_verdict(0, 0).reason == "tie_unknown"
    state = position({0: {"a": ["R1", "R2", "R3"], "b": ["B1", "B2", "B3"], "first_complete": "b"}})
    assert state.claimable_stones(1) == (0,)


def test_position_file_errors():
    with pytest.raises(ValueError, match="twice"):
        position({0: {"a": ["R1"], "b": ["R1"]}})
    with pytest.raises(ValueError, match="at most 3"):
        position({0: {"a": ["R1", "R2", "R3", "R4"]}})
    with pytest.raises(ValueError, match="R10"):
        position({0: {"a": ["R10"]}})
    assert position({0: {"a": ["R10"]}}, variant="battle-line").stones[0].cards[0] == (Card(0, 10),)


# -- C.7 end of the game -------------------------------------------------------------------------------

def _claim_state(owned: dict[int, int], claim: int) -> SchottenTottenState:
    stones = [Stone(((), ()), (None, None), owned.get(i)) for i in range(9)]
    stones[claim] = Stone((cards("R7 R8 R9"), ()), (1, None), None)
    return SchottenTottenState(config=SchottenTottenConfig(), phase=Phase.CLAIM, active=0, stones=tuple(stones),
                               hands=(cards("G1"), cards("G2")), pile=10, turn=9)


def test_c7_three_adjacent_stones_win_immediately():
    end = _claim_state({3: 0, 5: 0}, 4).apply(Claim(4))
    assert end.phase is Phase.OVER and end.winner == 0 and end.ended == "breakthrough"
    assert end.current_player == TERMINAL and end.outcome().scores == (5, 0)


def test_c7_five_stones_win():
    end = _claim_state({0: 0, 2: 0, 6: 0, 8: 0, 5: 1}, 4).apply(Claim(4))
    assert end.ended == "envelopment" and end.winner == 0 and end.outcome().scores == (5, 1)
    running = _claim_state({0: 0, 6: 0, 8: 0}, 3).apply(Claim(3))  # 4 stones, none 3 adjacent
    assert running.phase is Phase.DRAW and running.winner is None


def test_c11_game_can_end_in_the_middle_of_claims():
    stones = [Stone(((), ()), (None, None), None) for _ in range(9)]
    for i in (0, 1, 2, 7):
        stones[i] = Stone((cards(["R7 R8 R9", "O7 O8 O9", "Y7 Y8 Y9", "G7 G8 G9"][[0, 1, 2, 7].index(i)]), ()),
                          (1, None), None)
    state = SchottenTottenState(config=SchottenTottenConfig(), phase=Phase.CLAIM, active=0, stones=tuple(stones),
                                hands=((), ()), pile=10, turn=9)
    state = state.apply(Claim(0)).apply(Claim(1))
    assert state.phase is Phase.CLAIM
    state = state.apply(Claim(2))
    assert state.phase is Phase.OVER and state.stones[7].owner is None


# -- C.8 match points / C.11 stall -----------------------------------------------------------------------

def test_c11_stall_ends_the_game_most_stones_wins_or_draw():
    # b has no cards and empty slots; a is stuck with a card; the unseen card is a's: no proof possible.
    full_a = Stone((cards("R1 R2 R4"), ()), (1, None), None)
    stones = (full_a,) + (Stone(((), ()), (None, None), 0),) * 2 + (Stone(((), ()), (None, None), 1),) * 6
    state = SchottenTottenState(config=SchottenTottenConfig(), phase=Phase.PLAY, active=0, stones=stones,
                                hands=(cards("G5"), ()), pile=0, turn=30)
    end = state.apply(Pass())
    assert end.phase is Phase.OVER and end.ended == "stall" and end.winner == 1
    draw_config = SchottenTottenConfig(stall_resolution="draw")
    end = SchottenTottenState(config=draw_config, phase=Phase.PLAY, active=0, stones=stones,
                              hands=(cards("G5"), ()), pile=0, turn=30).apply(Pass())
    assert end.winner is None and end.outcome().scores == (2, 6)


# -- hidden information (ARCHITECTURE.md) and JSON ----------------------------------------------------

def test_observation_hides_the_other_hand_and_table_side_play_accepts_unseen_cards():
    state = dealt()
    view = state.observation(0)
    assert view.hands[0] == state.hands[0] and view.hands[1] == (None,) * 6
    table = state.public().apply(Play(C("G7"), 2))  # any card not yet seen may come from an unknown hand
    assert table.stones[2].cards[0] == (C("G7"),) and len(table.hands[0]) == 5
    assert table.chance_outcomes() == ((Draw(None), Fraction(1)),)
    with pytest.raises(IllegalMove):
        table.apply(Draw(None)).apply(Play(C("G7"), 3))  # already on the table


def test_state_and_actions_round_trip_json():
    state = dealt().apply(Play(C("R2"), 3)).apply(Draw(None))
    assert SchottenTottenState.from_dict(state.to_dict()) == state
    for action in (StartWith(1), Draw(None), Draw(C("B9")), Play(C("P10"), 8), Pass(), Claim(3), EndClaims()):
        assert action_from_dict(action_to_dict(action)) == action
    assert SchottenTottenGame().new_initial_state() == SchottenTottenState.new()
