"""Can't Stop's commands: ``companion cant-stop moves FILE... --json`` and ``companion odds cant-stop
--columns 6,7,8 --json`` (docs/CLI.md)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli.common import each_json_file
from companion.errors import UserError, echo
from companion.games.cant_stop import bust_probability_for_columns, state_from_position


def add_commands(subparsers) -> None:
    """Register ``cant-stop moves`` and ``odds``."""
    cant_stop = subparsers.add_parser("cant-stop", help="check Can't Stop positions")
    sub = cant_stop.add_subparsers(dest="cant_stop_command", metavar="COMMAND")
    sub.required = True
    moves = sub.add_parser("moves", help="the legal pairing choices of position files")
    moves.add_argument("files", nargs="+", type=Path, metavar="FILE")
    moves.add_argument("--json", action="store_true", help="one JSON object a line")
    moves.set_defaults(handler=_moves)

    odds = subparsers.add_parser("odds", help="exact odds")
    odds.add_argument("game", choices=["cant-stop"])
    odds.add_argument("--columns", required=True, help="comma-separated columns the runners can use, e.g. 6,7,8")
    odds.add_argument("--json", action="store_true")
    odds.set_defaults(handler=_odds)


def choices(position: dict) -> dict:
    """``{"bust": bool, "choices": [{"7": 8, "9": 1}, ...]}`` for a position file's content: every legal
    choice as the active player's runner heights after it. Raises ValueError naming what is wrong."""
    state = state_from_position(position)
    found = [{str(c): h for c, h in sorted(state.choice_result(o).items())} for o in state.legal_actions()]
    return {"bust": not found, "choices": found}


def _text(record: dict) -> str:
    if record["bust"]:
        return f"{record['file']}: bust"
    return f"{record['file']}: " + "; ".join(" ".join(f"{c}:{h}" for c, h in ch.items()) for ch in record["choices"])


def _moves(args) -> int:
    return each_json_file(args.files, choices, args.json, _text)


def _odds(args) -> int:
    try:
        columns = sorted({int(c) for c in args.columns.split(",")})
        if not columns:
            raise ValueError("no column")
        bust = bust_probability_for_columns(columns)
    except ValueError:
        raise UserError(f"--columns takes one or more numbers 2-12 joined by commas, not {echo(args.columns)}") from None
    if args.json:
        print(json.dumps({"columns": columns, "bust": float(bust), "fraction": f"{bust.numerator}/{bust.denominator}"}))
    else:
        print(f"columns {','.join(map(str, columns))}: bust {bust} = {float(bust):.4f}")
    return 0
