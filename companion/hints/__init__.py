"""Pure advisors, one per game: ``advise(state, seat) -> Hint``, from public information only.

Each game's module (``companion.hints.<game>``) exports ``advise``; :class:`Hint` is the one shape of
their advice. No advisor does I/O beyond reading its shipped tables once (``assets/``).
"""

from companion.hints.base import Hint

__all__ = ["Hint"]
