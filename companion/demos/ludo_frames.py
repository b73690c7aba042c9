"""A scripted Ludo game as the camera would see it: a folder of rendered frames plus the input script.

Here, in the app, not in ``vision``: it plays whole games with the rules engine, which vision does not
import (vision draws one board, :mod:`vision.board.render`; this module says what stands on it). Used by
the camera demo's rendered table (:mod:`companion.demos.ludo`), ``companion ludo frames`` and the board
reader's benchmark on whole games (``companion.bench.board_games``).

``generate(directory, board=..., players=..., moves=..., seed=...) -> GameFrames`` plays a seeded game
with the engine (:mod:`companion.games.ludo.rules`) and, for every step, renders the photo the box's camera
would take (:func:`vision.board.render.render`: the board from the geometry in perspective, pawns where
the state puts them, light and shadow that change from turn to turn, sometimes a hand over the board)
and draws the die on the table beside the board. The folder is read by ``companion play ludo --camera
folder:DIR --input script:FILE``; the script only picks the first player (``choose K``) and, once the
frames are used up, ends the game (``confirm`` after the last move of a finished game, else ``quit``):
every roll comes from the die in the frames, every move from the board read off them.

Photos per step (each held ``frames_per_photo`` reads by the folder camera; the session acts on a
reading seen ``stable_frames`` times in a row):

- ``roll``: the board before the roll and the die showing the roll at a new place on the table (with
  ``die_on_board``, after the first move, at that rate on the board's print instead).
- ``wrong`` (steps listed in ``wrong``): the mover's pawn one square past where the legal move puts it
  (ludo.md B.4.3: a pawn moves exactly the die's count); the box must report it and record nothing.
- ``hand`` (about ``hand_rate`` of the moves): a hand over the board while the pawn is moved.
- ``capture`` (every capturing move, ludo.md B.5): the mover's pawn on the square with the captured
  pawn still beside it; the box must ask it back to its yard.
- ``move``: the board after the legal move, the die still where it landed.

The camera stays where it is for the whole game (the board at a random turn and tilt); before a roll
the light may change (:data:`LIGHT_CHANGE`) and the board may be bumped a few degrees (:data:`BUMP`).

A roll with no legal move (B.4.3) or a third six (B.4.2) has only its ``roll`` photo. On ``ludo52`` a
pawn that reaches the finish (relative 56) is taken off the board (the finish triangle holds no pawns in
this rendering; the session counts a colour's pawns seen nowhere as finished).

Deterministic: the same arguments give the same frames and script. Frames of an earlier run in the
folder (names ``NNNN-KIND[-K].jpg|png``) are deleted first; other files are left alone. Command line:
``companion ludo frames DIR [--board mensch40] [--players 4] [--moves 12] [--seed 1] [--wrong 0,5]
[--hand-rate 0.25] [--prefer-captures] [--die-on-board 0] [--size 480x360] [--json]``.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from companion.games.ludo import (YARD, BoardGeometry, LudoConfig, LudoState, Move, Phase, Roll, StartWith,
    action_to_dict, load_board)
from vision.board.pinhole import plane_homography
from vision.board.render import Position, Scene, camera, render

# Die pips on the 3x3 lattice (-1, 0, 1) of a face.
PIPS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
        4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
        6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}
# Die side as a fraction of the frame's short side (the dice reader wants 20+ px faces), and the most it
# is turned (degrees) against the frame: the dice reader (vision.dice.reader, v2) read 80 of 80 such dice beside
# a rendered board, but left 3 of 80 unread when turned up to 90 degrees.
DIE_SIDE, DIE_TURN = 0.09, 30.0
# The board's area in grid cells beyond the printed grid that the die keeps clear of (the print's
# margin, a leaning pawn and a die's half side).
BOARD_CLEAR = 2.5
# Photos are held this many times longer than the session strictly needs (see generate).
SLACK = 2
# The names of the frames this module writes (an earlier run's are removed from the folder first).
FRAME_NAME = re.compile(r"^\d{4}-(roll|wrong|hand|capture|move)(-\d+)?\.(jpg|png)$")
# Chance per roll that the light changes (gain, gradient, a shadow band) and that the board is bumped
# (turned a few degrees).
LIGHT_CHANGE, BUMP = 0.35, 0.1


@dataclass(frozen=True)
class Photo:
    """One photo of the game: ``name`` (file name in the folder), ``kind`` (roll, wrong, hand, capture,
    move), ``step`` (index of the engine action it shows: the roll or the move), ``copies`` (files
    written: the photo is held ``copies x frames_per_photo`` reads), ``die_on_board`` (the die lies on
    the board's print, not on the table beside it)."""

    name: str
    kind: str
    step: int
    copies: int = 1
    die_on_board: bool = False


@dataclass(frozen=True)
class GameFrames:
    """What :func:`generate` wrote and the engine game behind it.

    directory: the frames folder. script: the input script file. players: the names the script assumes
    (``--players``). board: geometry name. actions: the engine game's actions in order as
    ``action_to_dict`` dicts (start, rolls, moves): what the session must record. photos: in folder
    order. final: the engine state after the last action. wrong: the wrong physical moves shown, as
    ``(colour, shown relative position, legal relative position)``. captures: the captures shown before
    the captured pawn went back, as ``(captured colour, its relative position)``.
    """

    directory: Path
    script: Path
    players: tuple[str, ...]
    board: str
    actions: tuple[dict, ...]
    photos: tuple[Photo, ...]
    final: LudoState
    wrong: tuple[tuple[str, int, int], ...] = ()
    captures: tuple[tuple[str, int], ...] = ()
    notes: dict = field(default_factory=dict)

    @property
    def moves(self) -> int:
        """Number of moves in the game."""
        return sum(1 for a in self.actions if a["type"] == "move")

    def summary(self) -> dict:
        """JSON form (paths as strings, the final state's phase)."""
        return {"directory": str(self.directory), "script": str(self.script), "board": self.board,
                "players": list(self.players), "actions": list(self.actions), "moves": self.moves,
                "photos": len(self.photos), "files": sum(p.copies for p in self.photos),
                "over": self.final.phase is Phase.OVER, "wrong": [list(w) for w in self.wrong],
                "captures": [list(c) for c in self.captures]}


def position_of(state: LudoState, geometry: BoardGeometry, off_board_finish: bool = True) -> Position:
    """The render :class:`Position` of an engine state: absolute track squares, yard counts, home squares.

    Two pawns on one square (a stack) become a tuple of colours. ``off_board_finish``: pawns on the
    finish (ludo52 relative 56) are not drawn.
    """
    squares: dict[int, tuple[str, ...]] = {}
    yards: dict[str, int] = {}
    homes: dict[str, tuple[int, ...]] = {}
    tp = geometry.track_positions
    for seat, colour in enumerate(state.colours):
        yards[colour] = sum(1 for p in state.pawns[seat] if p == YARD)
        home = []
        for rel in state.pawns[seat]:
            if rel == YARD:
                continue
            if rel < tp:
                a = state.absolute(seat, rel)
                squares[a] = squares.get(a, ()) + (colour,)
            elif rel - tp < geometry.home_length:
                home.append(rel - tp)
            elif not off_board_finish:
                raise ValueError(f"{colour} pawn on the finish cannot be drawn")
        homes[colour] = tuple(sorted(home))
    return Position({a: (c[0] if len(c) == 1 else c) for a, c in squares.items()}, yards, homes)


def _board_quad(geometry: BoardGeometry, hom: np.ndarray, margin: float) -> np.ndarray:
    """The board's corners in image pixels, ``margin`` cells beyond the grid: (4, 2) float."""
    lo, hi = -0.5 - margin, geometry.grid_size - 0.5 + margin
    grid = np.array([[[lo, lo], [hi, lo], [hi, hi], [lo, hi]]], np.float64)
    return cv2.perspectiveTransform(grid, hom)[0]


def draw_die(img: np.ndarray, centre: tuple[float, float], side: float, angle: float, value: int) -> None:
    """Draw a white die showing ``value`` (1-6) seen from above: ``side`` pixels, turned ``angle`` degrees,
    with a soft shadow; in place on ``img`` (h, w, 3) uint8 BGR."""
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * side / 2
    pts = square @ rot.T + np.array(centre)
    cv2.fillConvexPoly(img, np.rint(pts + side * 0.1).astype(np.int32), (40, 50, 60), cv2.LINE_AA)
    cv2.fillConvexPoly(img, np.rint(pts).astype(np.int32), (232, 236, 238), cv2.LINE_AA)
    for px, py in PIPS[value]:
        c = np.array([px, py], np.float64) * side * 0.27 @ rot.T + np.array(centre)
        cv2.circle(img, tuple(int(v) for v in np.rint(c * 16)), int(side * 0.1 * 16), (25, 25, 25), -1,
                   cv2.LINE_AA, 4)


def die_place(rng: random.Random, geometry: BoardGeometry, hom: np.ndarray, size: tuple[int, int],
               side: float, avoid: tuple[float, float] | None) -> tuple[float, float]:
    """A table point for the die: inside the frame, clear of the board, away from the last die place."""
    w, h = size
    quad = _board_quad(geometry, hom, BOARD_CLEAR).astype(np.float32)
    for _ in range(500):
        x, y = rng.uniform(side, w - side), rng.uniform(side, h - side)
        if cv2.pointPolygonTest(quad, (x, y), True) > -side:
            continue
        if avoid is not None and math.dist((x, y), avoid) < 2.5 * side:
            continue
        return x, y
    raise ValueError(f"no room for the die beside the board in a {w}x{h} frame: lower the board's fill")


def die_place_on_board(rng: random.Random, geometry: BoardGeometry, hom: np.ndarray, side: float,
                       keep_clear: set[tuple[int, int]], avoid: tuple[float, float] | None) -> tuple[float, float] | None:
    """A point on the board's print for the die (image pixels), its centre at least one die side from the
    centre of every cell of ``keep_clear`` (the pawns' cells: a die on a pawn would hide it) and from
    ``avoid`` (the last die place); None when 500 tries find no room."""
    n = geometry.grid_size
    clear = np.array([(col, row) for row, col in sorted(keep_clear)], np.float64).reshape(-1, 1, 2)
    clear_px = cv2.perspectiveTransform(clear, hom)[:, 0] if len(clear) else np.zeros((0, 2))
    for _ in range(500):
        cell = np.array([[[rng.uniform(-0.3, n - 0.7), rng.uniform(-0.3, n - 0.7)]]], np.float64)
        x, y = cv2.perspectiveTransform(cell, hom)[0, 0]
        if len(clear_px) and np.min(np.hypot(clear_px[:, 0] - x, clear_px[:, 1] - y)) < side:
            continue
        if avoid is not None and math.dist((x, y), avoid) < 2.5 * side:
            continue
        return float(x), float(y)
    return None


def pawn_cells(geometry: BoardGeometry, states) -> set[tuple[int, int]]:
    """The grid cells (row, column) of every pawn off the yard in any of ``states``, and every yard cell
    (a pawn may enter from it or be sent back to it)."""
    cells = {cell for geo in geometry.colours.values() for cell in geo.yard}
    for state in states:
        for colour, mine in zip(state.colours, state.pawns):
            for rel in mine:
                if rel != YARD:
                    cells.add(geometry.cell_of(colour, rel))
    return cells


def _wrong_state(state: LudoState, move: Move, after: LudoState) -> tuple[LudoState, int, int] | None:
    """The board with the mover's pawn one square past the legal target (or None when that square is not
    on the board or is no wrong move): (state to draw, shown relative position, legal one)."""
    seat = state.active
    legal = next(i.to for i in state.move_infos() if i.move == move)
    shown = legal + 1
    geometry = load_board(state.config.board)
    last = geometry.track_positions + geometry.home_length - 1
    if shown > last or shown in after.pawns[seat]:
        return None
    mine = list(after.pawns[seat])
    mine[mine.index(legal)] = shown
    pawns = list(after.pawns)
    pawns[seat] = tuple(sorted(mine))
    return after._with(pawns=tuple(pawns)), shown, legal


def _capture_state(state: LudoState, after: LudoState) -> tuple[LudoState, list[tuple[str, int]]]:
    """The board right after a capturing move, before the captured pawns are put back: (state to draw,
    [(captured colour, its relative position)])."""
    pawns = list(after.pawns)
    shown: list[tuple[str, int]] = []
    for seat in range(state.num_players):
        if seat == state.active:
            continue
        gone = list((Counter(state.pawns[seat]) - Counter(after.pawns[seat])).elements())
        if gone:
            mine = list(after.pawns[seat])
            for g in gone:
                mine.remove(YARD)
                mine.append(g)
            pawns[seat] = tuple(sorted(mine))
            shown += [(state.colours[seat], g) for g in gone]
    return after._with(pawns=tuple(pawns)), shown


@dataclass
class _Writer:
    """Writes the photos in folder order (``NNNN-KIND[-K].fmt``) and keeps their list."""

    directory: Path
    fmt: str
    photos: list[Photo] = field(default_factory=list)

    def write(self, image: np.ndarray, kind: str, step: int, copies: int, die_on_board: bool = False) -> None:
        n = len(self.photos)
        name = f"{n:04d}-{kind}.{self.fmt}"
        params = [cv2.IMWRITE_JPEG_QUALITY, 92] if self.fmt == "jpg" else []
        for k in range(copies):
            path = self.directory / (name if k == 0 else f"{n:04d}-{kind}-{k}.{self.fmt}")
            if not cv2.imwrite(str(path), image, params):
                raise OSError(f"cannot write {path}")
        self.photos.append(Photo(name, kind, step, copies, die_on_board))


def generate(directory: str | Path, *, board: str = "ludo52", players: int = 2, moves: int = 12, seed: int = 1,
             size: tuple[int, int] = (480, 360), variant: dict | None = None, wrong: tuple[int, ...] = (),
             hand_rate: float = 0.25, prefer_captures: bool = False, frames_per_photo: int = 4,
             stable_frames: int = 3, names: tuple[str, ...] | None = None, fmt: str = "jpg",
             die_on_board: float = 0.0) -> GameFrames:
    """Play a seeded game and write its frames and script into ``directory`` (created; see the module
    docstring).

    board: ``ludo52`` | ``mensch40`` | ``dga56``; players: 2-4; moves: stop after this many moves (the game may end
    sooner); seed: dice, choices and scenes; size: frame (width, height) pixels; variant: more CONFIG
    switches (``board`` is set from ``board``); wrong: indices (0-based) of the moves first shown wrong;
    hand_rate: share of moves with a hand over the board (0-1); prefer_captures: the players capture
    whenever they can and each roll is a capturing value when one exists (to show captures in short
    games: a rigged die); frames_per_photo / stable_frames: the box's config (photos are repeated so
    each is read at least ``stable_frames`` times); names: player names (default Ada, Ben, Cy, Di);
    fmt: ``jpg`` | ``png``; die_on_board: the chance (0-1) that a roll after the first move lands on the
    board's print (clear of every pawn before and after any legal move) instead of on the table beside
    it. Raises ValueError for impossible settings.
    """
    if not 2 <= players <= 4:
        raise ValueError(f"Ludo takes 2 to 4 players, not {players}")
    if not 0.0 <= die_on_board <= 1.0:
        raise ValueError(f"die_on_board is a chance, 0 to 1, not {die_on_board}")
    if fmt not in ("jpg", "png"):
        raise ValueError(f"fmt must be jpg or png, not {fmt!r}")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.iterdir():  # an earlier game's frames would be read after these
        if FRAME_NAME.match(old.name) and old.is_file():
            old.unlink()
    names = tuple(names or ("Ada", "Ben", "Cy", "Di")[:players])
    config = LudoConfig.from_variant({**(variant or {}), "board": board})
    geometry = load_board(board)
    rng = random.Random(seed)
    writer = _Writer(directory, fmt)
    # Each photo is held for twice the reads the session needs (SLACK): a reading acted on a few reads
    # late must not eat into the next photo's reads (a roll read fewer than stable_frames times is lost).
    copies = SLACK * max(1, math.ceil(stable_frames / frames_per_photo))
    hold = SLACK * max(1, math.ceil((stable_frames + 1) / frames_per_photo))  # the roll photo also starts MOVE

    state = LudoState.new(players, config)
    first = rng.randrange(players)
    state = state.apply(StartWith(first))
    actions: list[dict] = [action_to_dict(StartWith(first))]
    shown_wrong: list[tuple[str, int, int]] = []
    shown_captures: list[tuple[str, int]] = []
    die_at: tuple[float, float] | None = None
    side = DIE_SIDE * min(size)
    made = 0
    step = 0
    while state.phase is not Phase.OVER and made < moves:
        if step == 0:  # the camera is fixed above the table; the board lies at any turn
            scene = Scene(size=size, turn=rng.uniform(0, 360), tilt=rng.uniform(0, 18), fill=rng.uniform(0.6, 0.68),
                          noise=2.0, seed=rng.randrange(1 << 30))
        if step == 0 or rng.random() < LIGHT_CHANGE:
            scene = replace(scene, gain=rng.uniform(0.85, 1.1), gradient=rng.uniform(0, 0.2),
                            shadow=rng.random() < 0.3, seed=rng.randrange(1 << 30))
        if rng.random() < BUMP:
            scene = replace(scene, turn=scene.turn + rng.uniform(-4, 4))
        step += 1
        value = _roll_value(state, rng, prefer_captures)
        rolled = state.apply(Roll(value))
        actions.append(action_to_dict(Roll(value)))
        hom = homography(geometry, scene)
        on_board = None
        # (no draw at rate 0: the games of a seed stay as they were) the first roll lies beside the board,
        # where the box has no settled board yet to compare with
        if die_on_board and made and rng.random() < die_on_board:
            nexts = [rolled.apply(a) for a in rolled.legal_actions()] if rolled.phase is Phase.MOVE else []
            on_board = die_place_on_board(rng, geometry, hom, side, pawn_cells(geometry, [state, *nexts]), die_at)
        die_at = on_board or die_place(rng, geometry, hom, size, side, die_at)
        die = (die_at, side, rng.uniform(0, DIE_TURN), value)
        writer.write(table_photo(geometry, state, scene, die), "roll", len(actions) - 1, hold, on_board is not None)
        state = rolled
        while state.phase is Phase.MOVE and made < moves:
            options = state.legal_actions()
            capturing = [a for a, i in zip(options, state.move_infos()) if i.captures]
            move = rng.choice(capturing) if prefer_captures and capturing else rng.choice(options)
            after = state.apply(move)
            actions.append(action_to_dict(move))
            index = len(actions) - 1
            if made in wrong:
                bad = _wrong_state(state, move, after)
                if bad is not None:
                    writer.write(table_photo(geometry, bad[0], scene, die), "wrong", index, copies)
                    shown_wrong.append((state.colours[state.active], bad[1], bad[2]))
            if rng.random() < hand_rate:
                half = (geometry.grid_size - 1) / 2
                at = (rng.uniform(half - 3, half + 3), rng.uniform(half - 3, half + 3))
                hand_scene = replace(scene, hand=at)
                writer.write(table_photo(geometry, state, hand_scene, die), "hand", index, copies)
            info = next(i for i in state.move_infos() if i.move == move)
            if info.captures:
                pending, captured = _capture_state(state, after)
                writer.write(table_photo(geometry, pending, scene, die), "capture", index, copies)
                shown_captures += captured
            writer.write(table_photo(geometry, after, scene, die), "move", index, copies)
            state = after
            made += 1
    script = directory / "game.script"
    lines = [f"# {board}, {players} players, seed {seed}: {len(actions)} actions, {made} moves",
             f"choose {first + 1}  # {names[first]} starts"]
    reads = sum(p.copies for p in writer.photos) * frames_per_photo
    lines.append(f"wait {reads + 10}  # every roll and move comes from the frames")
    lines.append("confirm  # game over" if state.phase is Phase.OVER else "quit  # the frames end here")
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return GameFrames(directory, script, names, board, tuple(actions), tuple(writer.photos), state,
                      tuple(shown_wrong), tuple(shown_captures))


def _roll_value(state: LudoState, rng: random.Random, prefer_captures: bool) -> int:
    value = rng.randint(1, 6)
    if not prefer_captures:
        return value
    for v in rng.sample(range(1, 7), 6):
        rolled = state.apply(Roll(v))
        same_turn = rolled.phase is Phase.MOVE and rolled.active == state.active
        if same_turn and any(i.captures for i in rolled.move_infos()):
            return v
    return value


def homography(geometry: BoardGeometry, scene: Scene) -> np.ndarray:
    """The 3x3 homography from board grid cells to image pixels of ``scene``'s camera."""
    return plane_homography(camera(geometry, scene))


def table_photo(geometry: BoardGeometry, state: LudoState, scene: Scene, die) -> np.ndarray:
    """The camera's photo of the board of ``state`` in ``scene`` (BGR uint8), with ``die`` (None, or
    (centre px, side px, angle degrees, value 1-6)) drawn on the table."""
    image = render(geometry, position_of(state, geometry), scene).image
    if die is not None:
        centre, side, angle, value = die
        draw_die(image, centre, side, angle, value)
    return image
