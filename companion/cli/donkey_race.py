"""Subcommands of the donkey card race: ``companion donkey-race check FILE... [--json]``.

``check`` replays a game record (table-side: hands unknown, donkey-race.md D.3-D.6) and reports the
first play that breaks a rule. A record is JSON::

    {"players": ["Ada", "Ben", "Cleo"], "variant": {"track_length": "20"}, "leader": "Ada",
     "donkey": true, "rounds": [[["Ada", [7, 7]], ["Ben", "pass"], ["Cleo", [9, 9]]], ...]}

``leader``: who leads the first round; ``donkey``: whether that player showed the donkey card (D.3.3).
Each round lists the actions in order: a list of card values (the donkey as its value, a joker as
100) or ``"pass"``. Between rounds everyone draws back (D.4.6) and the discards are reshuffled when
needed (D.4.7). One JSON object a line with ``--json``::

    {"file": str, "ok": bool, "error": str|null, "rule": str|null, "round": int, "points": {name: int},
     "positions": {name: int}, "next": name|null, "over": bool, "winners": [name, ...]}
"""

from __future__ import annotations

import json
from pathlib import Path


def add_commands(subparsers) -> None:
    """Register ``donkey-race check``."""
    parser = subparsers.add_parser("donkey-race", help="check donkey card race records")
    sub = parser.add_subparsers(dest="donkey_race_command", metavar="COMMAND")
    sub.required = True
    check = sub.add_parser("check", help="replay game records and report the first illegal play")
    check.add_argument("files", nargs="+", type=Path, metavar="FILE")
    check.add_argument("--json", action="store_true", help="one JSON object a line")
    check.set_defaults(handler=_check)


def check_record(record: dict) -> dict:
    """Replay one record (module docstring); returns the report dict without ``file``.

    Raises ``ValueError`` for a malformed record (unknown player, bad variant, wrong shapes).
    """
    from companion.errors import IllegalMove
    from companion.games.donkey_race.rules import (
        UNKNOWN,
        DonkeyRaceConfig,
        DonkeyRaceState,
        Draw,
        FirstLeader,
        Pass,
        Phase,
        Play,
        Reshuffle,
    )
    from companion.session.donkey_race import codes_from_entry

    try:
        players = [str(p) for p in record["players"]]
        seat = {name: i for i, name in enumerate(players)}
        config = DonkeyRaceConfig.from_variant(record.get("variant", {}))
        state = DonkeyRaceState.new(len(players), config, hidden=True)
        first = FirstLeader(seat[record["leader"]], bool(record.get("donkey", False)))
        rounds = list(record.get("rounds", []))
    except KeyError as error:
        raise ValueError(f"record lacks {error} or names an unknown player") from None

    def settle(state: DonkeyRaceState) -> DonkeyRaceState:
        while state.phase in (Phase.DRAW, Phase.RESHUFFLE):
            state = state.apply(Draw(UNKNOWN) if state.phase is Phase.DRAW else Reshuffle())
        return state

    error = rule = None
    played_rounds = 0
    try:
        state = settle(state).apply(first)
        state = settle(state)
        for round_actions in rounds:
            played_rounds += 1
            for name, cards in round_actions:
                if state.phase is Phase.OVER:
                    raise IllegalMove("the game is already over", "donkey-race.md D.6")
                if seat[name] != state.active:
                    raise IllegalMove(f"{name} acts out of turn; {players[state.active]} is to act",
                                      "donkey-race.md D.4.2")
                action = Pass() if cards == "pass" else Play(codes_from_entry(cards, config))
                state = state.apply(action)
            if state.phase is Phase.PLAY and state.plays:
                raise IllegalMove(f"round {played_rounds} is not finished", "donkey-race.md D.4")
            state = settle(state)
    except IllegalMove as illegal:
        error, rule = str(illegal), illegal.rule
    except KeyError as unknown:
        raise ValueError(f"unknown player {unknown}") from None
    over = state.phase is Phase.OVER
    return {"ok": error is None, "error": error, "rule": rule, "round": played_rounds,
            "points": dict(zip(players, state.points)), "positions": dict(zip(players, state.positions)),
            "next": players[state.active] if state.phase is Phase.PLAY else None, "over": over,
            "winners": [players[s] for s in state.winners]}


def _check(args) -> int:
    from companion.cli.play import read_json, report_file_error

    status = 0
    for path in args.files:
        try:
            report = {"file": str(path), **check_record(read_json(path))}
        except (OSError, ValueError) as error:
            status = report_file_error(path, error)
            continue
        if not report["ok"]:
            status = max(status, 1)
        if args.json:
            print(json.dumps(report))
        else:
            verdict = "ok" if report["ok"] else f"round {report['round']}: {report['error']}"
            points = ", ".join(f"{n} {p}" for n, p in report["points"].items())
            print(f"{path}: {verdict}; points {points}" + ("; over" if report["over"] else ""))
    return status
