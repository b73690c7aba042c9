"""The shape every rules engine shares (ARCHITECTURE.md, Rules engines), after OpenSpiel and python-chess.

Engines are pure: no I/O, no clock, no randomness. Chance outcomes (dice, draws) are actions applied
like any other; ``State.current_player`` is :data:`CHANCE` when the table must supply one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

A = TypeVar("A")

CHANCE = -1
"""``current_player`` when the table (camera, hand entry or a seeded RNG) must supply an outcome."""

TERMINAL = -2
"""``current_player`` once the game is over."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    winner: the winning seat, or None for a draw. placings: seats from first to last.
    scores: a per-seat number whose meaning each game documents (Can't Stop: columns claimed).
    """

    winner: int | None
    placings: tuple[int, ...]
    scores: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"winner": self.winner, "placings": list(self.placings), "scores": list(self.scores)}


def decode_action(data: Mapping, decoders: Mapping[str, Callable[[Mapping], A]], game: str) -> A:
    """The action the JSON object ``data`` names by its ``"type"`` (the store's event format).

    ``decoders`` maps each type to a function of ``data`` that builds the action (it may raise
    ``KeyError``, ``TypeError`` or ``ValueError`` on a bad field). Raises ``ValueError`` naming ``game``
    and the object on an unknown type or a bad field.
    """
    kind = data.get("type")
    decoder = decoders.get(kind) if isinstance(kind, str) else None
    if decoder is None:
        raise ValueError(f"unknown {game} action type {kind!r}")
    try:
        return decoder(data)
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"bad {game} action {dict(data)!r}: {error}") from None


def encode_action(action: object, encoders: Mapping[type, tuple[str, Callable[[Any], dict] | None]], game: str) -> dict:
    """The JSON object of ``action`` (the store's event format): ``{"type": name, **fields}``.

    ``encoders`` maps each action class to (its type name, a function of the action giving its fields, or
    None for an action without fields). Raises ``TypeError`` naming ``game`` for anything else.
    """
    try:
        name, fields = encoders[type(action)]
    except KeyError:
        raise TypeError(f"not a {game} action: {action!r}") from None
    return {"type": name, **(fields(action) if fields else {})}
