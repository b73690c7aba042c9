"""Schotten Totten hints: public alerts for the shared screen, and a card advisor for simulations.

- :func:`public_alerts` uses public information only (the cards on the table, ARCHITECTURE.md hidden
  information): the stones the player to act may claim now (C.6), the stones the other player may
  claim on their next turn (with one more card from the unseen ones, or already), and whether those
  claims would win the game (C.7).
- :func:`advise` is the card advisor: it knows the hand of its own seat (as in ``simulate``), never
  the opponent's. It claims every claimable stone (a claim only closes a stone in the claimant's
  favour, C.6), passes when it must (C.4), and otherwise plays the card and stone whose resulting
  board value is highest (:mod:`companion.hints.schotten_totten.eval`). Limitation: the value of the
  other stones is taken with the whole hand, so a card's use elsewhere is not charged to a play
  (charging it, with hand cards counted as sure at every stone at once, made the advisor hoard its
  good cards: it won 45-50 % against ``greedy`` instead of 72 %).

The card advisor is an anytime search over the plays (:class:`companion.hints.base.Budget`): each play
valued is a node; it values the plays in the order of what each makes of its own stone's side (the
``greedy`` player's order: formation, then fuller side, higher card, leftmost stone) and, when the
budget or the deadline stops it, recommends the best play valued so far. With every play valued
(:data:`NODES` is more than a hand of 10 cards at nine stones can offer) the choice is exactly the
whole search's, ties broken as before (the engine's order of the plays).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.schotten_totten import (NUM_STONES, SIDE_SIZE, Claim, Draw, EndClaims, Pass, Phase,
    SchottenTottenConfig, SchottenTottenState, StartWith, claim_tables, formation_key)
from companion.hints.base import Budget, Hint, Meter
from companion.hints.schotten_totten.eval import Evaluator, beat_chance, board_value, prepare_tables
from companion.i18n import _

MY_DRAW_WEIGHT = 2.0
"""Scale of my own chance to draw a given unseen card. Tuned against ``greedy`` (400 games, seed 2):
0.6 won 56 %, 1.0 72 %, 1.5 77 %, 2.0 75 %, 3.0 67 % (before the other two knobs were set)."""

THEIR_DRAW_WEIGHT = 0.8
"""Scale of the opponent's chance to hold or draw a given unseen card. With MY_DRAW_WEIGHT 2.0 (seed 2):
1.0 won 75 %, 0.8 80 %, 0.6 80 %."""


NODES = 100
"""The default node budget of one decision (:class:`companion.hints.base.Budget`): plays valued. More
than a hand can offer (10 cards, the largest ``hand_size``, at nine stones: 90), so a hint within it
values every play."""


RESERVE_MS = 1.0
"""Milliseconds of a deadline kept for the work after the search (the reason)."""


def prepare(config: SchottenTottenConfig | None = None) -> None:
    """Build the tables of the rules ``config`` before the first hint (the box calls it when a game
    starts): the claim tables (:func:`companion.games.schotten_totten.claim_tables`: every formation's
    key, about 0.2-0.4 s on the development machine), every 3-card set's strength and, for every 0-2
    cards on a side, the sets that complete it (:mod:`.eval`); then a warm-up hint and alerts on the
    first hand (what the first numpy calls load). Idempotent (cached)."""
    config = config or SchottenTottenConfig()
    prepare_tables(config.max_value)
    state = SchottenTottenState.new(config).apply(StartWith(0))
    while state.phase is Phase.DEAL or state.phase is Phase.DRAW:
        state = state.apply(Draw(state.unknown_cards()[0]))
    if state.phase is Phase.PLAY:
        advise(state.observation(state.active), state.active)
        public_alerts(state)


@dataclass(frozen=True)
class Alerts:
    """Public alerts (stones 0-8). claimable: the player to act may claim these now (C.6).
    threatened: the other player may claim these on their next turn, each in some way that turn can go
    (one card played, then claims: C.4). win_threat: in one of those ways the other player would then hold 3
    adjacent or 5 stones (C.7); winning: the stones that way claims (empty without a win threat)."""

    active: int
    claimable: tuple[int, ...]
    threatened: tuple[int, ...]
    win_threat: bool
    winning: tuple[int, ...] = ()


def next_turn_outcomes(state: SchottenTottenState, seat: int) -> tuple[frozenset[int], ...]:
    """Each set of stones ``seat`` could claim on its next turn, from public information: a turn is one card
    played, then claims (C.4), so one card completes at most one side. The card is any the table does not
    show; once played it is seen, which may settle a proof on a stone already full (C.6). With
    ``claim_timing = start_of_turn`` the claims come before the play: only the stones claimable now."""
    tables = claim_tables(state.config.max_value)
    seen = state.seen_mask()
    now = frozenset(state.claimable_stones(seat))
    if state.config.claim_timing == "start_of_turn":
        return (now,)
    unseen = [c for c in state.config.deck if not seen >> tables.index(c) & 1]
    full, open_two = [], []
    for i, stone in enumerate(state.stones):
        if stone.owner is not None or i in now:
            continue
        if len(stone.cards[seat]) == SIDE_SIZE:
            full.append(i)
        elif len(stone.cards[seat]) == SIDE_SIZE - 1:
            open_two.append(i)
    outcomes = {now}
    for card in unseen:
        seen_now = seen | (1 << tables.index(card))
        settled = set()
        for i in full:  # the card played elsewhere may be what the other side was still waiting for
            stone = state.stones[i]
            first = stone.first_complete()
            if tables.verdict(stone.cards[seat], stone.cards[1 - seat], seen_now,
                              None if first is None else first == seat).claimable:
                settled.add(i)
        outcomes.add(now | settled)
        for i in open_two:
            stone = state.stones[i]
            mine_first = len(stone.cards[1 - seat]) < SIDE_SIZE  # completing now: first unless the other is full
            if tables.verdict(stone.cards[seat] + (card,), stone.cards[1 - seat], seen_now, mine_first).claimable:
                outcomes.add(now | settled | {i})
    return tuple(sorted(outcomes, key=lambda o: (len(o), sorted(o))))


def next_turn_claims(state: SchottenTottenState, seat: int) -> tuple[int, ...]:
    """Stones ``seat`` could claim on its next turn (in some way that turn can go: :func:`next_turn_outcomes`),
    ascending."""
    return tuple(sorted(set().union(*next_turn_outcomes(state, seat))))


def public_alerts(state: SchottenTottenState) -> Alerts:
    """The alerts of the shared screen, from the table only (hands are ignored)."""
    table = state.public()
    active = max(state.active, 0)
    claimable = table.claimable_stones(active)
    outcomes = next_turn_outcomes(table, 1 - active)
    threatened = tuple(sorted(set().union(*outcomes)))
    held = {i for i, s in enumerate(table.stones) if s.owner == 1 - active}
    winning = next((o for o in outcomes if o and _wins(held | o)), frozenset())
    return Alerts(active, claimable, threatened, bool(winning), tuple(sorted(winning)))


def _wins(stones: set[int]) -> bool:
    """Whether holding ``stones`` wins: 5 of them, or 3 adjacent (C.7)."""
    return len(stones) >= 5 or any(all(j in stones for j in range(i, i + 3)) for i in range(NUM_STONES - 2))


def _evaluator(state: SchottenTottenState, seat: int) -> Evaluator:
    """An :class:`Evaluator` for ``seat``: unseen = deck - table - own hand; the chance that an unseen
    card reaches a hand: the cards that hand will still get over the unseen count (my draws: half the
    pile; the opponent's: its hand plus half the pile), times :data:`MY_DRAW_WEIGHT` for my side."""
    tables = claim_tables(state.config.max_value)
    hand = [c for c in state.hands[seat] if c is not None]
    unseen = tables.full_mask & ~(tables.mask(state.table_cards()) | tables.mask(hand))
    count = bin(unseen).count("1") or 1
    p_mine = min(1.0, MY_DRAW_WEIGHT * (state.pile / 2) / count)
    p_theirs = min(1.0, THEIR_DRAW_WEIGHT * (len(state.hands[1 - seat]) + state.pile / 2) / count)
    return Evaluator(state.config.max_value, unseen, p_mine, p_theirs)


def stone_chance(evaluator: Evaluator, mine: tuple, theirs: tuple, hand: int) -> float:
    """Win chance (0-1) of one open stone from the two sides' final-strength distributions."""
    tables = evaluator.tables
    tie = 1.0 if len(mine) == SIDE_SIZE > len(theirs) else 0.0 if len(theirs) == SIDE_SIZE > len(mine) else 0.5
    return beat_chance(evaluator.side(tables.mask(mine), len(mine), hand, True),
                       evaluator.side(tables.mask(theirs), len(theirs), 0, False), tie)


def stone_chances(state: SchottenTottenState, seat: int, evaluator: Evaluator, hand: int) -> list[float]:
    """Win chance of each stone for ``seat`` (1 owned or claimable, 0 lost or claimable by the other)."""
    claimable = set(state.claimable_stones(seat))
    lost = set(state.claimable_stones(1 - seat))
    chances = []
    for i, stone in enumerate(state.stones):
        if stone.owner is not None:
            chances.append(1.0 if stone.owner == seat else 0.0)
        elif i in claimable:
            chances.append(1.0)
        elif i in lost:
            chances.append(0.0)
        else:
            chances.append(stone_chance(evaluator, stone.cards[seat], stone.cards[1 - seat], hand))
    return chances


def advise(state: SchottenTottenState, seat: int, budget: Budget | None = None) -> Hint:
    """The advisor's action for ``seat`` (PLAY or CLAIM phase, its own turn); uses its own hand and the
    table only. Raises ``ValueError`` when ``seat`` has no decision, or its hand is unknown in PLAY.

    ``budget`` (:class:`companion.hints.base.Budget`; None: :data:`NODES`, no deadline): a node is a play
    valued after the first (about 0.05-0.2 ms each on the development machine); the plays are valued in
    the module docstring's order and the best valued one is recommended. Within :data:`NODES` every
    play is valued. Claims and passes take no search.

    The hint's ``numbers`` for a play: ``board_value`` (sum of stone win chances plus the adjacency
    bonus, about 0-14) and ``stone_chance`` (the win chance of the stone played at, 0-1)."""
    if state.phase not in (Phase.PLAY, Phase.CLAIM) or state.active != seat:
        raise ValueError(f"seat {seat} has no decision to make now (phase {state.phase.value})")
    meter = Meter(budget, NODES, RESERVE_MS)
    if state.phase is Phase.CLAIM:
        claims = state.claimable_stones(seat)
        if claims:
            return Hint(Claim(claims[0]), _("Claim stone {n}").format(n=claims[0] + 1))
        return Hint(EndClaims(), _("Nothing to claim"))
    plays = state.legal_plays()
    if not plays:
        return Hint(Pass(), _("No card can be played: pass"))
    hand = state.hands[seat]
    if None in hand:
        raise ValueError("the advisor needs the seat's own hand")
    tables = claim_tables(state.config.max_value)
    evaluator = _evaluator(state, seat)
    hand_mask = tables.mask(hand)  # type: ignore[arg-type]
    base = stone_chances(state, seat, evaluator, hand_mask)
    seen = tables.mask(state.table_cards())
    best: tuple[float, int, int, int] | None = None
    best_play = plays[0]
    best_chance = 0.0
    for order, index in enumerate(_play_order(state, seat, plays)):
        if order and not meter.take(1):
            break
        play = plays[index]
        stone = state.stones[play.stone]
        mine = stone.cards[seat] + (play.card,)
        theirs = stone.cards[1 - seat]
        bit = 1 << tables.index(play.card)
        if len(mine) == SIDE_SIZE and tables.verdict(mine, theirs, seen | bit, len(theirs) < SIDE_SIZE).claimable:
            chance = 1.0
        elif len(theirs) == SIDE_SIZE and tables.verdict(theirs, mine, seen | bit, True).claimable:
            chance = 0.0  # the opponent completed first and can claim it whatever I add
        else:
            chance = stone_chance(evaluator, mine, theirs, hand_mask & ~bit)
        chances = list(base)
        chances[play.stone] = chance
        value = board_value(chances)
        rank = (value, -play.card.value, -play.stone, -index)  # ties: the engine's first play
        if best is None or rank > best:
            best, best_play, best_chance = rank, play, chance
    assert best is not None
    return Hint(best_play, _("Play {card} at stone {n}").format(card=best_play.card.name, n=best_play.stone + 1),
                {"board_value": best[0], "stone_chance": best_chance}, nodes=meter.spent, cut=meter.cut)


def _play_order(state: SchottenTottenState, seat: int, plays: list) -> list[int]:
    """The indices of ``plays`` in the order the search values them: the best formation the card makes of
    its stone's side first (rank, then sum; C.5), then the fuller side, the higher card, the leftmost
    stone, the engine's order."""
    def key(index: int) -> tuple:
        play = plays[index]
        side = state.stones[play.stone].cards[seat] + (play.card,)
        return (formation_key(side), len(side), play.card.value, -play.stone, -index)

    return sorted(range(len(plays)), key=key, reverse=True)
