"""Position value for the Can't Stop advisor: expected turns a player still needs, from the banked board.

A player's **effort** in an open column ``c`` is ``e_c = (H_c - h_c) / q_c``: the spaces left to its top
(``H_c`` spaces, marker at ``h_c``; cant-stop.md A.2) over ``q_c``, the exact chance that one roll of four
dice offers the total ``c`` in some pairing (A.5.2; 0.13 for 2 and 12 up to 0.64 for 7). A column claimed
by anybody is closed (A.7) and has no effort; one the player claimed counts towards ``columns_to_win``.

With ``n`` columns still needed, :func:`expected_turns` is a linear function of the sorted efforts
``e_(1) <= e_(2) <= ...``: ``b0 + sum_i b_i e_(i)`` over the ``n`` cheapest columns, plus ``b_f
min(e_(n+1), 60)`` for the next one (the fall-back when a needed column turns bad). One
coefficient row per ``n`` (1, 2, 3); more needed columns (variants with ``columns_to_win`` > 3) reuse
the ``n = 3`` row with the extra efforts added to the third.

The shipped rows (``assets/cant_stop/value.json``) are the hand-set start of the fitting script,
``0.5 + 0.12 x (sum of the needed efforts)`` turns: 0.12 turns per unit of effort makes an empty board
worth about 7 turns, what the advisor needs. ``python -m companion.bench.cant_stop_tables`` refits them
from solo self-play by least squares; its first refits (300 games a round, seeds 20261130-20261131)
played no better (7.33 turns a game against 7.25 for the hand-set rows, within the noise), so the
hand-set rows stayed: ``--iterations 0 --write`` reproduces the shipped file.

Arrays: progress ``(N, 11)`` heights (0 = none), ``closed (N, 11)`` bools, ``won (N,)`` ints;
the result is ``(N,)`` floats in turns, >= 0, 0 when the player has won.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

import numpy as np

from companion.games.cant_stop import COLUMNS, pairings, roll_distribution

MAX_NEED = 3
"""Needed-column counts with their own coefficient row; larger counts reuse the last row."""

EFFORT_CAP = 200.0
"""Effort standing in for a missing fall-back column (all others closed): far beyond any real one."""


@lru_cache(maxsize=1)
def column_chances() -> np.ndarray:
    """``q_c`` for columns 2..12, shape (11,): chance that a roll offers total ``c`` in some pairing (exact)."""
    q = np.zeros(11)
    for roll, p in roll_distribution():
        for column in {t for pair in pairings(roll) for t in pair}:
            q[column - 2] += float(p)
    return q


FALLBACK_CAP = 60.0
"""The fall-back column's effort counts at most this much (a column that far away no longer matters)."""


def features(efforts: np.ndarray, need: int) -> np.ndarray:
    """Regression features for rows of sorted efforts ``(N, >= need + 1)``: ``(N, need + 2)``:
    1, the ``need`` cheapest efforts, and the next one capped at :data:`FALLBACK_CAP`."""
    return np.concatenate([np.ones((len(efforts), 1)), efforts[:, :need],
                           np.minimum(efforts[:, need:need + 1], FALLBACK_CAP)], axis=1)


def column_efforts(progress: np.ndarray, closed: np.ndarray, heights: tuple[int, ...]) -> np.ndarray:
    """Efforts ``(H_c - h_c) / q_c`` of every column, closed ones at :data:`EFFORT_CAP`: ``(N, 11)``."""
    tops = np.asarray(heights, dtype=float)
    efforts = (tops - progress) / column_chances()
    return np.where(closed, EFFORT_CAP, np.minimum(efforts, EFFORT_CAP))


def sorted_efforts(progress: np.ndarray, closed: np.ndarray, heights: tuple[int, ...]) -> np.ndarray:
    """Efforts of every column, closed ones at :data:`EFFORT_CAP`, sorted ascending per row: ``(N, 11)``."""
    return np.sort(column_efforts(progress, closed, heights), axis=1)


_override: dict[int, np.ndarray] | None = None


def use_coefficients(table: dict[int, np.ndarray] | None) -> None:
    """Make ``table`` the coefficients every caller gets (``None``: back to the shipped file).

    For the fitting script, which plays games with the table it is fitting.
    """
    global _override
    _override = table


def coefficients() -> dict[int, np.ndarray]:
    """The coefficient rows ``{need: coefficients}``: an override, else ``assets/cant_stop/value.json``."""
    return _override if _override is not None else shipped_coefficients()


@lru_cache(maxsize=1)
def shipped_coefficients() -> dict[int, np.ndarray]:
    """The fitted rows from ``assets/cant_stop/value.json`` (cached)."""
    text = resources.files("assets.cant_stop").joinpath("value.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return {int(n): np.asarray(row, dtype=float) for n, row in data["coefficients"].items()}


def expected_turns(progress: np.ndarray, closed: np.ndarray, won: np.ndarray, heights: tuple[int, ...],
                   to_win: int, table: dict[int, np.ndarray] | None = None) -> np.ndarray:
    """Expected turns (>= 0) each row's player still needs to claim ``to_win`` columns, shape ``(N,)``.

    ``table`` overrides the shipped coefficients (the fitting script uses it).
    """
    return turns_from_efforts(column_efforts(progress, closed, heights), won, to_win, table)


def turns_from_efforts(efforts: np.ndarray, won: np.ndarray, to_win: int,
                       table: dict[int, np.ndarray] | None = None) -> np.ndarray:
    """:func:`expected_turns` from the columns' efforts ``(N, 11)`` (any order; closed columns at
    :data:`EFFORT_CAP`), so that a caller can adjust them first (the opponents' threats,
    :mod:`companion.hints.cant_stop.threats`). ``won (N,)``: columns already claimed. Returns ``(N,)``."""
    table = coefficients() if table is None else table
    efforts = np.sort(efforts, axis=1)
    result = np.zeros(len(efforts))
    need = np.broadcast_to(to_win - np.asarray(won), (len(efforts),))
    if len(need) and need.min() == need.max():  # one need for every row (the common case): no masks
        groups = [(int(need[0]), slice(None))]
    else:
        groups = [(int(n), need == n) for n in np.unique(need)]
    for n, rows in groups:
        if n <= 0:
            continue
        row_efforts = efforts[rows]
        m = min(int(n), MAX_NEED)
        if n > MAX_NEED:  # fold the extra needed columns into the last needed one
            extra = row_efforts[:, MAX_NEED:int(n)].sum(axis=1)
            row_efforts = np.concatenate([row_efforts[:, :MAX_NEED - 1],
                                          (row_efforts[:, MAX_NEED - 1] + extra)[:, None],
                                          row_efforts[:, int(n):int(n) + 1]], axis=1)
            if row_efforts.shape[1] < MAX_NEED + 1:
                row_efforts = np.concatenate([row_efforts, np.full((len(row_efforts), 1), EFFORT_CAP)], axis=1)
        result[rows] = features(row_efforts, m) @ table[m]
    return np.maximum(result, 0.0)


def column_index(column: int) -> int:
    """Array index of column 2..12."""
    return COLUMNS.index(column)
