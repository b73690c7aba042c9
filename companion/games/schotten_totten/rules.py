"""Schotten Totten (Reiner Knizia) and Battle Line: the pure rules engine, one rules family (C.1, C.9).

Every rule cites ``../shared/rules/schotten-totten.md``. Vocabulary: nine **stones** (Battle Line:
flags) in a row; each has two **sides**, seat 0 (``a``) and seat 1 (``b``), of at most 3 cards; a
side with 3 cards is **complete** and forms a **formation** judged by its key (C.5,
:mod:`companion.games.schotten_totten.cards`); to **claim** a stone is to take it (C.6,
:mod:`companion.games.schotten_totten.claims`).

Turn flow as phases (``claim_timing = after_play``, the DEFAULT of C.4)::

    START (chance: who starts, C.3) -> DEAL (chance: 2 x hand size draws, C.3)
    PLAY (play a card, or pass when none can be played, C.4/C.11) -> CLAIM (claims, then end_claims;
    skipped when nothing is claimable) -> DRAW (chance: one card; skipped when the pile is empty) -> next PLAY

With ``claim_timing = start_of_turn`` the CLAIM phase comes first in a turn, before PLAY.

Hidden information (ARCHITECTURE.md): a hand holds known cards and ``None`` for a card of unknown
identity. A **full** state (simulation) knows both hands; the **table-side** state of the box knows no
hand: every draw is ``Draw(None)`` and a played card must be one not yet seen. ``observation(seat)``
hides the other seat's hand. Claims never use hands (C.6).

Tactics cards (C.10) are not implemented; ``tactics=true`` is refused. Room is left: formations are
judged on any number of cards and a stone's side size is a method.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from companion.errors import IllegalMove, VariantError
from companion.games.base import CHANCE, TERMINAL, Outcome
from companion.games.schotten_totten.actions import Action, Claim, Draw, EndClaims, Pass, Play, StartWith
from companion.games.schotten_totten.cards import Card, parse_card
from companion.games.schotten_totten.claims import SIDE_SIZE, ClaimVerdict, claim_tables
from companion.games.schotten_totten.config import SchottenTottenConfig
from companion.i18n import N_

NUM_STONES = 9  # C.2 / C.9: nine stones (flags)
NUM_SEATS = 2  # C.1: two players only
SEAT_NAMES = ("a", "b")
WIN_POINTS = 5  # C.8: the winner of a game scores 5
ADJACENT_TO_WIN = 3  # C.7 breakthrough
TOTAL_TO_WIN = 5  # C.7 envelopment


# ----------------------------------------------------------------------------------------------------
# State


def parse_seat(value: object, what: str) -> int | None:
    """Seat 0 for ``"a"``, 1 for ``"b"``, None for None; ``ValueError`` naming ``what`` otherwise."""
    if value is None:
        return None
    if value in SEAT_NAMES:
        return SEAT_NAMES.index(str(value))
    raise ValueError(f"{what} must be \"a\", \"b\" or null, not {value!r}")



def parse_side(raw: object, max_value: int, where: str) -> tuple[Card, ...]:
    """The cards of one side of a stone from a JSON list of card codes (None: none); ``ValueError`` naming
    ``where`` for a bad code or more than :data:`SIDE_SIZE` cards (C.4)."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ValueError(f"{where}: a list of card codes expected")
    cards = tuple(parse_card(str(code), max_value) for code in raw)
    if len(cards) > SIDE_SIZE:
        raise ValueError(f"{where}: at most {SIDE_SIZE} cards a side (schotten-totten.md C.4)")
    return cards



def _stone_to_dict(stone: Stone) -> dict:
    return {"a": [c.code for c in stone.cards[0]], "b": [c.code for c in stone.cards[1]],
            "completed": list(stone.completed), "owner": None if stone.owner is None else SEAT_NAMES[stone.owner]}


class Phase(enum.Enum):
    """Where the game stands (see the module docstring)."""

    START = "start"
    DEAL = "deal"
    PLAY = "play"
    CLAIM = "claim"
    DRAW = "draw"
    OVER = "over"


@dataclass(frozen=True)
class Stone:
    """One boundary stone (C.2). cards[seat]: that side's cards in the order played (0-3).
    completed[seat]: the play number (``SchottenTottenState.plays`` after the card) at which that side
    got its third card, or None; the lower completed first (the tie rule, C.5). owner: the seat that
    claimed the stone (C.6), or None while open."""

    cards: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    completed: tuple[int | None, int | None] = (None, None)
    owner: int | None = None

    def side_size(self) -> int:
        """Cards a side needs here: 3 (C.6; Mud, C.10, will make it 4)."""
        return SIDE_SIZE

    def has_room(self, seat: int) -> bool:
        """Whether ``seat`` may still play here: open, fewer than 3 own cards (C.4 step 1)."""
        return self.owner is None and len(self.cards[seat]) < self.side_size()

    def first_complete(self) -> int | None:
        """The seat that completed its side first, or None when not both complete or unknown (C.5)."""
        a, b = self.completed
        if a is None or b is None or a == b:
            return None
        return 0 if a < b else 1


def _other(seat: int) -> int:
    return 1 - seat


@dataclass(frozen=True)
class SchottenTottenState:
    """One immutable position. stones: nine :class:`Stone` left to right. hands[seat]: cards in hand,
    ``None`` for a card of unknown identity. pile: cards left in the draw pile (C.3). active: the seat
    whose turn it is (-1 before START). turn: 1-based count of turns begun. plays: cards placed so far
    (the clock of the tie rule, C.5). winner: the winning seat, None while running or for a draw.
    ended: ``""`` while running, else ``"breakthrough"`` (3 adjacent), ``"envelopment"`` (5 stones), C.7,
    or ``"stall"`` (C.11)."""

    config: SchottenTottenConfig
    phase: Phase = Phase.START
    active: int = -1
    stones: tuple[Stone, ...] = (Stone(),) * NUM_STONES
    hands: tuple[tuple[Card | None, ...], tuple[Card | None, ...]] = ((), ())
    pile: int = 0
    turn: int = 0
    plays: int = 0
    winner: int | None = None
    ended: str = ""

    # -- construction -------------------------------------------------------------------------------

    @classmethod
    def new(cls, config: SchottenTottenConfig | None = None) -> "SchottenTottenState":
        """The initial state: the whole deck in the pile, the first player and the deal still to come (C.3)."""
        config = config or SchottenTottenConfig()
        return cls(config=config, pile=len(config.deck))

    # -- queries --------------------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """Two seats, always (C.1)."""
        return NUM_SEATS

    @property
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` (start, deal, draw) or :data:`TERMINAL`."""
        if self.phase in (Phase.START, Phase.DEAL, Phase.DRAW):
            return CHANCE
        if self.phase is Phase.OVER:
            return TERMINAL
        return self.active

    def table_cards(self) -> tuple[Card, ...]:
        """Every card face up at the stones, claimed stones included (what a proof may use, C.6)."""
        return tuple(c for stone in self.stones for side in stone.cards for c in side)

    def seen_mask(self) -> int:
        """Bit mask (:class:`ClaimTables` indices) of :meth:`table_cards`."""
        return claim_tables(self.config.max_value).mask(self.table_cards())

    def unknown_cards(self) -> tuple[Card, ...]:
        """Cards whose place is unknown to whoever holds this state: the deck minus the table and the
        known hand cards (in a full state, exactly the pile)."""
        known = set(self.table_cards()) | {c for hand in self.hands for c in hand if c is not None}
        return tuple(c for c in self.config.deck if c not in known)

    def is_full(self) -> bool:
        """Whether every hand card is known (a simulation's state)."""
        return all(c is not None for hand in self.hands for c in hand)

    def stones_of(self, seat: int) -> int:
        """Stones ``seat`` has claimed."""
        return sum(1 for s in self.stones if s.owner == seat)

    def claim_verdict(self, stone: int, seat: int) -> ClaimVerdict:
        """Whether ``seat`` may claim ``stone`` now, as if it were its turn (C.6), with the reason.

        Uses the table only. Raises ``ValueError`` for a stone outside 0-8.
        """
        if not 0 <= stone < NUM_STONES:
            raise ValueError(f"no stone {stone}: stones are 0-8")
        s = self.stones[stone]
        if s.owner is not None:
            return ClaimVerdict(False, "claimed")
        first = s.first_complete()
        mine_first = None if first is None else first == seat
        return claim_tables(self.config.max_value).verdict(s.cards[seat], s.cards[_other(seat)],
                                                           self.seen_mask(), mine_first)

    def claimable_stones(self, seat: int) -> tuple[int, ...]:
        """Stones ``seat`` may claim now, ascending (C.6), as if it were its turn."""
        tables = claim_tables(self.config.max_value)
        seen = self.seen_mask()
        result = []
        for i, s in enumerate(self.stones):
            if s.owner is not None or len(s.cards[seat]) < SIDE_SIZE:
                continue
            first = s.first_complete()
            mine_first = None if first is None else first == seat
            if tables.verdict(s.cards[seat], s.cards[_other(seat)], seen, mine_first).claimable:
                result.append(i)
        return tuple(result)

    def can_play(self, seat: int) -> bool:
        """Whether ``seat`` holds a card and has room at an open stone (C.4 step 1)."""
        return bool(self.hands[seat]) and any(s.has_room(seat) for s in self.stones)

    def legal_plays(self) -> tuple[Play, ...]:
        """Every :class:`Play` of the active seat (C.4 step 1); for a hand card of unknown identity,
        every card not yet seen."""
        hand = self.hands[self.active]
        cards = {c for c in hand if c is not None}
        if None in hand:
            cards |= set(self.unknown_cards())
        rooms = [i for i, s in enumerate(self.stones) if s.has_room(self.active)]
        return tuple(Play(c, i) for c in sorted(cards) for i in rooms)

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions allowed now (chance phases: those of :meth:`chance_outcomes`)."""
        if self.phase is Phase.PLAY:
            return self.legal_plays() or (Pass(),)
        if self.phase is Phase.CLAIM:
            return tuple(Claim(i) for i in self.claimable_stones(self.active)) + (EndClaims(),)
        if self.phase in (Phase.START, Phase.DEAL, Phase.DRAW):
            return tuple(a for a, _ in self.chance_outcomes())
        return ()

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        """START: each seat with probability 1/2 (C.3, any method). DEAL/DRAW in a full state: each card
        not on the table nor in a hand, equally likely (a shuffled pile); in a table-side state the
        drawn card is unknown: ``Draw(None)`` with probability 1. Empty elsewhere."""
        if self.phase is Phase.START:
            return ((StartWith(0), Fraction(1, 2)), (StartWith(1), Fraction(1, 2)))
        if self.phase in (Phase.DEAL, Phase.DRAW):
            if not self.is_full():
                return ((Draw(None), Fraction(1)),)
            unknown = self.unknown_cards()
            return tuple((Draw(c), Fraction(1, len(unknown))) for c in unknown)
        return ()

    def deal_seat(self) -> int:
        """DEAL: the seat that receives the next card (alternating from the starting player, C.3)."""
        a, b = len(self.hands[self.active]), len(self.hands[_other(self.active)])
        return self.active if a <= b else _other(self.active)

    def outcome(self) -> Outcome | None:
        """None while running; else the winner (None: a stall draw), placings, and match points (C.8):
        5 to the winner, 1 per stone to the loser; in a draw each seat scores its stones."""
        if self.phase is not Phase.OVER:
            return None
        stones = (self.stones_of(0), self.stones_of(1))
        if self.winner is None:
            return Outcome(None, (0, 1), stones)
        loser = _other(self.winner)
        scores = [0, 0]
        scores[self.winner] = WIN_POINTS
        scores[loser] = stones[loser]
        return Outcome(self.winner, (self.winner, loser), tuple(scores))

    def observation(self, seat: int) -> "SchottenTottenState":
        """What ``seat`` may know (ARCHITECTURE.md, hidden information): the other hand's cards become
        unknown (``None``); the pile is unknown anyway."""
        hands = list(self.hands)
        hands[_other(seat)] = (None,) * len(hands[_other(seat)])
        return replace(self, hands=(hands[0], hands[1]))

    def public(self) -> "SchottenTottenState":
        """The table-side view: both hands unknown (what the shared screen may use)."""
        return replace(self, hands=((None,) * len(self.hands[0]), (None,) * len(self.hands[1])))

    def to_dict(self) -> dict:
        """Full JSON form of the state (hands with ``"?"`` for unknown cards); :meth:`from_dict` inverts it."""
        return {"config": self.config.to_dict(), "phase": self.phase.value, "active": self.active,
                "stones": [_stone_to_dict(s) for s in self.stones],
                "hands": [["?" if c is None else c.code for c in hand] for hand in self.hands],
                "pile": self.pile, "turn": self.turn, "plays": self.plays, "winner": self.winner,
                "ended": self.ended}

    @classmethod
    def from_dict(cls, data: Mapping) -> "SchottenTottenState":
        """Inverse of :meth:`to_dict`; raises ``ValueError`` on missing or bad fields."""
        try:
            config = SchottenTottenConfig.from_variant(data["config"])
            mv = config.max_value
            stones = []
            for raw in data["stones"]:
                completed = tuple(None if x is None else int(x) for x in raw["completed"])
                stones.append(Stone((parse_side(raw["a"], mv, "a"), parse_side(raw["b"], mv, "b")),
                                    (completed[0], completed[1]), parse_seat(raw["owner"], "owner")))
            hands = tuple(tuple(None if code == "?" else parse_card(code, mv) for code in hand)
                          for hand in data["hands"])
            return cls(config=config, phase=Phase(data["phase"]), active=int(data["active"]), stones=tuple(stones),
                       hands=(hands[0], hands[1]), pile=int(data["pile"]), turn=int(data["turn"]),
                       plays=int(data["plays"]), winner=None if data["winner"] is None else int(data["winner"]),
                       ended=str(data["ended"]))
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError(f"bad Schotten Totten state: {error}") from None

    # -- transitions ---------------------------------------------------------------------------------

    def apply(self, action: Action) -> "SchottenTottenState":
        """The state after ``action``; raises :class:`IllegalMove` citing the rule broken."""
        if self.phase is Phase.OVER:
            raise IllegalMove(N_("the game is over"), "schotten-totten.md C.7")
        if isinstance(action, StartWith):
            if self.phase is not Phase.START or action.seat not in (0, 1):
                raise IllegalMove(N_("the starting player is chosen once, seat 0 or 1"), "schotten-totten.md C.3")
            return replace(self, active=action.seat, phase=Phase.DEAL)
        if isinstance(action, Draw):
            return self._draw(action.card)
        if isinstance(action, Play):
            return self._play(action)
        if isinstance(action, Pass):
            if self.phase is not Phase.PLAY:
                raise IllegalMove(N_("pass only instead of playing a card"), "schotten-totten.md C.4")
            if self.can_play(self.active):
                raise IllegalMove(N_("you can play a card, so you may not pass"), "schotten-totten.md C.4")
            return self._after_play()
        if isinstance(action, Claim):
            return self._claim(action.stone)
        if isinstance(action, EndClaims):
            if self.phase is not Phase.CLAIM:
                raise IllegalMove(N_("not claiming now"), "schotten-totten.md C.4")
            return self._after_claims()
        raise TypeError(f"not a Schotten Totten action: {action!r}")

    def _draw(self, card: Card | None) -> "SchottenTottenState":
        if self.phase not in (Phase.DEAL, Phase.DRAW):
            raise IllegalMove(N_("cards are drawn in the deal and after a turn's play"), "schotten-totten.md C.4")
        if self.pile <= 0:
            raise IllegalMove(N_("the draw pile is empty"), "schotten-totten.md C.4")
        if card is not None and card not in self.unknown_cards():
            raise IllegalMove(f"{card} is already on the table or in a hand", "schotten-totten.md C.2")
        seat = self.deal_seat() if self.phase is Phase.DEAL else self.active
        hands = list(self.hands)
        hands[seat] = hands[seat] + (card,)
        state = replace(self, hands=(hands[0], hands[1]), pile=self.pile - 1)
        if self.phase is Phase.DEAL:
            if all(len(h) >= self.config.hand_size for h in state.hands):
                return state._begin_turn(self.active)
            return state
        return state._begin_turn(_other(self.active))

    def _play(self, action: Play) -> "SchottenTottenState":
        if self.phase is not Phase.PLAY:
            raise IllegalMove(N_("cards are played in the play step"), "schotten-totten.md C.4")
        if not 0 <= action.stone < NUM_STONES:
            raise IllegalMove(f"no stone {action.stone}: stones are 0-8", "schotten-totten.md C.2")
        stone = self.stones[action.stone]
        seat = self.active
        if stone.owner is not None:
            raise IllegalMove(N_("that stone is claimed: nobody may add cards"), "schotten-totten.md C.6")
        if len(stone.cards[seat]) >= stone.side_size():
            raise IllegalMove(N_("you already have 3 cards at that stone"), "schotten-totten.md C.4")
        hand = self.hands[seat]
        if action.card in hand:
            i = hand.index(action.card)
        elif None in hand and action.card in self.unknown_cards():
            i = hand.index(None)
        else:
            raise IllegalMove(f"{action.card} is not in your hand", "schotten-totten.md C.4")
        hands = list(self.hands)
        hands[seat] = hand[:i] + hand[i + 1:]
        plays = self.plays + 1
        sides = list(stone.cards)
        sides[seat] = sides[seat] + (action.card,)
        completed = list(stone.completed)
        if len(sides[seat]) == stone.side_size():
            completed[seat] = plays
        new_stone = Stone((sides[0], sides[1]), (completed[0], completed[1]), None)
        stones = self.stones[:action.stone] + (new_stone,) + self.stones[action.stone + 1:]
        return replace(self, stones=stones, hands=(hands[0], hands[1]), plays=plays)._after_play()

    def _claim(self, stone: int) -> "SchottenTottenState":
        if self.phase is not Phase.CLAIM:
            raise IllegalMove(N_("claims are made in the claim step"), "schotten-totten.md C.4")
        if not 0 <= stone < NUM_STONES:
            raise IllegalMove(f"no stone {stone}: stones are 0-8", "schotten-totten.md C.2")
        verdict = self.claim_verdict(stone, self.active)
        if not verdict.claimable:
            raise IllegalMove(f"stone {stone + 1} cannot be claimed: {verdict.reason}", verdict.rule)
        old = self.stones[stone]
        stones = self.stones[:stone] + (replace(old, owner=self.active),) + self.stones[stone + 1:]
        state = replace(self, stones=stones)
        ended = state._win_by(self.active)
        if ended:  # C.11: the game can end in the middle of a claim sequence
            return replace(state, phase=Phase.OVER, winner=self.active, ended=ended)
        if state.claimable_stones(self.active):
            return state
        return state._after_claims()

    def _win_by(self, seat: int) -> str:
        """``"breakthrough"`` (3 adjacent stones), ``"envelopment"`` (5 stones) or ``""`` (C.7)."""
        owned = [s.owner == seat for s in self.stones]
        if any(all(owned[i:i + ADJACENT_TO_WIN]) for i in range(NUM_STONES - ADJACENT_TO_WIN + 1)):
            return "breakthrough"
        if sum(owned) >= TOTAL_TO_WIN:
            return "envelopment"
        return ""

    def _after_play(self) -> "SchottenTottenState":
        if self.config.claim_timing == "after_play" and self.claimable_stones(self.active):
            return replace(self, phase=Phase.CLAIM)  # C.4 step 2
        return self._end_turn()

    def _after_claims(self) -> "SchottenTottenState":
        if self.config.claim_timing == "start_of_turn":
            return replace(self, phase=Phase.PLAY)  # C.4 CONFIG: claims first, then the play
        return self._end_turn()

    def _end_turn(self) -> "SchottenTottenState":
        if self.pile > 0:
            return replace(self, phase=Phase.DRAW)  # C.4 step 3
        return self._begin_turn(_other(self.active))  # C.4/C.11: empty pile, skip the draw

    def _begin_turn(self, seat: int) -> "SchottenTottenState":
        state = replace(self, active=seat, turn=self.turn + 1)
        if state.pile == 0 and not state.can_play(0) and not state.can_play(1) \
                and not state.claimable_stones(0) and not state.claimable_stones(1):
            return state._stall()  # C.11 stall
        if self.config.claim_timing == "start_of_turn" and state.claimable_stones(seat):
            return replace(state, phase=Phase.CLAIM)
        return replace(state, phase=Phase.PLAY)

    def _stall(self) -> "SchottenTottenState":
        """C.11 DEFAULT ``most_stones``: more stones wins, equal is a draw; CONFIG ``draw``: always a draw."""
        a, b = self.stones_of(0), self.stones_of(1)
        winner = None
        if self.config.stall_resolution == "most_stones" and a != b:
            winner = 0 if a > b else 1
        return replace(self, phase=Phase.OVER, winner=winner, ended="stall")


@dataclass(frozen=True)
class SchottenTottenGame:
    """The static rules of one game (OpenSpiel's ``Game``): two seats (C.1) and the config."""

    num_players: int = NUM_SEATS
    config: SchottenTottenConfig = SchottenTottenConfig()

    def new_initial_state(self) -> SchottenTottenState:
        """Before the first player is chosen (C.3); raises ``VariantError`` unless there are two players."""
        if self.num_players != NUM_SEATS:
            raise VariantError(f"Schotten Totten is for two players, not {self.num_players} (schotten-totten.md C.1)")
        return SchottenTottenState.new(self.config)
