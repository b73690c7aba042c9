"""``companion bench advisor``: the advisor timed as the box runs it, with its deadline (issue 40)."""

from __future__ import annotations

import json

import pytest

from companion.bench.advisor import measure
from companion.cli import main
from companion.errors import UserError
from companion.registry import game


@pytest.mark.parametrize("name", ["ludo", "donkey-race"])
def test_the_figures_name_the_budget_and_how_often_it_cut(name):
    figures = measure(name, games=1, seed=2)
    # as on the box: the node budget that [hints] deadline_ms buys, no clock (issue 51)
    assert figures["deadline_ms"] is None and figures["nodes"] == game(name).hint_budget().nodes
    assert figures["prepare_ms"] >= 0
    assert 0 <= figures["cut"] <= figures["decisions"] and figures["nodes_max"] >= 0
    assert 0 < figures["median_ms"] <= figures["p99_ms"] <= figures["max_ms"]


def test_the_whole_search_is_never_cut():
    figures = measure("cant-stop", games=1, seed=3, nodes=64)
    assert figures["deadline_ms"] is None and figures["cut"] == 0 and figures["nodes_max"] <= 24


def test_a_negative_deadline_is_refused():
    with pytest.raises(UserError, match="deadline"):
        measure("ludo", games=1, deadline_ms=-1)


def test_the_command_line_takes_the_deadline(capsys):
    assert main(["bench", "advisor", "--game", "donkey-race", "--games", "1", "--deadline-ms", "5", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["deadline_ms"] == 5.0 and figures["game"] == "donkey-race"
