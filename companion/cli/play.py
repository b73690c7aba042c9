"""The commands of every game: ``play``, ``demo`` and ``games`` (docs/CLI.md).

Their game choices come from the registry (``companion.registry``); the JSON of each follows the
command-line contract of ARCHITECTURE.md.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from companion.app import NO_CAMERA, display_available
from companion.app.demo import run_demo
from companion.app.inputs import check_input_spec
from companion.app.language import choose_language
from companion.app.play import play
from companion.app.text_log import recording
from companion.cli.common import LANGUAGE_HELP, check_given_store, parse_players, parse_variant
from companion.config import Config, load_config
from companion.errors import ConfigError, UserError
from companion.files import writable_folder
from companion.i18n import _, checked_language, environment_language
from companion.paths import resolve
from companion.registry import GAMES, game, names
from hardware import make_pin_factory
from vision.camera import check_camera_spec


def add_commands(subparsers) -> None:
    """Register ``play``, ``demo`` and ``games``."""
    play_parser = subparsers.add_parser("play", help="play a game at the table")
    play_parser.add_argument("game", choices=names())
    play_parser.add_argument("--players", help="comma-separated names in seating order (default: resume, or two players)")
    play_parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                             help="a rules variant setting")
    play_parser.add_argument("--camera", default=None, metavar="SPEC",
                             help="auto, picamera, device:N, video:FILE, folder:DIR or none (default: config, else auto)")
    play_parser.add_argument("--input", default="keys+gpio", metavar="SPEC",
                             help="keys, gpio, script:FILE, several joined with + (default: keys+gpio)")
    play_parser.add_argument("--headless", action="store_true", help="no window (SDL dummy driver)")
    play_parser.add_argument("--screenshots", type=Path, metavar="DIR", help="write a PNG per prompt into DIR")
    play_parser.add_argument("--text-log", type=Path, metavar="FILE",
                             help="write one JSON line for each text drawn into FILE (docs/CLI.md)")
    play_parser.add_argument("--new", action="store_true", help="start a new game even if one is saved")
    play_parser.add_argument("--seed", type=int, default=None, help="seed for the box's draw of who starts")
    play_parser.add_argument("--language", metavar="LANG", help=LANGUAGE_HELP)
    play_parser.set_defaults(handler=_play)

    demo = subparsers.add_parser("demo", help="a whole scripted game: Can't Stop on the bundled real photos, "
                                              "or any game with the buttons alone (--camera none)")
    demo.add_argument("--game", choices=names(), default="cant-stop", help="the game (default: cant-stop)")
    demo.add_argument("--camera", choices=[NO_CAMERA],
                      help="none: every entry made with the buttons (assets/demo/GAME-by-hand.script)")
    demo.add_argument("--headless", action="store_true", help="no window (SDL dummy driver)")
    demo.add_argument("--screenshots", type=Path, metavar="DIR", help="write a PNG per prompt into DIR")
    demo.add_argument("--text-log", type=Path, metavar="FILE",
                      help="write one JSON line for each text drawn into FILE (docs/CLI.md)")
    demo.add_argument("--language", metavar="LANG", help=LANGUAGE_HELP)
    demo.add_argument("--store", type=Path, metavar="FILE",
                      help="keep the demo's game in this store (made if missing) instead of a throwaway one")
    demo.set_defaults(handler=_demo)

    games = subparsers.add_parser("games", help="the games of the box, their players and variants")
    games.add_argument("--json", action="store_true", help="one JSON array")
    games.set_defaults(handler=_games)


def _games(args) -> int:
    entries = [entry.to_dict() for entry in GAMES]
    if args.json:
        print(json.dumps(entries))
        return 0
    for entry in entries:
        low, high = entry["players"]["min"], entry["players"]["max"]
        print(f"{entry['name']}: {entry['title']}, {low if low == high else f'{low}-{high}'} players, reads {', '.join(entry['reads'])}; "
              f"variants {', '.join(entry['variants'])}")
    return 0


def check_something_can_be_pressed(input_spec: str, headless: bool) -> None:
    """Raise UserError when the players could press nothing: no script, no display for the keys
    (none found, or ``--headless``) and no real GPIO buttons (off the Pi the pins are mock pins)."""
    if "script:" in input_spec:
        return
    if not headless and display_available():
        return
    if "gpio" in input_spec.split("+"):
        factory = make_pin_factory()
        real = not isinstance(factory, MockFactory)
        factory.close()
        if real:
            return
    raise UserError(_("nothing can be pressed here: there is no display for the keys and no GPIO buttons; "
                      "give the players' commands with --input script:FILE, or play on the box"))


def _play(args) -> int:
    entry = game(args.game)
    players = parse_players(args.players)
    variant = parse_variant(args.variant) if args.variant else None
    if variant is not None:
        entry.config(variant)  # a bad --variant is named first, before the inputs are looked at
    if players is not None:
        entry.check_players(len(players))
    if args.camera and args.camera != NO_CAMERA:
        check_camera_spec(args.camera)
    if args.screenshots is not None:
        writable_folder(args.screenshots, "--screenshots")
    if args.language:
        checked_language(args.language, "--language")  # named before the inputs are looked at
    check_input_spec(args.input)
    check_something_can_be_pressed(args.input, args.headless)
    paths = resolve(os.environ)
    config = load_config(paths.config_file)
    choose_language(args.language, paths.state_dir, config)
    headless = args.headless or not display_available()
    with recording(args.text_log):
        result = play(entry, paths=paths, config=config, input_spec=args.input, camera=args.camera, players=players,
                      variant=variant, new=args.new, headless=headless, screenshots=args.screenshots, seed=args.seed)
    if result.final:
        print(result.final)
    return 0


def _demo(args) -> int:
    check_given_store(args.store)  # not moved aside as the box's own damaged store is: refused, never changed
    paths = resolve(os.environ)
    try:
        config = load_config(paths.config_file)
    except ConfigError:
        config = Config()  # the demo runs on the defaults, as before; only its language is taken
    choose_language(args.language, paths.state_dir, config)  # the screens: as the box's, the menu's choice too
    console = checked_language(args.language, "--language") if args.language else environment_language()
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as state_dir, recording(args.text_log):
        return run_demo(Path(state_dir), headless=args.headless, screenshots=args.screenshots, store_file=args.store,
                        game_name=args.game, by_hand=args.camera == NO_CAMERA, console_language=console)
