"""``companion donkey-race check`` and ``companion simulate donkey-race`` on the command line."""

from __future__ import annotations

import json

from companion.cli import main
from tests.paths import FIXTURES

FIXTURES = FIXTURES / "donkey_race"


def test_check_reports_a_legal_game_and_the_first_illegal_play(capsys):
    status = main(["donkey-race", "check", str(FIXTURES / "record_ok.json"), str(FIXTURES / "record_bad.json"),
                   "--json"])
    good, bad = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert status == 1
    assert good["ok"] and good["over"] and good["winners"] == ["Ben"]
    assert good["points"] == {"Ada": 2, "Ben": 5, "Cleo": 3}
    assert not bad["ok"] and bad["round"] == 2 and "hidden information" in bad["rule"]
    assert bad["next"] == "Ada" and bad["points"] == {"Ada": 0, "Ben": 2}


def test_check_refuses_a_malformed_record(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"players": ["A", "B"], "leader": "C"}))
    assert main(["donkey-race", "check", str(path)]) == 2
    assert "unknown player" in capsys.readouterr().err


def test_simulate_command_json(capsys):
    assert main(["simulate", "donkey-race", "--agents", "advisor,random", "--games", "5", "--seed", "1",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 5 and sum(result["wins_by_seat"]) <= 5
