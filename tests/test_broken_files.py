"""Broken files (issue 9, item 2): damaged stores are moved aside, bad configs and state directories
end in a message and a working box, a full disk loses nothing already saved, and every schema
migration path works."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest

from companion.app.startup import MEMORY, load_box_config, open_box_store
from companion.cli import main
from companion.config import Config
from companion.errors import StoreError
from companion.paths import AppPaths
from companion.store import MIGRATIONS, SCHEMA_VERSION, Store, make_store_file, move_aside, open_or_move_aside
from tests.paths import REPO

REPO = REPO
NOW = datetime(2026, 11, 30, 1, 2, 3, tzinfo=timezone.utc)


def _now():
    return NOW


def _saved_store(path: Path, events: int = 200) -> None:
    with Store(path) as store:
        game = store.new_game("cant-stop", ["Ada", "Ben"], {})
        for i in range(events):
            store.append_event(game, "action", {"type": "roll", "dice": [1, 2, 3, 4], "i": i, "pad": "x" * 200})


def _corrupt(path: Path) -> None:
    path.write_bytes(b"this is no database " * 300)


def _truncated(path: Path) -> None:
    _saved_store(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _foreign(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (name TEXT)")
        db.execute("INSERT INTO photos VALUES ('holiday.jpg')")


def _newer(path: Path) -> None:
    _saved_store(path, events=1)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")


def _damaged_pages(path: Path) -> None:
    """A valid header, but the pages of the tables overwritten: opens, fails the quick check."""
    _saved_store(path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page: len(data)] = bytes(b ^ 0x5A for b in data[page:])
    path.write_bytes(bytes(data))


def _cut_first_write(size: int):
    """The store's first write cut short (a power cut, a full SD card): ``size`` bytes of its file left."""
    def make(path: Path) -> None:
        _saved_store(path, events=3)
        path.write_bytes(path.read_bytes()[:size])
    return make


BROKEN = {"corrupt": _corrupt, "truncated": _truncated, "foreign": _foreign, "newer-schema": _newer,
          "damaged-pages": _damaged_pages, "empty": _cut_first_write(0), "one-byte": _cut_first_write(1)}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_an_unusable_store_is_moved_aside_with_a_timestamp_and_a_fresh_store_starts(tmp_path, kind):
    path = tmp_path / "companion.sqlite3"
    BROKEN[kind](path)
    original = path.read_bytes()
    store, message = open_or_move_aside(path, now=_now)
    with store:
        assert store.schema_version == SCHEMA_VERSION and store.unfinished_games() == []
        store.new_game("cant-stop", ["Ada", "Ben"], {})  # the fresh store works
    moved = tmp_path / "companion.sqlite3.unusable-20261130T010203Z"
    assert moved.read_bytes() == original  # kept byte for byte, never deleted
    # one line: what was wrong and what the box did (it asks nothing the box has done already)
    assert message.startswith(f"{path}: ") and f"kept as {moved.name} beside it" in message and "\n" not in message
    assert "Move it aside" not in message and len(message) < 300
    assert ("a newer tabletop-companion reads them" in message) == (kind == "newer-schema")


def test_a_store_cut_short_is_moved_aside_with_the_wal_that_may_hold_its_game(tmp_path):
    path = tmp_path / "companion.sqlite3"
    path.write_bytes(b"")
    wal = tmp_path / "companion.sqlite3-wal"
    wal.write_bytes(b"frames of the first game" * 10)  # what a cut first write leaves beside an empty file
    store, message = open_or_move_aside(path, now=_now)
    store.close()
    assert message.startswith(f"{path}: cut short (0 bytes, less than an SQLite header)")
    assert (tmp_path / "companion.sqlite3.unusable-20261130T010203Z-wal").read_bytes() == b"frames of the first game" * 10


class _Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs."""


def test_a_start_killed_while_making_the_store_leaves_no_short_file_to_move_aside(tmp_path, monkeypatch):
    # the box killed in its first second (bench crash): the next start must not find a file cut short and
    # show the players a notice about games that never were
    path = tmp_path / "companion.sqlite3"

    def killed(*args, **kwargs):
        raise _Killed

    with monkeypatch.context() as patch:
        patch.setattr("companion.store.sqlite3.connect", killed)
        with pytest.raises(_Killed):
            Store(path)
    assert not path.exists() and (tmp_path / "companion.sqlite3.new").stat().st_size == 0  # what the kill left
    store, message = open_or_move_aside(path, now=_now)
    with store:
        store.new_game("cant-stop", ["Ada", "Ben"], {})
    assert message is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["companion.sqlite3", "companion.sqlite3.lock"]


def test_a_new_store_file_is_whole_and_never_replaces_one_made_meanwhile(tmp_path):
    path = tmp_path / "companion.sqlite3"
    (tmp_path / "companion.sqlite3.new").write_bytes(b"left by a killed start")
    make_store_file(path)
    assert path.read_bytes()[:16] == b"SQLite format 3\x00" and path.stat().st_size >= 100
    assert path.stat().st_mode & 0o777 == 0o600 and not (tmp_path / "companion.sqlite3.new").exists()
    with Store(path) as store:
        store.new_game("cant-stop", ["Ada", "Ben"], {})
    saved = path.read_bytes()
    make_store_file(path)  # another process got there first: its file stays
    assert path.read_bytes() == saved


def test_a_directory_where_the_store_belongs_is_moved_aside_and_said(tmp_path):
    path = tmp_path / "companion.sqlite3"
    (path / "inside").mkdir(parents=True)
    with pytest.raises(StoreError, match="a directory, where the store's file belongs"):
        Store(path)  # a reader (stats, selftest) names it, changes nothing
    assert path.is_dir()
    store, message = open_or_move_aside(path, now=_now)
    with store:
        store.new_game("cant-stop", ["Ada", "Ben"], {})
    assert path.is_file() and (tmp_path / "companion.sqlite3.unusable-20261130T010203Z" / "inside").is_dir()
    assert message == (f"{path}: a directory, where the store's file belongs; the saved games were kept as "
                       "companion.sqlite3.unusable-20261130T010203Z beside it and a new store was started")


@pytest.mark.parametrize("kind", ["corrupt", "foreign", "newer-schema"])
def test_opening_an_unusable_store_directly_names_the_file_and_changes_nothing(tmp_path, kind):
    path = tmp_path / "companion.sqlite3"
    BROKEN[kind](path)
    before = path.read_bytes()
    with pytest.raises(StoreError) as raised:
        Store(path)
    assert str(path) in str(raised.value)
    assert path.read_bytes() == before


def test_a_healthy_store_is_opened_as_it_is(tmp_path):
    path = tmp_path / "companion.sqlite3"
    _saved_store(path, events=3)
    store, message = open_or_move_aside(path)
    with store:
        assert message is None and len(store.events(1)) == 3
    assert sorted(p.name for p in tmp_path.iterdir() if "unusable" in p.name) == []


def test_move_aside_takes_the_wal_along_and_never_overwrites(tmp_path):
    path = tmp_path / "s.sqlite3"
    for name in ("s.sqlite3", "s.sqlite3-wal", "s.sqlite3-shm"):
        (tmp_path / name).write_text(name)
    first = move_aside(path, now=_now)
    (tmp_path / "s.sqlite3").write_text("again")
    second = move_aside(path, now=_now)
    assert first.name == "s.sqlite3.unusable-20261130T010203Z"
    assert second.name == "s.sqlite3.unusable-20261130T010203Z-2"
    assert (tmp_path / (first.name + "-wal")).read_text() == "s.sqlite3-wal"
    assert second.read_text() == "again" and not path.exists()


# --- the state directory -----------------------------------------------------------------------------


def _paths(state: Path, tmp_path: Path) -> AppPaths:
    return AppPaths.from_dirs(state, tmp_path / "config")


def test_a_missing_state_directory_is_created(tmp_path):
    store, message = open_box_store(_paths(tmp_path / "a" / "b", tmp_path))
    with store:
        assert message is None and (tmp_path / "a" / "b" / "companion.sqlite3").exists()


def test_a_state_directory_blocked_by_a_file_runs_the_box_on_a_memory_store(tmp_path):
    (tmp_path / "state").write_text("a file where the directory should be")
    store, message = open_box_store(_paths(tmp_path / "state", tmp_path))
    with store:
        assert store.path == Path(MEMORY)
        store.new_game("cant-stop", ["Ada", "Ben"], {})
    assert "NOT be saved" in message and str(tmp_path / "state") in message and "COMPANION_STATE_DIR" in message


def test_a_read_only_state_directory_runs_the_box_on_a_memory_store(tmp_path, monkeypatch):
    state = tmp_path / "state"
    state.mkdir()
    monkeypatch.setattr("companion.paths.os.access", lambda path, mode: False)  # root ignores chmod
    store, message = open_box_store(_paths(state, tmp_path))
    with store:
        assert store.path == Path(MEMORY)
    assert "not writable" in message and str(state) in message


# --- a full disk -------------------------------------------------------------------------------------


def test_a_full_disk_is_a_clear_error_and_keeps_every_saved_event(tmp_path):
    path = tmp_path / "companion.sqlite3"
    with Store(path) as store:
        game = store.new_game("cant-stop", ["Ada", "Ben"], {})
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk holds two more pages
        saved = 0
        with pytest.raises(StoreError) as raised:
            for saved in range(1, 1000):
                store.append_event(game, "action", {"type": "roll", "pad": "x" * 500})
        assert "full" in str(raised.value) and str(path) in str(raised.value)
        assert "Free some space" in str(raised.value)
        assert [e.seq for e in store.events(game)] == list(range(1, saved))  # the failed one is not there
    with Store(path) as store:  # and the file is fine afterwards
        assert store.quick_check() == "ok" and len(store.events(game)) == saved - 1


def test_a_full_disk_leaves_the_session_state_unchanged(tmp_path, monkeypatch):
    from companion.games.cant_stop import StartWith
    from companion.session.cant_stop import CantStopSession

    with Store(tmp_path / "s.sqlite3") as store:
        game = store.new_game("cant-stop", ["Ada", "Ben"], {})
        session = CantStopSession(store, game, ["Ada", "Ben"])
        before = session.state

        def full(*args):  # what the store raises when SQLite reports SQLITE_FULL
            raise store._error(sqlite3.OperationalError("database or disk is full"), "cannot write to")

        monkeypatch.setattr(store, "append_event", full)
        with pytest.raises(StoreError, match="full"):
            session._accept(StartWith(0))
        assert session.state == before
        monkeypatch.undo()
        assert store.events(game) == []


# --- the config ----------------------------------------------------------------------------------------

BAD_CONFIGS = {
    "wrong type": ("[session]\nfps = \"fast\"\n", "[session] fps"),
    "unknown key": ("[buttons]\nconfirmm = 5\n", "confirmm"),
    "bad pin": ("[buttons]\nbank = 40\n", "[buttons] bank = 40"),
    "shared pin": ("[buttons]\nbank = 5\nconfirm = 5\n", "already used"),
    "not toml": ("[session\n", "not valid TOML"),
}


@pytest.mark.parametrize("case", sorted(BAD_CONFIGS))
def test_a_bad_config_gives_the_defaults_and_a_message_naming_file_and_key(tmp_path, case):
    text, needle = BAD_CONFIGS[case]
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    config, message = load_box_config(path)
    assert config == Config()
    assert str(path) in message and needle in message and "defaults" in message


def test_the_menu_starts_with_a_bad_config_and_a_corrupt_store(app_env, caplog):
    (app_env / "config").mkdir()
    (app_env / "config" / "config.toml").write_text("[buttons]\nbank = 99\n", encoding="utf-8")
    (app_env / "state").mkdir()
    _corrupt(app_env / "state" / "companion.sqlite3")
    script = app_env / "quit.script"
    script.write_text("quit\n", encoding="utf-8")
    assert main(["menu", "--headless", "--input", f"script:{script}"]) == 0
    moved = [p.name for p in (app_env / "state").iterdir() if ".unusable-" in p.name]
    assert len(moved) == 1
    with Store(app_env / "state" / "companion.sqlite3") as store:
        assert store.quick_check() == "ok"
    logged = caplog.text
    assert "[buttons] bank = 99" in logged and moved[0] in logged


def test_the_unit_does_not_restart_an_explained_failure_in_a_loop():
    text = (REPO / "systemd" / "tabletop-companion.service").read_text(encoding="utf-8")
    service = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and not line.startswith("#"):
            service[key.strip()] = value.strip()
    assert service["RestartPreventExitStatus"] == "2" and service["Restart"] == "on-failure"


# --- schema migrations ---------------------------------------------------------------------------------


@pytest.mark.parametrize("version", range(SCHEMA_VERSION))
def test_a_store_of_every_earlier_schema_version_migrates_to_the_current_one(tmp_path, version):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        for step in MIGRATIONS[:version]:
            for statement in step:
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {version}")
        if version >= 1:  # a saved game with events, in the version-1 layout
            db.execute("INSERT INTO games (game, players, variant, created) VALUES "
                       "('cant-stop', '[\"Ada\",\"Ben\"]', '{}', '2026-01-01T00:00:00+00:00')")
            db.execute("INSERT INTO events VALUES (1, 1, 'action', '{\"type\":\"start\",\"seat\":0}', 'x')")
    with Store(path) as store:
        assert store.schema_version == SCHEMA_VERSION and store.quick_check() == "ok"
        if version >= 1:
            assert [e.payload for e in store.events(1)] == [{"type": "start", "seat": 0}]
        game = store.new_game("cant-stop", ["A", "B"], {})
        assert store.append_event(game, "action", {}) == 1


def test_a_store_that_is_only_locked_or_unreadable_is_never_moved(tmp_path, monkeypatch):
    path = tmp_path / "companion.sqlite3"
    _saved_store(path, events=1)

    def locked(self, *args, **kwargs):
        raise StoreError(f"{path}: cannot open the store: database is locked. Check the file and the disk.")

    monkeypatch.setattr(Store, "__init__", locked)
    with pytest.raises(StoreError, match="locked"):
        open_or_move_aside(path)
    assert path.exists() and not [p for p in tmp_path.iterdir() if ".unusable-" in p.name]
