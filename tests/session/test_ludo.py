"""The Ludo session and `companion play ludo` (issue 4 step 5): scripted games on rendered frames on both
boards, board readings through the adapter (a legal move recorded, a wrong one refused), undo, resume."""

import random

import numpy as np
import pygame
import pytest

from companion.cli import main
from companion.commands import Button, Command
from companion.display.ludo import draw_board, render
from companion.games import CHANCE
from companion.games.ludo import YARD, LudoConfig, LudoState, Move, Phase, Roll, StartWith, load_board
from companion.hints.ludo import advise
from companion.paths import resolve
from companion.readers.ludo import pawns_from_board
from companion.screens.ludo import PawnView, board_view, build_view
from companion.session import LudoReading, Waiting
from companion.session.ludo import LudoSession, Mode
from companion.store import Store


def _frame(board: str, path) -> None:
    """An initial board drawn from the geometry (all pawns of red and yellow in their yards)."""
    pygame.font.init()
    pawns = tuple(PawnView(c, YARD) for c in ("red", "yellow") for _ in range(4))
    view = board_view(board, pawns)
    surface = pygame.Surface((640, 480))
    surface.fill((120, 110, 100))
    draw_board(surface, pygame.Rect(100, 20, 440, 440), view)
    pygame.image.save(surface, str(path))


def _script(board: str, seed: int, dice_seed: int) -> tuple[str, LudoState]:
    """A whole game's script: the session's proposed starter accepted, then each roll entered by hand and
    the selected (advisor's) move confirmed; returns the script and the final engine state."""
    state = LudoState.new(2, LudoConfig.from_variant({"board": board}))
    rng = random.Random(dice_seed)
    lines = ["confirm  # the proposed first player"]
    state = state.apply(StartWith(random.Random(seed).randrange(2)))
    while state.phase is not Phase.OVER:
        if state.current_player == CHANCE:
            value = rng.randint(1, 6)
            lines.append(f"dice {value}")
            state = state.apply(Roll(value))
        else:
            lines.append("confirm")
            state = state.apply(advise(state, state.active).action)
    lines.append("confirm  # game over")
    return "\n".join(lines) + "\n", state


@pytest.mark.parametrize("board", ["ludo52", "mensch40"])
def test_scripted_game_runs_to_the_end(app_env, tmp_path, board):
    frames = tmp_path / "frames"
    frames.mkdir()
    _frame(board, frames / "board.png")
    text, final = _script(board, seed=3, dice_seed=11)
    script = tmp_path / "game.script"
    script.write_text(text)
    shots = tmp_path / "shots"
    status = main(["play", "ludo", "--headless", "--camera", f"folder:{frames}", "--input", f"script:{script}",
                   "--players", "Ada,Ben", "--variant", f"board={board}", "--seed", "3", "--new",
                   "--screenshots", str(shots)])
    assert status == 0
    store = Store(resolve().store_file)
    try:
        record = store.finished_games("ludo")[-1]
    finally:
        store.close()
    names = ["Ada", "Ben"]
    assert record.result["winner"] == names[final.outcome().winner]
    assert record.result["placings"] == [names[s] for s in final.outcome().placings]
    assert len(list(shots.glob("*.png"))) > 10


class _FakeStore:
    """The store calls the session makes, in memory."""

    def __init__(self):
        self.log = []
        self.result = None

    def events(self, game_id):
        return list(self.log)

    def append_event(self, game_id, kind, payload):
        from companion.store import Event

        self.log.append(Event(game_id, len(self.log) + 1, kind, payload, ""))
        return len(self.log)

    def drop_last_event(self, game_id):
        return self.log.pop() if self.log else None

    def finish_game(self, game_id, result):
        self.result = result


def _session(board="ludo52"):
    """A started session whose board was checked against the (new) game already."""
    s = LudoSession(_FakeStore(), 1, ["Ada", "Ben"], LudoConfig.from_variant({"board": board}), stable_frames=2,
                    rng=random.Random(0))
    s.on_command(Command(Button.CONFIRM))
    s.board_checked = True
    return s


def test_board_reading_records_a_legal_move_and_refuses_a_wrong_one():
    s = _session()
    seat = s.state.active
    s.on_command(Command(Button.DICE, (6,)))
    assert s.mode is Mode.MOVE and s.state.legal_actions() == (Move(YARD, 6),)
    before = s.state.pawns
    for _ in range(2):
        s.on_frame(None, LudoReading(pawns=before))  # baseline
    wrong = list(before)
    wrong[seat] = (YARD, YARD, YARD, 3)
    for _ in range(2):
        s.on_frame(None, LudoReading(pawns=tuple(wrong)))
    assert s.mode is Mode.MOVE and s.attention and s.misplaced and s.misplaced[0].should == 0  # its start square
    assert "not legal" in s.problems[0]
    right = list(before)
    right[seat] = (YARD, YARD, YARD, 0)
    for _ in range(2):
        s.on_frame(None, LudoReading(pawns=tuple(right)))
    assert s.state.pawns[seat] == (YARD, YARD, YARD, 0) and s.mode is Mode.ROLL and not s.attention
    assert s.store.log[-1].payload["source"] == "board"


def test_hand_entry_choose_next_and_undo():
    s = _session()
    seat = s.state.active
    s.on_command(Command(Button.DICE, (6,)))
    s.on_command(Command(Button.CONFIRM))
    s.on_command(Command(Button.DICE, (4,)))
    assert s.mode is Mode.MOVE and build_view(s).moves[0].text == "1. the leading pawn"
    s.on_command(Command(Button.CONFIRM))
    assert s.state.pawns[seat] == (YARD, YARD, YARD, 4)
    s.on_command(Command(Button.UNDO))
    assert s.mode is Mode.MOVE and s.state.pool == (4,) and s.state.pawns[seat] == (YARD, YARD, YARD, 0)
    s.on_command(Command(Button.CHOOSE, (9,)))
    assert s._refused and "Choose 1 to 1" in s.message
    s.on_command(Command(Button.CHOOSE, (1,)))
    assert s.state.pawns[seat] == (YARD, YARD, YARD, 4)


def test_view_shows_die_counters_moves_and_hint():
    s = _session("mensch40")
    s.on_command(Command(Button.DICE, (6,)))
    view = build_view(s)
    assert view.die == 6 and view.sixes_in_row == 1 and view.moves[0].selected and view.hint
    assert view.board == "mensch40" and s.waiting is Waiting.PLAYERS
    surface = render(view)
    assert surface.get_size() == (800, 480)


def test_adapter_converts_absolute_squares_to_relative_positions():
    geo = load_board("ludo52")

    class Obs:
        found = True
        squares = {13: ("red",), 15: ("yellow",)}
        yards = {"red": 3, "yellow": 2, "green": 0, "blue": 0}
        homes = {"yellow": (0,), "red": ()}

    pawns, problem = pawns_from_board(Obs(), geo, ("red", "yellow"))
    assert problem == "" and pawns == ((YARD, YARD, YARD, 13), (YARD, YARD, 41, 51))
    Obs.squares = {25: ("yellow",)}  # yellow never visits absolute 25 (its start 26 minus one)
    assert pawns_from_board(Obs(), geo, ("red", "yellow"))[0] is None


def test_capture_by_hand_asks_the_pawn_back():
    """B.5: a capture entered by hand leaves the captured pawn on the board; the box asks it back."""
    from companion.games.ludo import state_from_position

    s = _session()
    before, _ = state_from_position({"pawns": {"red": [0, "yard", "yard", "yard"], "yellow": [27, "yard", "yard", "yard"]},
                                     "to_move": "red", "roll": 1})  # yellow 27 = absolute 1
    before = before.apply(Roll(1))
    after = before.apply(Move(0, 1))
    assert after.pawns[1] == (YARD,) * 4
    assert "yellow" in s._describe(before, Move(0, 1), after)


def test_restart_resumes_from_the_event_log():
    """ARCHITECTURE.md Session: the state is the replay of the log."""
    s = _session()
    for command in (Command(Button.DICE, (6,)), Command(Button.CONFIRM), Command(Button.DICE, (3,))):
        s.on_command(command)
    again = LudoSession(s.store, 1, ["Ada", "Ben"], LudoConfig(), stable_frames=2)
    assert again.state == s.state and again.mode is Mode.MOVE


def test_choose_picks_the_first_player():
    s = LudoSession(_FakeStore(), 1, ["Ada", "Ben", "Cy"], LudoConfig(), stable_frames=2, rng=random.Random(0))
    s.on_command(Command(Button.CHOOSE, (4,)))
    assert s._refused and s.mode is Mode.START
    s.on_command(Command(Button.CHOOSE, (3,)))
    assert s.mode is Mode.ROLL and s.state.active == 2 and s.store.log[-1].payload == {"type": "start", "seat": 2}


def test_move_read_without_a_baseline_and_the_die_left_lying_is_not_rolled_again():
    """The board after the move may be the first one read in MOVE; the die still lying where it landed
    (the same die view) is not a new roll, a die at a new place is."""
    import numpy as np

    s = _session()
    seat = s.state.active
    view = np.zeros((60, 80, 3), np.uint8)
    view[10:20, 10:20] = 255
    for _ in range(2):
        s.on_frame(view, LudoReading(die=6, dice_seen=1, die_view=view))
    assert s.mode is Mode.MOVE and s.store.log[-1].payload["source"] == "camera"
    after = list(s.state.pawns)
    after[seat] = (YARD, YARD, YARD, 0)
    for _ in range(2):
        s.on_frame(view, LudoReading(pawns=tuple(after)))
    assert s.mode is Mode.ROLL and s.state.pawns[seat] == (YARD, YARD, YARD, 0)
    for _ in range(3):
        s.on_frame(view, LudoReading(die=6, dice_seen=1, die_view=view))
    assert s.mode is Mode.ROLL and len(s.store.log) == 3  # start, roll, move: the old die is not read again
    moved = np.zeros_like(view)
    moved[30:40, 50:60] = 255
    for _ in range(2):
        s.on_frame(moved, LudoReading(die=2, dice_seen=1, die_view=moved))
    assert s.mode is Mode.MOVE and s.state.pool == (2,)


def test_covered_yard_is_unknown_and_waited_out():
    """A hand over a yard: its count is unknown, not 0; the session records nothing and says so."""
    geo = load_board("mensch40")

    class Obs:
        found = True
        squares = {}
        yards = {"red": 0, "yellow": 4, "green": 0, "blue": 0}
        covered_yards = ("red",)
        homes = {}

    pawns, problem = pawns_from_board(Obs(), geo, ("red", "yellow"))
    assert pawns is None and "red yard is covered" in problem
    s = _session("mensch40")
    s.on_command(Command(Button.DICE, (6,)))
    for _ in range(3):
        s.on_frame(None, LudoReading(problem=problem))
    assert s.mode is Mode.MOVE and not s.problems and "covered" in build_view(s).prompt


def test_ludo52_pawns_seen_nowhere_count_as_finished():
    geo = load_board("ludo52")

    class Obs:
        found = True
        squares = {5: ("red",)}
        yards = {"red": 1, "yellow": 4}
        homes = {"red": (4,), "yellow": ()}

    pawns, problem = pawns_from_board(Obs(), geo, ("red", "yellow"))
    assert problem == "" and pawns[0] == (YARD, 5, 55, 56)
    pawns, _ = pawns_from_board(Obs(), load_board("mensch40"), ("red", "yellow"))
    assert pawns[0] == (YARD, 5, 44)  # no finish on mensch40: three pawns, one missing (home 4 = relative 44)


def test_a_game_is_played_with_the_buttons_alone(tmp_path):
    from companion.commands import Button, Command
    from companion.screens.ludo import build_view

    with Store(tmp_path / "l.sqlite3") as store:
        session = LudoSession(store, store.new_game("ludo", ["Ada", "Ben"], {}), ["Ada", "Ben"],
                              rng=random.Random(2))
        session.on_camera_problem("No camera")
        session.on_command(Command(Button.CONFIRM))  # the proposed player starts: the die entry opens at 1
        name = session.players[session.state.active]
        view = build_view(session)
        assert session.mode is Mode.ROLL and session.die_entry == 1 and view.die == 1
        assert view.prompt == f"{name}: enter your roll"
        assert dict(view.keys) == {"CONFIRM": "enter", "BANK": "+1", "PASS": "-1", "UNDO": "undo"}
        session.on_command(Command(Button.PASS))  # down round the six: one press for a 6
        assert session.die_entry == 6 and build_view(session).die == 6
        session.on_command(Command(Button.CONFIRM))
        assert session.mode is Mode.MOVE and session.state.pool == (6,)
        view = build_view(session)
        assert view.moves and dict(view.keys) == {"CONFIRM": "move", "UNDO": "undo"}  # one move: no NEXT
        session.on_command(Command(Button.CONFIRM))  # the selected move: out of the yard
        assert session.mode is Mode.ROLL and session.state.pawns[session.state.active].count(-1) == 3
        assert session.die_entry == 1  # the bonus roll's entry is open again, at 1
        session.on_command(Command(Button.BANK))
        assert session.die_entry == 2
        session.on_command(Command(Button.UNDO))  # with no camera UNDO takes back the last event: the move
        assert session.mode is Mode.MOVE and session.state.pawns[session.state.active].count(-1) == 4
        session.on_command(Command(Button.UNDO))  # and the roll: the entry opens again at its value
        assert session.mode is Mode.ROLL and session.die_entry == 6
        session.on_command(Command(Button.BANK))  # it was a 1 after all: up round the six
        session.on_command(Command(Button.CONFIRM))
        assert store.events(session.game_id)[-1].payload == {"type": "roll", "value": 1, "source": "hand"}


def test_a_move_names_its_pawn_by_its_place_on_the_board_not_by_step_numbers():
    from dataclasses import replace

    from companion.hints.ludo.words import pawn_phrase

    state = _session().state
    state = replace(state, active=0, pawns=((YARD, 3, 10, 20),) + state.pawns[1:])
    assert [pawn_phrase(state, p) for p in (20, 10, 3, YARD)] == [
        "the leading pawn", "the second pawn", "the rearmost pawn", "a pawn out of the yard"]
    state = replace(state, pawns=((2, 3, 10, 20),) + state.pawns[1:])
    assert [pawn_phrase(state, p) for p in (20, 10, 3, 2)] == [
        "the leading pawn", "the second pawn", "the third pawn", "the rearmost pawn"]
    home = next(p for p in range(200) if state.is_finished_position(p))  # #51: a pawn home is not counted
    state = replace(state, pawns=((3, 10, 20, home),) + state.pawns[1:])
    assert [pawn_phrase(state, p) for p in (20, 10, 3)] == ["the leading pawn", "the second pawn", "the rearmost pawn"]


def test_the_next_player_is_not_shown_the_last_players_die():
    s = _session()
    s.on_command(Command(Button.DICE, (3,)))  # no pawn can move on a 3: the turn passes
    assert s.mode is Mode.ROLL and build_view(s).die is None
    s.on_command(Command(Button.BANK))
    assert build_view(s).die == 1


def _die_frame(x: int) -> np.ndarray:
    """A table with one light square (the die) at column ``x``."""
    frame = np.full((96, 96, 3), 90, np.uint8)
    frame[40:56, x:x + 16] = 250
    return frame


def test_an_undone_camera_roll_is_not_read_again_off_the_same_still_die():
    s = _session()
    first = s.state
    for _ in range(2):
        s.on_frame(_die_frame(10), LudoReading(die=5, dice_seen=1))
    assert s.state != first and s.store.log[-1].payload == {"type": "roll", "value": 5, "source": "camera"}
    s.on_command(Command(Button.UNDO))  # the players saw a 3: the 5 was a misreading
    assert s.state == first and s.die_entry == 5  # the die taken back, to be corrected with the buttons
    assert dict(build_view(s).keys) == {"CONFIRM": "enter", "BANK": "+1", "PASS": "-1", "UNDO": "cancel"}
    s.on_command(Command(Button.UNDO))  # or not: back to the camera
    assert s.die_entry is None
    for _ in range(3):
        s.on_frame(_die_frame(10), LudoReading(die=5, dice_seen=1))
    assert s.state == first  # the same die lying there is not taken again
    for _ in range(2):
        s.on_frame(_die_frame(60), LudoReading(die=3, dice_seen=1))  # rolled again
    assert s.store.log[-1].payload["value"] == 3


def test_a_misread_die_is_corrected_with_the_presses_of_an_entry_by_hand():
    s = _session()
    first = s.state
    for _ in range(2):
        s.on_frame(_die_frame(10), LudoReading(die=5, dice_seen=1))
    s.on_command(Command(Button.UNDO))  # the die shows 3
    for button in (Button.PASS, Button.PASS, Button.CONFIRM):  # 5 -> 4 -> 3, entered
        s.on_command(Command(button))
    assert s.state != first and s.store.log[-1].payload == {"type": "roll", "value": 3, "source": "hand"}


def test_while_a_die_is_entered_by_hand_the_camera_die_is_not_taken():
    s = _session()
    first = s.state
    s.on_command(Command(Button.BANK))
    s.on_command(Command(Button.BANK))  # 2 by hand
    for _ in range(3):
        s.on_frame(_die_frame(10), LudoReading(die=6, dice_seen=1))
    assert s.state == first and s.die_entry == 2
    s.on_command(Command(Button.CONFIRM))
    assert s.store.log[-1].payload == {"type": "roll", "value": 2, "source": "hand"}


def test_at_a_resume_the_board_is_compared_with_the_saved_game(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        game_id = store.new_game("ludo", ["Ada", "Ben"], {})
        first = LudoSession(store, game_id, ["Ada", "Ben"], stable_frames=2, rng=random.Random(0))
        first.on_command(Command(Button.CONFIRM))
        seat = first.state.active
        first.on_command(Command(Button.DICE, (6,)))
        first.on_command(Command(Button.CONFIRM))  # a pawn out onto the start square
        saved = first.state.pawns
        resumed = LudoSession(store, game_id, ["Ada", "Ben"], stable_frames=2, rng=random.Random(0))
        assert resumed.mode is Mode.ROLL and resumed.reads_board and not resumed.board_checked
        assert "Checking the board" in build_view(resumed).prompt
        moved = list(saved)
        moved[seat] = (YARD, YARD, YARD, 3)  # someone nudged the pawn three squares on
        for _ in range(2):
            resumed.on_frame(None, LudoReading(pawns=tuple(moved)))
        assert [(m.seen, m.should) for m in resumed.misplaced] == [(3, 0)] and resumed.attention
        for _ in range(2):
            resumed.on_frame(None, LudoReading(pawns=saved, die=4, dice_seen=1))  # put right; a die lies there
        assert resumed.board_checked and not resumed.misplaced and resumed.state.pawns == saved
        assert not resumed.reads_board  # from now on the die is read


def test_the_players_may_keep_the_saved_game_over_the_board(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        session = LudoSession(store, store.new_game("ludo", ["Ada", "Ben"], {}), ["Ada", "Ben"], stable_frames=1,
                              rng=random.Random(0))
        session.on_command(Command(Button.CONFIRM))
        wrong = tuple((YARD, YARD, YARD, 7) if seat == 0 else (YARD,) * 4 for seat in range(2))
        session.on_frame(None, LudoReading(pawns=wrong))
        assert session.misplaced and "differs from the saved game" in build_view(session).prompt
        session.on_command(Command(Button.CONFIRM))  # the saved game is right: they set the board by it
        assert session.board_checked and not session.misplaced and session.mode is Mode.ROLL


def test_a_board_that_cannot_be_read_does_not_hold_up_the_die():
    s = LudoSession(_FakeStore(), 1, ["Ada", "Ben"], stable_frames=2, rng=random.Random(0))
    s.on_command(Command(Button.CONFIRM))
    for _ in range(7):
        s.on_frame(_die_frame(10), LudoReading(die=5, dice_seen=1, problem="board not found"))
    assert not s.board_checked and s.state.last_roll is None  # still looking for the board
    s.on_frame(_die_frame(10), LudoReading(die=5, dice_seen=1, problem="board not found"))
    assert s.board_checked  # 4 x 2 frames: the die is read from now on


def _pos(pawns, roll, to_move="red", **extra):
    """The MOVE (or next) state after ``roll`` from a position file (ludo.md B.2 relative positions)."""
    from companion.games.ludo import state_from_position

    before, _ = state_from_position({"pawns": pawns, "to_move": to_move, "roll": roll, **extra})
    return before, before.apply(Roll(roll))


def test_every_event_is_said_in_the_games_words():
    """Issue 37: a capture (who captured whom, where the pawn goes, B.5), a six's bonus roll (B.4.4), a
    third six (B.4.2), a roll with no move (B.4.3), a pawn home and a place (B.6)."""
    from companion.session.ludo import describe

    players, y = ["Ada", "Ben"], "yard"
    before, rolled = _pos({"red": [0, y, y, y], "yellow": [27, y, y, y]}, 1)  # yellow 27 = absolute 1
    assert describe(players, before, Roll(1), rolled) == "Ada rolls 1"
    assert describe(players, before, Roll(1), rolled, routine=False) == ""
    moved = rolled.apply(Move(0, 1))
    assert describe(players, rolled, Move(0, 1), moved) == "Ada captures Ben's pawn: back to the yellow yard"
    before, rolled = _pos({"red": [3, 9, y, y], "yellow": [27, y, y, y]}, 6)
    assert describe(players, before, Roll(6), rolled) == "Ada rolls a 6: move, then roll again"
    moved = rolled.apply(Move(9, 6))
    assert describe(players, rolled, Move(9, 6), moved) == "Ada moves the leading pawn 6 squares; Ada rolls again"
    assert describe(players, rolled, Move(9, 6), moved, routine=False) == "Ada rolls again"
    before, rolled = _pos({"red": [3, 9, y, y], "yellow": [27, y, y, y]}, 6, sixes_in_row=2)
    assert describe(players, before, Roll(6), rolled) == "Ada rolls a third 6 in a row: no move, the turn passes"
    before, rolled = _pos({"red": [y, y, y, y], "yellow": [27, y, y, y]}, 4)
    assert describe(players, before, Roll(4), rolled) == "Ada rolls 4: no pawn can move"
    before, rolled = _pos({"red": [50, 56, 56, 56], "yellow": [27, 30, 56, 56]}, 6)
    done = rolled.apply(Move(50, 6))
    assert describe(players, rolled, Move(50, 6), done) == "Ada has all pawns home and wins!"
    before, rolled = _pos({"red": [40, 51, 56, 56], "yellow": [27, 30, 56, 56]}, 5)
    moved = rolled.apply(Move(51, 5))
    assert describe(players, rolled, Move(51, 5), moved) == "Ada brings the leading pawn home"  # of those out


def test_mensch40_tries_for_a_six_and_a_pending_bonus_roll_are_told():
    """B.2b: with no pawn that can move, three tries for a 6 ("try 2 of 3"); B.4.4: after a six the bonus
    roll is pending (the state's ``extra_rolls`` reads 0 then: it counts only the rolls after the next)."""
    s = _session("mensch40")
    name = s.players[s.state.active]
    assert s.entry_try == (1, 3) and s.roll_note == "try 1 of 3 for a 6"
    s.on_command(Command(Button.DICE, (3,)))
    assert s.entry_try == (2, 3) and s.roll_note == "try 2 of 3 for a 6"
    assert s.message == f"{name} rolls 3: no pawn can move; try 2 of 3 for a 6"
    s.on_command(Command(Button.DICE, (6,)))
    assert s.mode is Mode.MOVE and s.state.extra_rolls == 0 and s.bonus_rolls_pending == 1
    assert s.roll_note == "then a bonus roll" and s.message == f"{name} rolls a 6: move, then roll again"
    s.on_command(Command(Button.CONFIRM))
    assert s.mode is Mode.ROLL and s.players[s.state.active] == name and s.entry_try is None
    assert s.bonus_rolls_pending == 1 and s.roll_note == "bonus roll" and s.message == f"{name} rolls again"
    s.on_command(Command(Button.DICE, (2,)))
    s.on_command(Command(Button.CONFIRM))
    assert s.players[s.state.active] != name and s.bonus_rolls_pending == 0 and s.roll_note == "try 1 of 3 for a 6"


def test_undo_says_what_it_took_back():
    s = _session()
    name = s.players[s.state.active]
    s.on_command(Command(Button.DICE, (6,)))
    s.on_command(Command(Button.UNDO))
    assert s.message == f"Taken back: {name} rolls a 6: move, then roll again"
    s.on_command(Command(Button.DICE, (4,)))
    s.on_command(Command(Button.UNDO))
    assert s.message == f"Taken back: {name} rolls 4: no pawn can move"
