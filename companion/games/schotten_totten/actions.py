"""Schotten Totten / Battle Line actions (schotten-totten.md C.3, C.4, C.6) and their JSON form.

Chance actions (who starts, a drawn card) are supplied by the table or a seeded RNG; the engine never
shuffles (ARCHITECTURE.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

from companion.games.base import Decoders, decode_action, encode_action, whole
from companion.games.schotten_totten.cards import Card, parse_card


@dataclass(frozen=True)
class StartWith:
    """Chance (C.3): the seat that starts, chosen at the table by any method."""

    seat: int


@dataclass(frozen=True)
class Draw:
    """Chance (C.3 deal, C.4 step 3): the card drawn, or None for a card of unknown identity."""

    card: Card | None


@dataclass(frozen=True)
class Play:
    """Play ``card`` on the active seat's side of ``stone`` (0-8, left to right), C.4 step 1."""

    card: Card
    stone: int


@dataclass(frozen=True)
class Pass:
    """Skip the play step when no card can be played (C.4 DEFAULT for ST; Battle Line's pass, C.9)."""


@dataclass(frozen=True)
class Claim:
    """Claim ``stone`` (0-8), C.4 step 2 / C.6."""

    stone: int


@dataclass(frozen=True)
class EndClaims:
    """Stop claiming this turn (claims are optional, C.4 step 2)."""


Action = Union[StartWith, Draw, Play, Pass, Claim, EndClaims]


def _code(card: Card | None) -> str:
    return "?" if card is None else card.code


def _code_of(value) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r:.20} is not a card")
    return value


def _card(code: str, max_value: int) -> Card | None:
    return None if code == "?" else parse_card(code, max_value)


_ENCODERS: dict[type, tuple[str, Callable[[Any], dict] | None]] = {
    StartWith: ("start", lambda a: {"seat": a.seat}),
    Draw: ("draw", lambda a: {"card": _code(a.card)}),
    Play: ("play", lambda a: {"card": a.card.code, "stone": a.stone}),
    Pass: ("pass", None),
    Claim: ("claim", lambda a: {"stone": a.stone}),
    EndClaims: ("end_claims", None),
}


def action_to_dict(action: Action) -> dict:
    """JSON form: ``{"type": "play", "card": "R5", "stone": 3}``, ``{"type": "draw", "card": "?"}``..."""
    return encode_action(action, _ENCODERS, "Schotten Totten")


def action_from_dict(data: Mapping, max_value: int = 10) -> Action:
    """Inverse of :func:`action_to_dict`; raises ``ValueError`` on an unknown type or bad fields.

    ``max_value``: the highest card value of the variant (cards above it are refused).
    """
    decoders: Decoders = {
        "start": (("seat",), lambda d: StartWith(whole(d["seat"], 0, 1))),
        "draw": (("card",), lambda d: Draw(_card(_code_of(d["card"]), max_value))),
        "play": (("card", "stone"), lambda d: Play(parse_card(_code_of(d["card"]), max_value), whole(d["stone"], 0, 8))),
        "pass": ((), lambda d: Pass()),
        "claim": (("stone",), lambda d: Claim(whole(d["stone"], 0, 8))),
        "end_claims": ((), lambda d: EndClaims()),
    }
    return decode_action(data, decoders, "Schotten Totten")
