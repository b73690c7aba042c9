"""The commands that read position/record JSON files say the same clear thing about a bad file."""

from __future__ import annotations

import pytest

from companion.cli import main


@pytest.mark.parametrize("command", [["cant-stop", "moves"], ["ludo", "moves"], ["schotten-totten", "claims"],
                                     ["donkey-race", "check"]])
def test_a_file_that_is_not_json_or_missing_is_one_line_each_and_exit_2(tmp_path, capsys, command):
    text = tmp_path / "notes.txt"
    text.write_text("hello\n", encoding="utf-8")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"name": "J\xfcrgen"}')
    missing = tmp_path / "missing.json"
    assert main([*command, str(text), str(latin), str(missing)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [f"companion: {text}: not JSON (Expecting value, line 1 column 1)",
                     f"companion: {latin}: not JSON (not UTF-8 text)",
                     f"companion: {missing}: No such file or directory"]
