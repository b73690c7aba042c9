"""The CONFIG switches of cant-stop.md A.9 as one frozen value, :class:`CantStopConfig`, and their table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.errors import VariantError
from companion.games.variants import VariantKey, check_variant, parse_variant
from companion.i18n import N_

COLUMNS = tuple(range(2, 13))
"""The eleven columns, labelled by the total of two dice (A.2)."""

STANDARD_HEIGHTS = (3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3)
"""Spaces per column 2..12 (cant-stop.md A.2)."""

PAIRING_RULES = ("free", "must_maximize_runners")  # A.6 DEFAULT and its CONFIG
BOARD_LAYOUTS = ("none", "companion", "mountain", "diamond")
"""The boards the camera can read (``vision.board.cant_stop.layouts``); ``none``: the board is not read."""
MARKER_COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
"""The marker colours the board reader tells apart (``vision.board.cant_stop.reader.MARKER_COLOURS``)."""
DEFAULT_MARKER_COLOURS = "red+blue+green+yellow"
FIRST_PLAYER_RULES = ("highest_roll", "youngest", "manual")  # A.3 CONFIG

VARIANTS = (
    VariantKey("columns_to_win", "int", 3, range=(1, 11), rule="cant-stop.md A.4", menu=(3, 2, 4),
               label=N_("Columns to win")),
    VariantKey("column_heights", "ints", STANDARD_HEIGHTS, range=(1, 20), rule="cant-stop.md A.2"),
    VariantKey("num_runners", "int", 3, range=(1, 11), rule="cant-stop.md A.2"),
    VariantKey("pairing_rule", "str", "free", choices=PAIRING_RULES, rule="cant-stop.md A.6", menu=PAIRING_RULES,
               label=N_("Pairing"), menu_labels=(N_("free"), N_("use as many runners as you can"))),
    VariantKey("first_player", "str", "highest_roll", choices=FIRST_PLAYER_RULES, rule="cant-stop.md A.3",
               menu=FIRST_PLAYER_RULES, label=N_("First player"),
               menu_labels=(N_("highest roll"), N_("youngest"), N_("chosen by the players"))),
    VariantKey("auto_stop_on_win", "bool", False, rule="cant-stop.md A.8", menu=(False, True),
               label=N_("Bank on a win by itself")),
    VariantKey("board_layout", "str", "none", choices=BOARD_LAYOUTS, rule="cant-stop.md A.2", menu=BOARD_LAYOUTS,
               label=N_("Board the camera checks"),
               menu_labels=(N_("none"), N_("the box's print"), N_("columns on one line"), N_("columns centred"))),
    VariantKey("marker_colours", "str", DEFAULT_MARKER_COLOURS, rule="cant-stop.md A.2"),
)
"""Every variant key of Can't Stop (cant-stop.md A.9)."""


def column_index(column: int) -> int:
    """0-10 for the column 2-12; ``ValueError`` for another number."""
    if column not in COLUMNS:
        raise ValueError(f"no column {column}: columns are 2 to 12")
    return column - 2


@dataclass(frozen=True)
class CantStopConfig:
    """The CONFIG switches of cant-stop.md A.9, with their defaults (the ranges are in :data:`VARIANTS`).

    columns_to_win: claimed columns that win (A.4), 1-11. column_heights: spaces of columns 2..12
    (A.2), each 1-20. num_runners: neutral runners (A.2), 1-11. pairing_rule: ``free`` or
    ``must_maximize_runners`` (A.6). first_player: ``highest_roll``, ``youngest`` or ``manual`` (A.3).
    auto_stop_on_win: bank automatically once banking would win (A.8). board_layout: the board the
    camera compares with the record after each bank and bust (:data:`BOARD_LAYOUTS`; ``none``: not read).
    marker_colours: the seats' marker colours on the real board, joined by ``+`` (:data:`MARKER_COLOURS`,
    one a seat, each once; seats beyond the list are not checked).
    Raises :class:`VariantError` naming the key of a value out of range.
    """

    columns_to_win: int = 3
    column_heights: tuple[int, ...] = STANDARD_HEIGHTS
    num_runners: int = 3
    pairing_rule: str = "free"
    first_player: str = "highest_roll"
    auto_stop_on_win: bool = False
    board_layout: str = "none"
    marker_colours: str = DEFAULT_MARKER_COLOURS

    def __post_init__(self) -> None:
        if len(self.column_heights) != 11 or not all(1 <= h <= 20 for h in self.column_heights):
            raise VariantError(f"column_heights must be 11 heights of 1-20 spaces, not {self.column_heights}")
        colours = self.marker_colours.split("+")
        if not all(c in MARKER_COLOURS for c in colours) or len(set(colours)) != len(colours):
            raise VariantError(f"marker_colours must be colours of {', '.join(MARKER_COLOURS)} joined by '+', "
                               f"each once, not {self.marker_colours!r}")
        check_variant(VARIANTS, self)

    @property
    def seat_colours(self) -> tuple[str, ...]:
        """The marker colour of each seat, seat 0 first (:attr:`marker_colours`)."""
        return tuple(self.marker_colours.split("+"))

    def height(self, column: int) -> int:
        """Spaces in ``column`` (its top space)."""
        return self.column_heights[column_index(column)]

    def to_dict(self) -> dict:
        return {"columns_to_win": self.columns_to_win, "column_heights": list(self.column_heights),
                "num_runners": self.num_runners, "pairing_rule": self.pairing_rule,
                "first_player": self.first_player, "auto_stop_on_win": self.auto_stop_on_win,
                "board_layout": self.board_layout, "marker_colours": self.marker_colours}

    @classmethod
    def from_variant(cls, settings: Mapping[str, object] | None) -> "CantStopConfig":
        """Build from ``KEY=VALUE`` settings (strings from the command line, or JSON/TOML values).

        Raises :class:`VariantError` naming an unknown key or a bad value.
        """
        return cls(**parse_variant("Can't Stop", VARIANTS, settings))
