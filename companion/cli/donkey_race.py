"""``companion donkey-race check FILE... [--json]``: donkey race game records, replayed with the hands
unknown (:mod:`companion.games.donkey_race.record` gives the record's and the report's format); exit
status 1 when a record is not legal, 2 when a file cannot be read."""

from __future__ import annotations

from pathlib import Path

from companion.cli.common import each_json_file
from companion.games.donkey_race.record import check_record


def add_commands(subparsers) -> None:
    """Register ``donkey-race check``."""
    parser = subparsers.add_parser("donkey-race", help="check donkey card race records")
    sub = parser.add_subparsers(dest="donkey_race_command", metavar="COMMAND")
    sub.required = True
    check = sub.add_parser("check", help="replay game records and report the first illegal play")
    check.add_argument("files", nargs="+", type=Path, metavar="FILE")
    check.add_argument("--json", action="store_true", help="one JSON object a line")
    check.set_defaults(handler=_check)


def _text(report: dict) -> str:
    verdict = "ok" if report["ok"] else f"round {report['round']}: {report['error']}"
    points = ", ".join(f"{n} {p}" for n, p in report["points"].items())
    return f"{report['file']}: {verdict}; points {points}" + ("; over" if report["over"] else "")


def _check(args) -> int:
    illegal = []

    def answer(record):
        report = check_record(record)
        illegal.append(not report["ok"])
        return report

    status = each_json_file(args.files, answer, args.json, _text)
    return status or (1 if any(illegal) else 0)
