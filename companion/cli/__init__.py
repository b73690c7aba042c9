"""The ``companion`` command line (argparse). Every subcommand and its JSON is documented in docs/CLI.md.

Each area registers its own subcommands through an ``add_commands(subparsers)`` function; handlers
receive the parsed namespace and return the exit code. ``main(argv)`` returns the exit code so tests
call it directly; errors print one line unless ``--debug`` or ``DEBUG=1`` is given.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

from companion.errors import UserError

# Modules that contribute subcommands, each with add_commands(subparsers).
COMMAND_MODULES = (
    "companion.cli.play",
    "companion.cli.ludo",
    "companion.cli.schotten_totten",
    "companion.cli.donkey_race",
    "companion.cli.dice",
    "companion.cli.cards",
    "companion.cli.board",
    "companion.cli.appliance",
    "companion.cli.bench",
)


def _expected_errors() -> tuple[type[BaseException], ...]:
    """Errors with a message meant for the user: printed as one line (exit status 2), not a traceback."""
    from companion.errors import PinFactoryError, StateDirError, StoreError

    return (UserError, OSError, ValueError, StoreError, StateDirError, PinFactoryError, RuntimeError)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Tabletop companion: the box above your game table.")
    parser.add_argument("--debug", action="store_true", help="show full tracebacks and debug logging")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_commands(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    debug = args.debug or os.environ.get("DEBUG") == "1"
    logging.basicConfig(level=logging.DEBUG if debug else logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        return int(args.handler(args) or 0)
    except _expected_errors() as error:
        if debug:
            raise
        print(f"companion: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
