"""What the subcommands share: ``--variant`` and ``--players`` values, JSON files read one by one, and
figures printed as one JSON object or a line of text."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from companion.errors import FileFormatError, UserError
from companion.registry import MAX_NAME_LENGTH

LANGUAGE_HELP = ("the screen's language: en, de, nl, pt_BR (pt), ru (default: the menu's choice, then the "
                 "config's [display] language, then LANGUAGE/LANG)")


def parse_variant(items: list[str]) -> dict[str, str]:
    """``["KEY=VALUE", ...]`` (repeated ``--variant``) -> dict; raises :class:`UserError` for an item
    without ``=``."""
    result = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--variant takes KEY=VALUE, not {item!r}")
        result[key.strip()] = value.strip()
    return result


def parse_players(text: str | None) -> list[str] | None:
    """``--players "Ada,Ben"`` -> ``["Ada", "Ben"]``; None when the flag is not given. Raises
    :class:`UserError` for an empty name (``--players ""``, ``Ada,,Ben``) or a name given twice."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise UserError(f"--players takes names joined by commas, not {text!r}")
    if len(set(names)) != len(names):
        raise UserError(f"--players names each player once, not {text!r}")
    long = [name for name in names if len(name) > MAX_NAME_LENGTH]
    if long:
        raise UserError(f"--players: {long[0]!r} is longer than {MAX_NAME_LENGTH} characters; shorten it")
    return names


def positive(value: int, flag: str) -> int:
    """``value`` when it is at least 1, else :class:`UserError` naming ``flag``."""
    if value < 1:
        raise UserError(f"{flag} must be at least 1, not {value}")
    return value


def read_json(path: Path) -> Any:
    """The JSON value in the file ``path``. Raises OSError when it cannot be read and
    :class:`FileFormatError` ("not JSON (reason, line L column C)") when it is not UTF-8 JSON text."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise FileFormatError(f"not JSON ({error.msg}, line {error.lineno} column {error.colno})") from None
    except UnicodeDecodeError:
        raise FileFormatError("not JSON (not UTF-8 text)") from None


def report_file_error(path: Path, error: OSError | ValueError) -> int:
    """Print the one line a per-file command gives for a file it cannot use ("companion: PATH: reason":
    the system's reason for an unreadable file, else the error's text); returns the exit status 2."""
    reason = error.strerror if isinstance(error, OSError) else error
    print(f"companion: {path}: {reason}", file=sys.stderr)
    return 2


def each_json_file(files: Iterable[Path], answer: Callable[[Any], dict], as_json: bool,
                   text: Callable[[dict], str]) -> int:
    """For each JSON file: ``{"file": ..., **answer(data)}`` printed as one JSON line (``as_json``) or as
    ``text(record)``. A file that cannot be read, or whose content ``answer`` refuses with a
    ``ValueError`` naming what is wrong, is reported on stderr (:func:`report_file_error`) and the
    others are still answered. Returns the exit status: 2 when a file was refused, else 0."""
    status = 0
    for path in files:
        try:
            record = {"file": str(path), **answer(read_json(path))}
        except (OSError, ValueError) as error:
            status = report_file_error(path, error)
            continue
        print(json.dumps(record) if as_json else text(record))
    return status


def print_figures(result: dict, as_json: bool) -> None:
    """A benchmark's figures: one JSON object, or ``key value, key value`` on one line."""
    if as_json:
        print(json.dumps(result))
    else:
        print(", ".join(f"{key} {value}" for key, value in result.items()))


def add_reader_commands(subparsers, what: str, help: str, read_help: str, handler: Callable[[Any], int]):
    """Register ``companion WHAT read IMAGE... [--json] [--debug-out DIR]`` (the reader subcommands: ``dice``,
    ``board``, ``cards``); returns (WHAT's subparsers, for its other actions, and the ``read`` parser, for
    its own flags). ``handler(args)`` runs ``read``."""
    parser = subparsers.add_parser(what, help=help)
    actions = parser.add_subparsers(dest=f"{what}_command", metavar="ACTION")
    actions.required = True
    read = actions.add_parser("read", help=read_help)
    read.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG, ...)")
    read.add_argument("--json", action="store_true", help="one JSON object a line per image")
    read.add_argument("--debug-out", metavar="DIR", help="write an overlay PNG per image into DIR")
    read.set_defaults(handler=handler)
    return actions, read
