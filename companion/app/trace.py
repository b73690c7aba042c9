"""The event trace: with ``COMPANION_TRACE_EVENTS=1`` the play loop tells its parent what it has shown.

``companion bench crash`` runs ``companion play GAME`` in a child process and needs to know which
accepted events the players could have seen before it kills the child. When the variable is set,
:func:`companion.app.loop.run_loop` makes an :class:`EventTrace` and calls :meth:`EventTrace.shown` right
after each ``display.show``; it writes one JSON object a line to stdout, flushed at once:

- ``{"start": GAME_ID, "events": N, "state": STATE}`` once, before the first frame: the session's
  state as it was rebuilt from the log (``state.to_dict()``);
- ``{"shown": SEQ, "kind": KIND, "payload": PAYLOAD}`` for each event of the log that is on the
  screen for the first time (its acceptance has been shown);
- ``{"dropped": SEQ}`` when an undo removed an event that had been shown.

Without the variable nothing is made and the loop runs as before (no extra store reads).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO

TRACE_ENV = "COMPANION_TRACE_EVENTS"


def state_dict(session: Any) -> Any:
    """The session's rules state as JSON-ready data (``state.to_dict()``; ``repr`` when it has none)."""
    state = getattr(session, "state", None)
    to_dict = getattr(state, "to_dict", None)
    return to_dict() if callable(to_dict) else repr(state)


class EventTrace:
    """Writes the trace lines described in the module docstring for one session to ``out``."""

    def __init__(self, store: Any, session: Any, out: TextIO | None = None):
        self.store = store
        self.session = session
        self.out = out or sys.stdout
        events = store.events(session.game_id)
        self._shown = [e.seq for e in events]  # what the resumed screen shows from the first frame on
        self._emit({"start": session.game_id, "events": len(events), "state": state_dict(session)})

    @classmethod
    def from_env(cls, store: Any, session: Any, env: Any = None) -> "EventTrace | None":
        """A trace when ``COMPANION_TRACE_EVENTS`` is ``1`` in ``env`` (default ``os.environ``), else None."""
        env = os.environ if env is None else env
        return cls(store, session) if env.get(TRACE_ENV) == "1" else None

    def shown(self) -> None:
        """Call right after the screen was updated: reports the events that are new on it."""
        events = self.store.events(self.session.game_id)
        seqs = [e.seq for e in events]
        while self._shown and (len(self._shown) > len(seqs) or self._shown[-1] != seqs[len(self._shown) - 1]):
            self._emit({"dropped": self._shown.pop()})
        for event in events[len(self._shown):]:
            self._shown.append(event.seq)
            self._emit({"shown": event.seq, "kind": event.kind, "payload": event.payload})

    def _emit(self, record: dict) -> None:
        self.out.write(json.dumps(record, separators=(",", ":")) + "\n")
        self.out.flush()
