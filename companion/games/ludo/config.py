"""The CONFIG switches of ludo.md (B.2b, B.6, B.7) as one frozen value, :class:`LudoConfig`.

Board-dependent DEFAULTs (B.2b): the four ``mensch40`` house rules ``entry_attempts_when_all_in_yard``,
``must_clear_start``, ``home_no_jump`` and ``must_capture`` default to the German practice (3, true, true,
false) on ``mensch40`` and to the base game (1, false, false, false) on ``ludo52`` and ``dga56`` (B.2c). A field left ``None``
takes the board's default; :meth:`LudoConfig.resolved` fills them in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from companion.errors import VariantError
from companion.games.ludo.board import BOARD_NAMES
from companion.games.variants import VariantKey, check_variant, parse_variant
from companion.i18n import N_

TRIPLE_SIX_PENALTIES = ("forfeit_roll", "undo_turn", "last_moved_to_yard")  # B.7
SAFE_SQUARE_RULES = ("none", "starts", "starts_and_stars")  # B.7
OWN_STACKING_RULES = ("forbidden", "allowed", "block")  # B.7
OVERSHOOT_RULES = ("illegal", "bounce")  # B.5, B.7

_BOARD_DEFAULTS = {
    "ludo52": {"entry_attempts_when_all_in_yard": 1, "must_clear_start": False, "home_no_jump": False,
               "must_capture": False},
    "mensch40": {"entry_attempts_when_all_in_yard": 3, "must_clear_start": True, "home_no_jump": True,
                 "must_capture": False},
    "dga56": {"entry_attempts_when_all_in_yard": 1, "must_clear_start": False, "home_no_jump": False,
              "must_capture": False},  # B.2c: everything else as on ludo52
}
VARIANTS = (
    VariantKey("board", "str", "ludo52", choices=BOARD_NAMES, rule="ludo.md B.2b", menu=BOARD_NAMES,
               label=N_("Board"), menu_labels=(N_("Ludo, 52 squares"), N_("Mensch ärgere Dich nicht, 40 squares"),
                                                N_("Ludo, 56 squares"))),
    VariantKey("entry_rolls", "ints", (6,), range=(1, 6), rule="ludo.md B.7"),
    VariantKey("triple_six_penalty", "str", "forfeit_roll", choices=TRIPLE_SIX_PENALTIES, rule="ludo.md B.4.2"),
    VariantKey("bonus_on_capture", "bool", False, rule="ludo.md B.7", menu=(False, True),
               label=N_("Roll again after a capture")),
    VariantKey("bonus_on_finish", "bool", False, rule="ludo.md B.7"),
    VariantKey("six_bonus_if_unused", "bool", True, rule="ludo.md B.4.4"),
    VariantKey("safe_squares", "str", "none", choices=SAFE_SQUARE_RULES, rule="ludo.md B.2", menu=SAFE_SQUARE_RULES,
               label=N_("Safe squares"), menu_labels=(N_("none"), N_("start squares"), N_("start and star squares"))),
    VariantKey("capture_on_opponent_start", "bool", True, rule="ludo.md B.7"),
    VariantKey("own_stacking", "str", "forbidden", choices=OWN_STACKING_RULES, rule="ludo.md B.5"),
    VariantKey("overshoot", "str", "illegal", choices=OVERSHOOT_RULES, rule="ludo.md B.5", menu=OVERSHOOT_RULES,
               label=N_("Too high a roll home"), menu_labels=(N_("cannot move"), N_("bounces back"))),
    VariantKey("split_six_moves", "bool", False, rule="ludo.md B.7"),
    VariantKey("play_for_places", "bool", True, rule="ludo.md B.6"),
    VariantKey("entry_attempts_when_all_in_yard", "int", None, range=(1, 6), rule="ludo.md B.2b"),
    VariantKey("must_clear_start", "bool", None, rule="ludo.md B.2b"),
    VariantKey("home_no_jump", "bool", None, rule="ludo.md B.2b"),
    VariantKey("must_capture", "bool", None, rule="ludo.md B.2b"),
)
"""Every variant key of Ludo (ludo.md B.2b, B.6, B.7); a default of None is the board's (B.2b)."""


@dataclass(frozen=True)
class LudoConfig:
    """Every CONFIG switch of ludo.md with its DEFAULT.

    board: ``ludo52`` | ``mensch40`` (B.2b) | ``dga56`` (B.2c). entry_rolls: die values that bring a pawn out of the yard
    (B.7, default ``(6,)``; a subset of 1-6). triple_six_penalty: ``forfeit_roll`` | ``undo_turn`` |
    ``last_moved_to_yard`` (B.4.2, B.7). bonus_on_capture, bonus_on_finish: one extra roll each (B.7).
    six_bonus_if_unused: an unusable 6 still grants its bonus roll (B.4.4, B.7). safe_squares: ``none`` |
    ``starts`` | ``starts_and_stars`` (B.2, B.7). capture_on_opponent_start: a pawn on its own start square
    can be captured (B.7). own_stacking: ``forbidden`` | ``allowed`` | ``block`` (B.5, B.7). overshoot:
    ``illegal`` | ``bounce`` (B.5). split_six_moves: keep sixes and split the pooled rolls across pawns
    (B.7). play_for_places: play on for 2nd-4th place (B.6). entry_attempts_when_all_in_yard (1-6),
    must_clear_start, home_no_jump, must_capture: B.2b, ``None`` = the board's default.
    """

    board: str = "ludo52"
    entry_rolls: tuple[int, ...] = (6,)
    triple_six_penalty: str = "forfeit_roll"
    bonus_on_capture: bool = False
    bonus_on_finish: bool = False
    six_bonus_if_unused: bool = True
    safe_squares: str = "none"
    capture_on_opponent_start: bool = True
    own_stacking: str = "forbidden"
    overshoot: str = "illegal"
    split_six_moves: bool = False
    play_for_places: bool = True
    entry_attempts_when_all_in_yard: int | None = None
    must_clear_start: bool | None = None
    home_no_jump: bool | None = None
    must_capture: bool | None = None

    def __post_init__(self) -> None:
        if not self.entry_rolls:
            raise VariantError(f"entry_rolls must be die values 1-6, not {self.entry_rolls}")
        check_variant(VARIANTS, self)

    def resolved(self) -> "LudoConfig":
        """This config with every ``None`` replaced by the board's DEFAULT (B.2b); entry_rolls sorted."""
        defaults = _BOARD_DEFAULTS[self.board]
        values = {k: (defaults[k] if getattr(self, k) is None else getattr(self, k)) for k in defaults}
        return replace(self, entry_rolls=tuple(sorted(set(self.entry_rolls))), **values)

    def to_dict(self) -> dict:
        """JSON form (every field; ``entry_rolls`` as a list)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["entry_rolls"] = list(self.entry_rolls)
        return out

    @classmethod
    def from_variant(cls, settings: Mapping[str, object] | None) -> "LudoConfig":
        """Build a resolved config from ``KEY=VALUE`` settings (command-line strings or JSON values).

        ``entry_rolls`` takes ``"1,6"``, ``[1, 6]`` or ``6``; booleans take true/false/yes/no/1/0.
        Raises :class:`VariantError` naming an unknown key or a bad value.
        """
        return cls(**parse_variant("Ludo", VARIANTS, settings)).resolved()
