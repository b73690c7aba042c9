"""What players tell the box: the button commands shared by keyboard, GPIO and scripts.

A :class:`Command` is a small immutable value. Buttons and keys produce the five button kinds; the
keyboard and scripts may also carry a payload (a hand-entered roll, a pairing index, a die value).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from companion.errors import echo


class Button(enum.Enum):
    """The physical buttons of the box (ARCHITECTURE.md, Hardware) plus keyboard/script-only kinds."""

    CONFIRM = "confirm"  # confirm / roll: accept what is shown, or roll again
    BANK = "bank"  # bank (Can't Stop: stop and keep this turn's progress)
    PASS = "pass"
    NEXT = "next"  # move the selection to the next option
    UNDO = "undo"  # step back one accepted event
    MENU = "menu"  # long press of next: back to the menu
    RULES = "rules"  # long press of undo: how to play (then back to the game)
    BANK_HELD = "bank-held"  # long press of bank: the donkey race's value entry leaps up; else a BANK
    PASS_HELD = "pass-held"  # long press of pass: the leader's value entry leaps down; else a PASS
    # Keyboard and script only:
    DICE = "dice"  # payload: the four dice entered by hand, e.g. (3, 4, 3, 4)
    CHOOSE = "choose"  # payload: (index,) of the option to pick directly
    SET = "set"  # payload: (die index, value): correct one die directly
    ADD = "add"  # payload: (value,): add a die the reader missed
    REMOVE = "remove"  # payload: (die index,): remove a die the reader invented
    UP = "up"  # step the selected die's value up (1..6, wraps)
    QUIT = "quit"


@dataclass(frozen=True)
class Command:
    """One player command.

    ``button`` is the kind; ``args`` carries the payload for the keyboard/script-only kinds (ints).
    """

    button: Button
    args: tuple[int, ...] = ()

    def __str__(self) -> str:
        return " ".join([self.button.value, *map(str, self.args)])

    @classmethod
    def parse(cls, line: str) -> "Command":
        """Parse a script line such as ``confirm``, ``dice 3 4 3 4`` or ``set 2 5``.

        Raises ``ValueError`` naming the line when the word is unknown or a payload is not integers.
        """
        words = line.split()
        if not words:
            raise ValueError("empty command line")
        try:
            button = Button(words[0].lower())
        except ValueError:
            known = ", ".join([b.value for b in Button] + ["wait (scripts)"])
            raise ValueError(f"unknown command {echo(words[0])} in {echo(line)}; known: {known}") from None
        try:
            args = tuple(int(w) for w in words[1:])
        except ValueError:
            raise ValueError(f"command arguments must be whole numbers: {echo(line)}") from None
        return cls(button, args)


HELD_PRESSES: dict[Button, Button] = {Button.BANK_HELD: Button.BANK, Button.PASS_HELD: Button.PASS}
"""The long presses that are their button's press wherever a screen gives them no meaning of its own."""


def as_taken(command: Command, takes_held: frozenset[Button] = frozenset()) -> Command:
    """``command`` as a screen that gives a meaning to the long presses in ``takes_held`` takes it: any
    other long press of :data:`HELD_PRESSES` is the button's plain press (a player who holds BANK in Can't
    Stop still banks)."""
    plain = HELD_PRESSES.get(command.button)
    return command if plain is None or command.button in takes_held else Command(plain, command.args)
