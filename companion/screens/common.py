"""What every game's screen shares: the key legend (what each button does now), the prompt while the
table chooses who starts, and the name of the player to act.

A game's screen module keeps a table ``{mode: ((Button, label), ...)}`` with its labels marked by
:func:`companion.i18n.N_`; :func:`key_legend` translates one row into the (button name, what it does)
pairs a view carries. The buttons are those of the box (ARCHITECTURE.md, Hardware).
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.commands import Button
from companion.i18n import N_, _

__all__ = ["BUTTON_NAMES", "Keys", "key_legend", "start_prompt", "name_to_act"]

BUTTON_NAMES: dict[Button, str] = {Button.CONFIRM: N_("CONFIRM"), Button.BANK: N_("BANK"), Button.PASS: N_("PASS"),
                                   Button.NEXT: N_("NEXT"), Button.UNDO: N_("UNDO")}
"""The name printed on each physical button (upper case on the box), untranslated."""

Keys = tuple[tuple[Button, str], ...]
"""One mode's row of a key table: (button, untranslated label of what it does), in screen order."""


def key_legend(keys: Iterable[tuple[Button, str]]) -> tuple[tuple[str, str], ...]:
    """The translated (button name, what it does) pairs of ``keys``; ``KeyError`` for a button the box
    does not have (a keyboard-only command)."""
    return tuple((_(BUTTON_NAMES[button]), _(label)) for button, label in keys)


def start_prompt(players, seat: int) -> str:
    """The prompt while the table chooses who starts: ``players[seat]`` is proposed (every game, A.3 /
    B.3 / C.3: the players decide, the box only records it)."""
    return _("{name} starts? CONFIRM to begin, NEXT for another player").format(name=players[seat])


def name_to_act(session) -> str:
    """The name of the player whose turn it is (``session.players[session.active_seat]``; during START the
    proposed first player), or "" when no one is to act (the game is over)."""
    seat = session.active_seat
    return session.players[seat] if seat is not None else ""
