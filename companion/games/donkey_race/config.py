"""The donkey card race: cards and the variant (every DEFAULT and CONFIG of ``donkey-race.md``).

A **card** is an ``int`` code: a number card is its value (0-99); :data:`DONKEY`, :data:`JOKER` and
:data:`UNKNOWN` (a card the box has not seen: a face-down draw or a card in a hand at the table) are
negative. Cards of equal code are interchangeable, so hands, the draw pile and the discard pile are
sorted tuples of codes: the "multiset of (card_id, value, is_donkey, is_joker)" that D.2 asks for.

:class:`DonkeyRaceConfig` holds the whole variant in one place so that a table can match its own box.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from companion.errors import VariantError
from companion.games.variants import VariantKey, check_variant, parse_variant
from companion.i18n import N_, Np_

DONKEY = -1
"""The donkey card («Осёл», D.2): a number card of value ``donkey_value`` under ``plain_value``."""
JOKER = -2
"""A joker (D.5): any value inside a set; a set of jokers only counts as the top value."""
UNKNOWN = -3
"""A card whose identity the box does not know (ARCHITECTURE.md, hidden information)."""

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # D.2: four lanes, 2-4 players (D.7.15)
DONKEY_MODES = ("plain_value", "kramer_round", "start_marker_only")  # D.5 CONFIG donkey_mode
REFILL_MODES = ("up_to_hand_size", "draw_n")  # D.4.6 CONFIG refill_mode
REFILL_ORDERS = ("highest_first", "seat_order")  # D.4.6 draw order DEFAULT and its alternative
TIE_BREAKS = ("highest_this_round_then_shared", "shared")  # D.6 CONFIG tie_break
TWO_PLAYER_ENDS = ("pass_or_max", "max_only")  # D.4.3 DEFAULT and the literal reading
ADVANCE_MODES = ("role", "cards_played")  # D.7.14 CONFIG advance_mode

STANDARD_DECK = tuple((value, 8) for value in range(1, 14))
"""D.2 DEFAULT: values 1-13, 8 copies each (104 number cards), modelled on the Kramer family."""



def card_name(code: int) -> str:
    """Short label of a card for screens and logs: ``"7"``, ``"D"`` (donkey), ``"J"``, ``"?"``."""
    return {DONKEY: "D", JOKER: "J", UNKNOWN: "?"}.get(code, str(code))


CARD_WORDS = {DONKEY: Np_("donkey race card", "donkey"), JOKER: Np_("donkey race card", "joker")}
"""The words players read for the cards that have no number of their own (``companion.hints.donkey_race.
card_label`` translates them); :func:`card_name` keeps the short letters for logs and records."""


def card_from_name(text: str) -> int:
    """Inverse of :func:`card_name` (also accepts ``donkey``/``joker``); ``ValueError`` otherwise."""
    word = text.strip().lower()
    named = {"d": DONKEY, "donkey": DONKEY, "j": JOKER, "joker": JOKER, "?": UNKNOWN}
    if word in named:
        return named[word]
    value = int(word)
    if not 0 <= value <= 99:
        raise ValueError(f"a card value is 0-99, not {value}")
    return value


@dataclass(frozen=True)
class DonkeyRaceConfig:
    """Every DEFAULT and CONFIG switch of donkey-race.md, with its default.

    Deck (D.2, D.7.2): ``deck`` pairs (value, copies) of number cards, values 0-99, copies 1-20
    (default 1-13 x 8); ``donkey``: whether the box has the donkey card (default True);
    ``donkey_value``: its value, 0-99 (default 0, D.5); ``jokers``: 0-10 (default 0).
    ``hand_size``: cards dealt and refilled, and the most a lead may use (D.3.2, D.4.1), 1-6, default 3.
    ``track_length``: spaces from Start to Finish (D.2), 1-200, default 20.
    ``special_spaces``: D.2 assumes none; only the empty tuple is accepted (no effect is defined).
    ``donkey_mode`` (D.5): ``plain_value`` | ``kramer_round`` | ``start_marker_only``.
    ``leader_may_pass`` (D.4.1, D.7.5): default False. ``must_raise_if_able`` (D.4.2, D.7.5): default
    False (passing is always allowed). ``allow_equal_raise`` (D.5, D.7.6): default False.
    ``two_player_round_end`` (D.4.3, D.7.7): ``pass_or_max`` (a pass or an unbeatable play ends it) |
    ``max_only`` (only an unbeatable play, or two passes in a row, end it).
    ``refill_mode`` (D.4.6): ``up_to_hand_size`` | ``draw_n``. ``refill_order`` (D.4.6, D.7.10):
    ``highest_first`` (clockwise from the round's highest player) | ``seat_order`` (from seat 0).
    ``tie_break`` (D.6, D.7.13): ``highest_this_round_then_shared`` | ``shared``.
    ``exact_finish`` (D.6): default False. ``advance_mode`` (D.7.14): ``role`` | ``cards_played``.
    Raises :class:`VariantError` naming the key for a value out of range.
    """

    deck: tuple[tuple[int, int], ...] = STANDARD_DECK
    donkey: bool = True
    donkey_value: int = 0
    jokers: int = 0
    hand_size: int = 3
    track_length: int = 20
    special_spaces: tuple[int, ...] = ()
    donkey_mode: str = "plain_value"
    leader_may_pass: bool = False
    must_raise_if_able: bool = False
    allow_equal_raise: bool = False
    two_player_round_end: str = "pass_or_max"
    refill_mode: str = "up_to_hand_size"
    refill_order: str = "highest_first"
    tie_break: str = "highest_this_round_then_shared"
    exact_finish: bool = False
    advance_mode: str = "role"

    def __post_init__(self) -> None:
        values = [v for v, _ in self.deck]
        if not self.deck or len(set(values)) != len(values):
            raise VariantError(f"deck must list each value once, not {self.deck}")
        if not all(0 <= v <= 99 and 1 <= c <= 20 for v, c in self.deck):
            raise VariantError(f"deck values must be 0-99 with 1-20 copies each, not {self.deck}")
        if self.special_spaces:
            raise VariantError("special_spaces: no effect of a special space is defined (donkey-race.md D.2)")
        check_variant(VARIANTS, self)
        if self.donkey_mode != "plain_value" and not self.donkey:
            raise VariantError(f"donkey_mode {self.donkey_mode} needs donkey=true")

    # -- the deck -------------------------------------------------------------------------------------

    def composition(self) -> tuple[int, ...]:
        """Every card of the box as a sorted tuple of codes (D.2): 105 cards by default."""
        cards = [v for v, copies in self.deck for _ in range(copies)]
        cards += [JOKER] * self.jokers + ([DONKEY] if self.donkey else [])
        return tuple(sorted(cards))

    @property
    def max_value(self) -> int:
        """The highest number card's value (13 by default)."""
        return max(v for v, _ in self.deck)

    @property
    def top_value(self) -> int:
        """The highest value any set can have (D.4.3): ``max_value``, + 1 with jokers (a lone joker)."""
        return self.max_value + (1 if self.jokers else 0)

    def value_of(self, code: int) -> int:
        """A non-joker card's value: a number card's own, the donkey's ``donkey_value`` (D.5)."""
        if code == DONKEY:
            return self.donkey_value
        if code < 0:
            raise ValueError(f"card {card_name(code)} has no value of its own")
        return code

    # -- JSON and variants ----------------------------------------------------------------------------

    def to_dict(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["deck"] = [list(pair) for pair in self.deck]
        data["special_spaces"] = list(self.special_spaces)
        return data

    @classmethod
    def from_dict(cls, data: Mapping) -> "DonkeyRaceConfig":
        """Inverse of :meth:`to_dict`."""
        values = dict(data)
        values["deck"] = tuple((int(v), int(c)) for v, c in values.get("deck", STANDARD_DECK))
        values["special_spaces"] = tuple(values.get("special_spaces", ()))
        return cls(**values)

    @classmethod
    def from_variant(cls, settings: Mapping[str, object] | None) -> "DonkeyRaceConfig":
        """Build from ``KEY=VALUE`` settings (command-line strings or JSON/TOML values).

        ``deck`` takes ``"1-13x8"`` or ``"1-10x8,11-13x4,0x1"`` (ranges with copies) or a list of
        [value, copies] pairs; booleans take true/false/yes/no/1/0. Raises :class:`VariantError`.
        """
        return cls(**parse_variant("donkey-race", VARIANTS, settings))


def parse_deck(raw: object) -> tuple[tuple[int, int], ...]:
    """``"1-13x8"`` / ``"1-10x8,11-13x4"`` / ``[[1, 8], ...]`` -> sorted (value, copies) pairs.

    Raises ``ValueError`` on malformed text or a value listed twice.
    """
    pairs: list[tuple[int, int]] = []
    if isinstance(raw, str):
        for part in raw.split(","):
            span, _, copies = part.strip().partition("x")
            low, _, high = span.partition("-")
            if not 0 <= int(low) <= int(high or low) <= 99:  # before the loop: "0-99999999999" would never end
                raise ValueError(f"deck values are 0-99 in ascending spans, not {span!r}")
            for value in range(int(low), int(high or low) + 1):
                pairs.append((value, int(copies or 1)))
    else:
        pairs = [(int(v), int(c)) for v, c in raw]  # type: ignore[attr-defined]
    if len({v for v, _ in pairs}) != len(pairs):
        raise ValueError("a deck value is listed twice")
    return tuple(sorted(pairs))


VARIANTS = (
    VariantKey("deck", "deck", STANDARD_DECK, rule="donkey-race.md D.2", parse=parse_deck),
    VariantKey("donkey", "bool", True, rule="donkey-race.md D.2"),
    VariantKey("donkey_value", "int", 0, range=(0, 99), rule="donkey-race.md D.5"),
    VariantKey("jokers", "int", 0, range=(0, 10), rule="donkey-race.md D.5"),
    VariantKey("hand_size", "int", 3, range=(1, 6), rule="donkey-race.md D.3.2"),
    VariantKey("track_length", "int", 20, range=(1, 200), rule="donkey-race.md D.2"),
    VariantKey("special_spaces", "ints", (), rule="donkey-race.md D.2"),
    VariantKey("donkey_mode", "str", "plain_value", choices=DONKEY_MODES, rule="donkey-race.md D.5", menu=DONKEY_MODES,
               label=N_("Donkey card"), menu_labels=(N_("a card worth its value"), N_("starts a donkey round"),
                                                   N_("only picks the first leader"))),
    VariantKey("leader_may_pass", "bool", False, rule="donkey-race.md D.4.1", menu=(False, True),
               label=N_("The leader may pass")),
    VariantKey("must_raise_if_able", "bool", False, rule="donkey-race.md D.4.2", menu=(False, True),
               label=N_("Raise when you can")),
    VariantKey("allow_equal_raise", "bool", False, rule="donkey-race.md D.5"),
    VariantKey("two_player_round_end", "str", "pass_or_max", choices=TWO_PLAYER_ENDS, rule="donkey-race.md D.4.3"),
    VariantKey("refill_mode", "str", "up_to_hand_size", choices=REFILL_MODES, rule="donkey-race.md D.4.6"),
    VariantKey("refill_order", "str", "highest_first", choices=REFILL_ORDERS, rule="donkey-race.md D.4.6"),
    VariantKey("tie_break", "str", "highest_this_round_then_shared", choices=TIE_BREAKS, rule="donkey-race.md D.6"),
    VariantKey("exact_finish", "bool", False, rule="donkey-race.md D.6"),
    VariantKey("advance_mode", "str", "role", choices=ADVANCE_MODES, rule="donkey-race.md D.7.14"),
)
"""Every variant key of the donkey race (donkey-race.md D.2-D.7)."""
