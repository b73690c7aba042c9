"""`companion play ludo --camera folder:DIR --input script:FILE` on rendered frames (issue 4, Done when):
every roll read off the die in the frames, every move read off the board and checked; the recorded game
equals the engine game that generated the frames, on both boards; a wrong physical move and a capture
whose pawn is still on the track are reported (which pawn, where it belongs) and nothing is recorded
until the board is right (ludo.md B.4, B.5)."""

import pytest

from companion.cli import main
from companion.games.ludo import YARD, LudoConfig, LudoState, load_board
from companion.paths import resolve
from companion.screens.common import Tone
from companion.store import Store
from companion.demos.ludo_frames import generate, position_of

SIZE = (480, 360)


def _recorded(store: Store, game_id: int) -> list[dict]:
    return [e.payload for e in store.events(game_id) if e.kind == "action"]


def _without_source(actions: list[dict]) -> list[dict]:
    return [{k: v for k, v in a.items() if k != "source"} for a in actions]


def test_position_of_puts_every_pawn_somewhere_on_the_board():
    state = LudoState.new(4, LudoConfig.from_variant({"board": "ludo52"}))
    pawns = ((YARD, 0, 51, 56), (3, YARD, YARD, YARD), (YARD,) * 4, (YARD, 13, 55, YARD))
    state = state._with(pawns=pawns)
    pos = position_of(state, load_board("ludo52"))
    # red 0 -> absolute 0, green 3 -> 13 + 3 = 16, blue 13 -> 39 + 13 = 52 % 52 = 0: two pawns on square 0
    assert pos.squares == {0: ("red", "blue"), 16: "green"}
    assert pos.yards == {"red": 1, "green": 3, "yellow": 4, "blue": 2}
    assert pos.homes == {"red": (0,), "green": (), "yellow": (), "blue": (4,)}  # red 56 (finish) is off the board


def test_generated_game_is_the_engine_game_and_the_script_only_starts_and_ends(tmp_path):
    frames = generate(tmp_path / "g", board="mensch40", moves=3, seed=5, size=(320, 240), hand_rate=0.0,
                      wrong=(0,))
    assert frames.moves == 3 and frames.actions[0]["type"] == "start"
    state = LudoState.new(2, LudoConfig.from_variant({"board": "mensch40"}))
    from companion.games.ludo import action_from_dict

    for action in frames.actions:
        state = state.apply(action_from_dict(action))
    assert state == frames.final
    files = sorted(p.name for p in (tmp_path / "g").glob("*.jpg"))
    assert len(files) == sum(p.copies for p in frames.photos)
    kinds = [p.kind for p in frames.photos]
    assert kinds.count("roll") == sum(1 for a in frames.actions if a["type"] == "roll")
    assert kinds.count("move") == 3 and kinds.count("wrong") == 1
    lines = [ln.split("#")[0].strip() for ln in frames.script.read_text().splitlines()]
    lines = [ln for ln in lines if ln]
    seat = frames.actions[0]["seat"]
    assert lines[0] == f"choose {seat + 1}" and lines[1].startswith("wait ") and lines[2] == "quit"


def _stacked(frames) -> bool:
    """Whether two pawns of one colour ever share a track square in the generated game."""
    from companion.games.ludo import action_from_dict

    state = LudoState.new(len(frames.players), frames.final.config)
    track = load_board(frames.board).track_positions
    for action in frames.actions:
        state = state.apply(action_from_dict(action))
        for mine in state.pawns:
            on_track = [p for p in mine if 0 <= p < track]
            if len(on_track) != len(set(on_track)):
                return True
    return False


@pytest.mark.parametrize("board,seed,variant", [
    ("ludo52", 6, {"own_stacking": "allowed", "entry_rolls": "1,6"}),  # two red pawns share a square
    ("mensch40", 6, {}),
])
def test_play_ludo_records_the_game_shown_in_the_frames(app_env, tmp_path, board, seed, variant):
    """The whole command: rolls from the die reader, moves from the board reader, a wrong move first;
    on ludo52 with own stacking allowed (ludo.md B.7) a stack of two pawns is read as two."""
    frames = generate(tmp_path / "frames", board=board, moves=5, seed=seed, size=SIZE, wrong=(1,), hand_rate=0.3,
                      variant=variant)
    assert frames.wrong  # the frames do show a wrong move
    assert _stacked(frames) == bool(variant)
    extra = [a for k, v in variant.items() for a in ("--variant", f"{k}={v}")]
    status = main(["play", "ludo", "--headless", "--new", "--players", ",".join(frames.players),
                   "--variant", f"board={board}", *extra, "--camera", f"folder:{frames.directory}",
                   "--input", f"script:{frames.script}"])
    assert status == 0
    store = Store(resolve().store_file)
    try:
        game_id = store.unfinished_games("ludo")[-1].id
        recorded = _recorded(store, game_id)
    finally:
        store.close()
    assert _without_source(recorded) == list(frames.actions)
    sources = {(a["type"], a.get("source")) for a in recorded}
    assert sources == {("start", None), ("roll", "camera"), ("move", "board")}


def test_play_ludo_reads_the_rolls_that_land_on_the_dga56_board(app_env, tmp_path):
    """After the first move every roll of this game lands on the board's print (dga56, the board of the
    real photos): each is read where it lies, and the game recorded is the one shown."""
    frames = generate(tmp_path / "frames", board="dga56", moves=5, seed=2, size=SIZE, hand_rate=0.3,
                      die_on_board=1.0)
    assert sum(p.die_on_board for p in frames.photos) >= 5
    status = main(["play", "ludo", "--headless", "--new", "--players", ",".join(frames.players),
                   "--variant", "board=dga56", "--camera", f"folder:{frames.directory}",
                   "--input", f"script:{frames.script}"])
    assert status == 0
    store = Store(resolve().store_file)
    try:
        recorded = _recorded(store, store.unfinished_games("ludo")[-1].id)
    finally:
        store.close()
    assert _without_source(recorded) == list(frames.actions)
    assert {(a["type"], a.get("source")) for a in recorded} == {("start", None), ("roll", "camera"), ("move", "board")}


class _Recorder:
    """A headless display that keeps what each shown view reported, with the moves recorded by then."""

    def __init__(self, store: Store, game_id: int):
        self.store, self.game_id = store, game_id
        self.shown: list[tuple[tuple, tuple, int]] = []
        self.prompts: list[str] = []

    def show(self, view, draw, mode: str = "") -> None:
        moves = sum(1 for a in _recorded(self.store, self.game_id) if a["type"] == "move")
        problems = (view.message,) if view.chrome.tone == Tone.WARNING else ()
        self.shown.append((problems, view.misplaced, moves))
        self.prompts.append(view.prompt)


def test_wrong_move_and_capture_left_on_the_track_are_reported_not_recorded(tmp_path):
    """B.4 / B.5 on the frames: a pawn one square too far and a captured pawn still on its square are
    shown (colour, where it is, where it belongs) while the recorded game stays at the move before."""
    from companion.app import run_loop
    from companion.app.inputs import ScriptInput
    from companion.display import ludo as ludo_display
    from companion.readers.ludo import LudoFrameReader
    from companion.screens import ludo as ludo_screen
    from companion.session.ludo import LudoSession, colours_for
    from vision.camera import PhotoFolderSource

    frames = generate(tmp_path / "frames", board="ludo52", players=3, moves=7, seed=36, size=SIZE, wrong=(0,),
                      hand_rate=0.3, prefer_captures=True)
    assert frames.wrong == (("green", 1, 0),) and frames.captures == (("green", 13),)
    store = Store(tmp_path / "store.sqlite3")
    try:
        game_id = store.new_game("ludo", list(frames.players), {"board": "ludo52"})
        session = LudoSession(store, game_id, list(frames.players), LudoConfig.from_variant({"board": "ludo52"}),
                              stable_frames=3)
        reader = LudoFrameReader("ludo52", colours_for(3))
        reader.session = session
        display = _Recorder(store, game_id)
        camera = PhotoFolderSource(frames.directory, frames_per_photo=4)
        run_loop(session, store, camera, reader, ScriptInput(frames.script), display, screen=ludo_screen,
                 draw=ludo_display.draw, game="ludo", headless=True)
        recorded = _recorded(store, game_id)
    finally:
        store.close()
    assert _without_source(recorded) == list(frames.actions)
    # (colour, seen, should) -> moves recorded when the box showed it
    reports = {tuple(m): moves for problems, misplaced, moves in display.shown for m in misplaced}
    # the wrong entry: green's pawn shown on 1, it belongs on 0 (its start square); shown before move 1
    assert reports.get(("green", 1, 0)) == 0
    # the capture: green's pawn on its relative 13 must go back to its yard; the capturing move waits
    captured_at = next(k for k, a in enumerate(a for a in frames.actions if a["type"] == "move")
                       if _captures(frames, k))
    assert reports.get(("green", 13, YARD)) == captured_at
    texts = [line for problems, _, _ in display.shown for line in problems]
    assert any("not legal" in t for t in texts) and any("back in its yard" in t for t in texts)
    # the hand over the board: its squares are unknown, the box waits and says so (nothing guessed empty)
    assert any(p.kind == "hand" for p in frames.photos)
    assert any("covered" in prompt for prompt in display.prompts)
    assert not any("missing" in t for t in texts)


def _captures(frames, k: int) -> bool:
    """Whether the k-th move of the generated game captures (a capture photo was written for it)."""
    moves = [i for i, a in enumerate(frames.actions) if a["type"] == "move"]
    return any(p.kind == "capture" and p.step == moves[k] for p in frames.photos)


def test_ludo_frames_command_prints_the_summary(tmp_path, capsys):
    out = tmp_path / "f"
    out.mkdir()
    (out / "0999-move.jpg").write_bytes(b"stale")  # an earlier run's frame is removed
    (out / "notes.txt").write_text("kept")
    assert main(["ludo", "frames", str(out), "--board", "mensch40", "--moves", "1", "--seed", "3",
                 "--size", "240x180", "--hand-rate", "0", "--json"]) == 0
    import json

    summary = json.loads(capsys.readouterr().out)
    assert summary["board"] == "mensch40" and summary["moves"] == 1 and summary["over"] is False
    assert summary["actions"][0] == {"type": "start", "seat": 0}
    assert not (out / "0999-move.jpg").exists() and (out / "notes.txt").exists()
    assert len(list(out.glob("*.jpg"))) == summary["files"]
