"""Schotten Totten hints (public alerts, card advisor) and the simulate driver."""

import random

import pytest

from companion.agents import run_simulation
from companion.agents.schotten_totten import greedy_agent, simulate
from companion.errors import UserError
from companion.games.schotten_totten import (Claim, EndClaims, Pass, Phase, Play, SchottenTottenConfig,
    SchottenTottenState, Stone, parse_card, state_from_position)
from companion.hints.schotten_totten import advise, next_turn_claims, public_alerts


def cards(text: str):
    return tuple(parse_card(c) for c in text.split())


def position(stones: dict[int, dict]) -> SchottenTottenState:
    raw = [{"a": [], "b": [], "first_complete": None, "owner": None} for _ in range(9)]
    for i, stone in stones.items():
        raw[i].update(stone)
    return state_from_position({"variant": "schotten-totten", "stones": raw})


def with_hands(state: SchottenTottenState, a: str, b: str, active=0, phase=Phase.PLAY) -> SchottenTottenState:
    return SchottenTottenState(config=state.config, phase=phase, active=active, stones=state.stones,
                               hands=(cards(a), cards(b)), pile=20, turn=5)


def test_public_alerts_claimable_threatened_and_win_threat():
    state = position({
        0: {"a": ["R7", "R8", "R9"], "b": ["B1", "G2"]},  # a may claim now (C.6 proof)
        3: {"b": ["O8", "O9"], "a": ["Y1", "G1", "P2"]},  # b needs O7 for a colour run: claimable next turn
        4: {"b": ["O5"], "owner": "b"}, 5: {"owner": "b"},
    })
    alerts = public_alerts(with_hands(state, "P9", "P8", active=0))
    assert alerts.claimable == (0,)
    assert alerts.threatened == (3,) and alerts.win_threat  # stones 3, 4, 5 adjacent for b
    assert next_turn_claims(state, 0) == (0,)


def test_alerts_use_public_information_only():
    state = position({3: {"b": ["O8", "O9"], "a": ["Y1", "G1", "P2"]}})
    # O7 in a's hand changes nothing: the table does not show it (ARCHITECTURE.md hidden information)
    assert public_alerts(with_hands(state, "O7", "P8")).threatened == (3,)


def test_advisor_claims_then_ends_claims_and_passes_when_stuck():
    state = position({0: {"a": ["R7", "R8", "R9"], "b": ["B1", "G2"]}})
    claim = with_hands(state, "P9", "P8", phase=Phase.CLAIM)
    assert advise(claim, 0).action == Claim(0)
    nothing = with_hands(position({}), "P9", "P8", phase=Phase.CLAIM)
    assert advise(nothing, 0).action == EndClaims()
    full = Stone((cards("R1 R2 R4"), ()), (1, None), None)
    stuck = SchottenTottenState(config=SchottenTottenConfig(), phase=Phase.PLAY, active=0,
                                stones=(full,) * 4 + (Stone(((), ()), (None, None), 1),) * 5,
                                hands=(cards("G5"), cards("B5")), pile=3, turn=5)
    assert advise(stuck, 0).action == Pass()
    with pytest.raises(ValueError):
        advise(stuck, 1)


def test_advisor_takes_a_sure_stone_with_its_last_card():
    state = position({2: {"a": ["R7", "R8"], "b": ["B1", "G2"]}, 5: {"a": ["Y1"], "b": ["P9", "O9"]}})
    hint = advise(with_hands(state, "R9", "Y9 P8"), 0)
    assert hint.action == Play(parse_card("R9"), 2) and hint.numbers["stone_chance"] == 1.0


def test_advisor_does_not_waste_a_high_card_on_a_lost_stone():
    state = position({5: {"b": ["P7", "P8", "P9"]}, 3: {"a": ["G1"], "b": ["B2"]}})
    hint = advise(with_hands(state, "R9 O1", "Y9"), 0)
    assert hint.action != Play(parse_card("R9"), 5)


def test_advisor_ignores_the_opponents_hand():
    rng = random.Random(2)
    state = SchottenTottenState.new()
    from companion.agents.schotten_totten import play_game  # noqa: F401 (same driver)
    from companion.games import CHANCE
    from companion.games.schotten_totten import Draw, StartWith
    while state.turn < 12:
        if state.current_player == CHANCE:
            state = state.apply(StartWith(0) if state.phase is Phase.START else Draw(rng.choice(state.unknown_cards())))
        else:
            state = state.apply(greedy_agent(state, rng))
    seat = state.active
    assert state.phase is Phase.PLAY
    assert advise(state, seat) == advise(state.observation(seat), seat)
    assert advise(state, seat).action in state.legal_actions()


def test_greedy_plays_the_best_formation_then_fuller_stone_then_higher_card():
    state = position({1: {"a": ["G5", "G6"]}, 4: {"a": ["B9"]}})
    # G7 at stone 1 makes a colour run: the best formation
    assert greedy_agent(with_hands(state, "G7 B8 R2", "P1"), random.Random(0)) == Play(parse_card("G7"), 1)
    # no run possible: B8 with B9 is a 2-card colour run (5, 17), better than any single card
    assert greedy_agent(with_hands(state, "B8 R2", "P1"), random.Random(0)) == Play(parse_card("B8"), 4)


def test_simulate_output_shape_and_alternating_seats():
    result = simulate(["advisor", "random"], 6, 3)
    assert set(result) == {"games", "wins", "wins_by_seat", "mean_turns"} and result["games"] == 6
    assert sum(result["wins"].values()) == sum(result["wins_by_seat"]) <= 6
    assert result["wins"]["advisor"] >= 5 and result["mean_turns"] > 10
    assert run_simulation("schotten-totten", ["greedy", "greedy"], 2, 1) == simulate(["greedy", "greedy"], 2, 1)
    bl = simulate(["greedy", "random"], 2, 1, {"game": "battle-line"})
    assert bl["games"] == 2
    with pytest.raises(UserError, match="unknown agent"):
        simulate(["advisor", "nobody"], 1, 1)
    with pytest.raises(UserError, match="2 agents"):
        simulate(["advisor"], 1, 1)


def test_one_card_a_turn_completes_one_stone_so_three_open_sides_are_no_win_next_turn():
    """Issue 51: "Ada may win next turn (stones 1, 2 and 3)" when Ada had two cards at each: she plays one
    card a turn, so at most one of them can be claimed next turn (C.4)."""
    state = position({0: {"b": ["R8", "R9"]}, 1: {"b": ["G8", "G9"]}, 2: {"b": ["B8", "B9"]}})
    alerts = public_alerts(with_hands(state, "P1", "P2", active=0))
    assert alerts.threatened == (0, 1, 2) and not alerts.win_threat and alerts.winning == ()
    # with stones 1 and 2 held, completing stone 0 is enough: a real win threat, naming the stones it claims
    held = position({0: {"b": ["R8", "R9"]}, 1: {"owner": "b"}, 2: {"owner": "b"}})
    alerts = public_alerts(with_hands(held, "P1", "P2", active=0))
    assert alerts.win_threat and alerts.winning == (0,)


def test_with_claims_at_the_start_of_a_turn_only_what_is_claimable_now_is_threatened():
    from dataclasses import replace

    state = position({3: {"b": ["O8", "O9"], "a": ["Y1", "G1", "P2"]}})
    state = replace(state, config=SchottenTottenConfig(claim_timing="start_of_turn"))
    assert public_alerts(with_hands(state, "P9", "P8", active=0)).threatened == ()


def test_a_formations_total_is_called_a_sum():
    """#51: "three of a kind 6" (three 2s) was read as three sixes."""
    from companion.hints.schotten_totten.words import formation_label

    assert formation_label((4, 6)) == "three of a kind (sum 6)"
    assert formation_label((1, 26)) == "sum 26"
    assert formation_label((4, 6), short=True) == "3 of a kind (sum 6)"
