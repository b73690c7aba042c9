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

Schema versions
    ``PRAGMA user_version`` holds the schema version; :data:`MIGRATIONS` lists the SQL steps from each
    version to the next. Opening applies the missing steps in one transaction (an empty or new file is
    version 0). A file with a newer version than this code knows is refused (:class:`StoreError`),
    never modified.

Damaged files (issue 9)
    :func:`open_or_move_aside` is how the appliance opens its store: a file that cannot be used (not
    SQLite, truncated, damaged so that ``PRAGMA quick_check`` fails, another program's database, or a
    newer schema) is renamed to ``NAME.unusable-YYYYMMDDTHHMMSSZ`` (with its ``-wal`` / ``-shm``
    companions), never deleted, and a fresh store is started in its place; the returned message names
    both files and what to do. A full disk is a :class:`StoreError` saying so; the event that could not
    be written is not in the log (its transaction was rolled back), so the session did not change.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.errors import CorruptLog, StoreError
from companion.paths import AppPaths, ensure_state_dir

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


class Store:
    """The SQLite store at ``path``; opening it migrates the schema forward.

    ``now`` supplies timestamps (default: the UTC wall clock). Use as a context manager or call
    :meth:`close`. One connection, for the thread that opened it.

    Raises :class:`StoreError` naming the file when it cannot be opened or created, is not an SQLite
    database or not a companion store, is damaged, or has a newer schema than :data:`SCHEMA_VERSION`.
    """

    def __init__(self, path: Path | str, *, now: Callable[[], datetime] = _utc_now):
        self.path = Path(path)
        self._now = now
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=5.0)
        except sqlite3.Error as error:
            raise self._error(error, "cannot open") from None
        try:
            with self._errors("cannot open"):
                self._setup()
        except BaseException:
            self._db.close()
            raise

    # --- opening -----------------------------------------------------------------------------------

    def _setup(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer tabletop-companion (schema version {version}; this one "
                f"knows up to {SCHEMA_VERSION}). Update the program; the file was not changed."
            )
        if version == 0:
            self._refuse_foreign_database()
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":
            logger.warning("%s: journal mode is %s, not WAL (file system without shared memory?)", self.path, mode)
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        if version < SCHEMA_VERSION:
            self._migrate(version)

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
            raise StoreError(
                f"{self.path}: an SQLite database, but not a tabletop-companion store (it has tables and "
                f"no schema version). Point the program at another file; this one was not changed."
            )

    def _error(self, error: sqlite3.Error, doing: str) -> StoreError:
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
        return StoreError(f"{self.path}: {doing} the store: {text}. {advice}")

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as error:
            raise self._error(error, doing) from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: BEGIN IMMEDIATE, then COMMIT (or ROLLBACK on any exception)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
                self._db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        """Close the connection (checkpoints the WAL when this is the last connection)."""
        self._db.close()

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
        """The saved game ``game_id``; raises KeyError when there is none."""
        with self._errors("cannot read"):
            row = self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} in {self.path}")
        return _game_record(row)

    def unfinished_games(self, game: str | None = None) -> list[GameRecord]:
        """Unfinished games (of ``game`` only, when given), oldest first."""
        return self._games("finished = 0", game)

    def finished_games(self, game: str | None = None) -> list[GameRecord]:
        """Finished games with their results (of ``game`` only, when given), oldest first."""
        return self._games("finished = 1", game)

    def _games(self, condition: str, game: str | None) -> list[GameRecord]:
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE {condition}"
        params: tuple[Any, ...] = ()
        if game is not None:
            sql += " AND game = ?"
            params = (game,)
        with self._errors("cannot read"):
            rows = self._db.execute(sql + " ORDER BY id", params).fetchall()
        return [_game_record(row) for row in rows]

    def latest_unfinished(self, game: str) -> int | None:
        """The id of the most recently started unfinished ``game``, or None: the game to resume."""
        with self._errors("cannot read"):
            row = self._db.execute(
                "SELECT max(id) FROM games WHERE game = ? AND finished = 0", (game,)
            ).fetchone()
        return None if row[0] is None else int(row[0])

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
        (:meth:`set_aside_unreadable`). Raises :class:`CorruptLog` naming the store, the game and the
        event when a row's payload is not JSON (run :meth:`set_aside_unreadable` to go on)."""
        events = []
        for g, s, k, p, c in self._event_rows(game_id):
            try:
                events.append(Event(g, s, k, json.loads(p), c))
            except (TypeError, ValueError):
                raise CorruptLog(f"{self.path}: game {game_id}, event {s} cannot be read (not JSON)") from None
        return events

    def _event_rows(self, game_id: int) -> list[tuple]:
        with self._errors("cannot read"):
            return self._db.execute(
                "SELECT game_id, seq, kind, payload, created FROM events WHERE game_id = ? AND kind NOT LIKE ? "
                "ORDER BY seq", (game_id, SET_ASIDE + "%")).fetchall()

    def event_count(self, game_id: int) -> int:
        """How many events the game has (those set aside not counted); 0 for an unknown game."""
        with self._errors("cannot read"):
            return int(self._db.execute("SELECT count(*) FROM events WHERE game_id = ? AND kind NOT LIKE ?",
                                        (game_id, SET_ASIDE + "%")).fetchone()[0])

    def set_aside_unreadable(self, game_id: int) -> str:
        """End the game's log at its last readable event: the first event whose payload cannot be read
        and every event after it (they were accepted after it and replay through it) are set aside, kept
        in the file with their kind prefixed by :data:`SET_ASIDE`, so nothing is deleted. Returns "" when
        every event reads, else the message naming the store, the game and what was kept."""
        rows = self._event_rows(game_id)
        bad = None
        for _g, seq, _k, payload, _c in rows:
            try:
                json.loads(payload)
            except (TypeError, ValueError):
                bad = seq
                break
        if bad is None:
            return ""
        with self._transaction() as db:
            db.execute("UPDATE events SET kind = ? || kind WHERE game_id = ? AND seq >= ? AND kind NOT LIKE ?",
                       (SET_ASIDE, game_id, bad, SET_ASIDE + "%"))
        kept = sum(1 for row in rows if row[1] < bad)
        return (f"{self.path}: game {game_id}: event {bad} could not be read; the game goes on after event "
                f"{kept} ({len(rows) - kept} set aside in the file, not deleted)")

    def drop_last_event(self, game_id: int) -> Event | None:
        """Undo: delete the game's last event and return it (None when the log is empty).

        Raises KeyError for an unknown game and ValueError for a finished one.
        """
        with self._errors("cannot write to"), self._transaction() as db:
            self._check_open(game_id)
            row = db.execute(
                "SELECT game_id, seq, kind, payload, created FROM events WHERE game_id = ? AND kind NOT LIKE ? "
                "ORDER BY seq DESC LIMIT 1", (game_id, SET_ASIDE + "%"),
            ).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (game_id, row[1]))
        g, s, k, p, c = row
        return Event(g, s, k, json.loads(p), c)

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
        one, the winner's ``wins`` too. Raises KeyError for an unknown game, ValueError when the game is
        already finished or the winner is missing or not one of the players.
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
            for name in players:
                db.execute(
                    "INSERT INTO scores (name, game, games, wins) VALUES (?, ?, 1, ?) "
                    "ON CONFLICT (name, game) DO UPDATE SET games = games + 1, wins = wins + excluded.wins",
                    (name, game, int(name == winner)),
                )

    def results(self, game_id: int) -> dict[str, Any] | None:
        """The result stored by :meth:`finish_game` (None while the game is unfinished); KeyError if unknown."""
        return self.game(game_id).result

    def scoreboard(self, game: str | None = None) -> list[ScoreRow]:
        """Scoreboard rows (of ``game`` only, when given): by game, then most wins, fewest games, name."""
        sql = "SELECT name, game, games, wins FROM scores"
        params: tuple[Any, ...] = ()
        if game is not None:
            sql += " WHERE game = ?"
            params = (game,)
        with self._errors("cannot read"):
            rows = self._db.execute(sql + " ORDER BY game, wins DESC, games, name", params).fetchall()
        return [ScoreRow(*row) for row in rows]

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


_GAME_COLUMNS = "id, game, players, variant, created, finished, result"


def _game_record(row: tuple[Any, ...]) -> GameRecord:
    id_, game, players, variant, created, finished, result = row
    return GameRecord(
        id=int(id_),
        game=game,
        players=tuple(json.loads(players)),
        variant=json.loads(variant),
        created=created,
        finished=bool(finished),
        result=None if result is None else json.loads(result),
    )


_UNUSABLE_CONTENT = ("not a database", "malformed", "written by a newer", "not a tabletop-companion store")
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
    if path.exists():
        path.rename(target)
    return target


def open_or_move_aside(path: Path | str, *, now: Callable[[], datetime] = _utc_now) -> tuple[Store, str | None]:
    """Open the store at ``path``; when the file cannot be used, move it aside and start a new one.

    Returns (store, message): message is None when the file opened cleanly, else a one-line text for
    the log and the screen that names the unusable file, where it went and what to do. Unusable means:
    :class:`Store` raised :class:`StoreError` for the file's content (not SQLite, damaged, foreign,
    newer schema) or ``PRAGMA quick_check`` is not ``ok``. Raises :class:`StoreError` when even a fresh
    store cannot be made (e.g. the directory is read-only or the disk is full).
    """
    path = Path(path)
    try:
        store = Store(path, now=now)
    except StoreError as error:
        # Only a problem of the file's content: a locked, unreadable or unwritable file is left alone.
        if not path.exists() or not any(sign in str(error) for sign in _UNUSABLE_CONTENT):
            raise
        reason = str(error)
    else:
        check = store.quick_check()
        if check == "ok":
            return store, None
        store.close()
        reason = f"{path}: the store is damaged ({check.splitlines()[0]})"
    try:
        moved = move_aside(path, now=now)
    except OSError as error:
        raise StoreError(f"{reason}. It could not be moved aside ({error.strerror or error}); "
                         f"move or delete {path} by hand.") from None
    logger.error("%s", reason)
    store = Store(path, now=now)
    return store, (f"The saved games could not be read and were kept as {moved}; a new store was started "
                   f"at {path}. To recover them, update the program or restore a backup. ({reason})")


def open_store(paths: AppPaths) -> Store:
    """Create the state directory if needed and open ``paths.store_file``.

    Raises ``companion.paths.StateDirError`` or :class:`StoreError`, each naming the path.
    """
    ensure_state_dir(paths)
    return Store(paths.store_file)
