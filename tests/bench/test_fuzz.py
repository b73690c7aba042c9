"""`companion bench fuzz`: random play over random variants with every action and invariant checked."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from companion.bench import FuzzReport, run_fuzz
from companion.cli import main
from companion.errors import IllegalMove
from companion.registry import game as game_entry
from companion.registry import names

# Games per engine in the tests (the benchmark runs many more; Ludo games are long).
GAMES = {"cant-stop": 20, "donkey-race": 25, "schotten-totten": 10, "ludo": 6}


def engine_of(game: str):
    """The fuzzer's engine of ``game`` (its bench module's ``fuzz_engine``)."""
    return game_entry(game).module("bench").fuzz_engine()


def use_engine(monkeypatch, game: str, engine) -> None:
    """Make the fuzzer use ``engine`` for ``game`` for this test."""
    monkeypatch.setattr(game_entry(game).module("bench"), "fuzz_engine", lambda: engine)


def test_every_game_of_the_registry_has_an_engine():
    assert sorted(GAMES) == sorted(names())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_games_break_no_rule_and_no_invariant(game):
    report = FuzzReport()
    result = run_fuzz(game, GAMES[game], seed=3, report=report)
    assert result["games"] == GAMES[game] and result["steps"] > 10 * GAMES[game]
    assert result["violations"] == 0, report.examples


def test_the_fuzzer_finds_an_engine_that_accepts_an_illegal_action(monkeypatch):
    engine = engine_of("cant-stop")
    state_type = type(engine.new_state(__import__("random").Random(0)))
    original = state_type.apply

    def lenient(self, action):
        try:
            return original(self, action)
        except IllegalMove:
            return self  # accepts anything

    monkeypatch.setattr(state_type, "apply", lenient)
    report = FuzzReport()
    assert run_fuzz("cant-stop", 2, seed=1, report=report)["violations"] > 0
    assert any("was accepted" in text for text in report.examples)


def test_the_fuzzer_finds_a_broken_invariant(monkeypatch):
    engine = engine_of("cant-stop")
    broken = replace(engine, invariants=lambda state, previous, memo: ["always"])
    use_engine(monkeypatch, "cant-stop", broken)
    assert run_fuzz("cant-stop", 1, seed=1)["violations"] >= 1


def test_the_command_prints_the_figures(capsys):
    assert main(["bench", "fuzz", "--game", "donkey-race", "--games", "5", "--seed", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"games", "steps", "violations"} and result["games"] == 5 and result["steps"] > 0


def test_an_unknown_game_is_a_one_line_error(capsys):
    assert main(["bench", "fuzz", "--game", "chess", "--games", "1"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_a_dice_game_at_the_step_limit_is_unfinished_but_a_bounded_one_is_a_violation(monkeypatch):
    short = replace(engine_of("cant-stop"), max_steps=3)
    use_engine(monkeypatch, "cant-stop", short)
    report = FuzzReport()
    assert run_fuzz("cant-stop", 2, seed=1, report=report) == {"games": 2, "steps": 6, "violations": 0}
    assert report.unfinished == 2
    use_engine(monkeypatch, "cant-stop", replace(short, bounded=True))
    assert run_fuzz("cant-stop", 2, seed=1)["violations"] == 2


def test_the_figures_do_not_depend_on_the_number_of_worker_processes():
    one = run_fuzz("donkey-race", 6, seed=4)
    two = run_fuzz("donkey-race", 6, seed=4, jobs=2)
    assert one == two and one["games"] == 6 and one["steps"] > 60


def test_a_violation_found_by_a_worker_reaches_the_report(monkeypatch):
    use_engine(monkeypatch, "donkey-race",
               replace(engine_of("donkey-race"), invariants=lambda state, previous, memo: ["always"]))
    report = FuzzReport()
    result = run_fuzz("donkey-race", 4, seed=1, report=report, jobs=2)
    assert result["violations"] == result["steps"] + 4  # once per position, the final one included
    assert len(report.examples) == FuzzReport.MAX_EXAMPLES and report.examples[0].startswith("game 0 step 0")


@pytest.mark.parametrize("broken", [
    lambda outcomes: outcomes[:-1],  # probabilities sum below 1
    lambda outcomes: ((outcomes[0][0], outcomes[0][1] * 0),) + outcomes[1:],  # a zero probability
])
def test_the_fuzzer_finds_chance_outcomes_that_do_not_sum_to_one(monkeypatch, broken):
    engine = engine_of("ludo")
    state_type = type(engine.new_state(__import__("random").Random(0)))
    original = state_type.chance_outcomes
    monkeypatch.setattr(state_type, "chance_outcomes", lambda self: broken(original(self)) if original(self) else ())
    report = FuzzReport()
    assert run_fuzz("ludo", 1, seed=1, report=report)["violations"] > 0
    assert any("not summing to 1" in text for text in report.examples)


def test_sums_to_one_is_exact_with_one_or_several_denominators():
    from fractions import Fraction

    from companion.bench.fuzz import _sums_to_one

    assert _sums_to_one([Fraction(1, 3)] * 3)
    assert not _sums_to_one([Fraction(1, 3)] * 2)
    assert _sums_to_one([Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)])
    assert not _sums_to_one([Fraction(1, 2), Fraction(1, 3), Fraction(1, 7)])
    assert _sums_to_one([Fraction(1)])


def test_the_workers_end_with_their_pool_when_the_parent_takes_sigterm():
    """A pool's workers are ended with SIGTERM: a worker that inherited the box's handler
    (companion.stop) only recorded it, and the pool waited for it for ever (seen hanging a test run)."""
    import subprocess
    import sys

    code = ("import signal; from companion import stop; from companion.bench import run_fuzz; "
            "signal.signal(signal.SIGTERM, stop._on_signal); "
            "print(run_fuzz('donkey-race', 4, seed=4, jobs=2)['games'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "4", done.stderr
