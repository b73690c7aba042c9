"""How to play as a session of the one loop (``companion.screens.rules``): from the menu, and from
within a game (``Button.RULES``: a long press of UNDO, the key H, ``rules`` in a script), after which the
game goes on where it was. NEXT pages on, UNDO back, CONFIRM goes back."""

from __future__ import annotations

import enum

from companion.commands import Button, Command
from companion.display import rules as rules_display
from companion.screens import rules as rules_screen
from companion.session.base import ButtonsOnly

SCREEN = rules_screen
DRAW = rules_display.draw


class Mode(enum.Enum):
    RULES = "rules"


class RulesSession(ButtonsOnly):
    """The rules of ``game`` (a registry name), page by page; ``active_seat``: the seat whose LED stays
    lit (the game's, when shown from within it)."""

    mode = Mode.RULES

    def __init__(self, game: str, game_id: int = 0, active_seat: int | None = None):
        self.game, self.game_id, self.active_seat = game, game_id, active_seat
        self.page = 0
        self.pages = rules_screen.pages(game)
        self.finished = False

    def on_command(self, command: Command) -> None:
        if command.button is Button.CONFIRM:
            self.finished = True
        elif command.button is Button.NEXT:
            self.page = (self.page + 1) % self.pages
        elif command.button is Button.UNDO:
            self.page = (self.page - 1) % self.pages
