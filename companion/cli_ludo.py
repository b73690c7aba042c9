"""Subcommands of ludo: ``companion ludo moves FILE... [--json]`` (issue 4 command-line contract)."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def add_commands(subparsers) -> None:
    """Register ``ludo moves``."""
    ludo = subparsers.add_parser("ludo", help="check Ludo positions")
    sub = ludo.add_subparsers(dest="ludo_command", metavar="COMMAND")
    sub.required = True
    moves = sub.add_parser("moves", help="the legal [from, to] moves of position files")
    moves.add_argument("files", nargs="+", type=Path, metavar="FILE")
    moves.add_argument("--json", action="store_true", help="one JSON object a line")
    moves.set_defaults(handler=_moves)


def _moves(args) -> int:
    """One line per file: ``{"file": ..., "forfeit": bool, "moves": [["yard", 0], [5, 11]]}``; a bad file
    prints one error line on stderr and makes the exit status 2."""
    from companion.games.ludo_position import position_moves

    status = 0
    for path in args.files:
        try:
            record = {"file": str(path), **position_moves(json.loads(path.read_text(encoding="utf-8")))}
        except (OSError, ValueError) as error:
            print(f"companion: {path}: {error}", file=sys.stderr)
            status = 2
            continue
        if args.json:
            print(json.dumps(record))
        else:
            text = "third six: no move" if record["forfeit"] else (
                " ".join(f"{f}->{t}" for f, t in record["moves"]) or "no move")
            print(f"{path}: {text}")
    return status
