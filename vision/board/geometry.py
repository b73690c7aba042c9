"""What the board reader needs of a Ludo board's geometry: handed to it, never loaded here.

A board's geometry (which grid cells are track, yard, home and finish squares, ludo.md B.2, B.2b, B.2c)
is data, ``assets/ludo/<name>.json``, read by the rules engine's ``companion.games.ludo.load_board``:
the rules need its topology, the reader its cells. Vision imports nothing of companion, so every
function of :mod:`vision.board` that needs a board takes it as an argument, and the recogniser, which
tells the boards apart, is handed the boards it knows by name (:data:`Boards`: the app passes
``companion.games.ludo.load_boards()``). The protocols below say what vision reads of a geometry (the
engine's frozen ``BoardGeometry`` is one); see ``companion/games/ludo/board.py`` for the cell
conventions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

__all__ = ["PAWNS", "Cell", "ColourGeometry", "BoardGeometry", "Boards"]

PAWNS = 4
"""Pawns of each colour (ludo.md B.1): yards + squares + homes + finished."""

Cell = tuple[int, int]
"""A grid cell ``(row, col)``: row 0 the top row of the board as drawn, col 0 the left column."""


class ColourGeometry(Protocol):
    """One colour's places: its start square's absolute track index, its 4 yard cells, its home cells in
    movement order, its finish cell (None where the board has none)."""

    @property
    def start_offset(self) -> int: ...
    @property
    def yard(self) -> tuple[Cell, ...]: ...
    @property
    def home_column(self) -> tuple[Cell, ...]: ...
    @property
    def finish(self) -> Cell | None: ...


class BoardGeometry(Protocol):
    """A board: its name, the ``grid_size`` x ``grid_size`` grid, the track's cells in absolute index
    order, the relative track positions a pawn uses and the home squares a colour has, each colour's
    places, the central cells; the colours clockwise from red, and the cell of a colour's relative
    position (``cell_of``, ValueError off the board)."""

    @property
    def name(self) -> str: ...
    @property
    def grid_size(self) -> int: ...
    @property
    def track(self) -> tuple[Cell, ...]: ...
    @property
    def track_positions(self) -> int: ...
    @property
    def home_length(self) -> int: ...
    @property
    def colours(self) -> Mapping[str, ColourGeometry]: ...
    @property
    def centre(self) -> tuple[Cell, ...]: ...
    @property
    def clockwise(self) -> tuple[str, ...]: ...
    @property
    def track_length(self) -> int: ...

    def cell_of(self, colour: str, rel: int) -> Cell: ...


Boards = Mapping[str, BoardGeometry]
"""The boards a photo may show, by name (``ludo52``, ``mensch40``, ``dga56``): what
:func:`vision.board.recognise.recognise_board` tells apart."""
