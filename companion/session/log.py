"""What the sessions of turn-by-turn games share: the state is the replay of the game's event log.

ARCHITECTURE.md, Session: every accepted event is appended to the store before the screen changes, so
a restart resumes the same game by replaying the log, and undo drops the last event and replays.
:func:`replay_log` and :class:`LoggedSession` do this once for the games whose log is a list of rule
actions (Can't Stop, Ludo, the donkey race); Schotten Totten's match log has its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from companion.errors import CorruptLog, IllegalMove
from companion.i18n import _

Step = Callable[[Any, Any, Any], None]
"""``step(event, before, after)``: called by a replay for each replayed event with the states around it
(the after-game statistics, ``companion.stats``, follow a game's course this way)."""


def replay_log(state: Any, events: Iterable[Any], actions_of: Callable[[dict], Iterable[Any]],
               kind: str | None = None, step: Step | None = None) -> Any:
    """Apply the actions of each logged event (``event.payload`` -> ``actions_of`` -> actions) to ``state``.

    kind: replay only the events of that kind (others are notes, e.g. a wrong move shown); None: all.
    step: called after each replayed event (:data:`Step`). Returns the state after the last event.
    Raises :class:`CorruptLog` naming the event (its ``seq``) when an action does not decode or does not
    apply.
    """
    for event in events:
        if kind is not None and event.kind != kind:
            continue
        before = state
        try:
            if not isinstance(event.payload, dict):
                raise ValueError(f"not an action: {event.payload!r:.40}")
            for action in actions_of(event.payload):
                state = state.apply(action)
        except (IllegalMove, ValueError, KeyError, TypeError, AttributeError) as error:
            raise CorruptLog(f"event {event.seq} of the saved game does not apply: {error}", event.seq) from None
        if step is not None:
            step(event, before, state)
    return state


class LoggedSession:
    """Base of a game's session backed by an event log in ``store`` (a ``companion.store.Store``).

    Subclasses give :meth:`replay` (events -> state) and :meth:`result_details` (the game's own
    figures for the store's result), and may extend :meth:`after_undo`. ``players``: names in seating
    order. Raises :class:`CorruptLog` when the stored events do not replay.
    """

    def __init__(self, store, game_id: int, players: list[str], config: Any) -> None:
        self.store = store
        self.game_id = game_id
        self.players = list(players)
        self.config = config
        self.state = self.replay(store.events(game_id))
        self.message = ""
        self.finished = False
        self._refused = False

    @property
    def refused(self) -> bool:
        """True when the last command was refused (its reason is the message)."""
        return self._refused

    def replay(self, events: Iterable[Any]) -> Any:
        """The state after ``events`` (the store's event rows of this game)."""
        raise NotImplementedError

    def result_details(self, outcome: Any) -> dict:
        """The game's own figures added to the stored result (JSON-ready), e.g. columns and turns."""
        return {}

    def after_undo(self) -> None:
        """Forget what belonged to the undone event (readings, selections)."""

    def describe_event(self, event: Any, before: Any, after: Any) -> str:
        """The stored ``event`` that took ``before`` to ``after``, said for the players (translated; each
        game's module-level ``describe_event``), "" when it holds nothing to say. Used by :meth:`undo`."""
        return ""

    def accepted(self, before: Any, action: Any, after: Any) -> None:
        """The game's own steps once ``action`` (the last of an event) took ``before`` to ``after`` and is
        stored: the message to show, what the screen waits for next."""

    def _accept_actions(self, actions: list[Any], kind: str, payload: dict) -> None:
        """Accept one event: apply ``actions`` in turn (an :class:`IllegalMove` raised here stores nothing
        and changes nothing), append the event (``kind``, ``payload``) to the store before the state
        changes (ARCHITECTURE.md, Session), call :meth:`accepted` and store the result once the game is over.
        """
        before = after = self.state
        for action in actions:
            after = after.apply(action)
        self.store.append_event(self.game_id, kind, payload)
        self.state = after
        self.accepted(before, actions[-1], after)
        if after.outcome() is not None:
            self._record_result()

    def undo(self) -> None:
        """Drop the last accepted event and replay; :attr:`message` says what was taken back ("Taken back:
        Ada rolls 3 4 5 6", :meth:`describe_event`). At the start, or once the game is over, nothing
        happens and :attr:`message` says why."""
        if self.state.outcome() is not None:
            self.message = _("The game is over and saved; it cannot be undone")
            return
        undone = self.state
        dropped = self.store.drop_last_event(self.game_id)
        if dropped is None:
            self.message = _("Nothing to undo")
            return
        self.state = self.replay(self.store.events(self.game_id))
        what = self.describe_event(dropped, self.state, undone)
        self.message = _("Taken back: {event}").format(event=what) if what else _("Undone")
        self.after_undo()

    def _record_result(self) -> None:
        """Store the finished game's result: winner and placings by name, plus :meth:`result_details`."""
        outcome = self.state.outcome()
        assert outcome is not None
        result = {"winner": self.players[outcome.winner] if outcome.winner is not None else None,
                  "placings": [self.players[s] for s in outcome.placings], **self.result_details(outcome)}
        self.store.finish_game(self.game_id, result)
