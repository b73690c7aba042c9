"""Which board a photo shows, and board readings that are right or refused (issue 25): renders of every
board, and the three real frames of ../shared/data/ludo/board_frames (skipped when absent)."""

from __future__ import annotations

import json
import random

import cv2
import numpy as np
import pytest

from companion.agents.ludo import chance
from companion.demos.ludo_frames import position_of
from companion.games.ludo import LudoConfig, LudoState, load_board, load_boards
from tests.paths import FIXTURES
from vision.board.eval import accepted, evaluate_renders, exact
from vision.board.recognise import UNKNOWN_BOARD, pawn_counts, read_known_board, recognise_board
from vision.board.render import Scene, render
from vision.observation import BoardObservation

LABELS = json.loads((FIXTURES / "ludo_board" / "labels.json").read_text())
BOARDS = load_boards()  # handed to the recogniser: vision loads no board itself


def mid_game(board: str, seed: int) -> np.ndarray:
    """A photo of a seeded random game of ``board`` some moves in, from a random camera."""
    rng = random.Random(seed)
    state = LudoState.new(4, LudoConfig.from_variant({"board": board}))
    for _ in range(rng.randrange(0, 150)):
        if state.phase.value == "over":
            break
        state = state.apply(chance(state, rng) if state.current_player < 0 else rng.choice(state.legal_actions()))
    geometry = load_board(board)
    scene = Scene(size=(640, 480), turn=rng.uniform(0, 360), tilt=rng.uniform(0, 20), fill=rng.uniform(0.55, 0.9),
                  gain=rng.uniform(0.85, 1.1), shadow=rng.random() < 0.3, seed=seed)
    return render(geometry, position_of(state, geometry), scene).image


@pytest.mark.parametrize("board", ["ludo52", "mensch40", "dga56"])
def test_each_rendered_board_is_recognised(board):
    assert [recognise_board(mid_game(board, seed), BOARDS).board for seed in range(4)] == [board] * 4


def test_a_colour_must_show_four_pawns():
    geometry = load_board("mensch40")
    full = {"red": 4, "green": 4, "yellow": 4, "blue": 3}
    obs = BoardObservation("mensch40", True, squares={7: ("blue",)}, yards=full,
                           homes={c: () for c in full})
    assert pawn_counts(obs, geometry) == ({"red": 0, "green": 0, "yellow": 0, "blue": 0}, None)
    missing = BoardObservation("mensch40", True, yards=full, homes={c: () for c in full})
    finished, problem = pawn_counts(missing, geometry)
    assert finished["blue"] == 1 and "only 3 blue pawns seen" in problem
    five = BoardObservation("mensch40", True, squares={7: ("blue",), 9: ("red",)}, yards=full, homes={})
    assert "5 red pawns seen" in pawn_counts(five, geometry)[1]


def test_render_eval_counts_refusals_and_false_accepts():
    result = evaluate_renders(BOARDS["dga56"], 6, seed=4, boards=BOARDS)
    assert result["frames"] == 6 and 0 <= result["refused"] <= 6 and result["false_accepts"] == 0


@pytest.fixture
def frames(shared_data):
    folder = shared_data / "ludo" / "board_frames"
    return {name: cv2.imread(str(folder / name), cv2.IMREAD_COLOR) for name in LABELS["frames"]}


def test_the_medium_frame_with_no_variant_is_read_as_dga56_exactly(frames):
    obs = read_known_board(frames["dga_medium.jpg"], BOARDS)
    assert obs.board == obs.recognised == "dga56" and accepted(obs), obs.problem
    assert exact(obs, LABELS["frames"]["dga_medium.jpg"])


@pytest.mark.parametrize("board", [None, "dga56"])
def test_the_easy_frame_with_a_hand_is_refused(frames, board):
    assert not accepted(read_known_board(frames["dga_easy.jpg"], BOARDS, board))


@pytest.mark.parametrize("board", [None, "dga56", "mensch40", "ludo52"])
def test_the_hard_frame_is_refused_or_read_exactly(frames, board):
    obs = read_known_board(frames["dga_hard.jpg"], BOARDS, board)
    assert not accepted(obs) or exact(obs, LABELS["frames"]["dga_hard.jpg"])
    if board is None:
        assert obs.problem == UNKNOWN_BOARD  # too small and oblique to tell its corners


@pytest.mark.parametrize("name", ["dga_easy.jpg", "dga_medium.jpg", "dga_hard.jpg"])
@pytest.mark.parametrize("board", ["mensch40", "ludo52"])
def test_another_board_forced_on_the_real_board_is_refused(frames, name, board):
    assert not accepted(read_known_board(frames[name], BOARDS, board))
