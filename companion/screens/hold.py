"""An event kept on the notice band past the turn it happened in, so no one misses it.

A game's band shows the last event ("Ada captures Ben's pawn"); the next player's first press or the
camera's next reading would replace it at once. :class:`EventHold` keeps the last event of a turn that
has just ended on the band for :data:`HOLD_SECONDS`, before what the new turn says ("Ada captures Ben's
pawn · Ben rolls 3"); within one turn the newer event replaces the older at once, and warnings, refused
presses and the winner are shown as they are. History keeps every event whatever the band showed.
Pure: the caller gives the time (the play loop's clock; a headless run counts its ticks).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.screens.common import Chrome, Tone, with_chrome

HOLD_SECONDS = 4.0
"""How long an event stays on the band once the turn it happened in is over (seconds): time to read a
line at arm's length while the next player already rolls."""

JOIN = " \u00b7 "
"""Between the kept event and what the new turn says."""


@dataclass
class _Kept:
    text: str
    until: float
    answered: bool = False  # the new turn has said something of its own since


class EventHold:
    """Applied to every view a loop shows (:meth:`apply`); remembers whose turn it is and the event on the
    band.

    hold: seconds an event outlives its turn (:data:`HOLD_SECONDS`)."""

    def __init__(self, hold: float = HOLD_SECONDS):
        self.hold = hold
        self._seat: int | None = None  # the seat to act, as last seen (None after a screen of its own)
        self._shown = ""  # the event the band showed on the frame before (before any keeping)
        self._kept: _Kept | None = None

    def apply(self, view, now: float):
        """``view`` (a game's view with a :class:`Chrome`) as the band should show it at time ``now``
        (seconds, any monotonic origin); other views unchanged."""
        chrome = getattr(view, "chrome", None)
        if not isinstance(chrome, Chrome) or not chrome.seats:
            return view
        notice, tone, seat = chrome.notice, chrome.tone, chrome.active
        event = notice if notice and tone == Tone.EVENT else ""
        if seat is None:  # a screen of its own (a round's end, the deal): what it shows is not carried on
            self._seat, self._kept = None, None
        else:
            if self._seat is not None and seat != self._seat:
                # the turn passed: the event on the band as it passed is kept (the move that ended the turn,
                # shown with the next player already to act, or the one shown just before); a band
                # already empty keeps nothing, so no older news comes back
                closing = event if event and event != self._shown else self._shown
                self._kept = _Kept(closing, now + self.hold) if closing else None
            self._seat = seat
        self._shown = event
        kept = self._kept
        if kept is not None and now >= kept.until:
            self._kept = kept = None
        if kept is None or tone != Tone.EVENT:  # warnings, refused presses, the winner: as they are
            return view
        new = notice if notice != kept.text else ""
        if new:
            kept.answered = True
        elif kept.answered:  # the new turn's own line has gone: the older one does not come back alone
            self._kept = None
            return view
        return with_chrome(view, notice=kept.text + JOIN + new if new else kept.text, tone=Tone.EVENT)
