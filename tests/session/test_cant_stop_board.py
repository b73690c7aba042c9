"""The Can't Stop session compares the board with the record after each bank and bust and on resuming
(issue 50): readings built by hand, and rendered photos of the board through the real reader."""

from __future__ import annotations

import random

import numpy as np
import pytest

from companion.commands import Command
from companion.games.cant_stop import CantStopConfig
from companion.readers.base import ReaderSettings
from companion.readers.cant_stop import BoardAndDice, make_reader
from companion.screens.cant_stop import build_view
from companion.session.cant_stop import CantStopSession, Mode
from companion.session.readings import CantStopReading
from companion.store import Store
from vision.observation import DiceObservation

NO_DICE = DiceObservation((), (120, 200))
FRAME = np.zeros((120, 200, 3), np.uint8)
BOARD = {"board_layout": "companion", "marker_colours": "red+blue"}


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "store.sqlite3") as store:
        yield store


def session_of(store, game_id=None, variant=BOARD) -> CantStopSession:
    game_id = game_id if game_id is not None else store.new_game("cant-stop", ["Ada", "Ben"], dict(variant))
    return CantStopSession(store, game_id, ["Ada", "Ben"], CantStopConfig.from_variant(variant), stable_frames=2,
                           rng=random.Random(1))


def press(session: CantStopSession, *words: str) -> None:
    for word in words:
        session.on_command(Command.parse(word))


def show(session: CantStopSession, markers, runners, times: int = 2) -> None:
    for _ in range(times):
        session.on_frame(FRAME, CantStopReading(NO_DICE, markers, runners))


def test_a_runner_left_behind_after_a_bust_is_named_until_the_board_is_fixed(store):
    session = session_of(store)
    press(session, "choose 1", "confirm")
    show(session, {0: {}, 1: {}}, {})
    assert not session.board_pending and not session.board_differences
    press(session, "dice 1 2 3 4", "confirm", "choose 1", "confirm")  # runners on 3 and 7, roll again
    assert not session.wants_board  # mid-turn: the board is not compared
    press(session, "dice 6 6 6 6", "confirm", "choose 1", "confirm")  # the third runner on 12, roll again
    press(session, "dice 1 1 1 1", "confirm")  # 2+2 only: no runner left for 2, a bust
    assert session.state.last_bust and session.state.active == 1
    assert session.board_pending and session.mode is Mode.WATCH
    markers = session.state.marker_map(0)
    assert markers == {}  # a bust: the turn's runners come off, no marker was ever placed
    show(session, {0: dict(markers), 1: {}}, {7: 2})  # a runner left on 7 at space 2
    view = build_view(session)
    assert session.board_differences and view.chrome.tone == "warning" and session.attention  # the status LED
    assert view.chrome.notice == "Take the runner off 7 (space 2)"
    assert ("CONFIRM", "keep the record") in view.keys
    show(session, {0: dict(markers), 1: {}}, {7: 2}, times=1)
    assert session.board_pending  # still shown: a reading never changes the record
    show(session, None, None, times=3)  # a hand over the board: the box waits, says nothing new
    assert session.board_differences
    show(session, {0: dict(markers), 1: {}}, {})  # the runner taken off
    assert not session.board_pending and not session.board_differences
    assert build_view(session).chrome.tone != "warning"


def test_the_players_keep_the_record_with_confirm_and_the_words_name_each_piece(store):
    session = session_of(store)
    press(session, "choose 1", "confirm", "dice 1 2 3 4", "confirm", "choose 1", "bank")  # Ada banks 3 and 7
    assert session.state.marker_map(0) == {3: 1, 7: 1} and session.board_pending
    show(session, {0: {3: 2}, 1: {9: 1}}, {5: 1})  # 3 one too high, 7 missing, Ben's stray 9, a runner on 5
    assert build_view(session).chrome.notice == (
        "Ada's marker on 3 should stand on space 1: it is on 2 · Take the runner off 5 (space 1) · "
        "Ada's marker on 7 is missing: it belongs on space 1 · Ben has no marker on 9: take it off space 1")
    record = session.state
    press(session, "confirm")  # keep the record
    assert not session.board_differences and not session.board_pending and session.state == record
    assert session.mode is Mode.WATCH


def test_a_resumed_game_is_compared_with_the_board_and_the_next_roll_ends_the_check(store):
    first = session_of(store)
    press(first, "choose 1", "confirm", "dice 1 2 3 4", "confirm", "choose 1", "bank")
    resumed = session_of(store, first.game_id)
    assert resumed.board_pending and resumed.wants_board
    show(resumed, {0: {3: 1}, 1: {}}, {})
    assert resumed.board_differences[0].column == 7
    press(resumed, "dice 2 2 5 5", "confirm")  # Ben rolls on: the check ends
    assert not resumed.board_pending and not resumed.board_differences


def test_without_a_board_layout_the_board_is_never_asked_for(store):
    session = session_of(store, variant={})
    press(session, "choose 1", "confirm")
    assert session.board_pending and not session.wants_board
    reader = make_reader(None, session, ReaderSettings())
    assert not isinstance(reader, BoardAndDice)


def test_rendered_photos_of_the_board_through_the_reader(store):
    """The box's printed board photographed from above (rendered, with its truth): the record's
    position agrees, a photo with a marker left behind is named, not accepted."""
    from vision.board.cant_stop import layout_named
    from vision.board.cant_stop.render import Position, Scene, render

    session = session_of(store)
    press(session, "choose 1", "confirm", "dice 1 2 3 4", "confirm", "choose 1", "bank")  # Ada: 3 and 7
    resumed = session_of(store, session.game_id)
    reader = BoardAndDice(lambda frame: NO_DICE, resumed)
    layout = layout_named("companion")
    wrong = render(layout, Position({"red": {3: 1, 7: 2}, "blue": {}}, {}), Scene(seed=3)).image
    for _ in range(2):
        resumed.on_frame(wrong, reader(wrong))
    assert [(d.column, d.should, d.seen) for d in resumed.board_differences] == [(7, 1, 2)]
    assert "Ada's marker on 7 should stand on space 1: it is on 2" in build_view(resumed).chrome.notice
    right = render(layout, Position({"red": {3: 1, 7: 1}, "blue": {}}, {}), Scene(seed=3)).image
    for _ in range(2):
        resumed.on_frame(right, reader(right))
    assert not resumed.board_differences and not resumed.board_pending


def test_the_board_demo_catches_what_was_left_wrong_and_passes_the_board_put_right(capsys):
    """``companion board demo``: the left-behind runner and the misplaced marker are caught, the fixed
    board agrees, and a resumed game is compared with its photo."""
    from companion.cli import main

    assert main(["board", "demo", "--game", "cant-stop", "--json"]) == 0
    import json

    result = json.loads(capsys.readouterr().out)
    assert result["ok"] and [s["agree"] for s in result["steps"]] == [True, False, True, False, True, True, False]
    assert result["steps"][1]["said"] == "Take the runner off 7 (space 1)"
    assert result["steps"][3]["said"] == "Ben's marker on 10 should stand on space 1: it is on 2"
    assert result["steps"][6]["said"] == "Ben's marker on 4 is missing: it belongs on space 1"


def test_a_board_the_camera_cannot_read_is_not_waited_for_all_turn(store):
    """The board reader is slow on the Pi: a board that cannot be read (not in view) is given up for the
    turn after BOARD_PATIENCE x stable_frames frames; a difference already shown is kept."""
    from companion.session.cant_stop import BOARD_PATIENCE

    session = session_of(store)
    press(session, "choose 1", "confirm")
    for _ in range(BOARD_PATIENCE * 2 - 1):
        session.on_frame(FRAME, CantStopReading(NO_DICE, board_problem="board not found"))
    assert session.board_pending and session.wants_board
    session.on_frame(FRAME, CantStopReading(NO_DICE, board_problem="board not found"))
    assert not session.board_pending and not session.wants_board
