"""What the Ludo screen shows: frozen view values built by ``companion.session.ludo`` and drawn by
``companion.display.ludo`` (registered with ``companion.display.screen.register_renderer``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PawnView:
    """One pawn: its colour and relative position (YARD = -1; ludo.md B.2 / B.2b)."""

    colour: str
    rel: int


@dataclass(frozen=True)
class MoveView:
    """One legal move, drawn as an arrow: colour, from (relative, -1 = yard), to, die used, whether it is
    the selected one (the advisor's unless changed), and its list text."""

    colour: str
    frm: int
    to: int
    die: int
    selected: bool
    text: str


@dataclass(frozen=True)
class PlayerLine:
    """A player's line: name, colour, place once finished (1-4) or None, games won, pawns home."""

    name: str
    colour: str
    place: int | None
    wins: int
    home: int


@dataclass(frozen=True)
class LudoView:
    """The whole Ludo screen. board: geometry name. active: seat to act (None: nobody). die: last roll or
    None. pool: dice waiting for a move. sixes_in_row: the six counter (B.4.2). bonus_rolls: extra rolls
    owed (B.4.4, B.7). problems: lines about a wrong board. misplaced: (colour, seen, should) pawns to
    correct (relative positions, -1 = yard, None = unknown). winner: the winner's name once over.
    mode: the session mode's value."""

    title: str
    board: str
    players: tuple[PlayerLine, ...]
    active: int | None
    pawns: tuple[PawnView, ...]
    moves: tuple[MoveView, ...]
    die: int | None
    pool: tuple[int, ...]
    sixes_in_row: int
    bonus_rolls: int
    prompt: str
    message: str
    hint: str
    problems: tuple[str, ...]
    misplaced: tuple[tuple[str, int | None, int | None], ...]
    winner: str | None
    mode: str
