"""Schotten Totten's command: ``companion schotten-totten claims FILE... [--json]``.

One JSON line per position file (format in :mod:`companion.games.schotten_totten.positions`)::

    {"file": "pos.json", "a": [0, 4], "b": [7]}

``a``/``b``: the stones (0-8, ascending) that player may claim now, as if it were their turn
(schotten-totten.md C.6, from the table only). Without ``--json`` a line per file gives the same and,
for each stone with a complete side that cannot be claimed, the reason. A file that cannot be read is
reported on stderr and makes the exit status 2; the other files are still checked.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli.common import read_json, report_file_error
from companion.games.schotten_totten import NUM_STONES, SIDE_SIZE, state_from_position
from companion.hints.schotten_totten import verdict_text


def add_commands(subparsers) -> None:
    """Register ``schotten-totten claims``."""
    parser = subparsers.add_parser("schotten-totten", help="check Schotten Totten / Battle Line positions")
    sub = parser.add_subparsers(dest="schotten_totten_command", metavar="COMMAND")
    sub.required = True
    claims = sub.add_parser("claims", help="the stones each player may claim in position files")
    claims.add_argument("files", nargs="+", type=Path, metavar="FILE")
    claims.add_argument("--json", action="store_true", help="one JSON object a line")
    claims.set_defaults(handler=_claims)


def _refusals(state) -> list[str]:
    """A line for each complete side of an open stone that cannot be claimed, with the reason."""
    lines = []
    for stone in range(NUM_STONES):
        for seat, name in enumerate("ab"):
            if len(state.stones[stone].cards[seat]) == SIDE_SIZE and state.stones[stone].owner is None:
                verdict = state.claim_verdict(stone, seat)
                if not verdict.claimable:
                    lines.append(f"  stone {stone} {name}: {verdict_text(verdict, state.config.game)}")
    return lines


def _claims(args) -> int:
    status = 0
    for path in args.files:
        try:
            state = state_from_position(read_json(path))
        except (OSError, ValueError) as error:
            status = report_file_error(path, error)
            continue
        record = {"file": str(path), "a": list(state.claimable_stones(0)), "b": list(state.claimable_stones(1))}
        if args.json:
            print(json.dumps(record))
        else:
            print("\n".join([f"{path}: a may claim {record['a'] or 'none'}, b may claim {record['b'] or 'none'}",
                             *_refusals(state)]))
    return status
