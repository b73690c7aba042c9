"""The position files of ``companion schotten-totten claims`` (issue contract); the full state's JSON form is
:meth:`SchottenTottenState.to_dict`.

Position file::

    {"variant": "schotten-totten" | "battle-line",
     "stones": [{"a": ["R5", "R6", "R7"], "b": ["B2", "B3"], "first_complete": "a" | "b" | null,
                 "owner": "a" | "b" | null}, ... nine stones, left to right]}

Seat 0 is ``a``, seat 1 is ``b``. ``first_complete`` only matters when both sides hold 3 cards; when it
is missing there, an equal key can be claimed by neither side (the tie rule of C.5 needs it).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.schema import obj
from companion.games.schotten_totten.cards import Card
from companion.games.schotten_totten.claims import SIDE_SIZE
from companion.games.schotten_totten.config import SchottenTottenConfig
from companion.games.schotten_totten.rules import NUM_STONES, Phase, SchottenTottenState, Stone, parse_seat, parse_side


def state_from_position(position: Mapping) -> SchottenTottenState:
    """A table-side :class:`SchottenTottenState` (PLAY phase, seat ``a`` to act, empty hands, empty pile
    unknown) from a position file's JSON.

    Raises ``ValueError`` naming the problem: unknown variant, not nine stones, a bad card code, more
    than 3 cards a side, a card listed twice, a bad ``owner``/``first_complete``.
    """
    obj(position)  # PositionError, a ValueError: "a position is a JSON object {...}, not null"
    config = SchottenTottenConfig.from_variant({"game": position.get("variant", "schotten-totten")})
    raw_stones = position.get("stones")
    if not isinstance(raw_stones, list) or len(raw_stones) != NUM_STONES:
        raise ValueError(f"a position has {NUM_STONES} stones, left to right")
    stones = []
    seen: set[Card] = set()
    for i, raw in enumerate(raw_stones):
        if not isinstance(raw, Mapping):
            raise ValueError(f"stone {i}: a JSON object expected")
        sides = (parse_side(raw.get("a"), config.max_value, f"stone {i} side a"),
                 parse_side(raw.get("b"), config.max_value, f"stone {i} side b"))
        for card in sides[0] + sides[1]:
            if card in seen:
                raise ValueError(f"card {card} is listed twice (each card exists once, C.2)")
            seen.add(card)
        first = parse_seat(raw.get("first_complete"), f"stone {i} first_complete")
        completed: list[int | None] = [None, None]
        for seat in (0, 1):
            if len(sides[seat]) == SIDE_SIZE:
                # Order stamps so that first_complete completed first; unknown: equal stamps (no order).
                completed[seat] = 1 if first is None else (1 if first == seat else 2)
        stones.append(Stone(sides, (completed[0], completed[1]), parse_seat(raw.get("owner"), f"stone {i} owner")))
    pile = len(config.deck) - len(seen)
    return SchottenTottenState(config=config, phase=Phase.PLAY, active=0, stones=tuple(stones), pile=pile, turn=1)
