"""The board reader on whole generated games: how often a frame's board is read exactly as the session
needs it (``companion board eval --games N``), and how the session's die reader does on them
(``--die-on-board RATE``).

:func:`evaluate_games` plays ``games`` seeded games with :func:`companion.demos.ludo_frames.generate` and
reads every ``roll`` and ``move`` photo (the ones that show the true board: not the hand, wrong-move or
capture photos) with :func:`vision.board.reader.read_board`, then converts the reading to relative pawns
per seat with the session's adapter (:func:`companion.readers.ludo.pawns_from_board`). A photo
counts as exact when those pawns equal the engine state's pawns: one wrong or missing pawn anywhere
makes the whole board wrong, which is what would stall a game at the table.

:func:`evaluate_die` gives every photo of games whose rolls land on the board to the session's frame
reader and counts each roll read, asked for, or offered wrong (a false accept), beside the board and on it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UserError
from companion.demos.ludo_frames import generate
from companion.games.ludo import LudoState, action_from_dict, load_board
from companion.readers.ludo import LudoFrameReader, pawns_from_board
from vision.board import read_board


def evaluate_games(board: str, games: int, moves: int, seed: int = 1, players: int = 2,
                   size: tuple[int, int] = (480, 360), die_on_board: float = 0.0) -> dict:
    """Read the true-board photos of ``games`` generated games of up to ``moves`` moves on ``board``.

    Returns ``{"board", "games", "photos", "exact", "exact_rate" (0-1), "median_ms", "max_ms",
    "first_wrong": [{"game", "photo", "truth", "read", "problem"}, ...] (up to 5)}``. Seeds are
    ``seed``, ``seed + 1``, ...; frames are written to a temporary folder and deleted. ``die_on_board``:
    the share of rolls whose die lies on the board (see :func:`generate`), which the board reader must
    see past. Raises ValueError for bad settings (as :func:`generate`).
    """
    if games < 1 or moves < 1:
        raise UserError("--games and --moves must be at least 1")
    geometry = load_board(board)
    photos = exact = 0
    times: list[float] = []
    wrong: list[dict] = []
    for g in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            frames = generate(Path(tmp), board=board, players=players, moves=moves, seed=seed + g, size=size,
                              die_on_board=die_on_board)
            states = [LudoState.new(players, frames.final.config)]
            for action in frames.actions:
                states.append(states[-1].apply(action_from_dict(action)))
            for photo in frames.photos:
                if photo.kind not in ("roll", "move"):
                    continue
                state = states[photo.step] if photo.kind == "roll" else states[photo.step + 1]
                obs = read_board(cv2.imread(str(Path(tmp) / photo.name), cv2.IMREAD_COLOR), geometry)
                times.append(obs.ms)
                pawns, problem = pawns_from_board(obs, geometry, state.colours)
                truth = tuple(tuple(sorted(p)) for p in state.pawns)
                photos += 1
                if pawns == truth:
                    exact += 1
                elif len(wrong) < 5:
                    wrong.append({"game": seed + g, "photo": photo.name, "truth": [list(p) for p in truth],
                                  "read": None if pawns is None else [list(p) for p in pawns], "problem": problem})
    return {"board": board, "games": games, "photos": photos, "exact": exact,
            "exact_rate": round(exact / photos, 4) if photos else 0.0,
            "median_ms": round(float(np.median(times)), 1) if times else 0.0,
            "max_ms": round(max(times), 1) if times else 0.0, "first_wrong": wrong}


def evaluate_die(board: str, games: int, moves: int, seed: int = 1, players: int = 4, die_on_board: float = 1.0,
                 size: tuple[int, int] = (480, 360)) -> dict:
    """The session's die readings on ``games`` generated games whose rolls land on the board at the rate
    ``die_on_board`` (0-1; the first roll of a game lies beside it).

    Every photo of a game is given, in order, to the session's frame reader
    (:class:`companion.readers.ludo.LudoFrameReader`: the board read on the photos of a move, the die on
    the ``roll`` photos). Returns ``{"board", "games", "beside": {...}, "on_board": {...}}``, each part
    ``{"rolls", "read" (the rolled value offered), "asked" (no value offered: the players enter it),
    "false_accepts" (a value offered that is not the roll)}``. Seeds ``seed``, ``seed + 1``, ...; frames
    go to a temporary folder. Raises UserError for fewer than one game or move.
    """
    if games < 1 or moves < 1:
        raise UserError("--games and --moves must be at least 1")
    counts = {place: {"rolls": 0, "read": 0, "asked": 0, "false_accepts": 0} for place in ("beside", "on_board")}
    for g in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            frames = generate(Path(tmp), board=board, players=players, moves=moves, seed=seed + g, size=size,
                              die_on_board=die_on_board)
            reader = LudoFrameReader(board, frames.final.colours)
            reader.session = asking = _Asking()
            for photo in frames.photos:
                asking.reads_board = photo.kind != "roll"
                reading = reader(cv2.imread(str(Path(tmp) / photo.name), cv2.IMREAD_COLOR))
                if photo.kind != "roll":
                    continue
                part = counts["on_board" if photo.die_on_board else "beside"]
                part["rolls"] += 1
                if reading.die is None:
                    part["asked"] += 1
                elif reading.die == frames.actions[photo.step]["value"]:
                    part["read"] += 1
                else:
                    part["false_accepts"] += 1
    return {"board": board, "games": games, **counts}


class _Asking:
    """Stands in for the session the reader asks what to read (``reads_board``)."""

    reads_board = False
