"""What every game's screen shares: the frame around the game (:class:`Chrome`: the header, the player
strip, the key chips and the notice band, ARCHITECTURE.md "The screen"), the key legend (what each button
does now), the prompt while the table chooses who starts, and the name of the player to act.

Every game's view carries one :class:`Chrome` (``view.chrome``) and draws it with the shared widgets of
``companion.display.chrome``; only the body between them is the game's own. :class:`ChromeFields` gives a
view the ``title``, ``prompt``, ``message`` and ``keys`` the play loop and the replay read, and
:func:`with_chrome` changes them on any view.

A game's screen module keeps a table ``{mode: ((Button, label), ...)}`` with its labels marked by
:func:`companion.i18n.N_`; :func:`key_legend` translates one row into the (button name, what it does)
pairs a view carries. The buttons are those of the box (ARCHITECTURE.md, Hardware).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from companion.commands import Button
from companion.i18n import N_, _, pgettext

__all__ = ["BUTTON_NAMES", "HOLD_FOR_RULES", "Keys", "SeatChip", "Chrome", "ChromeFields", "Tone", "key_legend",
           "start_prompt", "name_to_act", "with_chrome"]


class Tone:
    """How the notice band is drawn: an ``EVENT`` that happened (a bust, a capture, a claim, what UNDO took
    back), a ``WARNING`` the players should act on (a camera problem, a board to put right), a press
    that was ``REFUSED`` (with the reason), or the ``WIN`` that ends the game (large, in the winner's
    colour, with the winner's token: ``Chrome.winner``)."""

    EVENT = "event"
    WARNING = "warning"
    REFUSED = "refused"
    WIN = "win"


@dataclass(frozen=True)
class SeatChip:
    """One player in the player strip.

    name: as entered. seat: the palette index (0-3, ``companion.screens.palette``: colour, shape, badge).
    score: this game's standing in the game's words ("2 columns", "3/4 home", "6 points", "" for none).
    wins: games won before (the scoreboard), None when the game does not show them. colour: an RGB that
    replaces the palette colour of the token (Ludo's pawn colours), None for the palette's.
    """

    name: str
    seat: int
    score: str = ""
    wins: int | None = None
    colour: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class Chrome:
    """What every game's screen shows around its board, all strings translated.

    title: the game ("Can't Stop"). active: the index into ``seats`` of the player to act (the proposed
    first player while the table chooses), None when nobody is. round: the header's right-hand figure
    ("Round 6", "Game 1 of 3", "" for none). prompt: the one line saying what the box waits for. keys:
    (button name, what it does now) pairs, only presses that do something. notice: the event band's text
    ("" when there is none), drawn in ``tone`` (:class:`Tone`); the play loop keeps a turn's last event
    a few seconds into the next turn (``screens/hold.py``). winner: the index into ``seats`` of the
    winner whose token a ``WIN`` notice shows (None for a shared win).
    band_space: the band keeps its own space (two lines of the floor size) with or without a notice, and
    the header and the player strip theirs, so the board never moves or changes size through a game
    (every game's screen; Can't Stop's side panel, which is no board, takes the band's space while no
    notice shows). short_standings: with ``band_space``, the standings on the player strip keep their
    width through the game (Can't Stop's "columns 1/3"), so the strip keeps one row of one-line chips
    where they fit; else its chips take two lines, for standings that grow. board_share: with
    ``band_space``, a square board at the body's left as tall as the body and the band's space together,
    at most this share of the body's width (Ludo's 0.52); the band then lies beside it, under the panel,
    so the board gains the band's height (0: the band spans the screen's width under the body).
    """

    title: str
    seats: tuple[SeatChip, ...]
    active: int | None
    prompt: str
    keys: tuple[tuple[str, str], ...] = ()
    notice: str = ""
    tone: str = Tone.EVENT
    round: str = ""
    winner: int | None = None
    band_space: bool = False
    short_standings: bool = False
    board_share: float = 0.0


class ChromeFields:
    """The frame's texts read from a view's ``chrome`` (mixed into each game's frozen view): the play loop
    names screenshots by ``prompt`` and ``message``, the window takes ``title``."""

    chrome: Chrome

    @property
    def title(self) -> str:
        return self.chrome.title

    @property
    def prompt(self) -> str:
        return self.chrome.prompt

    @property
    def message(self) -> str:
        return self.chrome.notice

    @property
    def keys(self) -> tuple[tuple[str, str], ...]:
        return self.chrome.keys


def with_chrome(view, **changes):
    """``view`` with its frame's fields changed (``prompt=``, ``notice=``, ``keys=``, ``round=``...), for a
    view with a :class:`Chrome` or any other frozen view with those fields (``message`` stands for
    ``notice`` on those)."""
    chrome = getattr(view, "chrome", None)
    if isinstance(chrome, Chrome):
        return replace(view, chrome=replace(chrome, **changes))
    if "notice" in changes:
        changes["message"] = changes.pop("notice")
    names = set(getattr(view, "__dataclass_fields__", {}))
    return replace(view, **{k: v for k, v in changes.items() if k in names})

BUTTON_NAMES: dict[Button, str] = {Button.CONFIRM: N_("CONFIRM"), Button.BANK: N_("BANK"), Button.PASS: N_("PASS"),
                                   Button.NEXT: N_("NEXT"), Button.UNDO: N_("UNDO")}
"""The name printed on each physical button (upper case on the box), untranslated."""

Keys = tuple[tuple[Button, str], ...]
"""One mode's row of a key table: (button, untranslated label of what it does), in screen order."""

HOLD_FOR_RULES: tuple[Button, str] = (Button.UNDO, N_("hold: how to play"))
"""The chip of every game's first screen: a long press of UNDO shows How to play (the other screens'
chips name what a short press does; How to play's page on the buttons says it again)."""


def key_legend(keys: Iterable[tuple[Button, str | tuple[str, str]]]) -> tuple[tuple[str, str], ...]:
    """The translated (button name, what it does) pairs of ``keys``; what a button does is a message
    (``N_``) or a (context, message) pair (``Np_``: the menu's "move" is no move of a game). ``KeyError``
    for a button the box does not have (a keyboard-only command)."""
    return tuple((_(BUTTON_NAMES[button]), pgettext(*label) if isinstance(label, tuple) else _(label))
                 for button, label in keys)


def start_prompt(players, seat: int) -> str:
    """The prompt while the table chooses who starts: ``players[seat]`` is proposed (every game, A.3 /
    B.3 / C.3: the players decide, the box only records it)."""
    return _("{name} starts?").format(name=players[seat])  # the key chips say CONFIRM starts, NEXT another


def name_to_act(session) -> str:
    """The name of the player whose turn it is (``session.players[session.active_seat]``; during START the
    proposed first player), or "" when no one is to act (the game is over)."""
    seat = session.active_seat
    return session.players[seat] if seat is not None else ""
