"""The command a model's manifest records (vision.training.command)."""

import argparse

from vision.training.command import command_line


def _parser():
    parser = argparse.ArgumentParser(prog="python -m vision.training.train_dice")
    parser.add_argument("--split", default="all")
    parser.add_argument("--out")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--deep", action="store_true")
    parser.add_argument("--game-tables", type=float, default=0.0)
    parser.add_argument("--split-seed", type=int, default=None)
    return parser


def test_only_flags_away_from_their_defaults_are_written_in_the_parsers_order():
    parser = _parser()
    args = parser.parse_args(["--game-tables", "0.2", "--deep", "--out", "/tmp/x", "--split-seed", "3"])
    assert command_line(parser, args, always=("split", "epochs"), leave_out=("out",)) == (
        "python -m vision.training.train_dice --split all --epochs 8 --deep --game-tables 0.2 --split-seed 3")


def test_defaults_alone_give_the_bare_command():
    parser = _parser()
    assert command_line(parser, parser.parse_args([])) == "python -m vision.training.train_dice"
