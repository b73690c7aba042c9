"""The notice screens (``companion.screens.notice``) shown before a game or the menu when a file was
damaged, moved aside or ignored: one screen each, CONFIRM goes on. They run in the one loop
(:func:`companion.app.loop.run_loop`) like a game, so screenshots of them are named ``NNNN-notice.png``.
"""

from __future__ import annotations

import enum
import logging
from dataclasses import dataclass

from companion.app.loop import run_loop
from companion.commands import Button, Command
from companion.display import notice as notice_display
from companion.screens import notice as notice_screen
from companion.screens.notice import Notice
from companion.session.base import ButtonsOnly

log = logging.getLogger(__name__)


class Mode(enum.Enum):
    NOTICE = "notice"


class NoticeSession(ButtonsOnly):
    """The notices as a session of the loop: ``notices`` in order, ``index`` the one shown; CONFIRM goes
    to the next, and past the last one the session is finished. It lights no seat."""

    active_seat = None
    game_id = None
    mode = Mode.NOTICE

    def __init__(self, notices: list[Notice]):
        self.notices = list(notices)
        self.index = 0
        self.finished = not self.notices

    def on_command(self, command: Command) -> None:
        if command.button is Button.CONFIRM:
            self.index += 1
            self.finished = self.index >= len(self.notices)
            self.index = min(self.index, len(self.notices) - 1)


@dataclass(frozen=True)
class NoticesShown:
    """How the notices ended: the screenshots written so far, and whether the players went on past every
    notice (False: they quit the program on one)."""

    screenshots: int
    went_on: bool


def show_notices(notices: list[Notice], store, inputs, display, *, screenshots=None, headless: bool = False,
                 fps: float = 10.0, leds=None, shots_before: int = 0) -> NoticesShown:
    """Show each of ``notices`` until the players go on with CONFIRM (or quit). Nothing is shown for
    none. Raises :class:`~companion.errors.ScriptEnded` when a headless script ends on a notice (nothing
    has started yet)."""
    if not notices:
        return NoticesShown(shots_before, True)
    log.info("notices shown: %s", ", ".join(n.value for n in notices))
    session = NoticeSession(notices)
    result = run_loop(session, store, None, lambda frame: None, inputs, display, screen=notice_screen,
                      draw=notice_display.draw, game="", screenshots=screenshots, headless=headless, fps=fps,
                      leds=leds, shots_before=shots_before)
    return NoticesShown(result.screenshots, session.finished)
