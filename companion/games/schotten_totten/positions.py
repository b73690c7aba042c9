"""JSON forms of Schotten Totten states: the full state (save/replay) and the position file of
``companion schotten-totten claims`` (issue contract).

Position file::

    {"variant": "schotten-totten" | "battle-line",
     "stones": [{"a": ["R5", "R6", "R7"], "b": ["B2", "B3"], "first_complete": "a" | "b" | null,
                 "owner": "a" | "b" | null}, ... nine stones, left to right]}

Seat 0 is ``a``, seat 1 is ``b``. ``first_complete`` only matters when both sides hold 3 cards; when it
is missing there, an equal key can be claimed by neither side (the tie rule of C.5 needs it).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.schotten_totten.cards import Card, parse_card
from companion.games.schotten_totten.claims import SIDE_SIZE
from companion.games.schotten_totten.rules import (
    NUM_STONES,
    SEAT_NAMES,
    Phase,
    SchottenTottenConfig,
    SchottenTottenState,
    Stone,
)


def _seat(value: object, what: str) -> int | None:
    if value is None:
        return None
    if value in SEAT_NAMES:
        return SEAT_NAMES.index(str(value))
    raise ValueError(f"{what} must be \"a\", \"b\" or null, not {value!r}")


def _cards(raw: object, max_value: int, where: str) -> tuple[Card, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ValueError(f"{where}: a list of card codes expected")
    cards = tuple(parse_card(str(code), max_value) for code in raw)
    if len(cards) > SIDE_SIZE:
        raise ValueError(f"{where}: at most {SIDE_SIZE} cards a side (schotten-totten.md C.4)")
    return cards


def state_from_position(position: Mapping) -> SchottenTottenState:
    """A table-side :class:`SchottenTottenState` (PLAY phase, seat ``a`` to act, empty hands, empty pile
    unknown) from a position file's JSON.

    Raises ``ValueError`` naming the problem: unknown variant, not nine stones, a bad card code, more
    than 3 cards a side, a card listed twice, a bad ``owner``/``first_complete``.
    """
    if not isinstance(position, Mapping):
        raise ValueError("a position is a JSON object")
    config = SchottenTottenConfig.from_variant({"game": position.get("variant", "schotten-totten")})
    raw_stones = position.get("stones")
    if not isinstance(raw_stones, list) or len(raw_stones) != NUM_STONES:
        raise ValueError(f"a position has {NUM_STONES} stones, left to right")
    stones = []
    seen: set[Card] = set()
    for i, raw in enumerate(raw_stones):
        if not isinstance(raw, Mapping):
            raise ValueError(f"stone {i}: a JSON object expected")
        sides = (_cards(raw.get("a"), config.max_value, f"stone {i} side a"),
                 _cards(raw.get("b"), config.max_value, f"stone {i} side b"))
        for card in sides[0] + sides[1]:
            if card in seen:
                raise ValueError(f"card {card} is listed twice (each card exists once, C.2)")
            seen.add(card)
        first = _seat(raw.get("first_complete"), f"stone {i} first_complete")
        completed: list[int | None] = [None, None]
        for seat in (0, 1):
            if len(sides[seat]) == SIDE_SIZE:
                # Order stamps so that first_complete completed first; unknown: equal stamps (no order).
                completed[seat] = 1 if first is None else (1 if first == seat else 2)
        stones.append(Stone(sides, (completed[0], completed[1]), _seat(raw.get("owner"), f"stone {i} owner")))
    pile = len(config.deck) - len(seen)
    return SchottenTottenState(config=config, phase=Phase.PLAY, active=0, stones=tuple(stones), pile=pile, turn=1)


def _stone_to_dict(stone: Stone) -> dict:
    return {"a": [c.code for c in stone.cards[0]], "b": [c.code for c in stone.cards[1]],
            "completed": list(stone.completed), "owner": None if stone.owner is None else SEAT_NAMES[stone.owner]}


def state_to_dict(state: SchottenTottenState) -> dict:
    """Full JSON form of a state (hands with ``"?"`` for unknown cards); :func:`state_from_dict` inverts it."""
    return {"config": state.config.to_dict(), "phase": state.phase.value, "active": state.active,
            "stones": [_stone_to_dict(s) for s in state.stones],
            "hands": [["?" if c is None else c.code for c in hand] for hand in state.hands],
            "pile": state.pile, "turn": state.turn, "plays": state.plays, "winner": state.winner,
            "ended": state.ended}


def state_from_dict(data: Mapping) -> SchottenTottenState:
    """Inverse of :func:`state_to_dict`; raises ``ValueError`` on missing or bad fields."""
    try:
        config = SchottenTottenConfig.from_variant(data["config"])
        mv = config.max_value
        stones = []
        for raw in data["stones"]:
            completed = tuple(None if x is None else int(x) for x in raw["completed"])
            stones.append(Stone((_cards(raw["a"], mv, "a"), _cards(raw["b"], mv, "b")),
                                (completed[0], completed[1]), _seat(raw["owner"], "owner")))
        hands = tuple(tuple(None if code == "?" else parse_card(code, mv) for code in hand) for hand in data["hands"])
        return SchottenTottenState(
            config=config, phase=Phase(data["phase"]), active=int(data["active"]), stones=tuple(stones),
            hands=(hands[0], hands[1]), pile=int(data["pile"]), turn=int(data["turn"]), plays=int(data["plays"]),
            winner=None if data["winner"] is None else int(data["winner"]), ended=str(data["ended"]))
    except (KeyError, TypeError, IndexError) as error:
        raise ValueError(f"bad Schotten Totten state: {error}") from None
