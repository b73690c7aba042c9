"""The rules-family parameters and CONFIG switches of schotten-totten.md (C.4, C.6, C.8, C.9, C.11)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.errors import VariantError
from companion.games.schotten_totten.cards import Card, full_deck
from companion.games.variants import VariantKey, check_variant, parse_variant
from companion.i18n import N_

GAMES = ("schotten-totten", "battle-line")
GAME_VALUES = {"schotten-totten": 9, "battle-line": 10}  # C.9 values
GAME_HAND_SIZE = {"schotten-totten": 6, "battle-line": 7}  # C.3 / C.9 hand size
CLAIM_TIMINGS = ("after_play", "start_of_turn")  # C.4 CONFIG claim_timing
STALL_RESOLUTIONS = ("most_stones", "draw")  # C.11 CONFIG stall_resolution

VARIANTS = (
    VariantKey("game", "str", "schotten-totten", choices=GAMES, rule="schotten-totten.md C.9", menu=GAMES,
               label=N_("Cards"), menu_labels=(N_("Schotten Totten, 1-9"), N_("Battle Line, 1-10"))),
    VariantKey("hand_size", "int", None, range=(1, 10), rule="schotten-totten.md C.3"),
    VariantKey("claim_timing", "str", "after_play", choices=CLAIM_TIMINGS, rule="schotten-totten.md C.4",
               menu=CLAIM_TIMINGS, label=N_("Claims"), menu_labels=(N_("after your card"), N_("before your card"))),
    VariantKey("stall_resolution", "str", "most_stones", choices=STALL_RESOLUTIONS, rule="schotten-totten.md C.11"),
    VariantKey("match_length", "int", 3, range=(1, 99), rule="schotten-totten.md C.8", menu=(3, 1, 5),
               label=N_("Games in the match")),
    VariantKey("tactics", "bool", False, choices=(False,), rule="schotten-totten.md C.10"),
)
"""Every variant key of Schotten Totten / Battle Line; ``hand_size`` None is the game's (6 or 7, C.3/C.9)."""


@dataclass(frozen=True)
class SchottenTottenConfig:
    """The rules-family parameters (C.9) and CONFIG switches (C.4, C.6, C.8, C.11), with defaults.

    game: ``schotten-totten`` (values 1-9, hand 6) or ``battle-line`` (values 1-10, hand 7; C.9).
    hand_size: cards dealt to each player, 1-10 (default: the game's). claim_timing: ``after_play``
    (DEFAULT) or ``start_of_turn`` (C.4). stall_resolution: ``most_stones`` (DEFAULT: more stones wins,
    equal is a draw) or ``draw`` (C.11). match_length: games in a match, 1-99 (C.8; DEFAULT 3).
    tactics: tactics cards (C.10) — not implemented yet, so only ``False`` is accepted.
    Raises :class:`VariantError` naming the bad key.
    """

    game: str = "schotten-totten"
    hand_size: int = 0
    claim_timing: str = "after_play"
    stall_resolution: str = "most_stones"
    match_length: int = 3
    tactics: bool = False

    def __post_init__(self) -> None:
        if self.hand_size == 0:
            object.__setattr__(self, "hand_size", GAME_HAND_SIZE.get(self.game, 0))
        if self.tactics:
            raise VariantError("tactics cards (schotten-totten.md C.10) are not supported yet")
        check_variant(VARIANTS, self)

    @property
    def max_value(self) -> int:
        """Highest card value: 9 (ST) or 10 (BL), C.9."""
        return GAME_VALUES[self.game]

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole clan/troop deck (C.2, C.9)."""
        return full_deck(self.max_value)

    def to_dict(self) -> dict:
        return {"game": self.game, "hand_size": self.hand_size, "claim_timing": self.claim_timing,
                "stall_resolution": self.stall_resolution, "match_length": self.match_length,
                "tactics": self.tactics}

    @classmethod
    def from_variant(cls, settings: Mapping[str, object] | None) -> "SchottenTottenConfig":
        """Build from ``KEY=VALUE`` settings (command-line strings or JSON values); ``variant`` is
        accepted as a synonym of ``game``. Raises :class:`VariantError` on an unknown key or bad value."""
        return cls(**parse_variant("Schotten Totten", VARIANTS, settings, aliases={"variant": "game"}))
