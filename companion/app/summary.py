"""After a game: its summary on the screen (``companion.stats``), before ``companion play`` ends or the
menu comes back. NEXT pages on, UNDO back, CONFIRM leaves; the summary runs in the one loop
(:func:`companion.app.loop.run_loop`) like a game, so screenshots of it are named ``NNNN-summary.png``.
"""

from __future__ import annotations

import enum
import logging

from companion.app.loop import run_loop
from companion.commands import Button, Command
from companion.display import summary as summary_display
from companion.errors import CorruptLog, ScriptEnded
from companion.screens import summary as summary_screen
from companion.session.base import Paged
from companion.stats import GameSummary, game_summary

log = logging.getLogger(__name__)


class Mode(enum.Enum):
    SUMMARY = "summary"


class SummarySession(Paged):
    """The summary as a session of the loop, page by page (:class:`companion.session.base.Paged`); it
    lights no seat. The key of a page's number (``choose N``) goes straight to it."""

    active_seat = None
    mode = Mode.SUMMARY

    def __init__(self, summary: GameSummary, game_id: int):
        super().__init__()
        self.summary = summary
        self.game_id = game_id
        self.pages = len(summary_screen.pages(summary))

    def on_other(self, command: Command) -> None:
        if command.button is Button.CHOOSE and command.args:
            self.page = min(self.pages, max(1, int(command.args[0]))) - 1


def show_summary(store, game_id: int, inputs, display, *, screenshots=None, headless: bool = False,
                 fps: float = 10.0, leds=None, shots_before: int = 0) -> int:
    """Show the summary of the finished game ``game_id`` until the players leave it; returns the
    screenshots written so far (``shots_before`` and the summary's). A script that ends while it shows
    only ends it (the game is over and saved: nothing waits on the players); a log that does not replay
    skips it with a warning."""
    try:
        summary = game_summary(store, game_id)
    except CorruptLog as error:
        log.warning("no summary of game %s: %s", game_id, error)
        return shots_before
    session = SummarySession(summary, game_id)
    try:
        result = run_loop(session, store, None, lambda frame: None, inputs, display, screen=summary_screen,
                          draw=summary_display.draw, game=summary.game, screenshots=screenshots, headless=headless,
                          fps=fps, leds=leds, shots_before=shots_before)
    except ScriptEnded:
        log.info("the script ended during the summary of game %s", game_id)
        return shots_before + 1 if screenshots else shots_before
    return result.screenshots
