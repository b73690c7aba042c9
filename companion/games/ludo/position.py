"""Ludo positions of the command-line contract (``companion ludo moves``, ARCHITECTURE.md; issue 4).

A position file::

    {"board": "ludo52", "variant": {"entry_rolls": [1, 6], "overshoot": "bounce"},
     "pawns": {"red": ["yard", 5, 51, 56], "yellow": ["yard", "yard", 0, 3]},
     "to_move": "red", "roll": 6, "sixes_in_row": 0}

``board`` may also be given inside ``variant``; a variant key left out takes its DEFAULT (ludo.md B.7,
B.2b). Pawn positions are relative per colour (B.2 / B.2b): ``"yard"``, 0..last (56 on ludo52, 43 on
mensch40); ``"finish"`` stands for the last one. The colours listed under ``pawns`` are the ones in play.
``sixes_in_row`` counts the sixes already rolled this turn before ``roll`` (0-2); ``tries`` the rolls
already used this turn without a move (0 to ``entry_attempts_when_all_in_yard`` - 1, default 0: the
extra tries for a 6 of B.2b).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from companion.games import schema
from companion.games.ludo.config import LudoConfig
from companion.games.ludo.rules import YARD, LudoState, MoveInfo, Phase, Roll


def state_from_position(position: Mapping) -> tuple[LudoState, int]:
    """(ROLL-phase state of the player to move, the roll) from a position dict.

    Applying ``Roll(roll)`` to the state gives the real continuation. Every value is checked before the
    engine sees it (:mod:`companion.games.schema`: ``roll`` a whole number 1-6, not ``3.5`` or ``true``).
    Raises ``ValueError`` naming what is wrong (unknown colour, a position off the board, a bad roll, a
    bad variant).
    """
    position = schema.obj(position)
    variant = dict(schema.mapping(position.get("variant", {}), '"variant"', "variant settings"))
    if "board" in position:
        variant["board"] = schema.text(position["board"], '"board"')
    config = LudoConfig.from_variant(variant)
    pawns_in = schema.mapping(schema.need(position, "pawns"), '"pawns"', "colours and their pawns' positions")
    to_move = schema.text(schema.need(position, "to_move"), '"to_move"')
    roll = schema.whole(schema.need(position, "roll"), '"roll"', 1, 6)
    sixes = schema.whole(position.get("sixes_in_row", 0), '"sixes_in_row"', 0, 2)
    tries = position.get("tries", 0)
    if isinstance(tries, bool) or not isinstance(tries, int):
        raise schema.PositionError(f'"tries" must be a whole number, not {schema.show(tries)}')
    state = LudoState.new(tuple(pawns_in), config)
    last = state.geometry.last_relative
    pawns = []
    for colour in state.colours:
        items = schema.items(pawns_in[colour], f'"pawns" of {colour}', 4, 4, "pawns (their positions)")
        rels = []
        for item in items:
            if item == "yard":
                rels.append(YARD)
            elif item == "finish":
                rels.append(last)
            elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item <= last:
                rels.append(item)
            else:
                raise ValueError(f"{colour} pawn at {schema.show(item)}: positions are 'yard', 'finish' or "
                                 f"0-{last} on {config.board}")
        pawns.append(tuple(sorted(rels)))
    if to_move not in state.colours:
        raise ValueError(f"to_move {schema.show(to_move)} is not among the colours in play {list(state.colours)}")
    attempts = max(1, config.resolved().entry_attempts_when_all_in_yard)
    if not 0 <= tries < attempts:
        raise ValueError(f"tries must be 0-{attempts - 1} on {config.board} with these rules, not {tries}")
    pawns_t = tuple(pawns)
    seat = state.colours.index(to_move)
    return replace(state, pawns=pawns_t, turn_start=pawns_t, phase=Phase.ROLL, active=seat, sixes_in_row=sixes,
                   rolls_this_turn=tries, turn=1), roll


def position_moves(position: Mapping) -> dict:
    """``{"forfeit": bool, "moves": [[from, to], ...], "next": colour | None}`` for a position (the
    ``ludo moves`` contract).

    forfeit: the roll is a third six (B.4.2): no move. moves: the distinct [from, to] pairs the player
    to move may choose ("yard" for an entering pawn), sorted; empty when the roll is lost (B.4.3).
    next: when there is no move, the colour who rolls next (the same colour while tries for a 6, B.2b,
    or a six's bonus roll, B.4.4, remain); None when there are moves.
    """
    state, roll = state_from_position(position)
    after = state.apply(Roll(roll))
    forfeit = state.is_third_six(roll)
    infos = () if forfeit else state.move_infos(pool=(roll,))
    following = None if infos else after.colours[after.active]
    return {"forfeit": forfeit, "moves": pairs(infos), "next": following}


def pairs(infos: tuple[MoveInfo, ...]) -> list[list]:
    """Distinct ``[from, to]`` pairs of moves, ``"yard"`` for YARD, sorted (yard first)."""
    seen = sorted({(i.move.frm, i.to) for i in infos})
    return [["yard" if f == YARD else f, t] for f, t in seen]
