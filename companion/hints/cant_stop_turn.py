"""Within-turn search for the Can't Stop advisor: exact roll-or-bank values over the runners' positions.

Given a **utility** for every way the turn can end (banking with the runners where they stand, or
busting back to the turn's start markers; cant-stop.md A.5.3, A.5.5), the best play for the rest of the
turn is a finite dynamic program: every roll moves at least one runner up, so the positions reachable
from here form a grid that only climbs.

Once the runners' columns are fixed (no runner is left off the board, or no other column is open; A.6)
the grid is the product of the runners' heights up to their tops, and :class:`RunnerGrid` solves it
exactly, layer by layer from the top (numpy, all 126 distinct rolls with their weights out of 1296 and
their up to three pairings at once): ``W(x) = max(bank(x), sum_r w_r max_pairing W(x + move) + P(bust)
bust)``. A move is a pairing's steps clipped at the tops; a pairing that moves nothing is unusable and a
roll with no usable pairing busts (A.5.3, A.6, A.8: a step past a top is lost). The
``must_maximize_runners`` variant (A.6 CONFIG) is not modelled inside the grid (it only narrows choices).

Positions with a runner still off the board are valued one roll ahead with the engine's own legal
choices (:func:`lookahead`): each next position is worth its grid value when its columns are then fixed
and the grid is at hand, else what banking it would be worth.
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


class RunnerGrid:
    """Exact rest-of-turn values with runners fixed on ``columns`` (indices 0-10 for columns 2-12).

    origin: lowest runner heights covered (``(L,)`` ints); tops: those columns' heights; base: the
    ``(11,)`` heights of the player's pieces elsewhere (turn-start markers); bank: the :data:`Utility`;
    bust: the utility of busting. After construction ``value(x)`` and ``bank_value(x)`` give, for runner
    heights ``x`` >= origin, the best expected utility (roll or bank) and banking's utility.
    """

    def __init__(self, columns: tuple[int, ...], origin: tuple[int, ...], tops: tuple[int, ...],
                 base: np.ndarray, bank: Utility, bust: float):
        self.columns, self.origin, self.tops = columns, np.asarray(origin), np.asarray(tops)
        dims = tuple(int(t - o + 1) for o, t in zip(origin, tops))
        self.dims = dims
        grid = np.indices(dims).reshape(len(dims), -1).T  # (N, L) offsets
        heights = grid + self.origin
        pieces = np.repeat(base[None, :].astype(float), len(grid), axis=0)
        pieces[:, list(columns)] = heights
        self.bank = bank(pieces)
        weights, _ = rolls()
        moves = _moves(tuple(c + 2 for c in columns))  # (126, 3, L)
        strides = np.cumprod((1,) + dims[:0:-1])[::-1]  # C-order strides of the grid
        here = grid @ strides  # (N,) flat index of each point
        self._origin, self._strides = tuple(int(o) for o in origin), tuple(int(t) for t in strides)
        flat = np.zeros((len(grid), moves.shape[0], moves.shape[1]), dtype=np.int64)
        for i in range(len(dims)):
            offset = np.minimum(grid[:, i, None, None] + moves[None, :, :, i], dims[i] - 1)
            flat += offset * int(strides[i])
        legal = flat != here[:, None, None]
        busts = ~(legal[:, :, 0] | legal[:, :, 1] | legal[:, :, 2])  # (N, 126)
        bust_share = busts.astype(float) @ weights / 1296.0
        self.bust_probability = bust_share
        values = np.empty(len(grid))
        rolling = np.empty(len(grid))
        layer = grid.sum(axis=1)
        for level in range(int(layer.max()), -1, -1):
            rows = np.nonzero(layer == level)[0]
            succ = np.where(legal[rows], values[flat[rows]], -np.inf)  # (K, 126, 3)
            best = np.maximum(np.maximum(succ[:, :, 0], succ[:, :, 1]), succ[:, :, 2])
            best[busts[rows]] = 0.0
            rolling[rows] = best @ weights / 1296.0 + bust_share[rows] * bust
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
