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


SOURCES = ("camera", "hand", "board")
"""Where an event's reading came from (its ``"source"`` detail): the camera's dice or cards, the players'
buttons, the camera's look at the board (Ludo's moves)."""


def whole(value: Any, low: int | None = None, high: int | None = None) -> int:
    """``value`` when it is a whole number (an ``int``, never a ``bool``, a float or a text) in ``low``..
    ``high`` (each bound optional); else ValueError saying what it is."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{value!r:.20} is not a whole number")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{value} is not in {low if low is not None else ''}..{high if high is not None else ''}")
    return value


def _source(value: Any) -> None:
    if value not in SOURCES:
        raise ValueError(f"source {value!r:.20} is not one of {', '.join(SOURCES)}")


def _read(value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, list) or len(value) > 12:
        raise ValueError("read is not a list of dice")
    for die in value:
        whole(die, 1, 6)


DETAILS: dict[str, Callable[[Any], None]] = {"source": _source, "read": _read}
"""What a session adds to an action's event beside the rule's fields, each with its check: ``source``
(:data:`SOURCES`) and ``read`` (the dice as the camera read them, before any correction: null or up to 12
values 1-6)."""

Decoders = Mapping[str, tuple[tuple[str, ...], Callable[[Mapping], A]]]
"""A game's decoders: each action type's fields and the function of the JSON object that builds it."""


def decode_action(data: Any, decoders: Decoders, game: str) -> A:
    """The action the JSON object ``data`` names by its ``"type"`` (the store's event format).

    ``decoders`` maps each type to (its fields, a function of ``data`` that builds the action; it may
    raise ``KeyError``, ``TypeError`` or ``ValueError`` on a bad field, and checks each value: see
    :func:`whole`). Every key must be ``type``, one of the type's fields or one of :data:`DETAILS`, each
    detail with an allowed value: a stored event damaged in any field is refused, never read as something
    else (issue 52: a bit flip turned a roll's source "hand" into "(and"). Raises ``ValueError`` naming
    ``game`` and the object on an unknown type, an unknown key or a bad field.
    """
    if not isinstance(data, Mapping):
        raise ValueError(f"a {game} action is a JSON object, not {data!r:.40}")
    kind = data.get("type")
    fields, decoder = decoders.get(kind, ((), None)) if isinstance(kind, str) else ((), None)
    if decoder is None:
        raise ValueError(f"unknown {game} action type {kind!r:.40}")
    try:
        for key, value in data.items():
            if key in DETAILS:
                DETAILS[key](value)
            elif key != "type" and key not in fields:
                raise ValueError(f"unknown key {key!r:.40}")
        return decoder(data)
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"bad {game} action {_short(dict(data))}: {error}") from None


def _short(data: dict) -> str:
    text = repr(data)
    return text if len(text) <= 80 else text[:77] + "..."


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
