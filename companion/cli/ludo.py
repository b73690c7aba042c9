"""Ludo's commands: ``companion ludo moves FILE... [--json]`` (the legal moves of position files) and
``companion ludo frames DIR [...]`` (a scripted game as rendered camera frames, for ``companion play ludo
--camera folder:DIR --input script:DIR/game.script``; :mod:`companion.demos.ludo_frames`)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli.common import each_json_file, positive
from companion.errors import UserError
from companion.games.ludo import BOARD_NAMES, position_moves
from companion.registry import game
from companion.demos.ludo_frames import generate


MIN_FRAME_SIDE, MAX_FRAME_SIDE = 64, 4096
"""``ludo frames --size``: the smallest and largest side of a frame, pixels (a board and a die must fit;
a 4096 x 4096 frame is 50 MB)."""


def add_commands(subparsers) -> None:
    """Register ``ludo moves`` and ``ludo frames``."""
    ludo = subparsers.add_parser("ludo", help="check Ludo positions")
    sub = ludo.add_subparsers(dest="ludo_command", metavar="COMMAND")
    sub.required = True
    moves = sub.add_parser("moves", help="the legal [from, to] moves of position files")
    moves.add_argument("files", nargs="+", type=Path, metavar="FILE")
    moves.add_argument("--json", action="store_true", help="one JSON object a line")
    moves.set_defaults(handler=_moves)
    frames = sub.add_parser("frames", help="render a seeded game as camera frames plus its input script")
    frames.add_argument("directory", type=Path, metavar="DIR")
    frames.add_argument("--board", default="ludo52", choices=BOARD_NAMES)
    frames.add_argument("--players", type=int, default=2, help="2-4 (default 2)")
    frames.add_argument("--moves", type=int, default=12, help="stop after this many moves (default 12)")
    frames.add_argument("--seed", type=int, default=1)
    frames.add_argument("--size", default="480x360", help="frame WIDTHxHEIGHT in pixels (default 480x360)")
    frames.add_argument("--wrong", default="", help="comma-separated move numbers (0-based) first shown wrong")
    frames.add_argument("--hand-rate", type=float, default=0.25, help="share of moves with a hand over the board")
    frames.add_argument("--prefer-captures", action="store_true", help="capture whenever a roll allows it")
    frames.add_argument("--die-on-board", type=float, default=0.0,
                        help="share of the rolls after the first move that land on the board (default 0)")
    frames.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    frames.set_defaults(handler=_frames)


def _text(record: dict) -> str:
    if record["forfeit"]:
        return f"{record['file']}: third six: no move"
    return f"{record['file']}: " + (" ".join(f"{f}->{t}" for f, t in record["moves"]) or "no move")


def _moves(args) -> int:
    """One line per file: ``{"file": ..., "forfeit": bool, "moves": [["yard", 0], [5, 11]]}``; a bad file
    prints one error line on stderr and makes the exit status 2."""
    return each_json_file(args.files, position_moves, args.json, _text)


def _frames(args) -> int:
    """Write the frames and ``game.script`` into DIR; print the summary (``--json``: actions, moves,
    photos, files, over, wrong, captures) or the ``companion play ludo`` line that replays them."""
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
        wrong = tuple(int(v) for v in args.wrong.split(",") if v.strip())
    except ValueError:
        raise UserError(f"--size is WIDTHxHEIGHT and --wrong a list of whole numbers, "
                        f"not {args.size!r} / {args.wrong!r}") from None
    if not (MIN_FRAME_SIDE <= w <= MAX_FRAME_SIDE and MIN_FRAME_SIDE <= h <= MAX_FRAME_SIDE):
        raise UserError(f"--size takes WIDTHxHEIGHT of {MIN_FRAME_SIDE} to {MAX_FRAME_SIDE} pixels a side, "
                        f"not {args.size!r}")
    game("ludo").check_players(args.players)
    if not 0.0 <= args.hand_rate <= 1.0:
        raise UserError(f"--hand-rate is a share of the moves, 0 to 1, not {args.hand_rate}")
    if not 0.0 <= args.die_on_board <= 1.0:
        raise UserError(f"--die-on-board is a share of the rolls, 0 to 1, not {args.die_on_board}")
    try:
        frames = generate(args.directory, board=args.board, players=args.players, moves=positive(args.moves, "--moves"),
                          seed=args.seed, size=(w, h), wrong=wrong, hand_rate=args.hand_rate,
                          prefer_captures=args.prefer_captures, die_on_board=args.die_on_board)
    except ValueError as error:  # generate's own checks of its arguments (a frame too small for the die)
        raise UserError(f"companion ludo frames: {error}") from None
    summary = frames.summary()
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['files']} frames, {summary['moves']} moves in {frames.directory}")
        print(f"companion play ludo --headless --new --players {','.join(frames.players)} "
              f"--variant board={frames.board} --camera folder:{frames.directory} --input script:{frames.script}")
    return 0
