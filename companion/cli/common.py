"""What the subcommands share: ``--variant`` and ``--players`` values, JSON files read one by one, and
figures printed as one JSON object or a line of text."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from companion.errors import FileFormatError, UserError, echo
from companion.names import name_problem
from companion.registry import MAX_NAME_LENGTH
from companion.store import SCHEMA_VERSION, schema_problem

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
    :class:`UserError` for an empty name (``--players ""``, ``Ada,,Ben``), a name given twice, or a name
    the box cannot show (:func:`companion.names.name_problem`: too long, a control character, a character
    the font cannot draw), naming it and the reason."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise UserError(f"--players takes names joined by commas, not {echo(text)}")
    if len(set(names)) != len(names):
        raise UserError(f"--players names each player once, not {echo(text)}")
    long = [name for name in names if len(name) > MAX_NAME_LENGTH]
    if long:
        raise UserError(f"--players: {echo(long[0])} is longer than {MAX_NAME_LENGTH} characters; shorten it")
    for name in names:
        problem = name_problem(name)
        if problem:
            raise UserError(f"--players: {echo(name)} has {problem}; names are printable letters, digits, signs and "
                            "spaces that the box's font can draw")
    return names


SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file (sqlite.org/fileformat.html, 1.3)."""


def check_given_store(path: Path | None, flag: str = "--store") -> Path | None:
    """``path`` (a store named by ``flag``) when it is missing (a new store is made there) or is the box's
    store: an SQLite file (its header) whose ``PRAGMA user_version`` is a schema this box knows (1 to
    ``companion.store.SCHEMA_VERSION``), with the box's tables, that passes SQLite's quick check. Anything
    else (a folder, an empty file, a text file, another program's database, a newer or damaged store) is
    refused with :class:`UserError` naming the flag, the file and why; the file is read only, never
    changed (opened read-only, as immutable when no write-ahead log lies beside it, so that no ``-wal`` or
    ``-shm`` file is made), and never moved aside as the box does with its own damaged store."""
    if path is None:
        return None
    path = Path(path)
    if not path.exists():
        return path
    why = _store_problem(path)
    if why:
        raise UserError(f"{flag} {path}: {why}; give the box's store or the name of a new file (the file was "
                        "not changed)")
    return path


def _store_problem(path: Path) -> str | None:
    """Why ``path`` (it exists) is not the box's store, or None (see :func:`check_given_store`)."""
    if path.is_dir():
        return "a folder, not a store file"
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    if not header:
        return "an empty file, not a store of the box"
    if not header.startswith(SQLITE_HEADER) or len(header) < 100:
        return "not a store of the box (not an SQLite database)"
    wal = path.with_name(path.name + "-wal").exists()
    uri = path.absolute().as_uri() + ("?mode=ro" if wal else "?mode=ro&immutable=1")
    try:
        db = sqlite3.connect(uri, uri=True)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            schema = schema_problem(db)
            check = db.execute("PRAGMA quick_check").fetchone()[0] if version and not schema else "ok"
        finally:
            db.close()
    except sqlite3.Error as error:
        return f"not a store of the box (SQLite cannot read it: {error})"
    if version > SCHEMA_VERSION:
        return f"a store of a newer tabletop-companion (schema version {version}; this one knows up to {SCHEMA_VERSION})"
    if version == 0 or schema:
        return f"an SQLite database, but not a store of the box ({schema or 'no schema version'})"
    if check != "ok":
        return f"a damaged store (SQLite's quick check: {check})"
    return None


MOST = 1_000_000
"""The most any count flag takes (games, trials, renders, frames...): more would run for weeks or fill the
memory, so it is refused as a mistake rather than started."""


def positive(value: int, flag: str, most: int = MOST) -> int:
    """``value`` when it is 1 to ``most``, else :class:`UserError` naming ``flag``."""
    return in_range(value, flag, 1, most)


def in_range(value: int, flag: str, least: int, most: int = MOST) -> int:
    """``value`` when it is ``least`` to ``most``, else :class:`UserError` naming ``flag`` and the range."""
    if value < least:
        raise UserError(f"{flag} must be at least {least}, not {echo(value)}")
    if value > most:
        raise UserError(f"{flag} must be at most {most:,}, not {echo(value)}")
    return value


def read_json(path: Path) -> Any:
    """The JSON value in the file ``path``. Raises OSError when it cannot be read and
    :class:`FileFormatError` ("not JSON (reason, line L column C)") when it is not UTF-8 JSON text, is
    nested deeper than Python's parser goes, or holds a whole number of more than 30 digits."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"), parse_int=_json_int)
    except json.JSONDecodeError as error:
        raise FileFormatError(f"not JSON ({error.msg}, line {error.lineno} column {error.colno})") from None
    except UnicodeDecodeError:
        raise FileFormatError("not JSON (not UTF-8 text)") from None
    except RecursionError:  # Python's parser nests one call a level: [[[[... 200,000 deep
        raise FileFormatError("not a file of this kind (JSON nested too deep)") from None


def _json_int(text: str) -> int:
    """A JSON integer; a number of more digits than any file of the box holds is refused before Python
    converts it (it refuses over 4,300 digits in words of its own)."""
    if len(text) > 30:
        raise FileFormatError(f"not a file of this kind (a number of {len(text.lstrip('-'))} digits)")
    return int(text)


LINE_LIMIT = 500
"""The longest error line the command line prints: what an input echoed by a message it did not cut
(:func:`companion.errors.echo`) may add is cut at the end."""


def one_line(text: str) -> str:
    """``text`` on one line: line breaks and other control characters (a file's or a value's) written as
    escapes (``\\n``, ``\\x07``), so that a message is always the one line the command line promises, and
    never longer than :data:`LINE_LIMIT` characters."""
    if len(text) > LINE_LIMIT * 2:
        text = text[:LINE_LIMIT * 2]
    line = "".join(char if char.isprintable() or char == " " else repr(char)[1:-1] for char in text)
    return line if len(line) <= LINE_LIMIT else line[:LINE_LIMIT - 1] + "…"


def report_file_error(path: Path, error: OSError | ValueError) -> int:
    """Print the one line a per-file command gives for a file it cannot use ("companion: PATH: reason":
    the system's reason for an unreadable file, else the error's text); returns the exit status 2."""
    reason = error.strerror if isinstance(error, OSError) else error
    print(f"companion: {one_line(f'{path}: {reason}')}", file=sys.stderr)
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
