"""Claiming a stone (schotten-totten.md C.6): exact, from the cards on the table only.

A player may claim a stone when their side has 3 cards and either the opponent's complete side is
weaker (equal keys: whoever completed first wins, C.5), or — the **proof** — no way of completing the
opponent's side from the **unseen** cards (the deck minus every card face up on the table, claimed
stones included; both hands and the pile count as unseen, C.6) gives a strictly better key.

Algorithm (:class:`ClaimTables`): every 3-card set of the deck is listed once, sorted by key from the
strongest down (24,804 sets for Schotten Totten, 34,220 for Battle Line), and indexed by the cards it
contains: for an opponent side holding 0, 1 or 2 cards the candidate completions are the sets that
contain those cards (a list of 24,804, 1,378 or 52 sets for ST). Only the prefix with a key strictly
above the claimant's can block the claim (found by bisection); the claim is refused by the first set
in that prefix whose other cards are all unseen (a bit-mask test, done with numpy on long prefixes).
That set is the counter-example shown as the reason. The result equals the plain enumeration of
:func:`exhaustive_claim`, which the tests and ``companion bench claims`` compare
it with.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from companion.games.schotten_totten.cards import Card, formation_key

SIDE_SIZE = 3
"""Cards a side needs to be complete (C.4, C.6); 4 under Mud, which the tactics variant will add."""

NUMPY_FROM = 160
"""Prefix length from which the scan uses numpy instead of a Python loop (both give the same result)."""


@dataclass(frozen=True)
class ClaimVerdict:
    """Whether one seat may claim one stone now (C.6), and why not.

    claimable: the claim is valid. reason: ``"ok"`` | ``"claimed"`` (the stone is closed, C.6) |
    ``"incomplete"`` (the claimant has fewer than 3 cards: C.6, C.11) | ``"weaker"`` (both sides
    complete and the opponent's key is higher, or equal and completed first: C.5) | ``"tie_unknown"``
    (equal keys and no record of who completed first; a position file may leave it out) |
    ``"proof"`` (the opponent can still complete a strictly better formation: C.6).
    mine: the claimant's key ``(rank, sum)`` or None while incomplete. theirs: the opponent's key when
    their side is complete, else None. beating: for ``"proof"``, one complete opponent side (their
    placed cards and the unseen cards added) that beats the claimant; for ``"weaker"``, the opponent's
    cards; else empty.
    """

    claimable: bool
    reason: str
    mine: tuple[int, int] | None = None
    theirs: tuple[int, int] | None = None
    beating: tuple[Card, ...] = ()

    @property
    def rule(self) -> str:
        """The rules section that decides this verdict."""
        return {"weaker": "schotten-totten.md C.5", "tie_unknown": "schotten-totten.md C.5"}.get(
            self.reason, "schotten-totten.md C.6")


def _key_int(key: tuple[int, int]) -> int:
    return key[0] * 1000 + key[1]


def _key_tuple(key: int) -> tuple[int, int]:
    return divmod(key, 1000)


class ClaimTables:
    """Precomputed 3-card sets of one deck (values 1..max_value, 6 colours), sorted strongest first.

    Build once per deck with :func:`claim_tables` (about 0.3 s for Battle Line). Card ``c`` has index
    ``colour * max_value + value - 1`` and bit ``1 << index`` in masks.
    """

    def __init__(self, max_value: int):
        self.max_value = max_value
        self.cards = tuple(Card(c, v) for c in range(6) for v in range(1, max_value + 1))
        n = len(self.cards)
        self.full_mask = (1 << n) - 1
        triples = []
        for a, b, c in itertools.combinations(range(n), 3):
            key = _key_int(formation_key((self.cards[a], self.cards[b], self.cards[c])))
            triples.append((key, (1 << a) | (1 << b) | (1 << c), (a, b, c)))
        triples.sort(key=lambda t: -t[0])
        self.key_of: dict[int, int] = {mask: key for key, mask, _ in triples}
        """Key (rank * 1000 + sum) of each 3-card mask."""
        by_placed: dict[int, tuple[list[int], list[int]]] = {0: ([], [])}
        for key, mask, members in triples:
            subsets = [0] + [1 << i for i in members] + [(1 << i) | (1 << j) for i, j in
                                                         itertools.combinations(members, 2)]
            for sub in subsets:
                entry = by_placed.get(sub)
                if entry is None:
                    entry = by_placed[sub] = ([], [])
                entry[0].append(-key)
                entry[1].append(mask)
        self._lists = {sub: (neg, masks, np.array(masks, dtype=np.uint64) if len(masks) > NUMPY_FROM else None)
                       for sub, (neg, masks) in by_placed.items()}

    def index(self, card: Card) -> int:
        return card.colour * self.max_value + card.value - 1

    def mask(self, cards: Iterable[Card]) -> int:
        """Bit mask of ``cards``; raises ``ValueError`` for a card outside this deck."""
        result = 0
        for card in cards:
            if not (0 <= card.colour < 6 and 1 <= card.value <= self.max_value):
                raise ValueError(f"card {card} is not in a deck of values 1-{self.max_value}")
            result |= 1 << self.index(card)
        return result

    def members(self, mask: int) -> tuple[Card, ...]:
        """The cards of ``mask``, in deck order."""
        return tuple(card for i, card in enumerate(self.cards) if mask >> i & 1)

    def candidates(self, placed: int) -> list[int]:
        """Every 3-card mask containing ``placed`` (a mask of 0-2 cards), strongest first."""
        return self._lists[placed][1]

    def best_beating(self, placed: int, unseen: int, to_beat: int) -> int | None:
        """A 3-card mask containing ``placed`` (0-2 cards) whose other cards are all in ``unseen`` and
        whose key is strictly above ``to_beat`` (rank * 1000 + sum); the strongest such, or None."""
        neg, masks, array = self._lists[placed]
        cut = bisect_left(neg, -to_beat)
        blocked = self.full_mask & ~(unseen | placed)
        if array is not None and cut > NUMPY_FROM:
            hits = np.flatnonzero((array[:cut] & np.uint64(blocked)) == 0)
            return int(masks[int(hits[0])]) if hits.size else None
        for i in range(cut):
            m = masks[i]
            if not m & blocked:
                return m
        return None

    def verdict(self, mine: Sequence[Card], theirs: Sequence[Card], seen: int,
                mine_first: bool | None = None) -> ClaimVerdict:
        """Whether the side holding ``mine`` may claim against ``theirs`` (C.6), the stone being open.

        seen: mask of every card face up on the table (both sides of every stone, claimed ones too);
        the unseen cards are the rest of the deck. mine_first: with both sides complete, whether the
        claimant completed first (None: unknown, then an equal key blocks both sides). Raises
        ``ValueError`` for more than 3 cards on a side.
        """
        if len(mine) > SIDE_SIZE or len(theirs) > SIDE_SIZE:
            raise ValueError("a side holds at most 3 cards (C.4)")
        if len(mine) < SIDE_SIZE:
            return ClaimVerdict(False, "incomplete")
        my_key = self.key_of[self.mask(mine)]
        if len(theirs) == SIDE_SIZE:
            their_key = self.key_of[self.mask(theirs)]
            mine_t, theirs_t = _key_tuple(my_key), _key_tuple(their_key)
            if my_key > their_key or (my_key == their_key and mine_first):
                return ClaimVerdict(True, "ok", mine_t, theirs_t)
            if my_key == their_key and mine_first is None:
                return ClaimVerdict(False, "tie_unknown", mine_t, theirs_t, tuple(theirs))
            return ClaimVerdict(False, "weaker", mine_t, theirs_t, tuple(theirs))
        placed = self.mask(theirs)
        found = self.best_beating(placed, self.full_mask & ~seen, my_key)
        if found is None:
            return ClaimVerdict(True, "ok", _key_tuple(my_key))
        ordered = tuple(theirs) + self.members(found & ~placed)
        return ClaimVerdict(False, "proof", _key_tuple(my_key), None, ordered)


@lru_cache(maxsize=4)
def claim_tables(max_value: int) -> ClaimTables:
    """The shared :class:`ClaimTables` of the deck with values 1..max_value (9: ST, 10: BL; C.9)."""
    return ClaimTables(max_value)


def exhaustive_claim(mine: Sequence[Card], theirs: Sequence[Card], unseen: Iterable[Card],
                     mine_first: bool | None = None) -> bool:
    """Reference check by plain enumeration (C.6 "engine algorithm"): every k-subset of ``unseen``
    added to ``theirs``; the claim fails if any completion's key is strictly higher. Slow (up to 50 ms);
    used by the tests and the benchmark only."""
    if len(mine) < SIDE_SIZE:
        return False
    my_key = formation_key(mine)
    if len(theirs) == SIDE_SIZE:
        their_key = formation_key(theirs)
        return my_key > their_key or (my_key == their_key and bool(mine_first))
    k = SIDE_SIZE - len(theirs)
    for extra in itertools.combinations(tuple(unseen), k):
        if formation_key(tuple(theirs) + extra) > my_key:
            return False
    return True
