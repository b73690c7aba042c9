"""Ludo actions (ludo.md B.3, B.4): chance outcomes and pawn moves, with their JSON forms, and
:class:`MoveInfo`, what a legal move does. Re-exported by :mod:`companion.games.ludo.rules`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

from companion.games.base import Decoders, decode_action, encode_action, whole

YARD = -1
"""Relative position of a pawn in its yard (B.2)."""




@dataclass(frozen=True)
class StartWith:
    """Chance (B.3): the seat that starts, as decided at the table (the highest roll)."""

    seat: int


@dataclass(frozen=True)
class Roll:
    """Chance (B.4.1): the die as read, 1-6."""

    value: int


@dataclass(frozen=True)
class Move:
    """Player (B.4.3): move a pawn of the seat to act from relative position ``frm`` (``YARD`` = -1 to
    enter) by the pooled die value ``die``. Pawns of one colour on one square are interchangeable."""

    frm: int
    die: int


Action = Union[StartWith, Roll, Move]


_ENCODERS: dict[type, tuple[str, Callable[[Any], dict] | None]] = {
    StartWith: ("start", lambda a: {"seat": a.seat}),
    Roll: ("roll", lambda a: {"value": a.value}),
    Move: ("move", lambda a: {"from": "yard" if a.frm == YARD else a.frm, "die": a.die}),
}


def action_to_dict(action: Action) -> dict:
    """JSON form: ``{"type": "roll", "value": 6}``, ``{"type": "move", "from": "yard", "die": 6}``..."""
    return encode_action(action, _ENCODERS, "Ludo")


_DECODERS: Decoders = {
    "start": (("seat",), lambda d: StartWith(whole(d["seat"], 0, 3))),
    "roll": (("value",), lambda d: Roll(whole(d["value"], 1, 6))),
    "move": (("from", "die"), lambda d: Move(YARD if d["from"] == "yard" else whole(d["from"], 0), whole(d["die"], 1, 6))),
}


def action_from_dict(data: Mapping) -> Action:
    """Inverse of :func:`action_to_dict`; raises ``ValueError`` on an unknown type or bad fields."""
    return decode_action(data, _DECODERS, "Ludo")



@dataclass(frozen=True)
class MoveInfo:
    """What a legal move does: ``to`` (relative destination), ``captures`` (seats and count of pawns sent
    to their yards, B.5), ``enters`` (from the yard), ``finishes`` (ends the pawn's journey: the finish on
    ludo52, a home square on mensch40), ``forms_block`` (own_stacking = block)."""

    move: Move
    to: int
    captures: tuple[tuple[int, int], ...]
    enters: bool
    finishes: bool
    forms_block: bool


