"""What the menu offers per game: titles, player counts, and the variant switches (pure data).

Titles are translated when called (the language can change at start). The switches are the
CONFIG settings of each game's rules file that are worth a button press at the table; the others
stay at the values of the config file's game table (``[cant_stop]``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.i18n import _

GAME_TITLES: Mapping[str, Callable[[], str]] = {
    "cant-stop": lambda: _("Can't Stop"),
    "ludo": lambda: _("Ludo"),
    "schotten-totten": lambda: _("Schotten Totten"),
    "donkey-race": lambda: _("Donkey race"),
}
"""Game name (as on the command line) -> its title on the screen, translated when called."""

PLAYER_COUNTS: Mapping[str, tuple[int, int]] = {
    "cant-stop": (1, 4),  # cant-stop.md A.1: 1 (solo) to 4
    "ludo": (2, 4),
    "schotten-totten": (2, 2),
    "donkey-race": (2, 4),  # donkey-race.md D.2
}
"""Game -> (fewest, most) players the menu offers."""


@dataclass(frozen=True)
class VariantSwitch:
    """One variant setting offered in the menu: ``key`` as ``--variant KEY=VALUE`` takes it, its
    ``values`` in the order CONFIRM cycles through them (the first is the rules' default)."""

    key: str
    label: Callable[[], str]
    values: tuple[Any, ...]


VARIANT_SWITCHES: Mapping[str, tuple[VariantSwitch, ...]] = {
    "cant-stop": (
        VariantSwitch("columns_to_win", lambda: _("Columns to win"), (3, 2, 4)),  # cant-stop.md A.4
        VariantSwitch("pairing_rule", lambda: _("Pairing"), ("free", "must_maximize_runners")),  # A.6
        VariantSwitch("first_player", lambda: _("First player"), ("highest_roll", "youngest", "manual")),  # A.3
        VariantSwitch("auto_stop_on_win", lambda: _("Bank on a win by itself"), (False, True)),  # A.8
    ),
}
"""Game -> the switches of cant-stop.md A.9 the menu offers (others stay at the config's values)."""
