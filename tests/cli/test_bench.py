"""`companion bench advisor` (every game) and `companion bench claims`: their JSON."""

import json

import pytest

from companion.cli import main
from companion.registry import names


@pytest.mark.parametrize("game", names())
def test_bench_advisor_times_every_games_advisor(game, capsys):
    assert main(["bench", "advisor", "--game", game, "--games", "1", "--seed", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert {"decisions", "median_ms", "p99_ms", "max_ms"} <= set(figures)
    assert figures["decisions"] > 0 and 0 <= figures["median_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert sum(p["decisions"] for p in figures["by_phase"].values()) == figures["decisions"]
    assert figures["game"] == game and figures["games"] == 1 and figures["seed"] == 2


def test_bench_advisor_names_a_bad_opponent_or_table(capsys):
    assert main(["bench", "advisor", "--game", "ludo", "--opponent", "nobody", "--games", "1"]) == 2
    assert "unknown --opponent 'nobody'" in capsys.readouterr().err
    assert main(["bench", "advisor", "--game", "schotten-totten", "--players", "3", "--games", "1"]) == 2
    assert "takes 2 players, not 3" in capsys.readouterr().err


def test_bench_claims_agrees_with_the_enumeration(capsys):
    assert main(["bench", "claims", "--positions", "12", "--seed", "4", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["positions"] == 12 and result["checks"] > 0 and result["disagreements"] == 0
