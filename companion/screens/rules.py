"""How to play, on the box: a few short pages a game (each game's ``HOW_TO_PLAY``, in its screens module),
written from ``../shared/rules/`` in our own words with the box's default rules, stepped with NEXT (UNDO
back, CONFIRM leaves). From the menu (How to play)
and from within a game (a long press of UNDO, the key H, or ``rules`` in a script). Pure: views with
translated text; ``companion.display.rules`` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Button
from companion.i18n import N_, _
from companion.registry import game, game_title
from companion.screens.common import key_legend

BUTTONS = (N_("The buttons"),
           N_("The chips at the bottom of the screen say what each button does now. Hold UNDO for a second: "
              "how to play, then CONFIRM back to the game. Hold NEXT for a second: back to the menu, the game "
              "saved. UNDO takes back the last step."))
"""The page of every game on the buttons' long presses (``hardware.buttons.HOLDS``)."""

KEYBOARD = (N_("On a keyboard"),
            N_("Space or Enter: CONFIRM. B: BANK. P: PASS. N or Tab: NEXT. U or Backspace: UNDO. The digits "
               "1-9 choose an option. H shows how to play, Q quits (the game is saved)."))
"""The last page of every game: which key is which button (``companion.app.inputs``) when the box is
played on a keyboard."""


@dataclass(frozen=True)
class RulesView:
    """One page of a game's rules: ``title`` (the game), ``heading`` and ``text`` of the page, the
    ``prompt`` (which page, what the buttons do), ``message`` (always "") and ``keys``."""

    title: str
    heading: str
    text: str
    page: int
    pages: int
    prompt: str
    message: str
    keys: tuple[tuple[str, str], ...]


def game_pages(name: str) -> tuple[tuple[str, str], ...]:
    """The pages of the game ``name``, untranslated: its ``HOW_TO_PLAY`` (its screens module, found
    through the registry), then :data:`BUTTONS` and :data:`KEYBOARD`."""
    return tuple(game(name).module("screens").HOW_TO_PLAY) + (BUTTONS, KEYBOARD)


def pages(name: str) -> int:
    """How many pages the rules of ``name`` have (the keyboard page included)."""
    return len(game_pages(name))


def build_view(session, wins: dict[str, int] | None = None) -> RulesView:
    """The page ``session.page`` of the rules of ``session.game``."""
    every = game_pages(session.game)
    page = min(session.page, len(every) - 1)
    heading, text = every[page]
    # one prompt on every page, so the header keeps its size and line: the key chips say what each button does
    prompt = _("How to play, page {page} of {pages}").format(page=page + 1, pages=len(every))
    if page < len(every) - 1:
        keys = key_legend(((Button.NEXT, N_("next page")), (Button.UNDO, N_("page back")),
                           (Button.CONFIRM, N_("back"))))
    else:  # the last page: CONFIRM first, NEXT only goes round to the first page
        keys = key_legend(((Button.CONFIRM, N_("back")), (Button.UNDO, N_("page back")),
                           (Button.NEXT, N_("first page"))))
    return RulesView(_("How to play {game}").format(game=game_title(session.game)), _(heading), _(text), page,
                     len(every), prompt, "", keys)


def final_line(session) -> str:
    """The rules add no line to ``companion play``'s output."""
    return ""
