"""Within-turn search for the Can't Stop advisor: exact roll-or-bank values over the runners' positions.

Given a **utility** for every way the turn can end (banking with the runners where they stand, or
busting back to the turn's start markers; cant-stop.md A.5.3, A.5.5), the best play for the rest of the
turn is a finite dynamic program: every roll moves at least one runner up, so the positions reachable
from here form a grid that only climbs.

Once the runners' columns are fixed (no runner is left off the board, or no other column is open; A.6)
the grid is the product of the runners' heights up to their tops, and :class:`RunnerGrid` solves it
exactly, layer by layer from the top (numpy): ``W(x) = max(bank(x), sum_r w_r max_pairing W(x + move) +
P(bust) bust)`` over all 126 distinct rolls with their weights out of 1296 and their up to three
pairings. A move is a pairing's steps clipped at the tops; a pairing that moves nothing is unusable and a
roll with no usable pairing busts (A.5.3, A.6, A.8: a step past a top is lost). For speed the rolls are
grouped by the set of distinct moves they offer the runners (at most 9 moves on three columns), and the
grid's shape (successors, legality, exact bust chances) is cached by columns and extent, so a grid of
1573 points (6, 7, 8 from the bottom) takes about 0.5 ms of CPU plus one utility call (2 ms when its
shape is not cached yet). The ``must_maximize_runners`` variant (A.6 CONFIG) is not modelled inside the grid (it only narrows choices).

Positions with a runner still off the board are valued one roll ahead with the engine's own legal
choices (``TurnSearch.lookahead`` in :mod:`companion.hints.cant_stop.search`): each next position is
worth its grid value when its columns are then fixed and the grid is at hand, else what banking it
would be worth.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from companion.games.cant_stop import pairings, roll_distribution

Utility = Callable[[np.ndarray], np.ndarray]
"""Utility of banking: ``(N, 11)`` heights of the player's pieces after banking -> ``(N,)`` floats."""


@lru_cache(maxsize=1)
def rolls() -> tuple[np.ndarray, np.ndarray]:
    """The 126 distinct rolls: weights ``(126,)`` (ways out of 1296) and pairings ``(126, 3, 2)`` totals,
    a roll with fewer distinct pairings repeating its first."""
    weights, pairs = [], []
    for roll, p in roll_distribution():
        options = list(pairings(roll))
        options += [options[0]] * (3 - len(options))
        weights.append(round(float(p) * 1296))
        pairs.append(options)
    return np.asarray(weights, dtype=float), np.asarray(pairs, dtype=int)


@lru_cache(maxsize=256)
def _moves(columns: tuple[int, ...]) -> np.ndarray:
    """Steps each pairing of each roll gives the runners in ``columns``: ``(126, 3, len(columns))``."""
    _, pairs = rolls()
    cols = np.asarray(columns)
    return ((pairs[:, :, 0, None] == cols) + (pairs[:, :, 1, None] == cols)).astype(np.int16)


@lru_cache(maxsize=512)
def _move_sets(columns: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The rolls seen from runners on ``columns`` (indices 0-10): ``(vectors (M, L), members (S, 3),
    set_weights (S,), never)``: the distinct moves that climb (steps per runner), the groups of rolls
    offering the same set of moves (indices into ``vectors``; short sets repeat their first), each
    group's chance, and the chance of a roll that offers none of the columns (A.5.2, A.6)."""
    weights, _ = rolls()
    moves = _moves(tuple(c + 2 for c in columns)).reshape(-1, len(columns))  # (378, L)
    vectors, ids = np.unique(moves, axis=0, return_inverse=True)
    ids = np.asarray(ids).reshape(-1, 3)
    nonzero = vectors.any(axis=1)
    groups: dict[tuple[int, ...], float] = {}
    never = 0.0
    for roll in range(ids.shape[0]):
        members = tuple(sorted({int(m) for m in ids[roll] if nonzero[m]}))
        if members:
            groups[members] = groups.get(members, 0.0) + float(weights[roll])
        else:
            never += float(weights[roll])
    keep = np.nonzero(nonzero)[0]
    remap = {int(m): i for i, m in enumerate(keep)}
    member_rows = np.asarray([[remap[m] for m in s] + [remap[s[0]]] * (3 - len(s)) for s in groups],
                             dtype=np.intp)
    return vectors[keep], member_rows, np.asarray(list(groups.values())) / 1296.0, never / 1296.0


@lru_cache(maxsize=256)
def _geometry(columns: tuple[int, ...], dims: tuple[int, ...]) -> "_Geometry":
    return _Geometry(columns, dims)


class _Geometry:
    """The shape of a grid, shared by every grid with the same columns and extent (cached).

    A roll's pairings give at most 9 distinct moves on three runners (steps in {0, 1, 2} per column,
    one or two steps in all), so the dynamic program looks up ``M <= 9`` successors per point instead of
    126 x 3, then takes for each group of rolls offering the same set of moves (``S`` groups with their
    weights) the best of its members. ``target (N, M)``: flat index a move leads to (steps past a top are
    lost, A.8); ``legal (N, M)``: the move climbs at least one step there (A.6); ``bust_probability
    (N,)``: exact chance that no offered move is legal (A.5.3); ``levels``: the points by total height,
    highest first.
    """

    def __init__(self, columns: tuple[int, ...], dims: tuple[int, ...]):
        vectors, self.members, self.set_weights, never = _move_sets(columns)
        grid = np.indices(dims).reshape(len(dims), -1).T  # (N, L) offsets, C order
        strides = np.cumprod((1,) + dims[:0:-1])[::-1]
        here = grid @ strides
        target = np.zeros((len(grid), len(vectors)), dtype=np.intp)
        for i in range(len(dims)):
            target += np.minimum(grid[:, i, None] + vectors[None, :, i], dims[i] - 1) * int(strides[i])
        self.grid, self.strides, self.target = grid, strides, target
        self.legal = target != here[:, None]
        usable = self.legal[:, self.members].any(axis=2)  # (N, S)
        self.bust_probability = never + (~usable).astype(float) @ self.set_weights
        layer = grid.sum(axis=1)
        self.levels = [np.nonzero(layer == level)[0] for level in range(int(layer.max()), -1, -1)]


class RunnerGrid:
    """Exact rest-of-turn values with runners fixed on ``columns`` (indices 0-10 for columns 2-12).

    origin: lowest runner heights covered (``(L,)`` ints); tops: those columns' heights; base: the
    ``(11,)`` heights of the player's pieces elsewhere (turn-start markers); bank: the :data:`Utility`;
    bust: the utility of busting. After construction ``value(x)`` and ``bank_value(x)`` give, for runner
    heights ``x`` >= origin, the best expected utility (roll or bank) and banking's utility.
    Cost: one :data:`Utility` call on all ``N`` points and about ``N x (M + 3 S)`` look-ups (about
    0.5 ms for 1573 points); the geometry is cached by columns and extent.
    """

    def __init__(self, columns: tuple[int, ...], origin: tuple[int, ...], tops: tuple[int, ...],
                 base: np.ndarray, bank: Utility, bust: float):
        self.columns, self.origin, self.tops = columns, np.asarray(origin), np.asarray(tops)
        dims = tuple(int(t - o + 1) for o, t in zip(origin, tops))
        self.dims = dims
        geometry = _geometry(tuple(columns), dims)
        pieces = np.repeat(base[None, :].astype(float), len(geometry.grid), axis=0)
        pieces[:, list(columns)] = geometry.grid + self.origin
        self.bank = np.asarray(bank(pieces), dtype=float)
        self._origin, self._strides = tuple(int(o) for o in origin), tuple(int(t) for t in geometry.strides)
        self.bust_probability = geometry.bust_probability
        values = np.empty(len(pieces))
        rolling = np.empty(len(pieces))
        members, set_weights, target, legal = geometry.members, geometry.set_weights, geometry.target, geometry.legal
        for rows in geometry.levels:
            succ = np.where(legal[rows], values[target[rows]], -np.inf)  # (K, M)
            best = succ[:, members].max(axis=2)  # (K, S)
            best[np.isneginf(best)] = 0.0
            rolling[rows] = best @ set_weights + geometry.bust_probability[rows] * bust
            values[rows] = np.maximum(self.bank[rows], rolling[rows])
        self.values, self.rolling = values, rolling

    def _index(self, heights: tuple[int, ...]) -> int:
        return sum((h - o) * s for h, o, s in zip(heights, self._origin, self._strides))

    def covers(self, heights: tuple[int, ...]) -> bool:
        """Whether runner heights ``heights`` (on this grid's columns) lie inside the grid."""
        return all(h >= o for h, o in zip(heights, self._origin))

    def value(self, heights: tuple[int, ...]) -> float:
        """Best expected utility from runner heights ``heights`` (roll on or bank)."""
        return float(self.values[self._index(heights)])

    def roll_value(self, heights: tuple[int, ...]) -> float:
        """Expected utility of rolling once more from ``heights`` and playing on at best."""
        return float(self.rolling[self._index(heights)])

    def bank_value(self, heights: tuple[int, ...]) -> float:
        """Utility of banking at ``heights``."""
        return float(self.bank[self._index(heights)])

    def bust(self, heights: tuple[int, ...]) -> float:
        """Exact chance (0-1) that the next roll from ``heights`` busts."""
        return float(self.bust_probability[self._index(heights)])
