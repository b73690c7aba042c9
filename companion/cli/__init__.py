"""The ``companion`` command line (argparse). Every subcommand and its JSON is documented in docs/CLI.md.

Each module of this package registers its subcommands through ``add_commands(subparsers)``; handlers
receive the parsed namespace and return the exit code. :data:`COMMANDS` says which module serves which
command; each game's own command (``companion cant-stop ...``) is its registry entry's ``cli`` module.
Only the module of the command given is imported, so ``companion demo`` loads what Can't Stop needs;
``companion --help`` loads them all.

``main(argv)`` returns the exit code so tests call it directly. An error meant for the user
(:data:`~companion.errors.USER_ERRORS`: a ``CompanionError`` or vision's ``VisionError``; or an ``OSError``
on a named file) prints one line on stderr, exit status 2. Anything else is a bug: one line says so and
where its traceback was written (``errors.log`` in the state directory). ``--debug`` (or ``DEBUG=1``) shows the traceback instead.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

from companion.cli.common import one_line
from companion.errors import USER_ERRORS
from companion.paths import resolve
from companion.registry import GAMES

__all__ = ["main", "build_parser", "COMMANDS"]

log = logging.getLogger(__name__)

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("play", "play a game at the table"),
    "demo": ("play", "a whole scripted game on the bundled real photos"),
    "games": ("play", "the games of the box, their players and variants"),
    "simulate": ("simulate", "agents play each other through the engine"),
    "odds": ("cant_stop", "exact odds"),
    "dice": ("dice", "read dice in photos, measure the reader"),
    "cards": ("cards", "read the cards lying face up in photos"),
    "board": ("board", "read game boards in photos, measure the reader"),
    "menu": ("appliance", "the full-screen menus driven by the buttons (the appliance)"),
    "selftest": ("appliance", "check camera, pins, display, paths and store"),
    "calibrate": ("appliance", "calibrate a part of the box"),
    "report": ("appliance", "one archive of versions, self-test, config and logs for a bug report"),
    "stats": ("stats", "the saved games' statistics: dice fairness, players, charts"),
    "bench": ("bench", "benchmarks: power cuts, fuzzed rules, long evenings, advisor speed"),
    **{entry.name: (entry.key, f"check {entry.title()} positions and records") for entry in GAMES},
}
"""Command -> (module of this package that registers it, its help line)."""

SIGNALLED = ("play", "demo", "menu")
"""The commands that end on SIGTERM and SIGINT with their game saved (``companion.stop``): they take the
signals before anything else is loaded."""

ERROR_LOG = "errors.log"
"""The file in the state directory where the traceback of a bug is appended."""


def _command_word(argv: list[str]) -> str | None:
    """The subcommand named in ``argv`` (the first word that is not an option), or None."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser with the subcommands of ``argv``'s command in full and the others by name only (all of
    them in full when ``argv`` names no known command, e.g. for ``--help``)."""
    parser = argparse.ArgumentParser(prog="companion", description="Tabletop companion: the box above your game table.")
    parser.add_argument("--debug", action="store_true", help="show full tracebacks and debug logging")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    word = _command_word(sys.argv[1:] if argv is None else argv)
    wanted = [COMMANDS[word][0]] if word in COMMANDS else list(dict.fromkeys(m for m, _ in COMMANDS.values()))
    for module in wanted:
        importlib.import_module(f"companion.cli.{module}").add_commands(subparsers)
    for name, (module, help_line) in COMMANDS.items():
        if name not in subparsers.choices:
            subparsers.add_parser(name, help=help_line)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    if argv is None and _command_word(sys.argv[1:]) in SIGNALLED:  # the program itself, not a test's call
        from companion import stop  # standard library only: before the box's modules load

        stop.take_signals_early()
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv).parse_args(argv)
    debug = args.debug or os.environ.get("DEBUG") == "1"
    logging.basicConfig(level=logging.DEBUG if debug else logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        return _after_signal(int(args.handler(args) or 0))
    except KeyboardInterrupt:
        return _after_signal(130)
    except BrokenPipeError:  # the reader of our output went away (`... --json | head`): not a bug
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 0
    except Exception as error:
        if debug:
            raise
        if isinstance(error, USER_ERRORS) or (isinstance(error, OSError) and error.filename is not None):
            print(f"companion: {one_line(str(error))}", file=sys.stderr)
            return 2
        where = _log_bug(" ".join(["companion", *argv]))
        print(f"companion: internal error, a bug and not your input: {type(error).__name__}: {one_line(str(error))}. "
              f"The traceback is in {where}; please report it.", file=sys.stderr)
        return 1


def _after_signal(status: int) -> int:
    """``status``; but when SIGTERM or SIGINT ended the box (``companion.stop``, loaded by ``play``,
    ``demo`` and ``menu``), the process ends here with it: the game is stored and the devices closed, and
    the interpreter's teardown of its modules (~0.5 s, more on a Pi) would eat the 2 s a stop may take."""
    stop = sys.modules.get("companion.stop")
    return stop.exit_now_if_signalled(status) if stop is not None else status


def _log_bug(command: str) -> Path:
    """Append the current exception's traceback to :data:`ERROR_LOG` in the state directory (or, when it
    cannot be written, a file in the temporary directory); return the file."""
    text = f"--- {time.strftime('%Y-%m-%dT%H:%M:%S%z')} {command}\n{traceback.format_exc()}\n"
    try:
        state_dir = resolve().state_dir
        state_dir.mkdir(parents=True, exist_ok=True)
        path = state_dir / ERROR_LOG
        with path.open("a", encoding="utf-8") as handle:
            handle.write(text)
        return path
    except OSError:
        handle = tempfile.NamedTemporaryFile("w", prefix="companion-error-", suffix=".log", delete=False,
                                             encoding="utf-8")
        with handle:
            handle.write(text)
        return Path(handle.name)
