"""Which Ludo board a photo shows: ``ludo52``, ``mensch40``, ``dga56``, or that it does not know.

``recognise_board(frame_bgr, boards) -> Recognition``; ``boards``: the three boards' geometries by name,
handed in (:data:`vision.board.geometry.Boards`; the app's ``companion.games.ludo.load_boards()``). The
three layouts differ in what is printed where
(ludo.md B.2, B.2b, B.2c): ``mensch40`` is an 11x11 grid, the other two 15x15 crosses that differ only at
the four inner corners of the cross, which hold a track square on ``dga56`` and nothing on ``ludo52``.
So the board is first fitted as ``mensch40`` and as ``ludo52`` (:func:`vision.board.find.find_board`): a
mensch40 fit that matches nearly all its printed squares (:data:`MENSCH_MATCHED`) and more of them than
the 15x15 fit is ``mensch40``; otherwise, on a 15x15 fit that matches most of its squares
(:data:`CROSS_MATCHED`), the printed ring response at the four inner corners decides: three or four
rings are ``dga56``, none or one ``ludo52``, two (a pawn or a hand over a corner) is not known. A board
that fits neither is not known. The reader refuses a forced ``board`` variant that the photo
contradicts (:func:`contradiction`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.board.colour import classify
from vision.board.find import find_board
from vision.board.geometry import PAWNS, Boards
from vision.board.layouts import layout_for
from vision.board.refine import _top_response
from vision.frames import frame_problem_bgr
from vision.observation import BoardObservation

MENSCH_MATCHED = 0.97
"""Share of mensch40's printed squares a fit must match to call the board mensch40 (its own renders: 1.0;
the 15x15 boards of the real photos: 0.73-0.82)."""
CROSS_MATCHED = 0.8
"""Share of ludo52's printed squares a 15x15 fit must match before its inner corners are looked at."""
CORNERS = ((5, 5), (5, 9), (9, 9), (9, 5))
"""The inner corners of the 15x15 cross, grid (col, row): a track square on dga56, blank on ludo52."""
CORNER_RING = 0.3
"""Ring response (-1..1) at an inner corner that counts as a printed square: measured 0.11-0.13 on
rendered ludo52 boards, 0.68-0.71 on rendered dga56 boards, 0.15-0.73 on the three real dga56 photos
(the low ones on the small, oblique hard frame, which is then not known)."""
WORK_SIDE = 960


@dataclass(frozen=True)
class Recognition:
    """The board seen: ``board`` (a name, or None when not known) and the evidence: ``matched`` (layout
    name -> share of its printed squares matched, 0-1) and ``corner_rings`` (inner corners of the 15x15
    cross showing a printed ring, 0-4, or None when that fit failed)."""

    board: str | None
    matched: dict = field(default_factory=dict)
    corner_rings: int | None = None


def recognise_board(frame_bgr: np.ndarray, boards: Boards) -> Recognition:
    """Which board ``frame_bgr`` (BGR uint8, (h, w, 3)) shows; see the module docstring. ``boards`` holds
    at least ``mensch40`` and ``ludo52`` (KeyError otherwise)."""
    h, w = frame_bgr.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    work = frame_bgr if scale == 1.0 else cv2.resize(frame_bgr, (round(w * scale), round(h * scale)),
                                                     interpolation=cv2.INTER_AREA)
    labels = classify(work)
    matched, fits = {}, {}
    for name in ("mensch40", "ludo52"):
        fit = find_board(work, layout_for(boards[name]), labels)
        fits[name] = fit
        matched[name] = round(fit.inliers / fit.squares, 3) if fit.found and fit.squares else 0.0
    if matched["mensch40"] >= MENSCH_MATCHED and matched["mensch40"] > matched["ludo52"]:
        return Recognition("mensch40", matched)
    if matched["ludo52"] < CROSS_MATCHED:
        return Recognition(None, matched)
    rings = corner_rings(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY), fits["ludo52"].homography)
    board = "dga56" if rings >= 3 else "ludo52" if rings <= 1 else None
    return Recognition(board, matched, rings)


def corner_rings(gray: np.ndarray, hom: np.ndarray, scale: int = 22, window: float = 0.15) -> int:
    """How many of the cross's inner corners (:data:`CORNERS`) show a printed ring under the 15x15 grid
    homography ``hom`` (grid (col, row) -> pixels of ``gray``)."""
    resp, _warp, half = _top_response(gray, hom, 15, scale)
    w = max(1, int(round(window * scale)))
    rings = 0
    for col, row in CORNERS:
        u, v = int(round((col + 1.5) * scale - half)), int(round((row + 1.5) * scale - half))
        patch = resp[max(0, v - w):v + w + 1, max(0, u - w):u + w + 1]
        rings += bool(patch.size) and float(patch.max()) >= CORNER_RING
    return rings


def read_known_board(frame_bgr: np.ndarray, boards: Boards, board: str | None = None, **options) -> BoardObservation:
    """Read the board of ``frame_bgr`` right, or refuse it (``problem`` set; issue 25).

    boards: the known boards by name (:func:`recognise_board`). board: the board the players named (a
    ``board`` variant, one of ``boards``), None to read the board recognised (a photo whose board is not
    known is refused). A named board the photo contradicts is refused, and so is a
    reading in which a colour does not hold exactly four pawns (:func:`pawn_counts`). ``options`` go to
    :func:`vision.board.reader.read_board`. ``recognised`` and ``finished`` are filled in.
    """
    from vision.board.reader import read_board

    h, w = frame_bgr.shape[:2]
    problem = frame_problem_bgr(frame_bgr)
    recognition = Recognition(None) if problem else recognise_board(frame_bgr, boards)
    name = board or recognition.board
    if name is None:
        return BoardObservation(None, False, frame_shape=(h, w), problem=problem or UNKNOWN_BOARD)
    geometry = boards[name]
    observation = read_board(frame_bgr, geometry, **options)
    finished, count_problem = pawn_counts(observation, geometry)
    problem = observation.problem or contradiction(recognition, name) or count_problem
    return replace(observation, problem=problem, finished=finished, recognised=recognition.board)


UNKNOWN_BOARD = "the board is not one the box knows (ludo52, mensch40, dga56): name it with the board variant"

def pawn_counts(observation: BoardObservation, geometry) -> tuple[dict[str, int], str | None]:
    """({colour: pawns not seen on the board}, the problem or None): every colour holds exactly four
    pawns, yards + squares + homes + finished (ludo.md B.1). More than four of a colour is a misreading.
    A pawn seen nowhere has finished (it stands in the centre, or was taken off the board; the reader
    does not look there) or is covered or missed: a photo alone cannot tell, so the reading is refused
    and the players asked (the session, which knows from the game how many pawns have finished, checks
    the board against that instead: :func:`companion.readers.ludo.pawns_from_board`). A covered yard's
    colour is not counted (its reading is refused anyway)."""
    if not observation.found:
        return {}, None
    seen: Counter = Counter()
    for colours in observation.squares.values():
        seen.update(colours)
    for colour, count in observation.yards.items():
        seen[colour] += count
    for colour, homes in observation.homes.items():
        seen[colour] += len(homes)
    finished, problem = {}, None
    for colour in geometry.clockwise:
        if colour in observation.covered_yards or observation.unknown:
            finished[colour] = 0
            continue
        finished[colour] = max(0, PAWNS - seen[colour])
        if seen[colour] > PAWNS:
            problem = problem or f"{seen[colour]} {colour} pawns seen: a colour has {PAWNS}"
        elif seen[colour] < PAWNS:
            problem = problem or (f"only {seen[colour]} {colour} pawns seen: is one covered, or has it finished "
                                  f"(the reader does not look at the finish)?")
    return finished, problem


def contradiction(recognition: Recognition, board: str) -> str | None:
    """Why a photo recognised as ``recognition`` cannot be read as ``board`` (it shows another known
    board), or None."""
    seen = recognition.board
    if seen is not None and seen != board:
        return f"the board in the photo is {seen}, not {board}"
    return None
