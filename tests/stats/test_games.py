"""Each game's after-game summary (companion.stats.<game>.summarise) from its event log: placings,
scores, the course and the tallies, checked against what the game did."""

import random

import pytest

from companion.agents.cant_stop import AGENTS as CS_AGENTS
from companion.agents.cant_stop import _chance as cs_chance
from companion.agents.ludo import AGENTS as LUDO_AGENTS
from companion.agents.ludo import chance as ludo_chance
from companion.cli import main
from companion.games import TERMINAL
from companion.games.cant_stop import CantStopConfig, CantStopState, bust_chance
from companion.games.cant_stop import action_to_dict as cs_dict
from companion.games.ludo import LudoConfig, LudoState
from companion.games.ludo import action_to_dict as ludo_dict
from companion.registry import game
from companion.stats import cant_stop as cs_stats
from companion.stats import game_summary
from companion.stats import ludo as ludo_stats
from companion.store import Event, Store
from tests.paths import FIXTURES


def _play(state, agents, chance, to_dict, seed):
    """A whole seeded game through the engine: (its events as the store keeps them, its states)."""
    rng = random.Random(seed)
    events, states = [], [state]
    while state.current_player != TERMINAL:
        action = chance(state, rng) if state.current_player < 0 else agents[state.current_player](state, rng)
        state = state.apply(action)
        events.append(Event(1, len(events) + 1, "action", to_dict(action), ""))
        states.append(state)
    return events, states


def test_cant_stop_busts_against_the_odds_and_the_course():
    start = CantStopState.new(2)
    events, states = _play(start, [CS_AGENTS["advisor"], CS_AGENTS["random"]], cs_chance, cs_dict, seed=4)
    summary = cs_stats.summarise(events, ["Ada", "Ben"], CantStopConfig())
    final = states[-1]
    assert summary.placings == final.outcome().placings and summary.scores == final.outcome().scores
    busts, expected, rolls = [0, 0], [0.0, 0.0], [0, 0]
    for event, before, after in zip(events, states, states[1:]):
        if event.payload["type"] == "roll":
            rolls[before.active] += 1
            expected[before.active] += float(bust_chance(before))
            busts[before.active] += not before.choices_for(tuple(event.payload["dice"]))
    assert [(t.count, t.out_of) for t in summary.tallies] == list(zip(busts, rolls))
    assert [t.expected for t in summary.tallies] == [pytest.approx(e, abs=0.01) for e in expected]
    turns = final.turn  # the course has one point a turn, the last one the final position
    assert [len(s) for s in summary.course.series] == [turns, turns]
    winner = final.winner
    assert summary.course.series[winner][-1] >= final.config.columns_to_win
    assert cs_stats.progress(final, winner) == summary.course.series[winner][-1]


def test_ludo_sixes_captures_and_pawns_home():
    start = LudoState.new(2, LudoConfig().resolved())
    events, states = _play(start, [LUDO_AGENTS["advisor"], LUDO_AGENTS["random"]], ludo_chance, ludo_dict, seed=3)
    summary = ludo_stats.summarise(events, ["Ada", "Ben"], LudoConfig())
    sixes, rolls, captures = [0, 0], [0, 0], [0, 0]
    for before, after, event in zip(states, states[1:], events):
        action = event.payload
        if action["type"] == "roll":
            rolls[before.active] += 1
            sixes[before.active] += action["value"] == 6
        if action["type"] == "move":
            info = next(i for i in before.move_infos() if ludo_dict(i.move) == action)
            captures[before.active] += sum(count for _, count in info.captures)
    assert {(t.seat, t.kind): t.count for t in summary.tallies} == {
        (0, "sixes"): sixes[0], (1, "sixes"): sixes[1], (0, "captures"): captures[0], (1, "captures"): captures[1]}
    assert [t.expected for t in summary.tallies if t.kind == "sixes"] == [round(r / 6, 2) for r in rolls]
    winner = summary.placings[0]
    assert summary.scores[winner] == 4 and summary.course.series[winner][-1] == 4.0
    assert all(0 <= v <= 4 for s in summary.course.series for v in s)


def test_donkey_race_positions_round_by_round(app_env):
    assert main(["play", "donkey-race", "--headless", "--players", "Ada,Ben", "--variant", "track_length=4",
                 "--camera", "none", "--input", f"script:{FIXTURES / 'donkey_race' / 'short_game.script'}",
                 "--new"]) == 0
    with Store(app_env / "state" / "companion.sqlite3") as store:
        record = store.finished_games("donkey-race")[0]
        summary = game_summary(store, record.id)
    assert [summary.players[s] for s in summary.placings] == ["Ben", "Ada"]
    assert dict(zip(summary.players, summary.scores)) == record.result["points"] == {"Ada": 1, "Ben": 4}
    assert [len(s) for s in summary.course.series] == [record.result["rounds"]] * 2
    assert summary.course.series[1][-1] >= 4 and summary.tallies == ()


def test_schotten_totten_stones_over_the_match(app_env):
    assert main(["play", "schotten-totten", "--headless", "--camera", "none", "--input",
                 f"script:{FIXTURES / 'schotten_totten' / 'game.script'}", "--players", "Ada,Ben", "--seed", "1",
                 "--variant", "match_length=1"]) == 0
    with Store(app_env / "state" / "companion.sqlite3") as store:
        record = store.finished_games("schotten-totten")[0]
        summary = game_summary(store, record.id)
    assert summary.players[summary.placings[0]] == record.result["winner"] == "Ada"
    ada = summary.course.series[0]
    assert list(ada) == sorted(ada) and ada[-1] >= 3  # claimed stones stay claimed (C.6); a win takes 3 or 5
    assert summary.scores[0] == 5


def test_every_game_has_a_stats_module():
    for name in ("cant-stop", "ludo", "schotten-totten", "donkey-race"):
        assert callable(game(name).module("stats").summarise)


def test_schotten_totten_course_ends_at_the_result():
    """Issue 37: the claim that wins the game (C.7) is the course's last point, so the winner's line ends
    at the stones it won with; turns count the plays and passes, not the draws."""
    from companion.agents.schotten_totten import advisor_agent, greedy_agent
    from companion.games.schotten_totten import Draw, Pass, Play, SchottenTottenConfig, SchottenTottenState, StartWith
    from companion.games.schotten_totten import action_to_dict as st_dict
    from companion.stats import schotten_totten as st_stats

    rng = random.Random(5)
    state, events, plays = SchottenTottenState.new(), [], set()
    agents = (greedy_agent, advisor_agent)
    while state.current_player != TERMINAL:
        if state.current_player < 0:
            action = StartWith(0) if state.active < 0 else Draw(rng.choice(state.unknown_cards()))
        else:
            action = agents[state.active](state.observation(state.active), rng)
            if isinstance(action, (Play, Pass)):
                plays.add(state.turn)
        state = state.apply(action)
        events.append(Event(1, len(events) + 1, "action", st_dict(action), ""))
    summary = st_stats.summarise(events, ["Ada", "Ben"], SchottenTottenConfig(match_length=1))
    assert [series[-1] for series in summary.course.series] == [float(state.stones_of(0)), float(state.stones_of(1))]
    assert summary.course.series[state.winner][-1] >= 3 and summary.turns == len(plays)
    assert len(events) > summary.turns  # the deal and the draws are no turns


def test_turns_played_in_every_game():
    start = CantStopState.new(2)
    events, states = _play(start, [CS_AGENTS["advisor"], CS_AGENTS["random"]], cs_chance, cs_dict, seed=4)
    assert cs_stats.summarise(events, ["Ada", "Ben"], CantStopConfig()).turns == states[-1].turn
    start = LudoState.new(2, LudoConfig().resolved())
    events, states = _play(start, [LUDO_AGENTS["advisor"], LUDO_AGENTS["random"]], ludo_chance, ludo_dict, seed=3)
    assert ludo_stats.summarise(events, ["Ada", "Ben"], LudoConfig()).turns == states[-1].turn
