"""The loop's scoreboard stars: the first screen after the winning event shows the win counted (issue 51:
a Ludo game won by the camera's reading showed the winner "place 1 ★ 0" on its game-over screen)."""

from __future__ import annotations

from types import SimpleNamespace

from companion.app.loop import run_loop
from companion.session import Waiting
from companion.store import Store


class _WonByCamera:
    """A session whose game is won by the first frame read (as Ludo's board reading takes the last move)."""

    game_id = 0
    wants_frame = True
    waiting = Waiting.PLAYERS
    mode = SimpleNamespace(value="over")
    active_seat = None
    attention = False

    def __init__(self, store: Store):
        self.store = store
        self.game_id = store.new_game("ludo", ["Ada", "Ben"], {})
        self.winner_name = None
        self.finished = False

    def on_frame(self, frame, reading) -> None:
        self.store.finish_game(self.game_id, {"winner": "Ben"})
        self.winner_name = "Ben"
        self.wants_frame = False

    def on_camera_problem(self, problem) -> None:
        raise AssertionError(problem)


def test_the_first_screen_after_a_win_by_camera_counts_it(tmp_path):
    shown = []
    screen = SimpleNamespace(build_view=lambda session, wins: shown.append(dict(wins)) or SimpleNamespace(
        prompt="", message=""), final_line=lambda session: "")
    display = SimpleNamespace(show=lambda view, draw, mode: None)
    inputs = SimpleNamespace(poll=lambda script_allowed=True: [], exhausted=False)
    camera = SimpleNamespace(read=lambda: object(), name="table")
    with Store(tmp_path / "s.sqlite3") as store:
        session = _WonByCamera(store)
        run_loop(session, store, camera, lambda frame: None, inputs, display, screen=screen, draw=None,
                 game="ludo", headless=True, max_ticks=2)
    assert shown[0] == {"Ben": 1, "Ada": 0}
