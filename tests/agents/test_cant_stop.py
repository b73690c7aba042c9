"""The simulation driver and its agents (companion/agents/base.py; ARCHITECTURE.md `companion simulate`)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.agents import run_simulation
from companion.agents.base import game_rng
from companion.agents.cant_stop import AGENTS, MAX_TURNS, _chance, play_game, random_agent
from companion.errors import UserError, VariantError
from companion.games.cant_stop import CantStopState, Phase, StartWith


def test_output_shape():
    result = run_simulation("cant-stop", ["advisor", "random", "random"], 6, seed=3)
    assert set(result) == {"games", "wins", "wins_by_seat", "mean_turns"}
    assert result["games"] == 6 and set(result["wins"]) == {"advisor", "random"}
    assert len(result["wins_by_seat"]) == 3 and isinstance(result["mean_turns"], float)
    assert result["wins"]["advisor"] == result["wins_by_seat"][0]
    assert result["wins"]["random"] == result["wins_by_seat"][1] + result["wins_by_seat"][2]
    assert sum(result["wins_by_seat"]) == 6  # nobody reaches the turn cap


def test_deterministic_for_a_seed():
    runs = [run_simulation("cant-stop", ["random", "advisor"], 10, seed=42) for _ in range(2)]
    assert runs[0] == runs[1]
    assert run_simulation("cant-stop", ["random", "random"], 10, seed=42) == \
        run_simulation("cant-stop", ["random", "random"], 10, seed=42)


def test_solo_counts_turns_to_claim_the_columns():
    result = run_simulation("cant-stop", ["advisor"], 10, seed=1)
    assert result["wins"] == {"advisor": 10} and result["wins_by_seat"] == [10]
    assert 3 <= result["mean_turns"] <= 30
    quick = run_simulation("cant-stop", ["advisor"], 10, seed=1, variant={"columns_to_win": "1"})
    assert quick["mean_turns"] < result["mean_turns"]


def test_mean_turns_is_the_winners_own_turns():
    rng = game_rng(9, 0)  # the first game's own random source
    winner, turns = play_game(CantStopState.new(2), [AGENTS["random"], AGENTS["advisor"]], rng)
    result = run_simulation("cant-stop", ["random", "advisor"], 1, seed=9)
    assert result["mean_turns"] == turns[winner] and result["wins_by_seat"][winner] == 1


def test_first_player_is_drawn_fairly_from_the_seed():
    starts = Counter(_chance(CantStopState.new(3), random.Random(seed)).seat for seed in range(600))
    assert set(starts) == {0, 1, 2} and all(150 <= n <= 250 for n in starts.values())


def test_turn_cap_ends_as_a_draw():
    winner, turns = play_game(CantStopState.new(2), [random_agent, random_agent], random.Random(1), max_turns=3)
    assert winner is None and sum(turns) == 3
    assert MAX_TURNS >= 100


def test_agents_return_legal_actions():
    rng = random.Random(2)
    state = CantStopState.new(2).apply(StartWith(0))
    for _ in range(300):
        if state.phase is Phase.OVER:
            break
        if state.phase in (Phase.CHOOSE, Phase.DECIDE):
            for name in ("random", "advisor"):
                assert AGENTS[name](state, rng) in state.legal_actions()
            state = state.apply(random_agent(state, rng))
        else:
            state = state.apply(_chance(state, rng))


def test_unknown_agent_lists_the_known_ones():
    with pytest.raises(UserError, match="unknown agent 'genius'; known agents: advisor, random, rule28"):
        run_simulation("cant-stop", ["advisor", "genius"], 1, seed=0)


def test_unknown_game_is_refused():
    with pytest.raises(UserError, match="^unknown game 'chess'"):
        run_simulation("chess", ["random"], 1, seed=0)


@pytest.mark.parametrize("agents, games", [([], 1), (["random"] * 5, 1), (["random"], 0)])
def test_bad_counts_are_refused(agents, games):
    with pytest.raises(UserError):
        run_simulation("cant-stop", agents, games, seed=0)


def test_bad_variant_is_refused():
    with pytest.raises(VariantError, match="columns_to_win"):
        run_simulation("cant-stop", ["random"], 1, seed=0, variant={"columns_to_win": "0"})


def test_rule28_agent_is_listed_and_plays_solo():
    assert "rule28" in AGENTS
    result = run_simulation("cant-stop", ["rule28"], 20, seed=4)
    assert result["wins"] == {"rule28": 20} and 7.0 <= result["mean_turns"] <= 16.0


def test_the_figures_do_not_depend_on_the_worker_processes():
    from companion.agents import run_simulation

    for name, agents in (("cant-stop", ["advisor", "rule28"]), ("ludo", ["advisor", "random", "random"]),
                         ("schotten-totten", ["greedy", "random"]), ("donkey-race", ["advisor", "random"])):
        one = run_simulation(name, agents, 6, 5, jobs=1)
        assert run_simulation(name, agents, 6, 5, jobs=3) == one, name
        assert sum(one["wins_by_seat"]) <= 6
