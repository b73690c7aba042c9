"""The one shape of a piece of advice, shared by every game's advisor, and the budget of its search.

Every advisor is an **anytime** search: ``advise(state, seat, budget)`` spends at most ``budget.nodes``
units of work (each game's advisor names its unit: Can't Stop a runner grid built, Ludo a move valued,
Schotten Totten a play valued, the donkey race a play weighed) and, with ``budget.deadline_ms``, stops
starting new work when the time is up, and answers with the best it has found. Without a deadline the
answer depends on the state and the node budget only (``simulate`` and the tests: reproducible); each
game's default node budget (its ``NODES``) is large enough for its whole search, so it gives the full
search's answer. The box asks for the whole search too, with no clock (:meth:`companion.registry.GameEntry.
hint_budget`), so the same position gets the same hint live, in History's replay and on every machine
(issue 51: two time-limited searches disagreed); the whole search keeps within ``[hints] deadline_ms`` on the
development machine (``bench advisor``: Can't Stop p99 22 ms, max 30 ms), and a slower machine takes
``[hints] speed_factor`` times longer (``companion selftest`` measures it). A deadline remains for the
benchmarks (``bench advisor --deadline-ms``); a smaller node budget is no box setting, since the Can't
Stop search keeps the grids of its turn and a cut search could then depend on what it searched before.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

DEFAULT_DEADLINE_MS = 20.0
"""How long one hint may take on the development machine, in milliseconds (the default of ``[hints]
deadline_ms``): the whole search's target, measured by ``companion bench advisor``."""


@dataclass(frozen=True)
class Budget:
    """How much search one hint may spend.

    nodes: units of work (the game's unit, see the module docstring), >= 0; None: the game's default
    ``NODES`` (the whole search). deadline_ms: wall-clock milliseconds from the call, > 0; None: no
    clock (the answer does not depend on the machine's speed). A search always does its mandatory part
    (one legal answer, valued), so a budget of 0 nodes or a deadline already past still gives a hint.
    """

    nodes: int | None = None
    deadline_ms: float | None = None


class Meter:
    """One hint's account of its :class:`Budget`: the nodes and the time left.

    ``default_nodes``: the game's ``NODES`` (used when ``budget.nodes`` is None). ``reserve_ms``: time kept
    for the work after the search (the reason, the numbers): optional work is refused once less than
    ``reserve_ms`` plus the work's own estimate is left before the deadline.
    """

    def __init__(self, budget: Budget | None, default_nodes: int, reserve_ms: float = 0.0):
        budget = budget or Budget()
        self.nodes = default_nodes if budget.nodes is None else max(0, int(budget.nodes))
        self.start = time.perf_counter()
        self.deadline = (math.inf if budget.deadline_ms is None
                         else self.start + (budget.deadline_ms - reserve_ms) / 1000.0)
        self.spent = 0
        """Nodes spent so far."""
        self.refused = 0
        """Units of optional work refused (the node budget or the deadline): the answer is then not
        the whole search's."""
        self._caps: list[tuple[int, float]] = [(self.nodes, self.deadline)]

    def take(self, cost: int = 1, seconds: float = 0.0) -> bool:
        """Spend ``cost`` nodes on a unit of optional work expected to take ``seconds``, if the budget
        (and, within :meth:`share`, the share) allows it; else count a refusal and return False."""
        node_cap, time_cap = self._caps[-1]
        if self.spent + cost > node_cap or (time_cap != math.inf and time.perf_counter() + seconds > time_cap):
            self.refused += 1
            return False
        self.spent += cost
        return True

    @property
    def cut(self) -> bool:
        """Whether the budget stopped the search short of its whole."""
        return self.refused > 0

    def elapsed_ms(self) -> float:
        """Milliseconds since the meter was made."""
        return (time.perf_counter() - self.start) * 1000.0

    @contextmanager
    def share(self, parts: int, seconds: float = 0.0) -> Iterator[None]:
        """Limit the work inside the block to one ``parts``-th (rounded up) of the nodes left, so that the
        next ``parts`` pieces of work get an equal share; with a deadline, of the nodes that fit in the
        time left at ``seconds`` a node. What the block leaves unspent stays for the next ones; the
        deadline itself stays the whole search's."""
        node_cap, time_cap = self._caps[-1]
        left = max(0, node_cap - self.spent)
        if time_cap != math.inf and seconds > 0:
            left = min(left, max(0, int((time_cap - time.perf_counter()) / seconds)))
        self._caps.append((min(node_cap, self.spent + -(-left // max(1, parts))), time_cap))
        try:
            yield
        finally:
            self._caps.pop()


@dataclass(frozen=True)
class Hint:
    """Advice for the seat to act.

    action: the recommended engine action, one of ``state.legal_actions()`` (None where the advisor
    cannot know the seat's options, e.g. the donkey race's hidden hand). reason: one translated line for
    the players, with its numbers. numbers: the figures behind it, named and documented by each game's
    ``advise`` (probabilities 0-1, expected turns, values). kind: the reason's category where the game
    has them (Ludo: ``clear_start``, ``capture``, ``escape``, ``safe``, ``enter``, ``home``, ``progress``), else ``""``.
    ranking: every legal action with its value, best first, where the advisor ranks them (Ludo).
    nodes: the search's nodes spent on this hint (the game's unit, :class:`Budget`); cut: whether the
    node budget or the deadline stopped the search short of its whole (neither is compared: two hints
    with the same advice are equal).
    """

    action: Any
    reason: str
    numbers: Mapping[str, float] = field(default_factory=dict, hash=False)
    kind: str = ""
    ranking: tuple[tuple[Any, float], ...] = field(default=(), hash=False)
    nodes: int = field(default=0, compare=False)
    cut: bool = field(default=False, compare=False)
