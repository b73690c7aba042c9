"""The SQLite store: saved games, each game's event log, and the scoreboard (ARCHITECTURE.md, Session).

The session appends every accepted event here *before* it changes the screen; the current state is the
replay of the log, so a power cut, a crash or a restart resumes the same game, and undo drops the last
event.

Why an event that :meth:`Store.append_event` returned survives a power cut or SIGKILL
    Each append is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``), and ``append_event`` returns
    only after ``COMMIT`` has returned. The store runs in WAL journal mode with ``synchronous=FULL``:
    at commit SQLite appends the transaction's pages plus a commit frame to the ``-wal`` file and
    fsyncs it before ``COMMIT`` returns. A SIGKILL cannot undo that (the bytes are in the kernel's
    page cache, which outlives the process), and after the fsync they are on the storage medium, so
    a power cut cannot either. On the next open SQLite replays committed frames from the WAL. (With
    WAL and ``synchronous=NORMAL`` the fsync waits for the next checkpoint: safe against a crash but
    not a power cut, which is why FULL is used.) ``companion bench crash`` checks the SIGKILL half of
    this: it kills ``companion play`` at random moments and finds every event the screen had shown.

Why a half-written state never appears
    Every change (an append, an undo, finishing a game together with its scoreboard update, a schema
    migration) is a single transaction. WAL frames carry checksums and a transaction counts only once
    its commit frame is complete; on recovery SQLite ignores a torn tail, so readers see the database
    either before or after the whole transaction, never between. ``seq`` numbers are computed inside
    the same transaction, so they stay 1..n without gaps.

One press, one transaction
    Everything one press makes a game do (a card played and the draws it triggers, the last move and the
    game's result with the scoreboard) is stored together: the loop runs each press inside
    :meth:`Store.press`, and every write inside it joins one transaction that commits when the press is
    handled (or rolls back when handling it raised). A power cut therefore leaves the log between two
    presses, never inside one.

One box, one writer
    The box's store is held by one process at a time: :class:`StoreLock` takes an exclusive ``flock``
    on ``NAME.lock`` beside it, kept until the store is closed (the kernel drops it when the process
    dies, so a crash or a power cut leaves no stale lock). A second ``companion play`` or ``menu`` gets
    :class:`~companion.errors.StoreBusy` naming the process that holds it and changes nothing. Readers
    such as ``companion stats`` take no lock (WAL lets them read while the box writes).

Schema versions
    ``PRAGMA user_version`` holds the schema version; :data:`MIGRATIONS` lists the SQL steps from each
    version to the next. Opening applies the missing steps in one transaction (an empty or new file is
    version 0). A file with a newer version than this code knows is refused (:class:`StoreError`),
    never modified.

Damaged files (issue 9)
    :func:`open_or_move_aside` is how the appliance opens its store: a file that cannot be used (not
    SQLite, truncated, shorter than an SQLite header (a first write cut by a power cut: its game may be in
    the ``-wal``), damaged so that ``PRAGMA quick_check`` fails, another program's database, a newer
    schema, tables or columns missing, or a directory where the file belongs) is renamed to
    ``NAME.unusable-YYYYMMDDTHHMMSSZ`` (with its ``-wal`` / ``-shm`` companions), never deleted, and a
    fresh store is started in its place; the returned message is one line saying what was wrong and what
    was done (the box has done it: it asks nothing of the reader). A full disk is a :class:`StoreError` saying so; the event that could not
    be written is not in the log (its transaction was rolled back), so the session did not change.
    A new store file appears whole (:func:`make_store_file`), so a start killed in its first second
    leaves nothing for the next start to move aside.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.errors import CorruptLog, StoreBusy, StoreError
from companion.paths import AppPaths, ensure_state_dir
from companion.names import is_seat_name
from companion.registry import check_saved_game

logger = logging.getLogger(__name__)

MIGRATIONS: list[list[str]] = [
    # 0 -> 1: games, their event logs, the scoreboard.
    [
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game TEXT NOT NULL,                 -- e.g. "cant-stop"
            players TEXT NOT NULL,              -- JSON list of names, seating order
            variant TEXT NOT NULL,              -- JSON object
            created TEXT NOT NULL,              -- ISO 8601, UTC
            finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
            result TEXT                         -- JSON object once finished
        )""",
        """CREATE TABLE events (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL CHECK (seq >= 1),
            kind TEXT NOT NULL,
            payload TEXT NOT NULL,              -- JSON
            created TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""",
        """CREATE TABLE scores (
            name TEXT NOT NULL,
            game TEXT NOT NULL,
            games INTEGER NOT NULL DEFAULT 0,
            wins INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (name, game)
        ) WITHOUT ROWID""",
        "CREATE INDEX games_unfinished ON games (game, finished, id)",
    ],
]
"""``MIGRATIONS[v]`` takes the schema from version ``v`` to ``v + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)

SET_ASIDE = "unreadable:"
"""The prefix of the kind of an event row set aside by :meth:`Store.set_aside_unreadable`."""


@dataclass(frozen=True)
class Event:
    """One accepted event of a game: ``seq`` counts 1..n per game; ``payload`` is any JSON value."""

    game_id: int
    seq: int
    kind: str
    payload: Any
    created: str


@dataclass(frozen=True)
class GameRecord:
    """A saved game. ``result`` is the dict given to :meth:`Store.finish_game` (None while unfinished)."""

    id: int
    game: str
    players: tuple[str, ...]
    variant: dict[str, Any]
    created: str
    finished: bool
    result: dict[str, Any] | None


@dataclass(frozen=True)
class ScoreRow:
    """Scoreboard line: games finished and games won by ``name`` at ``game``."""

    name: str
    game: str
    games: int
    wins: int


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


def _to_json(value: Any, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise ValueError(f"{what} must be JSON-serialisable: {error}") from None


NEW_SUFFIX = ".new"
"""A new store file is built as ``NAME.new`` beside it before it takes its name (:func:`make_store_file`)."""


def make_store_file(path: Path) -> None:
    """Make an empty SQLite file in WAL mode, mode 0600, at ``path`` in one step, unless one is there.

    It is written and synced as ``NAME.new`` (:data:`NEW_SUFFIX`) and then linked to ``path``, so a process
    killed while making it (the box's first second, a power cut) leaves either no file at ``path`` or a
    whole one, never a file shorter than an SQLite header that the next start would have to move aside and
    tell the players about (:func:`file_problem`: such a file is then a real loss). A ``.new`` left by a
    killed start is replaced. The schema is made by the :class:`Store` that opens it (its migrations).
    Raises OSError or ``sqlite3.Error`` when the directory cannot be written.
    """
    partial = path.with_name(path.name + NEW_SUFFIX)
    for leftover in (partial, partial.with_name(partial.name + "-wal"), partial.with_name(partial.name + "-shm")):
        leftover.unlink(missing_ok=True)
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
    db = sqlite3.connect(partial, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")  # writes the header (one page, synced)
    finally:
        db.close()
    try:
        os.link(partial, path)  # never over a file another process made meanwhile
    except FileExistsError:
        pass
    except OSError:  # a file system without hard links (a FAT stick)
        if not path.exists():
            os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    directory = os.open(path.parent, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(directory)  # the new name survives a power cut
    finally:
        os.close(directory)


LOCK_SUFFIX = ".lock"
"""The lock file of a store is ``NAME.lock`` beside it (:class:`StoreLock`)."""


class StoreLock:
    """The exclusive hold of one process on the store at ``path`` (see the module docstring).

    Takes ``flock(LOCK_EX | LOCK_NB)`` on ``path`` + :data:`LOCK_SUFFIX` (made 0600 if missing) and writes
    this process's id into it; :meth:`release` (or the process's end) lets it go. Raises
    :class:`~companion.errors.StoreBusy` naming the holder's process id when another process holds it, and
    :class:`StoreError` when the lock file cannot be made.
    """

    def __init__(self, path: Path | str):
        self.path = Path(str(path) + LOCK_SUFFIX)
        try:
            self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as error:
            raise StoreError(f"{self.path}: cannot make the store's lock file ({error.strerror or error}). "
                             f"Check that the directory is writable by this user.") from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _read_pid(self._fd)
            os.close(self._fd)
            self._fd = None
            raise StoreBusy(
                f"{path}: the box is already running (process {holder or 'unknown'} holds this store). Stop it "
                f"first (sudo systemctl stop tabletop-companion, or quit it); nothing was changed.") from None
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        """Let the store go (idempotent). The lock file stays: removing it would race a process waiting."""
        if self._fd is not None:
            os.close(self._fd)  # closing drops the flock
            self._fd = None


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""


def _expected_schema() -> dict[str, list[tuple[str, str]]]:
    """``{table: [(column, type), ...]}`` of a store made by :data:`MIGRATIONS` (built in memory)."""
    db = sqlite3.connect(":memory:")
    try:
        for step in MIGRATIONS:
            for statement in step:
                db.execute(statement)
        return _schema_of(db)
    finally:
        db.close()


def _schema_of(db: sqlite3.Connection) -> dict[str, list[tuple[str, str]]]:
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                       "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    return {t: [(c[1], str(c[2]).upper()) for c in db.execute(f"PRAGMA table_info('{t}')")] for t in tables}


_EXPECTED_SCHEMA = _expected_schema()


def schema_problem(db: sqlite3.Connection) -> str | None:
    """What the database on ``db`` lacks of the schema :data:`MIGRATIONS` make ("table scores is
    missing", "table events lacks created TEXT"), None when it has every table and column with its
    type. Reads only. Raises ``sqlite3.Error`` when the file cannot be read."""
    found = _schema_of(db)
    for table, columns in _EXPECTED_SCHEMA.items():
        if table not in found:
            return f"table {table} is missing"
        have = dict(found[table])
        missing = [f"{name} {kind}" for name, kind in columns if have.get(name) != kind]
        if missing:
            return f"table {table} lacks {', '.join(missing)}"
    return None


class Store:
    """The SQLite store at ``path``; opening it migrates the schema forward.

    ``now`` supplies timestamps (default: the UTC wall clock). ``lock``: the process's hold on the
    store (:class:`StoreLock`, released by :meth:`close`); None for a reader or a test. Use as a context
    manager or call :meth:`close`. One connection, for the thread that opened it. A new file is made
    0600 (saved games are the players' own); SQLite gives its ``-wal`` and ``-shm`` files the same mode.

    Raises :class:`StoreError` naming the file when it cannot be opened or created, is not an SQLite
    database or not a companion store, is damaged, lacks a table or column of the schema, or has a newer
    schema than :data:`SCHEMA_VERSION`.
    """

    def __init__(self, path: Path | str, *, now: Callable[[], datetime] = _utc_now, lock: StoreLock | None = None):
        self.path = Path(path)
        self._now = now
        self._lock = lock
        self._pressing = False
        self.skipped: dict[int, str] = {}
        """Saved games whose row could not be read, by id: what was said of each (listings leave them
        out; ``stats``, History and ``selftest`` name them)."""
        if str(self.path) != ":memory:" and self.path.is_dir():
            self._release()
            raise _with_problem(StoreError(
                f"{self.path}: a directory, where the store's file belongs; move it away (the box moves it "
                f"aside by itself) or name a file"), f"{self.path}: a directory, where the store's file belongs")
        try:
            if str(self.path) != ":memory:" and not self.path.exists():
                make_store_file(self.path)
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=5.0)
        except OSError as error:
            self._release()
            raise StoreError(f"{self.path}: cannot open the store: {error.strerror or error}. Check that the "
                             f"directory exists and is writable by this user.") from None
        except sqlite3.Error as error:
            self._release()
            raise self._error(error, "cannot open") from None
        try:
            with self._errors("cannot open"):
                self._setup()
        except BaseException:
            self._db.close()
            self._release()
            raise

    # --- opening -----------------------------------------------------------------------------------

    def _setup(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise _with_problem(StoreError(
                f"{self.path}: written by a newer tabletop-companion (schema version {version}; this one "
                f"knows up to {SCHEMA_VERSION}). Update the program; the file was not changed."
            ), f"{self.path}: written by a newer tabletop-companion (schema version {version})")
        if version == 0:
            self._refuse_foreign_database()
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":
            logger.warning("%s: journal mode is %s, not WAL (file system without shared memory?)", self.path, mode)
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        if version < SCHEMA_VERSION:
            self._migrate(version)
        self._check_schema()

    def _check_schema(self) -> None:
        """Every table and column the box uses is there (a damaged or hand-edited store is refused here
        rather than failing on the first game it shows)."""
        problem = schema_problem(self._db)
        if problem:
            raise _with_problem(StoreError(
                f"{self.path}: not the schema of a tabletop-companion store ({problem}). Move it aside (the box "
                f"does so by itself) or restore a backup; it was not changed."),
                f"{self.path}: not the schema of a tabletop-companion store ({problem})")

    def _migrate(self, version: int) -> None:
        with self._transaction():
            # Re-read inside the write lock: another process may have migrated meanwhile.
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                self._refuse_foreign_database()
            for step in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[step]:
                    self._db.execute(statement)
                logger.info("%s: schema migrated from version %d to %d", self.path, step, step + 1)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")

    def _refuse_foreign_database(self) -> None:
        """At schema version 0 the file must be empty: tables there belong to some other program."""
        tables = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables:
            raise _with_problem(StoreError(
                f"{self.path}: an SQLite database, but not a tabletop-companion store (it has tables and "
                f"no schema version). Point the program at another file; this one was not changed."
            ), f"{self.path}: an SQLite database, but not a tabletop-companion store")

    def _error(self, error: sqlite3.Error, doing: str) -> StoreError:
        """The StoreError for SQLite's ``error`` while ``doing`` something, with advice; its ``problem``
        attribute is the line without the advice (what a move aside says)."""
        text = str(error)
        if isinstance(error, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text):
            advice = (
                "The file is not an SQLite database or is damaged. Move it aside (keep it for inspection) "
                "and start again to begin a new store, or restore a backup."
            )
        elif "disk is full" in text or "disk I/O error" in text:
            advice = (
                "The disk (SD card) is full or failing: nothing of this change was saved, earlier events are "
                "safe. Free some space (e.g. delete old photos or logs) and start again."
            )
        elif "unable to open" in text or "readonly" in text or "read-only" in text:
            advice = "Check that the directory exists and is writable by this user."
        else:
            advice = "Check the file and the disk; `companion` can start a new store if the file is moved aside."
        return _with_problem(StoreError(f"{self.path}: {doing} the store: {text}. {advice}"),
                             f"{self.path}: {text}")

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as error:
            raise self._error(error, doing) from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: BEGIN IMMEDIATE, then COMMIT (or ROLLBACK on any exception). Inside
        :meth:`press` it joins the press's transaction, which :meth:`press` commits."""
        if self._pressing:
            if not self._db.in_transaction:
                self._db.execute("BEGIN IMMEDIATE")
            yield self._db
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
                self._db.execute("ROLLBACK")
            raise

    @contextmanager
    def press(self) -> Iterator["Store"]:
        """Store everything written inside as one transaction (see "One press, one transaction" in the
        module docstring): the first write begins it, the end of the block commits it (durably, as
        :meth:`append_event`), an exception rolls all of it back and goes on. Nested blocks join the
        outer one. A press that writes nothing costs nothing. Raises :class:`StoreError` when the commit
        fails (a full disk: nothing of the press was stored)."""
        if self._pressing:
            yield self
            return
        self._pressing = True
        try:
            yield self
        except BaseException:
            self._pressing = False
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._pressing = False
        if self._db.in_transaction:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise self._error(error, "cannot write to") from None

    def close(self) -> None:
        """Close the connection (checkpoints the WAL when this is the last connection) and let the
        store go (:class:`StoreLock`)."""
        self._db.close()
        self._release()

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        """The file's ``PRAGMA user_version``."""
        with self._errors("cannot read"):
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    # --- games -------------------------------------------------------------------------------------

    def new_game(self, game: str, players: Sequence[str], variant: Mapping[str, Any]) -> int:
        """Save a new, unfinished game and return its id.

        ``players``: distinct non-empty names in seating order (at least one). ``variant``: the variant
        settings (JSON object). Raises ValueError for bad names or a non-JSON variant.
        """
        names = list(players)
        if not names or any(not isinstance(n, str) or not n.strip() for n in names):
            raise ValueError(f"players must be one or more non-empty names, got {names!r}")
        if len(set(names)) != len(names):
            raise ValueError(f"player names must be distinct (the scoreboard is kept by name), got {names!r}")
        row = (game, _to_json(names, "players"), _to_json(dict(variant), "variant"), self._now().isoformat())
        with self._errors("cannot write to"), self._transaction() as db:
            cursor = db.execute("INSERT INTO games (game, players, variant, created) VALUES (?, ?, ?, ?)", row)
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def game(self, game_id: int) -> GameRecord:
        """The saved game ``game_id``; raises KeyError when there is none, :class:`CorruptLog` naming the
        file and the game when its row cannot be read."""
        with self._errors("cannot read"):
            row = self._db.execute(f"SELECT {_GAME_COLUMNS_RAW} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} in {self.path}")
        try:
            return _game_record(row)
        except ValueError as error:
            raise CorruptLog(f"{self.path}: saved game {game_id} cannot be read ({error})") from None

    def unfinished_games(self, game: str | None = None) -> list[GameRecord]:
        """Unfinished games (of ``game`` only, when given), oldest first."""
        return self._games("finished = 0", game)

    def finished_games(self, game: str | None = None) -> list[GameRecord]:
        """Finished games with their results (of ``game`` only, when given), oldest first."""
        return self._games("finished = 1", game)

    def _games(self, condition: str, game: str | None) -> list[GameRecord]:
        sql = f"SELECT {_GAME_COLUMNS_RAW} FROM games WHERE {condition}"
        params: tuple[Any, ...] = ()
        if game is not None:
            sql += " AND game = ?"
            params = (game,)
        with self._errors("cannot read"):
            rows = self._db.execute(sql + " ORDER BY id", params).fetchall()
        records = []
        for row in rows:
            try:
                records.append(_game_record(row))
            except ValueError as error:
                if int(row[0]) not in self.skipped:  # said once, however often the lists are read
                    self.skipped[int(row[0])] = f"{self.path}: saved game {row[0]} cannot be read ({error}); left out"
                    logger.error("%s", self.skipped[int(row[0])])
        return records

    def latest_unfinished(self, game: str) -> int | None:
        """The id of the most recently started unfinished ``game`` whose row can be read, or None: the game
        to resume (one that cannot be read is left out, said once: :attr:`skipped`)."""
        games = self.unfinished_games(game)
        return games[-1].id if games else None

    # --- the event log -----------------------------------------------------------------------------

    def append_event(self, game_id: int, kind: str, payload: Any) -> int:
        """Append an event to an unfinished game's log and return its ``seq`` (1 for the first).

        Committed durably before returning (see the module docstring). Raises KeyError for an unknown
        game, ValueError for a finished game, an empty ``kind`` or a payload that is not JSON.
        """
        if not kind:
            raise ValueError("event kind must be a non-empty string")
        text = _to_json(payload, f"payload of event {kind!r}")
        with self._errors("cannot write to"), self._transaction() as db:
            self._check_open(game_id)
            seq = db.execute("SELECT coalesce(max(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)).fetchone()[0]
            db.execute(
                "INSERT INTO events (game_id, seq, kind, payload, created) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, kind, text, self._now().isoformat()),
            )
        return int(seq)

    def events(self, game_id: int) -> list[Event]:
        """The game's events in ``seq`` order (empty for a game without events), without those set aside
        (:meth:`set_aside_from`). Raises :class:`CorruptLog` naming the store, the game and the event
        (its ``seq``) when a row cannot be read (not UTF-8, not JSON): :meth:`set_aside_from` goes on."""
        events = []
        for g, s, k, p, c in self._event_rows(game_id):
            try:
                events.append(Event(g, s, _text(k, "kind"), _json(p, "payload"), _text(c, "created")))
            except ValueError as error:
                raise CorruptLog(f"{self.path}: game {game_id}, event {s} cannot be read ({error})", s) from None
        return events

    def _event_rows(self, game_id: int) -> list[tuple]:
        """The game's rows not set aside, as read: kind, payload and created as bytes (see :func:`_text`)."""
        with self._errors("cannot read"):
            return self._db.execute(
                "SELECT game_id, seq, CAST(kind AS BLOB), CAST(payload AS BLOB), CAST(created AS BLOB) FROM events "
                "WHERE game_id = ? AND kind NOT LIKE ? ORDER BY seq", (game_id, SET_ASIDE + "%")).fetchall()

    def event_count(self, game_id: int) -> int:
        """How many events the game has (those set aside not counted); 0 for an unknown game."""
        with self._errors("cannot read"):
            return int(self._db.execute("SELECT count(*) FROM events WHERE game_id = ? AND kind NOT LIKE ?",
                                        (game_id, SET_ASIDE + "%")).fetchone()[0])

    def first_unreadable(self, game_id: int) -> tuple[int, str] | None:
        """``(seq, why)`` of the game's first event row that cannot be read (not UTF-8, not JSON), or None."""
        for _g, seq, kind, payload, created in self._event_rows(game_id):
            try:
                _text(kind, "kind"), _json(payload, "payload"), _text(created, "created")
            except ValueError as error:
                return seq, str(error)
        return None

    def set_aside_unreadable(self, game_id: int) -> str:
        """:meth:`set_aside_from` the first event row that cannot be read (:meth:`first_unreadable`);
        "" when every row reads."""
        bad = self.first_unreadable(game_id)
        return "" if bad is None else self.set_aside_from(game_id, bad[0], f"could not be read ({bad[1]})")

    def set_aside_from(self, game_id: int, seq: int, why: str) -> str:
        """End the game's log before event ``seq``: that event and every event after it (they were
        accepted after it and replay through it) are set aside, kept in the file with their kind prefixed
        by :data:`SET_ASIDE`, so nothing is deleted. ``why``: what is wrong with event ``seq`` (for the
        message). Returns the message naming the store, the game, the event and what was kept (for the
        log and ``selftest``). Raises :class:`StoreError` when the file cannot be written."""
        with self._errors("cannot write to"), self._transaction() as db:
            kept = db.execute("SELECT count(*) FROM events WHERE game_id = ? AND seq < ? AND kind "
                              "NOT LIKE ?", (game_id, seq, SET_ASIDE + "%")).fetchone()[0]
            cursor = db.execute("UPDATE events SET kind = ? || kind WHERE game_id = ? AND seq >= ? "
                                "AND kind NOT LIKE ?", (SET_ASIDE, game_id, seq, SET_ASIDE + "%"))
        return (f"{self.path}: game {game_id}: event {seq} {why}; the game goes on after event {kept} "
                f"(events {seq} and on, {cursor.rowcount} in all, set aside in the file, not deleted)")

    def drop_last_event(self, game_id: int) -> Event | None:
        """Undo: delete the game's last event and return it (None when the log is empty).

        Raises KeyError for an unknown game and ValueError for a finished one.
        """
        with self._errors("cannot write to"), self._transaction() as db:
            self._check_open(game_id)
            row = db.execute(
                "SELECT game_id, seq, CAST(kind AS BLOB), CAST(payload AS BLOB), CAST(created AS BLOB) FROM events "
                "WHERE game_id = ? AND kind NOT LIKE ? ORDER BY seq DESC LIMIT 1",
                (game_id, SET_ASIDE + "%"),
            ).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (game_id, row[1]))
        g, s, k, p, c = row
        try:
            return Event(g, s, _text(k, "kind"), _json(p, "payload"), _text(c, "created"))
        except ValueError as error:
            raise CorruptLog(f"{self.path}: game {game_id}, event {s} cannot be read ({error})", s) from None

    def _check_open(self, game_id: int) -> None:
        row = self._db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} in {self.path}")
        if row[0]:
            raise ValueError(f"game {game_id} is finished; its event log is final")

    # --- results and the scoreboard ----------------------------------------------------------------

    def finish_game(self, game_id: int, result: Mapping[str, Any]) -> None:
        """Mark the game finished, keep ``result`` and update the scoreboard, in one transaction.

        ``result`` is a JSON object with at least ``"winner"``: the winner's name, or seat (0-based index
        into the game's players, as in ``companion.games.base.Outcome.to_dict()``), or None for a draw /
        nobody; other keys (placings, scores...) are kept as given. Every player's ``games`` goes up by
        one, the winner's ``wins`` too; a default seat name ("Player 2" in any language,
        ``companion.names.is_seat_name``) names no person and gets no scoreboard row. Raises KeyError
        for an unknown game, ValueError when the game is already finished or the winner is missing or
        not one of the players.
        """
        if "winner" not in result:
            raise ValueError(f"result must have a 'winner' (name, seat or None), got {dict(result)!r}")
        text = _to_json(dict(result), "result")
        winner = result["winner"]
        with self._errors("cannot write to"), self._transaction() as db:
            self._check_open(game_id)
            game, players_json = db.execute("SELECT game, players FROM games WHERE id = ?", (game_id,)).fetchone()
            players = json.loads(players_json)
            if isinstance(winner, int) and not isinstance(winner, bool) and 0 <= winner < len(players):
                winner = players[winner]
            elif winner is not None and winner not in players:
                raise ValueError(
                    f"result winner must be None, one of {players} or a seat 0-{len(players) - 1}, got {winner!r}"
                )
            db.execute("UPDATE games SET finished = 1, result = ? WHERE id = ?", (text, game_id))
            for name in (name for name in players if not is_seat_name(name)):  # a seat is no one
                db.execute(
                    "INSERT INTO scores (name, game, games, wins) VALUES (?, ?, 1, ?) "
                    "ON CONFLICT (name, game) DO UPDATE SET games = games + 1, wins = wins + excluded.wins",
                    (name, game, int(name == winner)),
                )

    def results(self, game_id: int) -> dict[str, Any] | None:
        """The result stored by :meth:`finish_game` (None while the game is unfinished); KeyError if unknown."""
        return self.game(game_id).result

    def scoreboard(self, game: str | None = None) -> list[ScoreRow]:
        """Scoreboard rows (of ``game`` only, when given): by game, then most wins, fewest games, name. A
        row that cannot be read (a name that is not UTF-8 text, counts that are not numbers) is left out,
        and the log names it."""
        sql = "SELECT CAST(name AS BLOB), CAST(game AS BLOB), games, wins FROM scores"
        params: tuple[Any, ...] = ()
        if game is not None:
            sql += " WHERE game = ?"
            params = (game,)
        with self._errors("cannot read"):
            rows = self._db.execute(sql + " ORDER BY game, wins DESC, games, name", params).fetchall()
        board = []
        for name, game_name, games, wins in rows:
            try:
                if not isinstance(games, int) or not isinstance(wins, int):
                    raise ValueError("its counts are not whole numbers")
                board.append(ScoreRow(_text(name, "name"), _text(game_name, "game"), games, wins))
            except ValueError as error:
                logger.error("%s: a scoreboard row cannot be read (%s); left out", self.path, error)
        return board

    def quick_check(self) -> str:
        """SQLite's ``PRAGMA quick_check`` (like :meth:`integrity_check`, faster: no index contents)."""
        try:
            rows = self._db.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as error:
            return str(error)
        return "\n".join(str(r[0]) for r in rows)

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check``: ``"ok"``, or the problems found, one a line.

        When the damage stops the check itself, the answer is SQLite's error (e.g. ``"database disk
        image is malformed"``) rather than an exception.
        """
        try:
            rows = self._db.execute("PRAGMA integrity_check").fetchall()
        except sqlite3.DatabaseError as error:
            return str(error)
        return "\n".join(str(r[0]) for r in rows)


def _with_problem(error: StoreError, problem: str) -> StoreError:
    error.problem = problem  # type: ignore[attr-defined]
    return error


_GAME_COLUMNS_RAW = ("id, CAST(game AS BLOB), CAST(players AS BLOB), CAST(variant AS BLOB), "
                     "CAST(created AS BLOB), finished, CAST(result AS BLOB)")
"""The games' columns as bytes: a text that is not UTF-8 is then a damaged row, not an SQLite error."""


def _text(value: Any, column: str) -> str:
    """A column read as bytes, decoded; ValueError naming the column when it is not UTF-8 text."""
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{column} is not UTF-8 text") from None
    if isinstance(value, str):
        return value
    raise ValueError(f"{column} is not text")


def _json(value: Any, column: str) -> Any:
    try:
        return json.loads(_text(value, column))
    except (RecursionError, json.JSONDecodeError):
        raise ValueError(f"{column} is not JSON") from None


def _game_record(row: tuple[Any, ...]) -> GameRecord:
    """A ``games`` row read with :data:`_GAME_COLUMNS_RAW`; ValueError naming the column that is damaged,
    or what does not fit a game the box plays (:func:`companion.registry.check_saved_game`: a game it
    does not know, a player count or a variant its rules refuse)."""
    id_, game, players, variant, created, finished, result = row
    players = _json(players, "players")
    if not isinstance(players, list) or not players or not all(isinstance(n, str) for n in players):
        raise ValueError("players is not a list of names")
    variant = _json(variant, "variant")
    if not isinstance(variant, dict):
        raise ValueError("variant is not a JSON object")
    result = None if result is None else _json(result, "result")
    if result is not None and not isinstance(result, dict):
        raise ValueError("result is not a JSON object")
    record = GameRecord(id=int(id_), game=_text(game, "game"), players=tuple(players), variant=variant,
                        created=_text(created, "created"), finished=bool(finished), result=result)
    check_saved_game(record.game, record.players, record.variant)
    return record


_UNUSABLE_CONTENT = ("not a database", "malformed", "written by a newer", "not a tabletop-companion store",
                     "not the schema of a tabletop-companion store", "where the store's file belongs")
"""Signs, in a :class:`StoreError`, that the file's content cannot be used (so it may be moved aside)."""


def move_aside(path: Path | str, *, now: Callable[[], datetime] = _utc_now) -> Path:
    """Rename the store file ``path`` (and its ``-wal`` / ``-shm`` files) to ``NAME.unusable-STAMP``.

    STAMP is the UTC time as ``YYYYMMDDTHHMMSSZ`` (a counter is added if that name is taken). Nothing
    is deleted. Returns the new path of the main file. Raises OSError when the rename fails.
    """
    path = Path(path)
    stamp = now().strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.unusable-{stamp}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.unusable-{stamp}-{counter}")
    # The companions first: a -wal left beside a fresh main file would be replayed into it.
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.rename(target.with_name(target.name + suffix))
    if path.exists() or path.is_symlink():
        path.rename(target)
    return target


def open_or_move_aside(path: Path | str, *, now: Callable[[], datetime] = _utc_now,
                       lock: bool | StoreLock = True) -> tuple[Store, str | None]:
    """Open the box's store at ``path``, held by this process; when the file cannot be used, move it aside
    and start a new one.

    Returns (store, message): message is None when the file opened cleanly, else a one-line text for
    the log and the screen that names the unusable file, where it went and what to do. Unusable means:
    :class:`Store` raised :class:`StoreError` for the file's content (not SQLite, damaged, foreign,
    newer schema, a table or column missing) or ``PRAGMA quick_check`` is not ``ok``. ``lock``: take the
    store's :class:`StoreLock` first (the box's one writer), so a file another process holds is never
    moved; or the lock the caller took already (handed to the store, released when it closes). Raises :class:`~companion.errors.StoreBusy` when another process holds it, and
    :class:`StoreError` when even a fresh store cannot be made (e.g. the directory is read-only or the
    disk is full).
    """
    path = Path(path)
    held = lock if isinstance(lock, StoreLock) else StoreLock(path) if lock else None
    try:
        return _open_or_move_aside(path, now, held)
    except BaseException:
        if held is not None:
            held.release()
        raise


HEADER_BYTES = 100
"""An SQLite database file begins with a 100-byte header (sqlite.org, "Database File Format" 1.3); the box's
store, once opened, is at least a page. A shorter file is a store whose first write was cut (a power cut,
a full SD card): its saved game may be in the ``-wal`` file beside it."""


def file_problem(path: Path | str) -> str | None:
    """What is wrong with the store's path as a file, before SQLite opens it: a directory (or another
    thing that is not a regular file) where the store's file belongs, or a file shorter than an SQLite
    header (:data:`HEADER_BYTES`); None when it is absent or a regular file that long. The text starts
    with the path."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        return None
    if path.is_dir():
        return f"{path}: a directory, where the store's file belongs"
    if not path.is_file():
        return f"{path}: not a regular file, where the store's file belongs"
    size = path.stat().st_size
    if size < HEADER_BYTES:
        return f"{path}: cut short ({size} bytes, less than an SQLite header)"
    return None


def _open_or_move_aside(path: Path, now: Callable[[], datetime], held: StoreLock | None) -> tuple[Store, str | None]:
    reason = file_problem(path)
    if reason is None:
        try:
            store = Store(path, now=now)
        except StoreError as error:
            # Only a problem of the file's content: a locked, unreadable or unwritable file is left alone.
            if not path.exists() or not any(sign in str(error) for sign in _UNUSABLE_CONTENT):
                raise
            reason = getattr(error, "problem", "") or str(error)
        else:
            check = store.quick_check()
            if check == "ok":
                store._lock = held
                return store, None
            store.close()
            reason = f"{path}: damaged ({check.splitlines()[0]})"
    try:
        moved = move_aside(path, now=now)
    except OSError as error:
        raise StoreError(f"{reason}; it could not be moved aside ({error.strerror or error}): move or delete "
                         f"{path} by hand") from None
    store = Store(path, now=now, lock=held)
    then = "; a newer tabletop-companion reads them" if "written by a newer" in reason else ""
    return store, f"{reason}; the saved games were kept as {moved.name} beside it and a new store was started{then}"


def open_store(paths: AppPaths) -> Store:
    """Create the state directory if needed and open ``paths.store_file`` (no lock: a reader's open).

    Raises ``companion.paths.StateDirError`` or :class:`StoreError`, each naming the path.
    """
    ensure_state_dir(paths)
    return Store(paths.store_file)
