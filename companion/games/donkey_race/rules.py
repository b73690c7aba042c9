"""The donkey card race: the pure rules engine (``../shared/rules/donkey-race.md``, section D).

Vocabulary: a **set** is 1-3 cards of one value played together; the round's **leader** plays the
first set and fixes its **count** ``n`` (D.4.1); each other player **raises** (plays ``n`` cards of a
higher value) or **passes** (D.4.2); the **highest** player made the highest play of the round and
scores 2, every other player who played scores 1 (D.4.5).

Two views of one game (ARCHITECTURE.md, hidden information):

- **full** (a simulation): every hand and the draw pile are known codes.
- **table-side** (the box): hands and the draw pile are :data:`UNKNOWN` codes; ``pool`` is the
  multiset of cards that may be behind them (the cards not face up). A play is legal only if its
  cards can still be in that player's hand: known cards of the hand, or unknown slots filled from
  ``pool``. :meth:`DonkeyRaceState.observation` turns a full state into the table-side view.

Flow::

    DRAW (chance: one card to ``draw_queue[0]``; the deal is 3 draws per seat, D.3.2)
      |-- draw pile empty -> RESHUFFLE (chance: the discards become the draw pile, D.4.7)
      '-- queue empty -> first round: the donkey holder leads, else FIRST_LEADER (chance: the players
          choose, D.3.3) -> PLAY (lead, then raise or pass, D.4) -> round end: discard, score and
          move (D.4.4-5), finish? OVER (D.6) : DRAW (refill, D.4.6) -> PLAY (the highest leads, D.4.8)

The engine never shuffles: every draw is a chance action (a uniformly random card of the pile in a
simulation, a card of unknown identity at the table).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from companion.errors import IllegalMove, VariantError
from companion.games.base import CHANCE, TERMINAL, Outcome
from companion.games.donkey_race.actions import (Action, Draw, FirstLeader, Pass, Play, Reshuffle, action_from_dict,
    action_to_dict, add_cards, remove_cards, set_value)
from companion.games.donkey_race.config import (DONKEY, JOKER, MAX_PLAYERS, MIN_PLAYERS, UNKNOWN, DonkeyRaceConfig,
    card_name)
from companion.i18n import N_

__all__ = ["DONKEY", "JOKER", "UNKNOWN", "Draw", "Reshuffle", "FirstLeader", "Play", "Pass", "Action",
           "Phase", "DonkeyRaceState", "DonkeyRaceGame", "DonkeyRaceConfig", "action_to_dict",
           "action_from_dict", "set_value"]


# ----------------------------------------------------------------------------------------------------
# State


class Phase(enum.Enum):
    """Where the game stands (module docstring)."""

    DRAW = "draw"
    RESHUFFLE = "reshuffle"
    FIRST_LEADER = "first_leader"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class DonkeyRaceState:
    """One immutable position of the donkey card race.

    hands[seat], deck (the face-down draw pile), discard, pool: sorted card codes (see the module
    docstring for full and table-side). removed: cards out of the game (the donkey under
    ``start_marker_only``). draw_queue: seats still to receive one card each, in order.
    points[seat] and positions[seat] (spaces from Start, capped at ``track_length`` only under
    ``exact_finish``). round_no: 1-based round being played (0 during the deal). leader: who led or
    leads this round. active: the seat to act in PLAY. plays: this round's actions in order, each
    (seat, cards) with ``()`` for a pass. count: the round's set size (0 before the lead). high_seat
    and high_value: the highest play so far (-1 / -1). donkey_round: a Kramer donkey round is on
    (D.5 ``kramer_round``); donkey_blocked: the donkey may not be led this round (Kramer). last_round:
    the finished round's summary for the screen: {"round": n, "highest": seat or -1, "gains": [..],
    "taken_by": the seat that took a Kramer donkey round's cards or -1, "plays": [[seat, cards], ..]}. winners: the winning seats once OVER (several = shared, D.6).
    """

    config: DonkeyRaceConfig
    num_players: int
    hidden: bool = False
    phase: Phase = Phase.DRAW
    hands: tuple[tuple[int, ...], ...] = ()
    deck: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    pool: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    draw_queue: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    positions: tuple[int, ...] = ()
    round_no: int = 0
    leader: int = -1
    active: int = -1
    plays: tuple[tuple[int, tuple[int, ...]], ...] = ()
    count: int = 0
    high_seat: int = -1
    high_value: int = -1
    donkey_round: bool = False
    donkey_blocked: bool = False
    reshuffles: int = 0
    last_round: Mapping = field(default_factory=dict, compare=False, hash=False)
    winners: tuple[int, ...] = ()

    # -- construction -------------------------------------------------------------------------------

    @classmethod
    def new(cls, num_players: int, config: DonkeyRaceConfig | None = None, *, hidden: bool = False,
            ) -> "DonkeyRaceState":
        """The state before the deal: the whole box in the draw pile, ``hand_size`` draws queued per
        seat, dealt round-robin (D.3). ``hidden``: the table-side view (every card unknown).

        Raises :class:`VariantError` for a player count outside 2-4 (D.2, D.7.15).
        """
        if not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise VariantError(f"the donkey card race takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not "
                               f"{num_players} (donkey-race.md D.2)")
        config = config or DonkeyRaceConfig()
        cards = config.composition()
        if len(cards) < num_players * config.hand_size:
            raise VariantError(f"a deck of {len(cards)} cards cannot deal {config.hand_size} to {num_players} players")
        deck, pool = ((UNKNOWN,) * len(cards), cards) if hidden else (cards, ())
        return cls(config=config, num_players=num_players, hidden=hidden, hands=((),) * num_players,
                   deck=deck, pool=pool, draw_queue=tuple(range(num_players)) * config.hand_size,
                   points=(0,) * num_players, positions=(0,) * num_players)

    # -- queries --------------------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` (draw, reshuffle, first leader) or :data:`TERMINAL`."""
        if self.phase is Phase.PLAY:
            return self.active
        return TERMINAL if self.phase is Phase.OVER else CHANCE

    @property
    def table(self) -> tuple[int, ...]:
        """The cards face up in the sectors this round, sorted."""
        return tuple(sorted(c for _, cards in self.plays for c in cards))

    def sector(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` laid in its sector this round, in play order."""
        return tuple(c for s, cards in self.plays if s == seat for c in cards)

    def acted(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.plays)

    def played(self, seat: int) -> bool:
        """Whether ``seat`` laid at least one set this round (D.4.5, D.7.9)."""
        return any(s == seat and cards for s, cards in self.plays)

    def all_cards(self) -> Counter:
        """Every card accounted for: hands, draw pile, discards, table, removed (UNKNOWN = pool slots)."""
        total: Counter = Counter()
        for part in (*self.hands, self.deck, self.discard, self.table, self.removed):
            total.update(part)
        return total

    def can_hold(self, seat: int, cards: tuple[int, ...]) -> bool:
        """Whether ``seat``'s hand can contain ``cards``: its known cards, then unknown slots that
        cards still unseen (``pool``) can fill (ARCHITECTURE.md, hidden information)."""
        hand = Counter(self.hands[seat])
        missing: Counter = Counter()
        for card, n in Counter(cards).items():
            missing[card] = max(0, n - hand[card])
        need = sum(missing.values())
        if need == 0:
            return True
        pool = Counter(self.pool)
        return need <= hand[UNKNOWN] and all(pool[c] >= n for c, n in missing.items())

    def beats(self, value: int) -> bool:
        """Whether a set of ``value`` beats the current highest play (D.5: strictly higher by default)."""
        if self.high_seat < 0:
            return True
        return value > self.high_value or (self.config.allow_equal_raise and value == self.high_value)

    def _candidate_sets(self, seat: int, sizes: range) -> list[tuple[int, ...]]:
        """Every set of a size in ``sizes`` that ``seat`` could hold (by value; jokers combined)."""
        hand = self.hands[seat]
        if UNKNOWN in hand:
            kinds = sorted(set(self.pool) | set(hand) - {UNKNOWN})
        else:
            kinds = sorted(set(hand))
        numbers = [k for k in kinds if k != JOKER]
        sets = set()
        for size in sizes:
            for value_card in numbers:
                for jokers in range(size if JOKER in kinds else 1):
                    sets.add(tuple(sorted((value_card,) * (size - jokers) + (JOKER,) * jokers)))
            if JOKER in kinds:
                sets.add((JOKER,) * size)
        return [s for s in sorted(sets) if self.can_hold(seat, s)]

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions allowed now.

        DRAW: one :class:`Draw` per distinct card of the pile (:data:`UNKNOWN` at the table).
        RESHUFFLE: (:class:`Reshuffle`,). FIRST_LEADER: a :class:`FirstLeader` per seat (with
        ``donkey=True`` too at the table). PLAY: every legal :class:`Play` (D.4, D.5) and
        :class:`Pass` where allowed.
        """
        if self.phase is Phase.DRAW:
            return tuple(Draw(c) for c in sorted(set(self.deck)))
        if self.phase is Phase.RESHUFFLE:
            return (Reshuffle(),)
        if self.phase is Phase.FIRST_LEADER:
            flags = (False, True) if self.hidden and self.config.donkey else (False,)
            return tuple(FirstLeader(s, d) for s in range(self.num_players) for d in flags)
        if self.phase is not Phase.PLAY:
            return ()
        seat = self.active
        if self.donkey_round:  # D.5 kramer_round: one card of any value, no pass
            plays = [Play(s) for s in self._candidate_sets(seat, range(1, 2))]
            return tuple(p for p in plays if self._play_problem(p) is None) or (Pass(),)
        if self.count:
            sizes = range(self.count, self.count + 1)
        else:
            sizes = range(1, min(self.config.hand_size, len(self.hands[seat])) + 1)
        plays = [Play(s) for s in self._candidate_sets(seat, sizes)]
        plays = [p for p in plays if self._play_problem(p) is None]
        if self._pass_problem(bool(plays)) is None or not plays:
            return (*plays, Pass())
        return tuple(plays)

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        """Outcomes with exact probabilities at a chance node; empty elsewhere.

        A draw is any card of the pile with equal chance per card (so per code: copies / pile size);
        at the table a draw is ``Draw(UNKNOWN)`` with probability 1. The first leader (nobody holds the
        donkey) is any seat with equal chance: who is youngest is not the engine's to know (D.3.3).
        """
        if self.phase is Phase.DRAW:
            counts = Counter(self.deck)
            return tuple((Draw(c), Fraction(n, len(self.deck))) for c, n in sorted(counts.items()))
        if self.phase is Phase.RESHUFFLE:
            return ((Reshuffle(), Fraction(1)),)
        if self.phase is Phase.FIRST_LEADER:
            return tuple((FirstLeader(s), Fraction(1, self.num_players)) for s in range(self.num_players))
        return ()

    def outcome(self) -> Outcome | None:
        """None while the game runs; else the winner (None when shared, D.6), placings by points, points."""
        if self.phase is not Phase.OVER:
            return None
        winner = self.winners[0] if len(self.winners) == 1 else None
        placings = tuple(sorted(range(self.num_players),
                                key=lambda s: (s not in self.winners, -self.points[s], s)))
        return Outcome(winner, placings, self.points)

    def observation(self, seat: int | None = None) -> "DonkeyRaceState":
        """What ``seat`` may know (None: what the shared screen may show): the other hands and the
        draw pile become :data:`UNKNOWN`, their cards join ``pool`` (ARCHITECTURE.md)."""
        hidden_cards: list[int] = []
        hands = []
        for s, hand in enumerate(self.hands):
            if s == seat:
                hands.append(hand)
            else:
                hidden_cards += [c for c in hand if c != UNKNOWN]
                hands.append((UNKNOWN,) * len(hand))
        hidden_cards += [c for c in self.deck if c != UNKNOWN]
        return replace(self, hidden=True, hands=tuple(hands), deck=(UNKNOWN,) * len(self.deck),
                       pool=add_cards(self.pool, tuple(hidden_cards)))

    # -- rule checks ----------------------------------------------------------------------------------

    def _play_problem(self, play: Play) -> IllegalMove | None:
        """Why ``play`` is illegal for the active seat now, or None (D.4, D.5)."""
        cards, seat = play.cards, self.active
        if not cards:
            return IllegalMove(N_("a play needs at least one card"), "donkey-race.md D.4.1")
        if UNKNOWN in cards:
            return IllegalMove(N_("every played card must be read"), "donkey-race.md D.4")
        if not self.can_hold(seat, cards):
            names = " ".join(map(card_name, cards))
            return IllegalMove(f"{names} cannot be in this hand: those cards are seen elsewhere or the hand "
                               f"holds fewer", "ARCHITECTURE.md hidden information; donkey-race.md D.2")
        if self.donkey_round:
            if len(cards) != 1:
                return IllegalMove(N_("in a donkey round each player plays exactly one card"), "donkey-race.md D.5")
            return None
        if DONKEY in cards and self.config.donkey_mode == "start_marker_only":
            return IllegalMove(N_("the donkey card only decides the first leader"), "donkey-race.md D.5")
        try:
            value = set_value(cards, self.config)
        except ValueError:
            return IllegalMove(N_("a set is cards of one value"), "donkey-race.md D.5")
        if self.count == 0:
            if len(cards) > self.config.hand_size:
                return IllegalMove(f"a lead is at most {self.config.hand_size} cards", "donkey-race.md D.4.1")
            if DONKEY in cards and self.config.donkey_mode == "kramer_round":
                if len(cards) != 1:
                    return IllegalMove(N_("the donkey is led alone"), "donkey-race.md D.5")
                if self.donkey_blocked:
                    return IllegalMove(N_("the donkey cannot be led again at once"), "donkey-race.md D.2 (Kramer)")
            return None
        if len(cards) != self.count:
            return IllegalMove(f"this round is played with {self.count} cards", "donkey-race.md D.4.2")
        if not self.beats(value):
            word = "as high as" if self.config.allow_equal_raise else "higher than"
            return IllegalMove(f"a raise must be {word} {self.high_value}", "donkey-race.md D.5")
        return None

    def _pass_problem(self, can_play: bool) -> IllegalMove | None:
        """Why the active seat may not pass, or None (D.4.1-2, D.7.5)."""
        if not can_play:
            return None
        if self.donkey_round:
            return IllegalMove(N_("nobody may pass in a donkey round"), "donkey-race.md D.5")
        if self.count == 0 and not self.config.leader_may_pass:
            return IllegalMove(N_("the leader must lead"), "donkey-race.md D.4.1")
        if self.count and self.config.must_raise_if_able:
            return IllegalMove(N_("a player who can raise must raise (must_raise_if_able)"), "donkey-race.md D.4.2")
        return None

    # -- transitions ----------------------------------------------------------------------------------

    def apply(self, action: Action) -> "DonkeyRaceState":
        """The state after ``action``. Raises :class:`IllegalMove` naming the rule when it is not legal."""
        if self.phase is Phase.OVER:
            raise IllegalMove(N_("the game is over"), "donkey-race.md D.6")
        if isinstance(action, Draw):
            return self._draw(action)
        if isinstance(action, Reshuffle):
            if self.phase is not Phase.RESHUFFLE:
                raise IllegalMove(N_("the discards are reshuffled only when the draw pile is empty"), "donkey-race.md D.4.7")
            cards = self.discard
            deck, pool = ((UNKNOWN,) * len(cards), add_cards(self.pool, cards)) if self.hidden else (cards, self.pool)
            after = replace(self, deck=deck, pool=pool, discard=(), reshuffles=self.reshuffles + 1,
                            phase=Phase.DRAW)
            return after._continue_drawing()
        if isinstance(action, FirstLeader):
            return self._first_leader(action)
        if self.phase is not Phase.PLAY:
            raise IllegalMove(N_("no player is to act now"), "donkey-race.md D.4")
        if isinstance(action, Play):
            problem = self._play_problem(action)
            if problem is not None:
                raise problem
            return self._play(action.cards)
        if isinstance(action, Pass):
            problem = self._pass_problem(any(isinstance(a, Play) for a in self.legal_actions()))
            if problem is not None:
                raise problem
            return self._after_act(replace(self, plays=self.plays + ((self.active, ()),)), passed=True)
        raise IllegalMove(f"not a donkey-race action: {action!r}", "donkey-race.md D.4")

    def _draw(self, action: Draw) -> "DonkeyRaceState":
        if self.phase is not Phase.DRAW:
            raise IllegalMove(N_("no card is to be drawn now"), "donkey-race.md D.4.6")
        if action.card not in self.deck:
            raise IllegalMove(f"the draw pile holds no {card_name(action.card)}", "donkey-race.md D.3.2")
        seat = self.draw_queue[0]
        hands = list(self.hands)
        hands[seat] = add_cards(hands[seat], (action.card,))
        after = replace(self, deck=remove_cards(self.deck, (action.card,)), hands=tuple(hands),
                        draw_queue=self.draw_queue[1:])
        return after._continue_drawing()

    def _continue_drawing(self) -> "DonkeyRaceState":
        """Next chance node while draws are queued (D.4.6-7); then the first leader or the next round."""
        if self.draw_queue:
            if self.deck:
                return replace(self, phase=Phase.DRAW)
            if self.discard:
                return replace(self, phase=Phase.RESHUFFLE)
            # D.7.10: both piles empty (impossible with the standard deck): the remaining draws lapse.
            return replace(self, draw_queue=())._continue_drawing()
        if self.round_no == 0:
            holder = [s for s, hand in enumerate(self.hands) if DONKEY in hand]
            if holder and not self.hidden:
                return self._first_leader(FirstLeader(holder[0], donkey=True), checked=True)
            return replace(self, phase=Phase.FIRST_LEADER)
        return replace(self, phase=Phase.PLAY)

    def _first_leader(self, action: FirstLeader, checked: bool = False) -> "DonkeyRaceState":
        """D.3.3: the donkey holder leads the first round, else whom the players choose (D.7.4)."""
        if self.phase is not Phase.FIRST_LEADER and not checked:
            raise IllegalMove(N_("the first leader is decided once, after the deal"), "donkey-race.md D.3.3")
        if not 0 <= action.seat < self.num_players:
            raise IllegalMove(f"no seat {action.seat}", "donkey-race.md D.3.3")
        hands = list(self.hands)
        pool, removed, queue = self.pool, self.removed, ()
        if action.donkey:
            if not self.config.donkey:
                raise IllegalMove(N_("this deck has no donkey card"), "donkey-race.md D.2")
            if not self.can_hold(action.seat, (DONKEY,)):
                raise IllegalMove(N_("that player cannot hold the donkey card"), "donkey-race.md D.3.3")
            if DONKEY not in hands[action.seat]:  # table: the shown card becomes known
                hands[action.seat] = add_cards(remove_cards(hands[action.seat], (UNKNOWN,)), (DONKEY,))
                pool = remove_cards(pool, (DONKEY,))
            if self.config.donkey_mode == "start_marker_only":  # D.5: set aside, holder draws anew
                hands[action.seat] = remove_cards(hands[action.seat], (DONKEY,))
                removed, queue = (DONKEY,), (action.seat,)
        elif not self.hidden and any(DONKEY in hand for hand in self.hands):
            raise IllegalMove(N_("the player holding the donkey card leads"), "donkey-race.md D.3.3")
        deck = self.deck
        if self.config.donkey_mode == "start_marker_only" and not removed and self.config.donkey:
            # D.5: nobody holds it, so it lies in the draw pile: it is taken out before the first round.
            removed = (DONKEY,)
            if self.hidden:
                deck, pool = deck[1:], remove_cards(pool, (DONKEY,))
            else:
                deck = remove_cards(deck, (DONKEY,))
        after = replace(self, hands=tuple(hands), pool=pool, removed=removed, draw_queue=queue, deck=deck,
                        round_no=1, leader=action.seat, active=action.seat)
        return after._continue_drawing()

    def _play(self, cards: tuple[int, ...]) -> "DonkeyRaceState":
        seat = self.active
        hand = Counter(self.hands[seat])
        known: list[int] = []
        for card in cards:  # known cards of the hand first, then unknown slots (can_hold)
            if hand[card] > 0:
                hand[card] -= 1
                known.append(card)
        unseen = remove_cards(cards, tuple(known))
        known = tuple(known)  # type: ignore[assignment]
        hands = list(self.hands)
        hands[seat] = remove_cards(remove_cards(self.hands[seat], known), (UNKNOWN,) * len(unseen))
        pool = remove_cards(self.pool, unseen)
        kramer = self.config.donkey_mode == "kramer_round"
        if self.donkey_round:
            value = set_value(cards, self.config, donkey_round=True)
            higher = value > self.high_value
        else:
            value = set_value(cards, self.config)
            higher = True
        donkey_round = self.donkey_round or (kramer and self.count == 0 and cards == (DONKEY,))
        after = replace(self, hands=tuple(hands), pool=pool, plays=self.plays + ((seat, cards),),
                        count=self.count or len(cards), donkey_round=donkey_round,
                        high_seat=seat if higher else self.high_seat,
                        high_value=value if higher else self.high_value)
        return self._after_act(after, passed=False)

    def _after_act(self, after: "DonkeyRaceState", passed: bool) -> "DonkeyRaceState":
        """Round end or the next seat to act (D.4.2-3)."""
        n = self.num_players
        if n == 2 and not after.donkey_round:
            last_two = after.plays[-2:]
            two_passes = len(last_two) == 2 and not last_two[0][1] and not last_two[1][1]
            if after.config.two_player_round_end == "pass_or_max":
                ends = (passed and after.high_seat >= 0) or two_passes
            else:
                ends = two_passes
            # D.4.3: a play of the highest value that can exist cannot be beaten.
            ends = ends or (not passed and after.high_value >= after.config.top_value)
            if ends:
                return after._end_round()
            return replace(after, active=1 - self.active)
        nxt = (self.active + 1) % n
        if nxt == after.leader:  # D.4.2: everyone acted once
            return after._end_round()
        return replace(after, active=nxt)

    def _end_round(self) -> "DonkeyRaceState":
        """D.4.4-8 and D.6: discard, score and move, check the finish, queue the refill."""
        config, n = self.config, self.num_players
        table = self.table
        hands, discard = list(self.hands), self.discard
        if self.donkey_round and self.high_seat >= 0:  # Kramer: the highest player takes the cards
            hands[self.high_seat] = add_cards(hands[self.high_seat], table)
        else:
            discard = add_cards(discard, table)
        gains = [0] * n
        for seat in range(n):
            if config.advance_mode == "cards_played":
                gains[seat] = len(self.sector(seat))
            elif seat == self.high_seat:
                gains[seat] = 2
            elif self.played(seat):
                gains[seat] = 1
        points = tuple(p + g for p, g in zip(self.points, gains))
        limit = config.track_length
        positions = tuple(min(p + g, limit) if config.exact_finish else p + g
                          for p, g in zip(self.positions, gains))
        taken = self.high_seat if self.donkey_round else -1
        summary = {"round": self.round_no, "highest": self.high_seat, "gains": gains, "taken_by": taken,
                   "plays": [[s, list(c)] for s, c in self.plays]}
        after = replace(self, hands=tuple(hands), discard=discard, points=points, positions=positions,
                        last_round=summary)
        arrived = [s for s in range(n) if positions[s] >= limit]
        if arrived:
            if config.exact_finish:  # D.6: the first to land on Finish win
                tied = [s for s in arrived if self.positions[s] < limit]
            else:  # D.6: most points win, overshoot counts
                best = max(points)
                tied = [s for s in range(n) if points[s] == best]
            if len(tied) > 1 and config.tie_break == "highest_this_round_then_shared" and self.high_seat in tied:
                tied = [self.high_seat]
            return replace(after, phase=Phase.OVER, winners=tuple(tied), plays=(), active=-1, count=0,
                           high_seat=-1, high_value=-1, donkey_round=False)
        leader = self.high_seat if self.high_seat >= 0 else self.leader  # D.4.8
        start = leader if config.refill_order == "highest_first" else 0
        order = [(start + i) % n for i in range(n)]
        queue: list[int] = []
        for seat in order:
            want = config.hand_size - len(hands[seat]) if config.refill_mode == "up_to_hand_size" else config.hand_size
            queue += [seat] * max(0, want)
        after = replace(after, round_no=self.round_no + 1, leader=leader, active=leader, plays=(), count=0,
                        high_seat=-1, high_value=-1, donkey_round=False,
                        donkey_blocked=self.donkey_round, draw_queue=tuple(queue))
        return after._continue_drawing()

    # -- JSON -----------------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """A JSON-ready dict; :meth:`from_dict` inverts it exactly."""
        return {"game": "donkey-race", "config": self.config.to_dict(), "num_players": self.num_players,
                "hidden": self.hidden, "phase": self.phase.value, "hands": [list(h) for h in self.hands],
                "deck": list(self.deck), "discard": list(self.discard), "pool": list(self.pool),
                "removed": list(self.removed), "draw_queue": list(self.draw_queue),
                "points": list(self.points), "positions": list(self.positions), "round_no": self.round_no,
                "leader": self.leader, "active": self.active,
                "plays": [[s, list(c)] for s, c in self.plays], "count": self.count,
                "high_seat": self.high_seat, "high_value": self.high_value,
                "donkey_round": self.donkey_round, "donkey_blocked": self.donkey_blocked,
                "reshuffles": self.reshuffles, "last_round": dict(self.last_round),
                "winners": list(self.winners)}

    @classmethod
    def from_dict(cls, data: Mapping) -> "DonkeyRaceState":
        """Rebuild a state from :meth:`to_dict`; ``ValueError`` on a malformed dict."""
        def cards(items) -> tuple[int, ...]:
            return tuple(int(c) for c in items)
        try:
            return cls(config=DonkeyRaceConfig.from_dict(data["config"]), num_players=int(data["num_players"]),
                       hidden=bool(data["hidden"]), phase=Phase(data["phase"]),
                       hands=tuple(cards(h) for h in data["hands"]), deck=cards(data["deck"]),
                       discard=cards(data["discard"]), pool=cards(data["pool"]), removed=cards(data["removed"]),
                       draw_queue=cards(data["draw_queue"]), points=cards(data["points"]),
                       positions=cards(data["positions"]), round_no=int(data["round_no"]),
                       leader=int(data["leader"]), active=int(data["active"]),
                       plays=tuple((int(s), cards(c)) for s, c in data["plays"]), count=int(data["count"]),
                       high_seat=int(data["high_seat"]), high_value=int(data["high_value"]),
                       donkey_round=bool(data["donkey_round"]), donkey_blocked=bool(data["donkey_blocked"]),
                       reshuffles=int(data["reshuffles"]), last_round=dict(data["last_round"]),
                       winners=cards(data["winners"]))
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a donkey-race state: {error}") from None


@dataclass(frozen=True)
class DonkeyRaceGame:
    """The static rules of one game: player count (2-4) and the variant (D.2-D.7)."""

    num_players: int
    config: DonkeyRaceConfig = field(default_factory=DonkeyRaceConfig)

    def new_initial_state(self, hidden: bool = False) -> DonkeyRaceState:
        """Before the deal; ``hidden`` for the table-side view."""
        return DonkeyRaceState.new(self.num_players, self.config, hidden=hidden)

