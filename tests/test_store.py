"""companion.store: event log, undo, scoreboard, schema versions, damaged files, crash safety."""

import os
import sqlite3
import subprocess
import sys
import textwrap
from datetime import datetime, timezone
from pathlib import Path

import pytest

from companion import store as store_module
from companion.errors import StoreError
from companion.paths import AppPaths
from companion.store import SCHEMA_VERSION, Event, ScoreRow, Store, open_or_move_aside, open_store
from tests.paths import REPO

REPO = REPO


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "companion.sqlite3") as s:
        yield s


def test_round_trip_and_seq_order(store):
    game_id = store.new_game("cant-stop", ["Ana", "Bo"], {"columns_to_win": 3})
    assert [store.append_event(game_id, "roll", {"dice": [3, 4, 3, 4]}) for _ in range(3)] == [1, 2, 3]
    assert store.append_event(game_id, "choose", [0]) == 4
    events = store.events(game_id)
    assert [e.seq for e in events] == [1, 2, 3, 4]
    assert events[0].kind == "roll" and events[0].payload == {"dice": [3, 4, 3, 4]}
    assert events[3].payload == [0]
    record = store.game(game_id)
    assert record.players == ("Ana", "Bo") and record.variant == {"columns_to_win": 3}
    assert not record.finished and record.result is None


def test_seq_is_per_game(store):
    a = store.new_game("cant-stop", ["Ana"], {})
    b = store.new_game("ludo", ["Ana", "Bo"], {})
    assert store.append_event(a, "x", 1) == 1
    assert store.append_event(b, "x", 1) == 1
    assert store.append_event(a, "x", 2) == 2
    assert [e.payload for e in store.events(a)] == [1, 2]


def test_timestamps_come_from_the_injected_clock(tmp_path):
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    with Store(tmp_path / "s.sqlite3", now=lambda: moment) as s:
        game_id = s.new_game("cant-stop", ["Ana"], {})
        s.append_event(game_id, "roll", {})
        assert s.events(game_id)[0].created == "2026-01-02T03:04:05+00:00"
        assert s.game(game_id).created == "2026-01-02T03:04:05+00:00"


def test_undo_drops_the_last_event(store):
    game_id = store.new_game("cant-stop", ["Ana"], {})
    assert store.drop_last_event(game_id) is None
    store.append_event(game_id, "roll", {"dice": [1, 2, 3, 4]})
    store.append_event(game_id, "choose", {"option": 1})
    dropped = store.drop_last_event(game_id)
    assert isinstance(dropped, Event) and dropped.seq == 2 and dropped.payload == {"option": 1}
    assert [e.seq for e in store.events(game_id)] == [1]
    assert store.append_event(game_id, "choose", {"option": 0}) == 2  # no gap after undo


def test_bad_input_is_refused_and_writes_nothing(store):
    game_id = store.new_game("cant-stop", ["Ana"], {})
    with pytest.raises(ValueError, match="JSON"):
        store.append_event(game_id, "roll", {"dice": {1, 2}})
    with pytest.raises(ValueError, match="kind"):
        store.append_event(game_id, "", {})
    with pytest.raises(KeyError):
        store.append_event(999, "roll", {})
    with pytest.raises(ValueError, match="distinct"):
        store.new_game("cant-stop", ["Ana", "Ana"], {})
    with pytest.raises(ValueError, match="non-empty"):
        store.new_game("cant-stop", [], {})
    assert store.events(game_id) == []


def test_a_default_seat_name_gets_no_scoreboard_row(store):
    for players in (["Player 1", "Ada"], ["Spieler 1", "Ada"], ["Ada", "Игрок 2"]):
        game_id = store.new_game("cant-stop", players, {})
        store.finish_game(game_id, {"winner": 0})
    assert store.scoreboard() == [ScoreRow("Ada", "cant-stop", 3, 1)]  # the games are still stored whole
    assert [g.players for g in store.finished_games()] == [("Player 1", "Ada"), ("Spieler 1", "Ada"), ("Ada", "Игрок 2")]


def test_unfinished_games_and_resume(store):
    assert store.latest_unfinished("cant-stop") is None
    a = store.new_game("cant-stop", ["Ana"], {})
    b = store.new_game("cant-stop", ["Bo"], {})
    c = store.new_game("ludo", ["Ana", "Bo"], {})
    assert store.latest_unfinished("cant-stop") == b
    assert [g.id for g in store.unfinished_games()] == [a, b, c]
    assert [g.id for g in store.unfinished_games("ludo")] == [c]
    store.finish_game(b, {"winner": 0, "placings": [0], "scores": [3]})
    assert store.latest_unfinished("cant-stop") == a
    assert [g.id for g in store.finished_games()] == [b]


def test_finish_game_updates_the_scoreboard(store):
    first = store.new_game("cant-stop", ["Ana", "Bo", "Cy"], {})
    store.finish_game(first, {"winner": 1, "placings": [1, 0, 2], "scores": [2, 3, 0]})
    second = store.new_game("cant-stop", ["Bo", "Ana"], {})
    store.finish_game(second, {"winner": "Bo", "placings": ["Bo", "Ana"], "columns": {"Bo": 3, "Ana": 1}})
    draw = store.new_game("schotten-totten", ["Ana", "Bo"], {})
    store.finish_game(draw, {"winner": None, "placings": [], "scores": []})
    assert store.scoreboard("cant-stop") == [
        ScoreRow("Bo", "cant-stop", 2, 2),
        ScoreRow("Cy", "cant-stop", 1, 0),  # equal wins: fewer games first
        ScoreRow("Ana", "cant-stop", 2, 0),
    ]
    assert ScoreRow("Ana", "schotten-totten", 1, 0) in store.scoreboard()
    assert len(store.scoreboard()) == 5
    assert store.results(first) == {"winner": 1, "placings": [1, 0, 2], "scores": [2, 3, 0]}
    assert store.game(first).finished


def test_finished_games_are_final(store):
    game_id = store.new_game("cant-stop", ["Ana", "Bo"], {})
    store.append_event(game_id, "roll", {})
    assert store.results(game_id) is None
    with pytest.raises(ValueError, match="winner"):
        store.finish_game(game_id, {"winner": 2})
    with pytest.raises(ValueError, match="winner"):
        store.finish_game(game_id, {"winner": "Cy"})
    with pytest.raises(ValueError, match="winner"):
        store.finish_game(game_id, {"winner": True})
    with pytest.raises(ValueError, match="winner"):
        store.finish_game(game_id, {"placings": []})
    assert store.scoreboard() == [] and not store.game(game_id).finished  # nothing half-done
    store.finish_game(game_id, {"winner": 0})
    with pytest.raises(ValueError, match="finished"):
        store.finish_game(game_id, {"winner": 0})
    with pytest.raises(ValueError, match="finished"):
        store.append_event(game_id, "roll", {})
    with pytest.raises(ValueError, match="finished"):
        store.drop_last_event(game_id)
    assert store.scoreboard()[0] == ScoreRow("Ana", "cant-stop", 1, 1)


def test_migration_from_version_0_empty_file(tmp_path):
    path = tmp_path / "empty.sqlite3"
    path.touch()
    with Store(path) as s:
        assert s.schema_version == SCHEMA_VERSION
        assert s.integrity_check() == "ok"
    with sqlite3.connect(path) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"games", "events", "scores"} <= tables
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_migrations_apply_forward_in_one_transaction(tmp_path, monkeypatch):
    path = tmp_path / "s.sqlite3"
    with Store(path) as s:
        game_id = s.new_game("cant-stop", ["Ana"], {})
    extended = [*store_module.MIGRATIONS, ["ALTER TABLE games ADD COLUMN note TEXT", "THIS IS NOT SQL"]]
    monkeypatch.setattr(store_module, "MIGRATIONS", extended)
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", len(extended))
    with pytest.raises(StoreError, match="syntax error"):
        Store(path)
    with sqlite3.connect(path) as db:  # the failed step left nothing behind
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert "note" not in [row[1] for row in db.execute("PRAGMA table_info(games)")]
    extended[-1] = ["ALTER TABLE games ADD COLUMN note TEXT"]
    with Store(path) as s:
        assert s.schema_version == SCHEMA_VERSION + 1
        assert s.game(game_id).players == ("Ana",)


def test_newer_schema_is_refused_untouched(tmp_path):
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    with pytest.raises(StoreError, match=r"future\.sqlite3: written by a newer .*Update the program"):
        Store(path)
    assert path.read_bytes() == before


def test_foreign_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (id INTEGER)")
    with pytest.raises(StoreError, match="not a tabletop-companion store"):
        Store(path)


def test_corrupt_file_names_the_file_and_what_to_do(tmp_path):
    path = tmp_path / "companion.sqlite3"
    path.write_bytes(b"this is not a database, just some text\n" * 200)
    with pytest.raises(StoreError, match=r"companion\.sqlite3: .*Move it aside"):
        Store(path)


def test_damaged_pages_are_reported(tmp_path):
    path = tmp_path / "companion.sqlite3"
    with Store(path) as s:
        game_id = s.new_game("cant-stop", ["Ana"], {})
        for i in range(200):
            s.append_event(game_id, "roll", {"i": i, "pad": "x" * 200})
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    for offset in range(page_size, len(data), page_size):  # scribble over every page but the first
        data[offset : offset + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))
    with Store(path) as s:
        assert s.integrity_check() != "ok"
        with pytest.raises(StoreError, match="Move it aside") as info:
            s.events(game_id)
    assert str(path) in str(info.value)


def test_unwritable_location_names_the_path(tmp_path):
    missing = tmp_path / "no" / "such" / "dir" / "s.sqlite3"
    with pytest.raises(StoreError, match=r"s\.sqlite3: cannot open"):
        Store(missing)


def test_open_store_creates_the_state_dir(tmp_path):
    paths = AppPaths.from_dirs(tmp_path / "state", tmp_path / "config")
    with open_store(paths) as s:
        assert s.path == tmp_path / "state" / "companion.sqlite3"
    assert (tmp_path / "state" / "companion.sqlite3").exists()


def test_event_survives_sigkill_right_after_append(tmp_path):
    path = tmp_path / "companion.sqlite3"
    script = textwrap.dedent(
        f"""
        import os, signal
        from companion.store import Store
        s = Store({str(path)!r})
        game_id = s.new_game("cant-stop", ["Ana", "Bo"], {{}})
        s.append_event(game_id, "roll", {{"dice": [1, 2, 3, 4]}})
        seq = s.append_event(game_id, "choose", {{"option": 2}})
        print(game_id, seq, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert child.returncode == -9, child.stderr
    game_id, seq = map(int, child.stdout.split())
    assert seq == 2
    assert Path(f"{path}-wal").exists()  # killed before any checkpoint: the event lives in the WAL
    with Store(path) as s:
        events = s.events(game_id)
        assert [(e.seq, e.kind, e.payload) for e in events] == [
            (1, "roll", {"dice": [1, 2, 3, 4]}),
            (2, "choose", {"option": 2}),
        ]
        assert s.integrity_check() == "ok"


def _corrupt(path, game_id, seq):
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET payload = '{torn' WHERE game_id = ? AND seq = ?", (game_id, seq))


def test_an_unreadable_event_is_named_and_set_aside_with_those_after_it(tmp_path):
    from companion.errors import CorruptLog

    path = tmp_path / "s.sqlite3"
    with Store(path) as store:
        game_id = store.new_game("cant-stop", ["Ada", "Ben"], {})
        for k in range(5):
            store.append_event(game_id, "action", {"k": k})
    _corrupt(path, game_id, 3)
    with Store(path) as store:
        with pytest.raises(CorruptLog, match=f"game {game_id}, event 3 cannot be read"):
            store.events(game_id)
        message = store.set_aside_unreadable(game_id)
        assert message == (f"{path}: game {game_id}: event 3 could not be read (payload is not JSON); the game goes on after event 2 "
                           "(events 3 and on, 3 in all, set aside in the file, not deleted)")
        assert [e.payload for e in store.events(game_id)] == [{"k": 0}, {"k": 1}]
        assert store.event_count(game_id) == 2
        assert store.append_event(game_id, "action", {"k": "new"}) == 6  # the set-aside rows keep their seq
        assert [e.payload for e in store.events(game_id)][-1] == {"k": "new"}
        assert store.drop_last_event(game_id).payload == {"k": "new"}
        assert store.drop_last_event(game_id).payload == {"k": 1}  # undo never reaches a set-aside row
        assert store.set_aside_unreadable(game_id) == ""
    with sqlite3.connect(path) as db:  # nothing was deleted
        assert db.execute("SELECT count(*) FROM events WHERE kind LIKE 'unreadable:%'").fetchone() == (3,)


# --- one press, one transaction; one writer; damaged schemas and rows (issue 42) ----------------------------


def test_a_press_stores_all_its_writes_or_none(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        game_id = store.new_game("cant-stop", ["Ada", "Ben"], {})
        with store.press():
            store.append_event(game_id, "action", {"k": 1})
            with store.press():  # a nested press joins the outer one
                store.append_event(game_id, "action", {"k": 2})
            assert store.event_count(game_id) == 2  # the press sees its own writes
        with pytest.raises(RuntimeError):
            with store.press():
                store.append_event(game_id, "action", {"k": 3})
                store.finish_game(game_id, {"winner": "Ada"})
                raise RuntimeError("the handling of the press failed")
        assert [e.payload["k"] for e in store.events(game_id)] == [1, 2]
        assert not store.game(game_id).finished and store.scoreboard() == []
    with Store(tmp_path / "s.sqlite3") as store:  # committed durably, seen by a new connection
        assert store.event_count(game_id) == 2


def test_a_press_that_writes_nothing_opens_no_transaction(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        with store.press():
            assert store.unfinished_games() == []
            assert not store._db.in_transaction


def test_a_second_holder_of_the_store_is_refused_and_nothing_changes(tmp_path):
    from companion.errors import StoreBusy

    path = tmp_path / "s.sqlite3"
    store, problem = open_or_move_aside(path)
    game_id = store.new_game("cant-stop", ["Ada", "Ben"], {})
    store.append_event(game_id, "action", {"k": 1})
    with pytest.raises(StoreBusy, match=rf"{path}: the box is already running \(process {os.getpid()} holds"):
        open_or_move_aside(path)
    assert store.append_event(game_id, "action", {"k": 2}) == 2  # the first holder goes on
    with Store(path) as reader:  # a reader (companion stats) takes no lock
        assert reader.event_count(game_id) == 2
    store.close()
    again, _problem = open_or_move_aside(path)  # released on close
    assert again.event_count(game_id) == 2
    again.close()


def test_the_store_files_are_the_owners_alone(tmp_path):
    path = tmp_path / "s.sqlite3"
    store, _problem = open_or_move_aside(path)
    store.new_game("cant-stop", ["Ada", "Ben"], {})
    modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir()}
    store.close()
    assert modes["s.sqlite3"] == 0o600 and modes["s.sqlite3-wal"] == 0o600 and modes["s.sqlite3.lock"] == 0o600


@pytest.mark.parametrize("damage, what", [
    ("DROP TABLE scores", "table scores is missing"),
    ("ALTER TABLE events DROP COLUMN created", "table events lacks created TEXT"),
])
def test_a_store_of_the_right_version_without_its_tables_is_moved_aside(tmp_path, damage, what):
    path = tmp_path / "s.sqlite3"
    with Store(path) as store:
        store.new_game("cant-stop", ["Ada", "Ben"], {})
    with sqlite3.connect(path) as db:
        db.execute(damage)
    with pytest.raises(StoreError, match=f"not the schema of a tabletop-companion store \\({what}\\)"):
        Store(path)
    store, problem = open_or_move_aside(path)
    with store:
        assert store.unfinished_games() == [] and "were kept as s.sqlite3.unusable-" in problem
    assert len(list(tmp_path.glob("s.sqlite3.unusable-*Z"))) == 1


@pytest.mark.parametrize("column, value, why", [
    ("players", "Ada,Ben", "players is not JSON"),
    ("players", '"Ada"', "players is not a list of names"),
    ("variant", "[]", "variant is not a JSON object"),
    ("players", b"[\"\xff\"]", "players is not UTF-8 text"),
    # readable JSON, but not a game the box plays (issue 52): each blocked `play` and broke `stats`
    ("variant", '{"bogus": 1}', "variant: unknown Can't Stop variant key 'bogus'"),
    ("variant", '{"columns_to_win": "three"}', "variant: "),
    ("players", '["Ada", "Ben", "Cy", "Di", "Ed"]', "5 players for cant-stop, which takes 1 to 4"),
    ("players", '["Ada", "Ada"]', "players are not distinct printable names"),
    ("game", "chess", "game 'chess' is not one of cant-stop, ludo, schotten-totten, donkey-race"),
])
def test_a_saved_game_whose_row_cannot_be_read_is_left_out_and_named(tmp_path, column, value, why):
    from companion.errors import CorruptLog

    path = tmp_path / "s.sqlite3"
    with Store(path) as store:
        bad = store.new_game("cant-stop", ["Ada", "Ben"], {})
        good = store.new_game("ludo", ["Ada", "Ben"], {})
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, bad))
    with Store(path) as store:
        assert [g.id for g in store.unfinished_games()] == [good]
        assert store.latest_unfinished("cant-stop") is None  # the game to resume: none, a new one starts
        assert list(store.skipped) == [bad]
        assert store.skipped[bad].startswith(f"{path}: saved game {bad} cannot be read ({why}")
        assert store.skipped[bad].endswith("; left out")
        with pytest.raises(CorruptLog, match=f"saved game {bad} cannot be read"):
            store.game(bad)


def test_an_event_that_is_not_utf8_is_named_with_its_seq_and_set_aside(tmp_path):
    from companion.errors import CorruptLog

    path = tmp_path / "s.sqlite3"
    with Store(path) as store:
        game_id = store.new_game("cant-stop", ["Ada", "Ben"], {})
        for k in range(4):
            store.append_event(game_id, "action", {"k": k})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET payload = CAST(? AS TEXT) WHERE seq = 2", (b'{"k": "\xff\xfe"}',))
    with Store(path) as store:
        with pytest.raises(CorruptLog, match="event 2 cannot be read \\(payload is not UTF-8 text\\)") as raised:
            store.events(game_id)
        assert raised.value.seq == 2
        assert "event 2 could not be read (payload is not UTF-8 text); the game goes on after event 1 (events 2 and on, 3 in all" \
            in store.set_aside_unreadable(game_id)
        assert [e.payload for e in store.events(game_id)] == [{"k": 0}]


def test_a_scoreboard_row_that_cannot_be_read_is_left_out(tmp_path, caplog):
    path = tmp_path / "s.sqlite3"
    with Store(path) as store:
        game_id = store.new_game("cant-stop", ["Ada", "Ben"], {})
        store.finish_game(game_id, {"winner": "Ada"})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE scores SET name = CAST(? AS TEXT) WHERE name = 'Ben'", (b"B\xffn",))
    with Store(path) as store:
        assert store.scoreboard() == [ScoreRow("Ada", "cant-stop", 1, 1)]
    assert "a scoreboard row cannot be read (name is not UTF-8 text); left out" in caplog.text
