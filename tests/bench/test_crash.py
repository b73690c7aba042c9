"""`companion bench crash`: SIGKILL at random moments loses nothing, duplicates nothing, diverges nowhere,
and the resumed game takes the next action's presses (nothing stuck)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.app.trace import EventTrace
from companion.bench import run_crash_bench
from companion.bench.crash import ChildRun, check_trial


def test_ten_random_kills_lose_duplicate_and_stick_nothing():
    # the bench runs in a process of its own: its forked children then inherit a fresh interpreter, not
    # this test process's threads, locks and handlers left by the tests run before it in the same worker
    done = subprocess.run([sys.executable, "-m", "companion", "bench", "crash", "--game", "cant-stop", "--trials",
                           "10", "--seed", "7", "--script-lines", "24", "--json", "--verbose"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    lines = [line for line in done.stderr.splitlines() if line.startswith("trial ")]
    assert result == {"trials": 10, "lost": 0, "duplicated": 0, "diverged": 0, "stuck": 0}, lines
    stored = {int(line.split(" stored")[0].rsplit(" ", 1)[1]) for line in lines}
    assert len(stored) >= 3, f"the kills should land at different moments of the game: {sorted(stored)}"


def _restart(state):
    return ChildRun(records=[{"start": 1, "events": 2, "state": state}], status=0)


REF = [("action", {"type": "start"}), ("action", {"type": "roll", "dice": [1, 2, 3, 4]}),
       ("action", {"type": "choose"})]


def test_the_checker_counts_a_lost_event():
    shown = {1: REF[0], 2: REF[1]}
    before = after = [(1, *REF[0])]
    assert check_trial(shown, before, after, 1, REF, _restart("s"), "s") == (1, 0, False, False)


def test_the_checker_counts_an_event_appended_by_the_restart_and_a_second_game():
    before = [(1, *REF[0])]
    after = [(1, *REF[0]), (2, *REF[0])]
    lost, duplicated, diverged, _stuck = check_trial({1: REF[0]}, before, after, 2, REF, _restart("s"), "s")
    assert (lost, duplicated) == (0, 1 + 1 + 1) and diverged  # appended, second game, repeat; not a prefix


def test_the_checker_flags_a_restart_state_that_is_not_the_replay():
    before = after = [(1, *REF[0]), (2, *REF[1])]
    assert check_trial({}, before, after, 1, REF, _restart("resumed"), "replayed") == (0, 0, True, False)
    assert check_trial({}, before, after, 1, REF, ChildRun(status=2), "replayed")[2]


class _FakeStore:
    def __init__(self):
        self.log = []

    def events(self, game_id):
        return list(self.log)


class _Event:
    def __init__(self, seq, payload):
        self.seq, self.kind, self.payload = seq, "action", payload


class _Session:
    game_id = 1
    state = None


def test_the_trace_reports_new_and_undone_events(capsys):
    store = _FakeStore()
    store.log = [_Event(1, {"a": 1})]
    trace = EventTrace(store, _Session())
    store.log.append(_Event(2, {"b": 2}))
    trace.shown()
    trace.shown()  # nothing new
    store.log.pop()
    trace.shown()
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == [{"start": 1, "events": 1, "state": "None"},
                     {"shown": 2, "kind": "action", "payload": {"b": 2}}, {"dropped": 2}]


@pytest.mark.parametrize("game", ["ludo", "schotten-totten", "donkey-race"])
def test_the_other_games_survive_kills_too(game):
    result = run_crash_bench(game, trials=2, seed=5, script_lines=20)
    assert result == {"trials": 2, "lost": 0, "duplicated": 0, "diverged": 0, "stuck": 0}
