"""Nothing stuck after a power cut (issue 42): what follows a cut log, the crash bench's ``stuck`` check, and
one short run of `companion bench power-cut`."""

from __future__ import annotations

import json

import pytest

from companion.bench.crash import ChildRun, check_trial
from companion.bench.presses import following, make_plan
from companion.cli import main
from companion.paths import STORE_FILE_NAME
from companion.session.schotten_totten import SchottenTottenSession
from companion.store import Store


@pytest.fixture(scope="module")
def schotten_plan():
    return make_plan("schotten-totten", 1)


def _cut_store(plan, state_dir, events):
    """A store holding the first ``events`` events of ``plan``'s game, as a kill could leave it."""
    state_dir.mkdir(parents=True, exist_ok=True)
    with Store(state_dir / STORE_FILE_NAME) as store:
        game_id = store.new_game(plan.game, plan.players, plan.variant)
        for kind, payload in plan.log[:events]:
            store.append_event(game_id, kind, payload)
    return [(seq, kind, payload) for seq, (kind, payload) in enumerate(plan.log[:events], start=1)]


def _card_then_draw(plan):
    """The events of the log once a card was played, before its draw (a press that stores two events)."""
    for i, chunk in enumerate(plan.chunks):
        if chunk.events - plan.events_before(i) == 2 and plan.log[chunk.events - 1][1].get("type") == "draw":
            return chunk.events - 1
    raise AssertionError("no card played with its draw in the plan")


def test_the_plan_counts_the_events_of_each_action(schotten_plan):
    plan = schotten_plan
    assert plan.chunks[-1].events == len(plan.log)
    for i, chunk in enumerate(plan.chunks):  # an action with presses stores events; an automatic one none
        assert bool(chunk.presses) == (chunk.events > plan.events_before(i)), (i, chunk)
    assert plan.next_chunk(0) == 0 and plan.boundary(plan.chunks[3].events)


def test_a_log_cut_between_a_card_and_its_draw_resumes_and_goes_on(schotten_plan, tmp_path):
    plan = schotten_plan
    cut = _card_then_draw(plan)
    before = _cut_store(plan, tmp_path, cut)
    follow = following(plan, tmp_path, actions=1)
    assert follow.refused == "" and follow.presses
    assert follow.events == cut + 1 and plan.boundary(follow.events)  # the resumed session drew the card
    assert follow.through > follow.events
    # the restart stored the draw and the next action's events, as the reference did
    after = [(seq, kind, payload) for seq, (kind, payload) in enumerate(plan.log[:follow.through], start=1)]
    restart = ChildRun(records=[{"start": 1, "events": follow.events, "state": "s"}], status=0)
    assert check_trial({}, before, after, 1, plan.log, restart, "s", follow.through) == (0, 0, False, False)


def test_a_resumed_game_that_refuses_the_next_card_is_stuck(schotten_plan, tmp_path, monkeypatch):
    plan = schotten_plan
    cut = _card_then_draw(plan)
    before = _cut_store(plan, tmp_path, cut)
    monkeypatch.setattr(SchottenTottenSession, "_automatic", lambda self: None)  # an older box: no draw on resume
    follow = following(plan, tmp_path, actions=1)
    assert follow.refused and follow.events == cut
    restart = ChildRun(records=[{"start": 1, "events": cut, "state": "s"}], status=0)
    lost, duplicated, diverged, stuck = check_trial({}, before, before, 1, plan.log, restart, "s", follow.through)
    assert stuck and (lost, duplicated, diverged) == (0, 0, False)


def test_a_finished_game_has_nothing_to_follow(schotten_plan, tmp_path):
    plan = schotten_plan
    _cut_store(plan, tmp_path, len(plan.log))
    with Store(tmp_path / STORE_FILE_NAME) as store:
        store.finish_game(1, {"winner": plan.players[0], "placings": plan.players})
    assert following(plan, tmp_path).finished


def test_power_cut_runs_a_game_through_two_kills(capsys):
    assert main(["bench", "power-cut", "--game", "donkey-race", "--runs", "1", "--kills", "2", "--seed", "3",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["runs"] == 1 and result["runs_same"] == 1 and result["stuck"] == 0 and result["kills"] >= 1
