"""The donkey race advisor and the simulation driver (donkey-race.md D.4-D.5; ARCHITECTURE.md simulate)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.agents import run_simulation
from companion.errors import UserError
from companion.games.donkey_race import JOKER, DonkeyRaceConfig, DonkeyRaceState, Pass, Phase, Play
from companion.hints.donkey_race import advise


def position(hands, *, leader=0, config=None) -> DonkeyRaceState:
    config = config or DonkeyRaceConfig()
    rest = list(config.composition())
    for card in (c for h in hands for c in h):
        rest.remove(card)
    return replace(DonkeyRaceState.new(len(hands), config), phase=Phase.PLAY,
                   hands=tuple(tuple(sorted(h)) for h in hands), deck=tuple(sorted(rest)), draw_queue=(),
                   round_no=1, leader=leader, active=leader)


def test_lead_the_biggest_set_of_low_cards():
    hint = advise(position([(5, 5, 2), (1, 2, 3), (4, 4, 4)]), 0)
    assert hint.action == Play((5, 5)) and "must match 2 cards" in hint.reason


def test_with_three_or_four_players_a_pair_of_12s_is_kept():
    assert advise(position([(12, 12, 4), (1, 2, 3), (4, 4, 6)]), 0).action == Play((4,))
    assert advise(position([(12, 12, 4), (1, 2, 3)]), 0).action == Play((12, 12))  # two players: any pair


def test_two_players_lead_the_top_card_alone():
    hint = advise(position([(13, 2, 2), (1, 2, 3)]), 0)
    assert hint.action == Play((13,)) and "ends at once" in hint.reason


def test_raise_minimally_and_play_rather_than_pass():
    state = position([(3, 1, 1), (13, 6, 9), (4, 5, 5)]).apply(Play((3,)))
    hint = advise(state, 1)
    assert hint.action == Play((6,)) and hint.numbers["to_beat"] == 3.0 and hint.numbers["sure_highest"] == 0.0
    assert hint.numbers["unseen_higher"] > 0


def test_jokers_are_spent_last():
    config = DonkeyRaceConfig(jokers=2)
    state = position([(3, 1, 1), (JOKER, 8, 9), (4, 5, 5)], config=config).apply(Play((3,)))
    assert advise(state, 1).action == Play((8,))


def test_pass_when_nothing_beats_and_table_side_advice_has_no_action():
    state = position([(13, 1, 1), (2, 6, 9), (4, 5, 5)]).apply(Play((13,)))
    assert advise(state, 1).action == Pass()
    table = state.observation(None)
    hint = advise(table, 1)
    assert hint.action is None and "above 13" in hint.reason
    assert advise(state, 0).action is None  # not this seat's turn


def test_simulate_output_shape_and_determinism():
    result = run_simulation("donkey-race", ["advisor", "random", "random"], 20, seed=3)
    assert set(result) == {"games", "wins", "wins_by_seat", "mean_turns"}
    assert result["games"] == 20 and set(result["wins"]) == {"advisor", "random"}
    assert result["wins"]["random"] == result["wins_by_seat"][1] + result["wins_by_seat"][2]
    assert 5 <= result["mean_turns"] <= 40
    assert result == run_simulation("donkey-race", ["advisor", "random", "random"], 20, seed=3)


def test_advisor_beats_random_players_clearly():
    # a small sample; the 2000-game figures are in the report (companion simulate ... --games 2000)
    result = run_simulation("donkey-race", ["advisor", "random"], 150, seed=11)
    assert result["wins"]["advisor"] >= 120


def test_simulate_variants_and_errors():
    short = run_simulation("donkey-race", ["random", "random"], 10, seed=1, variant={"track_length": "5"})
    full = run_simulation("donkey-race", ["random", "random"], 10, seed=1)
    assert short["mean_turns"] < full["mean_turns"]
    with pytest.raises(UserError, match="unknown agent"):
        run_simulation("donkey-race", ["advisor", "genius"], 1, seed=1)
    with pytest.raises(UserError, match="2 to 4"):
        run_simulation("donkey-race", ["advisor"], 1, seed=1)
    with pytest.raises(ValueError, match="track_length"):
        run_simulation("donkey-race", ["advisor", "random"], 1, seed=1, variant={"track_length": "0"})


def test_endgame_finish_with_a_play_nobody_can_beat():
    state = position([(3, 1, 1), (2, 6, 9), (4, 8, 13)]).apply(Play((3,)))
    state = replace(state, points=(10, 5, 18), positions=(10, 5, 18)).apply(Play((6,)))
    hint = advise(state, 2)  # the last to act: any raise is sure, the cheapest is enough
    assert hint.action == Play((8,)) and "wins the game" in hint.reason
    early = position([(3, 1, 1), (4, 8, 13), (2, 6, 9)]).apply(Play((3,)))
    early = replace(early, points=(10, 18, 5), positions=(10, 18, 5))
    assert advise(early, 1).action == Play((13,))  # not last: only the top value is sure


def test_endgame_deny_a_player_who_could_finish_ahead():
    state = position([(3, 1, 1), (2, 6, 12), (4, 5, 13)])
    state = replace(state, points=(10, 5, 18), positions=(10, 5, 18)).apply(Play((3,)))
    hint = advise(state, 1)  # seat 2 acts after and would win with 2 points
    assert hint.action == Play((12,)) and "raise as high" in hint.reason


def test_a_player_holding_fewer_cards_than_the_lead_is_told_to_pass_even_table_side():
    from dataclasses import replace

    from companion.games.donkey_race import CONFIG, GAME, Pass
    from companion.games.donkey_race.rules import UNKNOWN
    from companion.hints.donkey_race import advise

    state = GAME(3, CONFIG()).new_initial_state()
    while state.phase.value != "play" or state.count == 0:
        state = state.apply(state.legal_actions()[0]) if state.current_player >= 0 else state.apply(
            state.chance_outcomes()[0][0])
    seat = state.active
    hands = list(state.hands)
    hands[seat] = (UNKNOWN,) * (state.count - 1)
    hint = advise(replace(state, hands=tuple(hands)), seat)
    assert hint.action == Pass() and "pass" in hint.reason


def test_a_player_who_played_this_round_is_told_that_passing_keeps_the_point():
    """#51: "passing scores 0" was shown to a player who had played in the round and so keeps 1 point
    (donkey-race.md D.4.5); the table-side advice names the donkey card, not 0."""
    from companion.games.donkey_race import DONKEY

    two = position([(3, 1, 9), (5, 6, 12)])  # two players: Ada leads 3, Ben raises 5, Ada is to act again
    state = two.apply(Play((3,))).apply(Play((5,)))
    assert state.active == 0
    assert advise(state, 0).reason.endswith("passing keeps your 1.")
    table = advise(state.observation(None), 0).reason
    assert table == "Raise with your lowest card above 5 to score 2; passing keeps your 1."
    first = advise(two.apply(Play((3,))).observation(None), 1).reason  # Ben has not played yet
    assert first == "Raise with your lowest card above 3; passing scores 0."
    donkey = position([(DONKEY, 1, 9), (5, 6, 12)]).apply(Play((DONKEY,)))
    assert "above donkey" in advise(donkey.observation(None), 1).reason


def test_two_players_are_told_to_lead_the_top_card_alone_table_side():
    """#51: with two players, a lone 13 ends the round at once (D.4.3); the shared screen said only "keep
    the 12s and 13s"."""
    two = position([(13, 1, 9), (5, 6, 12)])
    assert advise(two.observation(None), 0).reason == (
        "Lead a 13 alone if you hold one: nothing beats it. Else your biggest set of low cards.")
    three = position([(13, 1, 9), (5, 6, 12), (2, 3, 4)])
    assert advise(three.observation(None), 0).reason == "Lead your biggest set of low cards; keep the 12s and 13s."
