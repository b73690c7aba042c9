"""Actions of the donkey card race and the value of a set (``../shared/rules/donkey-race.md``, D.3-D.5).

Chance actions (:class:`Draw`, :class:`Reshuffle`, :class:`FirstLeader`) are supplied by the table or a
simulation's seeded RNG; :class:`Play` and :class:`Pass` by the player to act. Card codes are those of
:mod:`companion.games.donkey_race.config`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

from companion.games.base import DETAILS, Decoders, decode_action, encode_action, whole
from companion.games.donkey_race.config import JOKER, UNKNOWN, DonkeyRaceConfig, card_name

# ----------------------------------------------------------------------------------------------------
# Actions


@dataclass(frozen=True)
class Draw:
    """Chance (D.3.2, D.4.6): the card ``draw_queue[0]`` takes from the draw pile; :data:`UNKNOWN` at
    the table."""

    card: int


@dataclass(frozen=True)
class Reshuffle:
    """Chance (D.4.7): the discard pile is shuffled and becomes the draw pile."""


@dataclass(frozen=True)
class FirstLeader:
    """Chance (D.3.3): the first round's leader. ``donkey``: that player shows the donkey card (at the
    table); False when nobody holds it and the players chose (the youngest, D.7.4)."""

    seat: int
    donkey: bool = False


@dataclass(frozen=True)
class Play:
    """A set laid in the player's sector (D.4.1-2, D.5): card codes, sorted by the constructor."""

    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))


@dataclass(frozen=True)
class Pass:
    """The player passes (D.4.2; the PASS button)."""


Action = Union[Draw, Reshuffle, FirstLeader, Play, Pass]


_ENCODERS: dict[type, tuple[str, Callable[[Any], dict] | None]] = {
    Draw: ("draw", lambda a: {"card": a.card}),
    Reshuffle: ("reshuffle", None),
    FirstLeader: ("first_leader", lambda a: {"seat": a.seat, "donkey": a.donkey}),
    Play: ("play", lambda a: {"cards": list(a.cards)}),
    Pass: ("pass", None),
}


def action_to_dict(action: Action) -> dict:
    """JSON form: ``{"type": "play", "cards": [7, 7]}``, ``{"type": "draw", "card": -3}`` and the like."""
    return encode_action(action, _ENCODERS, "donkey-race")


_DECODERS: Decoders = {
    "draw": (("card",), lambda d: Draw(whole(d["card"]))),
    "reshuffle": ((), lambda d: Reshuffle()),
    "first_leader": (("seat", "donkey"), lambda d: FirstLeader(whole(d["seat"], 0), _flag(d.get("donkey", False)))),
    "play": (("cards",), lambda d: Play(tuple(whole(c) for c in d["cards"]))),
    "pass": ((), lambda d: Pass()),
}


def _flag(value) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{value!r:.20} is not true or false")
    return value


def action_from_dict(data: Mapping) -> Action:
    """Inverse of :func:`action_to_dict`; ``ValueError`` on an unknown type or bad fields."""
    return decode_action(data, _DECODERS, "donkey-race")


NOTES = ("", "deal", "refill", "reshuffle")
"""Why a step of draws was taken (its ``"note"``): the round's deal, the hands refilled, the pile reshuffled."""


def step_actions(payload: Mapping) -> list[Action]:
    """The actions of one stored step (``{"actions": [...], "note": ..., "source": ...}``, what the session
    stores for one press), each checked (:func:`action_from_dict`), and the step's own keys too: ``note``
    one of :data:`NOTES`, ``source`` one of :data:`companion.games.base.SOURCES`. Raises ``ValueError``
    naming what is wrong."""
    if not isinstance(payload, Mapping) or not isinstance(payload.get("actions"), list) or not payload["actions"]:
        raise ValueError("a donkey-race step is a JSON object with a list of actions")
    for key, value in payload.items():
        if key == "note":
            if value not in NOTES:
                raise ValueError(f"note {value!r:.20} is not one of {', '.join(repr(n) for n in NOTES)}")
        elif key in DETAILS:
            DETAILS[key](value)
        elif key != "actions":
            raise ValueError(f"unknown key {key!r:.40} in a donkey-race step")
    return [action_from_dict(action) for action in payload["actions"]]


def set_value(cards: tuple[int, ...], config: DonkeyRaceConfig, donkey_round: bool = False) -> int:
    """The value of a set (D.5): the value shared by its non-joker cards; jokers stand for it.

    A set of jokers only counts as ``config.top_value`` (max + 1); in a Kramer donkey round a joker
    counts 1 (D.2 Kramer). Raises ``ValueError`` for an empty set, unknown cards, or mixed values.
    """
    if not cards or UNKNOWN in cards:
        raise ValueError("a set needs known cards")
    values = {config.value_of(c) for c in cards if c != JOKER}
    if len(values) > 1:
        raise ValueError(f"a set is one value, not {', '.join(map(card_name, cards))}")
    if values:
        return values.pop()
    return 1 if donkey_round else config.top_value


def remove_cards(cards: tuple[int, ...], taken: tuple[int, ...]) -> tuple[int, ...]:
    counts = Counter(cards)
    counts.subtract(taken)
    if any(n < 0 for n in counts.values()):
        raise ValueError("cards not there")
    return tuple(sorted(counts.elements()))


def add_cards(cards: tuple[int, ...], more: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(cards + more))
