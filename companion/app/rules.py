"""How to play as a session of the one loop (``companion.screens.rules``): from the menu, and from
within a game (``Button.RULES``: a long press of UNDO, the key H, ``rules`` in a script), after which the
game goes on where it was. NEXT pages on, UNDO back, CONFIRM goes back."""

from __future__ import annotations

import enum

from companion.display import rules as rules_display
from companion.screens import rules as rules_screen
from companion.session.base import Paged

SCREEN = rules_screen
DRAW = rules_display.draw


class Mode(enum.Enum):
    RULES = "rules"


class RulesSession(Paged):
    """The rules of ``game`` (a registry name), page by page; ``active_seat``: the seat whose LED stays
    lit (the game's, when shown from within it)."""

    mode = Mode.RULES

    def __init__(self, game: str, game_id: int = 0, active_seat: int | None = None):
        super().__init__()
        self.game, self.game_id, self.active_seat = game, game_id, active_seat
        self.pages = rules_screen.pages(game)
