"""`companion ludo frames`: bad flags are one line naming the flag (exit 2), nothing written."""

import pytest

from companion.cli import main


@pytest.mark.parametrize("flags, words", [
    (["--players", "7"], "takes 2 to 4 players, not 7"),
    (["--moves", "0"], "--moves must be at least 1"),
    (["--hand-rate", "3"], "--hand-rate is a share of the moves"),
    (["--die-on-board", "-0.5"], "--die-on-board is a share of the rolls"),
    (["--size", "big"], "--size is WIDTHxHEIGHT"),
])
def test_bad_frames_flags_are_named(flags, words, tmp_path, capsys):
    assert main(["ludo", "frames", str(tmp_path / "frames"), *flags]) == 2
    err = capsys.readouterr().err
    assert words in err and "internal error" not in err
    assert not (tmp_path / "frames").exists()
