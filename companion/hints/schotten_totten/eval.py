"""Whole-board evaluation for the Schotten Totten card advisor (hands known to their own seat).

Units: a formation's **strength** is the fraction of all 3-card sets of the deck whose key is lower
(0 = weakest sum, 1 = the best colour run; ties count half), so ranks and sums share one scale (C.5).

A side's **distribution** is where its formation is likely to end: over every 3-card set containing the
side's cards, strongest first, the chance that it can be completed is :data:`HAND_P` for each card in my
hand, ``p`` for each card still unseen (the pile or the opponent's hand; ``p`` is the share of those
cards the side's owner will get) and 0 for cards elsewhere; assuming independence, the chance that set
``i`` is the best one completed is ``p_i * prod_{j<i} (1 - p_j)`` (:meth:`Evaluator.side`). The
opponent's hand is unknown, so their side only uses unseen cards. A stone's **win chance** is the chance
that my final strength beats theirs (:func:`beat_chance`); a stone that can be claimed (or is won)
counts 1, a lost one 0. The **board value** is the sum of the win chances plus :data:`ADJACENT_WEIGHT`
times the chance of each three adjacent stones (C.7: three adjacent win at once).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from companion.games.schotten_totten import claim_tables

ADJACENT_WEIGHT = 0.6
"""Weight of the chance of three adjacent stones (an immediate win, C.7) against single stones."""


@lru_cache(maxsize=4)
def strength_table(max_value: int) -> dict[int, float]:
    """{3-card mask: strength 0-1} of every 3-card set of the deck (values 1..max_value)."""
    tables = claim_tables(max_value)
    keys = sorted(tables.key_of.values())
    n = len(keys)
    by_key = {}
    for key in set(keys):
        below = bisect_left(keys, key)
        equal = bisect_left(keys, key + 1) - below
        by_key[key] = (below + equal / 2) / n
    return {mask: by_key[key] for mask, key in tables.key_of.items()}


HAND_P = 0.8
"""Chance that a card in my hand is still played at a given stone (a hand card serves one stone only).
Against ``greedy`` with the draw weights set (400 games each, seeds 2, 3, 4): 1.0 won 80, 75 %; 0.8 won
85, 83, 79 %; 0.6 won 80, 80 % (seeds 3, 4)."""

TAIL = 1e-3
"""A side's distribution stops where the chance of reaching further down its list falls below this."""


def _popcount_bytes(values: np.ndarray) -> np.ndarray:
    """The set bits of each uint64 in ``values``, counted byte by byte (numpy before 2.0, e.g. Debian
    Bookworm's 1.24, has no ``np.bitwise_count``)."""
    flat = np.ascontiguousarray(values, dtype=np.uint64).reshape(-1)
    return np.unpackbits(flat.view(np.uint8).reshape(-1, 8), axis=1).sum(axis=1).reshape(np.shape(values))


bitwise_count = getattr(np, "bitwise_count", None) or _popcount_bytes
"""``np.bitwise_count`` (numpy 2.0 and later), else :func:`_popcount_bytes`."""


@lru_cache(maxsize=None)
def _candidates(max_value: int, placed: int) -> tuple[np.ndarray, np.ndarray]:
    """(masks, strengths) of every 3-card set containing ``placed`` (0-2 cards), strongest first."""
    tables = claim_tables(max_value)
    strength = strength_table(max_value)
    masks = tables.candidates(placed)
    return np.array(masks, dtype=np.uint64), np.array([strength[m] for m in masks])


def prepare_tables(max_value: int) -> None:
    """Build every table of the deck with values 1..``max_value`` before the first hint: the claim tables,
    the strengths and, for every 0-2 cards placed on a side, the sets completing it strongest first
    (:func:`_candidates`). Idempotent (cached)."""
    tables = claim_tables(max_value)
    strength_table(max_value)
    n = len(tables.cards)
    _candidates(max_value, 0)
    for a in range(n):
        _candidates(max_value, 1 << a)
        for b in range(a + 1, n):
            _candidates(max_value, (1 << a) | (1 << b))


class Distribution:
    """Where one side is likely to end: ``values`` (strengths, strongest first) with ``masses``; the
    rest of the mass (``none``) is the chance that the side cannot be completed at all."""

    __slots__ = ("values", "masses", "none", "ascending", "cumulative")

    def __init__(self, values: np.ndarray, masses: np.ndarray):
        self.values = values
        self.masses = masses
        self.none = max(0.0, 1.0 - float(masses.sum()))
        self.ascending = values[::-1]
        self.cumulative = np.concatenate(([0.0], np.cumsum(masses[::-1])))


class Evaluator:
    """Final-formation distributions of sides for one position seen by one seat (cached per side).

    unseen: mask of the cards neither on the table nor in the seat's hand. p_mine / p_theirs: chance
    that one given unseen card reaches my / the opponent's hand in time (0-1).
    """

    def __init__(self, max_value: int, unseen: int, p_mine: float, p_theirs: float):
        self.max_value = max_value
        self.tables = claim_tables(max_value)
        self.strength = strength_table(max_value)
        self.unseen = unseen
        self.p_mine = p_mine
        self.p_theirs = p_theirs
        self._cache: dict[tuple[int, int, bool], Distribution] = {}

    def side(self, placed: int, count: int, hand: int, mine: bool) -> Distribution:
        """Distribution of the final strength of a side holding ``placed`` (``count`` cards); ``hand``:
        mask of cards sure to be available (my hand; 0 for the opponent). Independence is assumed
        between candidate completions: P(first available is i) = p_i * prod_{j<i} (1 - p_j)."""
        key = (placed, hand, mine)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if count >= 3:
            dist = Distribution(np.array([self.strength[placed]]), np.array([1.0]))
        else:
            masks, strengths = _candidates(self.max_value, placed)
            unseen = np.uint64(self.unseen)
            blocked = np.uint64(self.tables.full_mask & ~(self.unseen | hand | placed))
            ok = (masks & blocked) == 0
            needed = bitwise_count(masks & unseen)
            p = np.where(ok, (self.p_mine if mine else self.p_theirs) ** needed, 0.0)
            if hand and HAND_P < 1.0:
                p = p * HAND_P ** bitwise_count(masks & np.uint64(hand))
            keep = p > 0
            p = p[keep]
            values = strengths[keep]
            survive = np.cumprod(1.0 - p)
            small = survive < TAIL
            if small.any():  # the rest of the list is (nearly) never reached: its mass counts as none
                end = int(small.argmax()) + 1
                p, values, survive = p[:end], values[:end], survive[:end]
            before = np.concatenate(([1.0], survive[:-1]))
            dist = Distribution(values, p * before)
        self._cache[key] = dist
        return dist


def beat_chance(mine: Distribution, theirs: Distribution, tie: float = 0.5) -> float:
    """P(my final strength > theirs) plus ``tie`` times P(equal): ``tie`` is 1 when my side is complete
    and theirs is not, 0 when theirs is complete and mine is not (the first completed wins a tie,
    C.5), else 1/2. A side that cannot complete loses to one that can; two such sides count half."""
    if theirs.values.size:
        asc = theirs.ascending
        cum = theirs.cumulative
        below = cum[np.searchsorted(asc, mine.values, side="left")]
        upto = cum[np.searchsorted(asc, mine.values, side="right")]
        weaker = theirs.none + below + tie * (upto - below)
    else:
        weaker = np.full(mine.values.shape, 1.0)
    return float(np.dot(mine.masses, weaker)) + mine.none * theirs.none / 2


def board_value(chances: Sequence[float]) -> float:
    """Sum of the nine stones' win chances plus the weighted chance of each three adjacent (C.7)."""
    total = sum(chances)
    for i in range(len(chances) - 2):
        total += ADJACENT_WEIGHT * chances[i] * chances[i + 1] * chances[i + 2]
    return total
