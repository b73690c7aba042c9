"""Subcommands for playing and checking games: play, demo, cant-stop moves, odds, simulate.

The JSON of each command follows the command-line contract of ARCHITECTURE.md; docs/CLI.md lists
every flag.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.i18n import _

GAMES = ("cant-stop", "ludo", "schotten-totten", "donkey-race")


def add_commands(subparsers) -> None:
    play = subparsers.add_parser("play", help="play a game at the table")
    play.add_argument("game", choices=GAMES)
    play.add_argument("--players", help="comma-separated names in seating order (default: resume, or two players)")
    play.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE", help="a rules variant setting")
    play.add_argument("--camera", default=None, metavar="SPEC",
                      help="auto, picamera, device:N, video:FILE, folder:DIR or none (default: config, else auto)")
    play.add_argument("--input", default="keys+gpio", metavar="SPEC",
                      help="keys, gpio, script:FILE, several joined with + (default: keys+gpio)")
    play.add_argument("--headless", action="store_true", help="no window (SDL dummy driver)")
    play.add_argument("--screenshots", type=Path, metavar="DIR", help="write a PNG per prompt into DIR")
    play.add_argument("--new", action="store_true", help="start a new game even if one is saved")
    play.add_argument("--seed", type=int, default=None, help="seed for the box's draw of who starts")
    play.set_defaults(handler=_play)

    demo = subparsers.add_parser("demo", help="a whole scripted Can't Stop game on the bundled real photos")
    demo.add_argument("--headless", action="store_true", help="no window (SDL dummy driver)")
    demo.add_argument("--screenshots", type=Path, metavar="DIR", help="write a PNG per prompt into DIR")
    demo.set_defaults(handler=_demo)

    cant_stop = subparsers.add_parser("cant-stop", help="check Can't Stop positions")
    cs_sub = cant_stop.add_subparsers(dest="cant_stop_command", metavar="COMMAND")
    cs_sub.required = True
    moves = cs_sub.add_parser("moves", help="the legal pairing choices of position files")
    moves.add_argument("files", nargs="+", type=Path, metavar="FILE")
    moves.add_argument("--json", action="store_true", help="one JSON object a line")
    moves.set_defaults(handler=_cant_stop_moves)

    odds = subparsers.add_parser("odds", help="exact odds")
    odds.add_argument("game", choices=["cant-stop"])
    odds.add_argument("--columns", required=True, help="comma-separated columns the runners can use, e.g. 6,7,8")
    odds.add_argument("--json", action="store_true")
    odds.set_defaults(handler=_odds)

    simulate = subparsers.add_parser("simulate", help="agents play each other through the engine")
    simulate.add_argument("game", choices=GAMES)
    simulate.add_argument("--agents", required=True, help="comma-separated agent names in seating order")
    simulate.add_argument("--games", type=int, default=1000)
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE")
    simulate.add_argument("--json", action="store_true")
    simulate.set_defaults(handler=_simulate)


def parse_variant(items: list[str]) -> dict[str, str]:
    """``["KEY=VALUE", ...]`` -> dict; raises :class:`UserError` for an item without ``=``."""
    result = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UserError(f"--variant takes KEY=VALUE, not {item!r}")
        result[key.strip()] = value.strip()
    return result


def read_json(path: Path) -> Any:
    """The JSON value in the file ``path``. Raises OSError when it cannot be read and ValueError
    ("not JSON (reason, line L column C)") when it is not UTF-8 JSON text."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg}, line {error.lineno} column {error.colno})") from None
    except UnicodeDecodeError:
        raise ValueError("not JSON (not UTF-8 text)") from None


def report_file_error(path: Path, error: OSError | ValueError) -> int:
    """Print the one line a per-file command gives for a file it cannot use ("companion: PATH: reason":
    the system's reason for an unreadable file, else the error's text); returns the exit status 2."""
    reason = error.strerror if isinstance(error, OSError) else error
    print(f"companion: {path}: {reason}", file=sys.stderr)
    return 2


def _cant_stop_moves(args) -> int:
    from companion.games.cant_stop.rules import state_from_position

    status = 0
    for path in args.files:
        try:
            state = state_from_position(read_json(path))
        except (OSError, ValueError) as error:
            status = report_file_error(path, error)
            continue
        choices = [{str(c): h for c, h in sorted(state.choice_result(o).items())} for o in state.legal_actions()]
        record = {"file": str(path), "bust": not choices, "choices": choices}
        if args.json:
            print(json.dumps(record))
        else:
            print(f"{path}: " + ("bust" if not choices else "; ".join(
                " ".join(f"{c}:{h}" for c, h in ch.items()) for ch in choices)))
    return status


def _odds(args) -> int:
    from companion.games.cant_stop.odds import bust_probability_for_columns

    try:
        columns = sorted({int(c) for c in args.columns.split(",") if c.strip()})
    except ValueError:
        raise UserError(f"--columns takes numbers 2-12 joined by commas, not {args.columns!r}") from None
    bust = bust_probability_for_columns(columns)
    if args.json:
        print(json.dumps({"columns": columns, "bust": float(bust), "fraction": f"{bust.numerator}/{bust.denominator}"}))
    else:
        print(f"columns {','.join(map(str, columns))}: bust {bust} = {float(bust):.4f}")
    return 0


def _simulate(args) -> int:
    from companion.agents.base import run_simulation

    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if args.games < 1:
        raise UserError("--games must be at least 1")
    result = run_simulation(args.game, agents, args.games, args.seed, parse_variant(args.variant))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


PLAY_MODULES = {
    "ludo": "companion.app.play_ludo",
    "schotten-totten": "companion.app.play_schotten_totten",
    "donkey-race": "companion.app.play_donkey_race",
}
"""Modules with ``play(args) -> int`` for the games other than Can't Stop."""


def _check_something_can_be_pressed(input_spec: str, headless: bool) -> None:
    """Raise UserError when the players could press nothing: no script, no display for the keys
    (none found, or ``--headless``) and no real GPIO buttons (off the Pi the pins are mock pins)."""
    if "script:" in input_spec:
        return
    from companion.app.loop import display_available

    if not headless and display_available():
        return
    if "gpio" in input_spec.split("+"):
        from gpiozero.pins.mock import MockFactory

        from hardware.buttons import make_pin_factory

        factory = make_pin_factory()
        real = not isinstance(factory, MockFactory)
        factory.close()
        if real:
            return
    raise UserError(_("nothing can be pressed here: there is no display for the keys and no GPIO buttons; "
                      "give the players' commands with --input script:FILE, or play on the box"))


def _play(args) -> int:
    from companion.app.loop import play

    _check_something_can_be_pressed(args.input, args.headless)
    if args.game != "cant-stop":
        import importlib

        module_name = PLAY_MODULES[args.game]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            raise UserError(f"{args.game} is not playable yet; cant-stop is") from None
        return module.play(args)
    players = [p.strip() for p in args.players.split(",")] if args.players else None
    return play(players=players, variant=parse_variant(args.variant) or None, camera_spec=args.camera,
                input_spec=args.input, headless=args.headless, screenshots=args.screenshots, new=args.new,
                seed=args.seed)


def _demo(args) -> int:
    from companion.app.loop import demo

    with tempfile.TemporaryDirectory(prefix="companion-demo-") as state_dir:
        return demo(Path(state_dir), headless=args.headless, screenshots=args.screenshots)
