"""Pure advisors, one per game: ``advise(state, seat, budget=None) -> Hint``, from public information only.

Each game's module (``companion.hints.<game>``) exports ``advise``, ``NODES`` (its default node budget:
the whole search, which the box asks for) and ``prepare(config)`` (builds its tables, once, before the
first hint: the box calls it when a game starts); :class:`Hint` is the one shape of their advice and
:class:`Budget` bounds its search (nodes; a deadline in the benchmarks). No advisor does I/O beyond
reading its shipped tables once (``assets/``).
"""

from companion.hints.base import DEFAULT_DEADLINE_MS, Budget, Hint, Meter

__all__ = ["DEFAULT_DEADLINE_MS", "Budget", "Hint", "Meter"]
