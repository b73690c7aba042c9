"""What a Can't Stop turn is worth to the active seat: the utilities and the search behind ``advise``.

**Utility.** Solo (one seat) the utility of a banked board is ``-expected_turns`` (fewer turns is better;
:mod:`companion.hints.cant_stop.value`). With opponents it is an estimated **chance to win**, from a race
model: after this turn every opponent moves once before our next turn, so we win against opponent ``j``
when our remaining turns ``T`` are fewer than theirs ``T_j``; both are taken as normal with means from the
value function and variance :data:`TURN_VARIANCE` per expected turn, so ``P(win) = prod_j Phi((T_j - T -
1/2) / sigma_j)``. The opponent's ``T_j`` is computed on the board as it would be after our bank (a
column we claim wipes their markers in it, cant-stop.md A.7) and scaled by :data:`OPPONENT_PACE`. Both
``T`` and ``T_j`` are corrected for the **threats** of :mod:`companion.hints.cant_stop.threats`: a column
an opponent will probably claim on their next turn is mostly lost to us, one we will probably claim on
ours mostly lost to them (a mixture over each threatened column kept or lost). That makes the advisor
press on when an opponent is about to win, stop investing in a column an opponent is about to claim,
race for a contested column it can take first, and bank early when it leads.

**Search** (:class:`TurnSearch`): banking's utility is exact given the value function; rolling's is the
exact dynamic program of :class:`companion.hints.cant_stop.turn.RunnerGrid` once the runners' columns are
fixed, else a one-roll look-ahead over the engine's legal choices (A.6; worked out once per distinct
pairing of totals, not per roll) whose leaves are grid values when the columns then are fixed, else the
utility of banking there. Grids are cached per turn; a look-ahead uses the grids of the
:data:`MAX_GRID_BUILDS` likeliest sets of columns only, which bounds the slowest decision and makes a
decision the same whatever the turn's earlier decisions built.

**Budget** (anytime): a decision's optional work is the runner grids it builds (a node each,
:class:`companion.hints.base.Meter`); a grid is built only while the node budget and the deadline allow
it (the deadline with the grid's expected time, :func:`build_estimate`), each pairing of a CHOOSE
getting an equal share of what is left (with a deadline, of the grids that fit in the time left). A
grid refused leaves its positions valued as when :data:`MAX_GRID_BUILDS` is reached: by banking there
(or, for the runners' own fixed columns, by one roll of look-ahead over the grids at hand). A
valuation computed with a grid refused is not kept for the turn's later decisions. With no refusal
(:data:`companion.hints.cant_stop.advisor.NODES` is more than the 24 grids a decision can build: six
pairings, four each) the decisions are exactly those of the unbounded search.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from companion.games.cant_stop import COLUMNS, CantStopState, Choose, bust_chance
from companion.hints.base import Meter
from companion.hints.cant_stop import threats as cant_stop_threats
from companion.hints.cant_stop.threats import claim_chances, threatened, threatened_turns
from companion.hints.cant_stop.turn import RunnerGrid, rolls
from companion.hints.cant_stop.value import column_efforts, expected_turns, turns_from_efforts

TURN_VARIANCE = 0.6
"""Variance of a player's remaining turns per expected turn (race model; solo advisor games from the
start: mean about 7.3 turns with a standard deviation of about 2, i.e. variance about 0.6 x mean)."""

OPPONENT_PACE = 1.5
"""How many times the value function's expected turns an opponent is assumed to need. The value function
is fitted to the advisor's own play; the published Rule of 28 needs about 1.5 times as many turns solo
(10.9 against 7.3 measured here). Measured, 100 games advisor first against the Rule of 28, seed 5:
73 wins at 1.0, 85 at 1.5 (80 ignoring the opponent altogether): assuming a stronger opponent made the
advisor take needless risks."""

MAX_GRID_BUILDS = 4
"""Grids one look-ahead may build for next positions (cost bound); later ones are valued by banking."""

NESTED_LEAVES = 0
"""Next positions with a runner still off the board that a look-ahead values by a look-ahead of their
own (the likeliest first) instead of by banking there."""

NESTED_GRID_BUILDS = 1
"""Grids such a nested look-ahead may build."""

MAX_GRID_STATES = 6000
"""Largest grid built (positions); bigger ones (four or more runners, CONFIG num_runners) fall back to the
one-roll look-ahead. Three runners from the bottom of 6, 7, 8 make 1573."""

_CACHE: OrderedDict = OrderedDict()
_CACHE_TURNS = 8

BUILD_MS = (1.0, 0.0022)
"""A grid build's time on the development machine, ``a + b x positions`` milliseconds: measured over
the builds of 20 games against the Rule of 28 (otherwise idle): 1.2 ms on average below 200 positions,
2.0 ms at 200-1000, 3.1 ms at 1000-2000 (a third of it the utility of the positions, :meth:`bank_utility`,
the rest the dynamic program and, for a new extent, the grid's shape)."""

TYPICAL_POINTS = 500
"""Positions of a typical grid, for the time a node is expected to take (:meth:`Meter.share`)."""

_BUILD_RATIOS: deque = deque(maxlen=16)
"""This process's last grid builds: their time over :data:`BUILD_MS`'s (this machine's speed, and its load)."""

FIRST_RATIO = 1.5
"""The ratio taken before any build was timed in this process."""


def build_estimate(points: int = TYPICAL_POINTS) -> float:
    """The seconds a grid build of ``points`` positions is expected to take here: :data:`BUILD_MS` times
    the upper quartile of this process's last 16 builds' ratios to it (:data:`FIRST_RATIO` before the
    first). A deadline refuses a build that would end past it."""
    ratios = sorted(_BUILD_RATIOS)
    ratio = ratios[3 * len(ratios) // 4] if ratios else FIRST_RATIO
    return ratio * (BUILD_MS[0] + BUILD_MS[1] * points) / 1000.0


def grid_points(origin: tuple[int, ...], tops: tuple[int, ...]) -> int:
    """Positions of a grid from runner heights ``origin`` to the columns' ``tops``."""
    points = 1
    for low, top in zip(origin, tops):
        points *= max(1, int(top) - int(low) + 1)
    return points


def _phi(z: np.ndarray) -> np.ndarray:
    """Standard normal CDF (logistic approximation, error < 0.01)."""
    return 1.0 / (1.0 + np.exp(-1.702 * z))


@dataclass
class Valuation:
    """What one option is worth: utility (higher is better), banking's and rolling's utilities, bust chance."""

    value: float
    bank: float
    roll: float
    bust: float


class TurnSearch:
    """The active seat's turn in ``state``: bank and roll utilities of its positions.

    Built through :func:`search_for` so that grids are shared by every decision of one turn.
    """

    def __init__(self, state: CantStopState):
        self.config = state.config
        self.seat = state.active
        self.tops = np.asarray(state.config.column_heights)
        self.closed = np.asarray(state.claimed) >= 0
        self.to_win = state.config.columns_to_win
        self.won = state.columns_claimed(self.seat)
        self.markers = np.asarray(state.markers[self.seat], dtype=float)
        self.solo = state.num_players == 1
        self.others = [(np.asarray(state.markers[s], dtype=float), state.columns_claimed(s))
                       for s in range(state.num_players) if s != self.seat]
        self.grids: dict[tuple[int, ...], RunnerGrid] = {}
        self.valuations: dict[tuple[int, ...], Valuation] = {}
        self._depth = 0  # look-ahead nesting
        self.meter: Meter | None = None
        """The budget of the decision being searched (:meth:`metered`); None: unbounded."""
        self.bust_utility = float(self.bank_utility(self.markers[None])[0])

    # -- utilities ------------------------------------------------------------------------------------

    def bank_utility(self, pieces: np.ndarray) -> np.ndarray:
        """Utility of banking with the seat's pieces at ``pieces`` ``(N, 11)`` heights: ``(N,)``."""
        claims = (pieces >= self.tops) & ~self.closed
        won = self.won + claims.sum(axis=1)
        heights = tuple(self.config.column_heights)
        closed = self.closed | claims
        if self.solo:
            return -expected_turns(pieces, closed, won, heights, self.to_win)
        threats = cant_stop_threats.THREAT_WEIGHT > 0
        mix = cant_stop_threats.THREAT_MODE == "mix"
        ours_efforts = column_efforts(pieces, closed, heights)
        theirs = []
        safe = np.ones_like(ours_efforts)  # chance that no opponent claims the column on their next turn
        for markers, their_won in self.others:
            theirs_pieces = np.where(claims, 0.0, markers[None, :])
            theirs.append((theirs_pieces, np.full(len(pieces), their_won)))
            if threats:
                safe *= 1.0 - claim_chances(theirs_pieces, closed, heights)
        if not threats:
            ours = turns_from_efforts(ours_efforts, won, self.to_win)
        elif mix:
            ours = threatened_turns(ours_efforts, won, self.to_win, 1.0 - safe)
        else:
            ours = turns_from_efforts(threatened(ours_efforts, 1.0 - safe), won, self.to_win)
        symmetric = threats and cant_stop_threats.THREAT_SYMMETRIC
        if symmetric:
            our_claims = claim_chances(pieces, closed, heights)
        chance = np.ones(len(pieces))
        for theirs_pieces, their_won in theirs:
            their_efforts = column_efforts(theirs_pieces, closed, heights)
            if symmetric and mix:
                turns = threatened_turns(their_efforts, their_won, self.to_win, our_claims)
            elif symmetric:
                turns = turns_from_efforts(threatened(their_efforts, our_claims), their_won, self.to_win)
            else:
                turns = turns_from_efforts(their_efforts, their_won, self.to_win)
            turns = OPPONENT_PACE * turns
            sigma = np.sqrt(TURN_VARIANCE * (ours + turns) + 0.25)
            chance *= _phi((turns - ours - 0.5) / sigma)
        return np.where(won >= self.to_win, 1.0, chance)

    # -- budget ---------------------------------------------------------------------------------------

    @contextmanager
    def metered(self, meter: Meter | None) -> Iterator[TurnSearch]:
        """Search one decision within ``meter`` (None: unbounded)."""
        outer, self.meter = self.meter, meter
        try:
            yield self
        finally:
            self.meter = outer

    def _may_build(self, columns: tuple[int, ...], origin: tuple[int, ...]) -> bool:
        """Whether the decision's budget allows one more grid build (a node): the grid on ``columns``
        (indices 0-10) from runner heights ``origin``, its expected time within the deadline."""
        if self.meter is None:
            return True
        tops = tuple(int(self.tops[c]) for c in columns)
        return self.meter.take(1, build_estimate(grid_points(origin, tops)))

    def _refusals(self) -> int:
        return 0 if self.meter is None else self.meter.refused

    # -- positions ------------------------------------------------------------------------------------

    def pieces(self, runners: dict[int, int]) -> np.ndarray:
        """``(11,)`` heights of the seat's pieces if it banked with ``runners`` ({column: height})."""
        pieces = self.markers.copy()
        for column, height in runners.items():
            pieces[column - 2] = height
        return pieces

    def fixed(self, runners: dict[int, int]) -> bool:
        """Whether the usable columns can no longer change this turn (A.6): no runner left, or no other
        open column; and the grid over them is at most :data:`MAX_GRID_STATES` positions."""
        if len(runners) < self.config.num_runners and not all(
                self.closed[c - 2] for c in COLUMNS if c not in runners):
            return False
        size = 1
        for column in runners:
            size *= int(self.tops[column - 2] - self.markers[column - 2])
        return size <= MAX_GRID_STATES

    def grid(self, runners: dict[int, int], origin: tuple[int, ...] | None = None) -> RunnerGrid:
        """The (cached) exact grid for the runners' columns; built from ``origin`` (default: the whole
        turn, each runner one above its start marker) unless a cached one already covers the runners."""
        columns = tuple(sorted(c - 2 for c in runners))
        grid = self.grids.get(columns)
        if grid is None or not grid.covers(self._heights(runners)):
            if origin is None:
                origin = tuple(int(self.markers[c]) + 1 for c in columns)
            tops = tuple(int(self.tops[c]) for c in columns)
            start = time.perf_counter()
            grid = RunnerGrid(columns, origin, tops, self.markers, self.bank_utility, self.bust_utility)
            model = (BUILD_MS[0] + BUILD_MS[1] * grid_points(origin, tops)) / 1000.0
            _BUILD_RATIOS.append((time.perf_counter() - start) / model)
            self.grids[columns] = grid
        return grid

    def _grid_at_hand(self, runners: dict[int, int]) -> RunnerGrid | None:
        """The cached grid covering ``runners``, else None (:meth:`grid` would build one)."""
        grid = self.grids.get(tuple(sorted(c - 2 for c in runners)))
        return grid if grid is not None and grid.covers(self._heights(runners)) else None

    @staticmethod
    def _heights(runners: dict[int, int]) -> tuple[int, ...]:
        return tuple(runners[c] for c in sorted(runners))

    def valuation(self, state: CantStopState) -> Valuation:
        """Utilities of banking and of rolling on at best from a DECIDE-like ``state`` of this turn
        (cached by the runners' positions)."""
        known = self.valuations.get(state.runners)
        if known is None:
            refused = self._refusals()
            known = self._valuation(state)
            if self._refusals() == refused:  # a valuation cut short by the budget is not kept
                self.valuations[state.runners] = known
        return known

    def _valuation(self, state: CantStopState) -> Valuation:
        runners = state.runner_map()
        if state.would_win_by_banking():
            bank = float(self.bank_utility(self.pieces(runners)[None])[0])
            return Valuation(bank, bank, -np.inf, float(bust_chance(state)))
        if self.fixed(runners):
            grid = self._grid_at_hand(runners)
            columns = tuple(sorted(c - 2 for c in runners))
            if grid is None and self._may_build(columns, tuple(int(self.markers[c]) + 1 for c in columns)):
                grid = self.grid(runners)
            if grid is not None:
                heights = self._heights(runners)
                return Valuation(grid.value(heights), grid.bank_value(heights), grid.roll_value(heights),
                                 grid.bust(heights))
            # no grid within the budget: one roll of look-ahead over the grids at hand, as below
        bank = float(self.bank_utility(self.pieces(runners)[None])[0])
        roll, bust = self.lookahead(state)
        return Valuation(max(bank, roll), bank, roll, bust)

    @staticmethod
    def _pair_results(state: CantStopState, a: int, b: int) -> list[tuple[tuple[int, ...], int]]:
        """The runner positions the pairing ``(a, b)`` (``a <= b``) can lead to from ``state``, each with
        the number of distinct totals it uses: the engine's ``choices_for`` rules for one pairing (A.6:
        both totals when both fit, one of them when they compete for the last runner, the same runner
        twice for ``a == b`` with a step past the top lost, A.8; a total is usable per
        ``CantStopState.usable``: column open, its runner below the top, or a runner free to enter)."""
        markers, claimed, tops = state.markers[state.active], state.claimed, state.config.column_heights
        runners = state.runners
        free = state.config.num_runners - sum(1 for h in runners if h)

        def usable(total: int, now: tuple[int, ...], free: int) -> bool:
            i = total - 2
            if claimed[i] >= 0:
                return False
            return now[i] < tops[i] if now[i] else free > 0 and markers[i] < tops[i]

        def step(now: tuple[int, ...], total: int) -> tuple[int, ...]:
            i = total - 2
            return now[:i] + ((now[i] or markers[i]) + 1,) + now[i + 1:]

        if a == b:
            if not usable(a, runners, free):
                return []
            after = step(runners, a)
            return [(step(after, a), 1)] if usable(a, after, free - (not runners[a - 2])) else [(after, 1)]
        use_a, use_b = usable(a, runners, free), usable(b, runners, free)
        if use_a and use_b:
            after = step(runners, a)
            if usable(b, after, free - (not runners[a - 2])):
                return [(step(after, b), 2)]
            return [(after, 1), (step(runners, b), 1)]
        if use_a:
            return [(step(runners, a), 1)]
        if use_b:
            return [(step(runners, b), 1)]
        return []

    def lookahead(self, state: CantStopState) -> tuple[float, float]:
        """(utility of rolling once more and then banking or playing the grid, exact bust chance).

        Each of the 126 rolls leads to the best of the positions its pairings allow (the engine's rules,
        computed once per distinct pairing of totals). Next positions whose columns are then fixed are
        valued by the grids of the :data:`MAX_GRID_BUILDS` likeliest sets of columns (at hand or built
        while the decision's budget allows, :meth:`metered`); the others by banking there, even where an
        earlier decision of the turn built their grid, so that a decision never depends on the questions
        asked before it.
        """
        weights, _ = rolls()
        keys, pair_table = _roll_pairs()
        index: dict[tuple[int, ...], int] = {}
        distinct: list[int] = []
        pair_out = np.full((len(keys), 2), -1, dtype=np.intp)
        for k, (a, b) in enumerate(keys):
            for j, (runners, used) in enumerate(self._pair_results(state, a, b)):
                i = index.setdefault(runners, len(index))
                if i == len(distinct):
                    distinct.append(used)
                pair_out[k, j] = i
        table = pair_out[pair_table].reshape(len(weights), -1)  # (126, 6) outcome indices, -1: none
        if state.config.pairing_rule == "must_maximize_runners" and distinct:
            # A.6 CONFIG: only the choices that use the most distinct totals remain.
            used = np.where(table >= 0, np.asarray(distinct)[table], 0)
            table = np.where(used == used.max(axis=1, keepdims=True), table, -1)
        present = np.zeros((len(weights), len(index) + 1), dtype=bool)
        present[np.arange(len(weights))[:, None], table] = True  # column -1: padding
        reach = weights @ present[:, :-1]  # ways (of 1296) that each outcome is on offer
        outcomes = list(index)
        afters = [{c: h for c, h in zip(COLUMNS, runners) if h} for runners in outcomes]
        fixed = [self.fixed(after) for after in afters]
        columns_of = [tuple(sorted(c - 2 for c in after)) for after in afters]
        heights_of = [tuple(after[c + 2] for c in columns) for after, columns in zip(afters, columns_of)]
        mass: dict[tuple[int, ...], float] = {}
        lows: dict[tuple[int, ...], tuple[int, ...]] = {}
        for i in range(len(outcomes)):
            if fixed[i]:
                columns = columns_of[i]
                mass[columns] = mass.get(columns, 0.0) + reach[i]
                low = lows.get(columns)
                lows[columns] = heights_of[i] if low is None else tuple(map(min, zip(low, heights_of[i])))
        # The likeliest column sets only, whether or not an earlier decision of the turn built more: a
        # decision must not depend on which positions were asked about before (the same hint live, in
        # the replay and after any other question).
        chosen = sorted(mass, key=lambda c: -mass[c])[:MAX_GRID_BUILDS if self._depth == 0 else NESTED_GRID_BUILDS]
        for columns in chosen:
            grid = self.grids.get(columns)
            if grid is not None and grid.covers(lows[columns]):
                continue
            if not self._may_build(columns, lows[columns]):
                continue  # too long for the time left: a smaller one may still fit
            self.grid({c + 2: h for c, h in zip(columns, lows[columns])}, lows[columns])
        valued = set(chosen)
        values = np.empty(len(outcomes) + 1)
        values[-1] = -np.inf  # padding: no option
        leaves: list[int] = []  # valued by banking
        for i in range(len(outcomes)):
            grid = self.grids.get(columns_of[i]) if fixed[i] and columns_of[i] in valued else None
            if grid is not None and grid.covers(heights_of[i]):
                values[i] = grid.value(heights_of[i])
            else:
                leaves.append(i)
        if leaves:
            values[leaves] = self.bank_utility(np.asarray([self.pieces(afters[i]) for i in leaves]))
        if self._depth == 0 and NESTED_LEAVES:
            # The likeliest positions whose columns are still open get a roll of look-ahead of their own
            # (rolling on from there is nearly free: a runner is still off the board).
            open_leaves = sorted((i for i in leaves if not fixed[i]), key=lambda i: -reach[i])
            self._depth += 1
            try:
                for i in open_leaves[:NESTED_LEAVES]:
                    leaf = replace(state, runners=outcomes[i])
                    if not leaf.would_win_by_banking():
                        values[i] = max(values[i], self.lookahead(leaf)[0])
            finally:
                self._depth -= 1
        best = values[table].max(axis=1)
        busts = np.isneginf(best)
        bust = float(weights[busts].sum() / 1296.0)
        roll_value = float(np.where(busts, 0.0, best) @ weights / 1296.0) + bust * self.bust_utility
        return roll_value, bust

    def choose(self, state: CantStopState) -> list[tuple[Choose, Valuation, CantStopState]]:
        """Every legal pairing of a CHOOSE ``state`` with the valuation of the position it leads to (in
        the engine's order; each gets an equal share of the budget left, :meth:`Meter.share`)."""
        options = []
        choices = state.choices_for(state.dice)
        for i, choice in enumerate(choices):
            after = state.apply(choice)
            if after.winner is not None:  # auto_stop_on_win banked and won (A.8 CONFIG)
                options.append((choice, Valuation(1.0 if not self.solo else 0.0, 0.0, -np.inf, 0.0), after))
                continue
            if self.meter is None:
                options.append((choice, self.valuation(after), after))
                continue
            with self.meter.share(len(choices) - i, build_estimate()):
                options.append((choice, self.valuation(after), after))
        return options


@lru_cache(maxsize=1)
def _roll_pairs() -> tuple[list[tuple[int, int]], np.ndarray]:
    """The distinct pairings of totals ``(a, b)``, ``a <= b``, that the 126 rolls offer, and each roll's
    three pairings as indices into them ``(126, 3)`` (a roll with fewer distinct pairings repeats one)."""
    _, pairs = rolls()
    keys = sorted({(int(a), int(b)) for row in pairs for a, b in row})
    ids = {key: i for i, key in enumerate(keys)}
    return keys, np.asarray([[ids[(int(a), int(b))] for a, b in row] for row in pairs], dtype=np.intp)


def forget_searches() -> None:
    """Drop the cached turn searches (their grids and valuations; a decision is the same with or
    without them, only slower without)."""
    _CACHE.clear()


def drop_search(state: CantStopState) -> None:
    """Forget the cached turn search of ``state``'s turn only (the tables' warm-up leaves no trace)."""
    _CACHE.pop(_key(state), None)


def _key(state: CantStopState) -> tuple:
    return (state.config, state.num_players, state.active, state.markers, state.claimed, state.turn)


def search_for(state: CantStopState) -> TurnSearch:
    """The :class:`TurnSearch` of ``state``'s turn, shared by the turn's decisions (small LRU cache)."""
    key = _key(state)
    search = _CACHE.get(key)
    if search is None:
        search = TurnSearch(state)
        _CACHE[key] = search
        while len(_CACHE) > _CACHE_TURNS:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return search
