"""The Can't Stop advisor: which pairing to take, and whether to roll again or bank.

``advise(state, seat)`` uses public information only (the whole Can't Stop board is public).

Method (one idea: value the banked board, correct it for the other players' threats, then search the
turn exactly):

1. **Position value** (:mod:`companion.hints.cant_stop.value`): the expected number of turns a player
   still needs to claim enough columns (cant-stop.md A.4), a fitted function of each open column's
   **effort** (remaining spaces divided by the exact chance that a roll offers that column). Its
   coefficients ship in ``assets/cant_stop/value.json``, made by ``python -m
   companion.bench.cant_stop_tables --write`` (seeded, reproducible).
2. **Threats** (:mod:`companion.hints.cant_stop.threats`): a player ``r`` spaces below the top of a
   column claims it on their next turn with a binomial chance (four rolls, the column's exact chance per
   roll, three turns in four not busting); a claim wipes the others' markers there (A.7). Each player's
   expected turns become the mixture of keeping and losing each threatened column, so progress in a
   column an opponent is about to claim counts for little, and a column we are about to claim counts
   for little to them.
3. **Utility** (:mod:`companion.hints.cant_stop.search`): solo, fewer expected turns is better; with
   opponents, a race model turns our and each opponent's expected turns (the Rule-of-28-paced opponent
   needing :data:`companion.hints.cant_stop.search.OPPONENT_PACE` times the value) into a chance to
   win, so the advisor takes more risk when behind or when an opponent is one column from winning, and
   less when ahead.
4. **Turn search** (:mod:`companion.hints.cant_stop.turn`): banking keeps the runners (A.5.5), busting
   loses them (A.5.3). Once the runners' columns are fixed, the best roll-or-bank play for the whole rest
   of the turn is solved exactly by a dynamic program over the runners' heights with all 1296 rolls (126
   distinct) and their pairings (A.6); before that, one exact roll of look-ahead leads into those grids.
   A pairing (A.5.2) is chosen by the value of the position it leads to; roll or bank by comparing
   banking's utility with rolling's. Every bust chance shown is exact.

The hint's reason carries the numbers a player can weigh, each said in plain words: "Bank: 38% bust risk
would cost 5 steps in column 7", "Roll again: 23% bust risk; win chance against an equal player: 58% if you
bank, 41% if you bust", "Pair 6+9: next roll busts 0%; bank then and your win chance against an equal
player is 71%; column 8 is nearly lost: ..." (an equal player plays as well as the hints; How to play says
so). The bust risks are exact; the
win chances are the calibrated even race of :mod:`companion.hints.cant_stop.chance`, not the advisor's
own utilities (which assume a weaker, Rule-of-28-paced opponent and would tell both players "90 %").

Measured on the development machine (``companion simulate cant-stop ... --json``; code of commit ec80415,
the play unchanged since):

- ``--agents advisor --games 2000 --seed 1``: mean_turns 7.239 (the Rule of 28, ``--agents rule28
  --games 20000 --seed 1``: 10.9136; Keller's published figure 10.74).
- ``--agents advisor,rule28 --games 2000 --seed 1``: advisor wins 1585 (79.25 %); ``--agents
  rule28,advisor``: 1620 (81.0 %); 80.1 % over both seat orders. Seed 4, 1000 games each order: 776 +
  789, 78.3 %; seed 5: 816 + 831, 82.4 %; seeds 1, 4 and 5 together 6417 of 8000, 80.2 %. Developed on
  seeds 2 and 3 (500 games each order): 81.7 % and 82.5 % (80.6 % without the threats). The standard
  error of a 2000-game figure is about 0.9 points: the advisor wins about 80 % of its games against
  the Rule of 28, not reliably more.
- ``companion bench advisor --game cant-stop --games 50`` (3212 decisions; CPU time of the process, which the
  shared machine inflates least): median 0.06 ms, p95 12 ms, p99 18 ms, worst 26 ms; wall clock at load
  5 on two cores: p99 78 ms, worst 118 ms. The slow decisions are a turn's first pairing, which builds
  the grids of its look-ahead (at most four per option).
- Issue 40, ``companion bench advisor --game cant-stop --games 100 --seed 15`` on two cores, load under
  0.7: the whole search (before the deadline) median 0.44 ms, p99 36 ms, worst 101 ms (the process's
  first decision: numpy's first calls, which :func:`prepare` now makes); with the box's 20 ms deadline
  (two runs) median 0.47-0.76 ms, p99 19.6-21.4 ms, worst 26-28 ms, and 10-13 % of the decisions (a
  turn's first pairings) cut short. Replaying 40 such games with and without the deadline, about one cut
  decision in eight (1-1.4 % of all decisions) advised another action than the whole search; against the
  Rule of 28 with the deadline (seeds 11-13, 500 games each, timing-dependent) the advisor won 384, 399
  and 399 games (78.8 %) against 399, 411 and 396 (80.4 %) with the whole search: 1.6 points fewer, about
  one and a half standard errors, so a small cost of the deadline on this machine is not ruled out. ``simulate`` plays the whole search (the default
  :data:`NODES`, no clock): its figures are exactly those of the search without a budget.
"""

from __future__ import annotations

import numpy as np

from dataclasses import replace
from functools import lru_cache
from itertools import combinations

from companion.games.cant_stop import (COLUMNS, Bank, CantStopConfig, CantStopState, Choose, Phase, Roll, RollAgain,
    bust_chance)
from companion.hints.base import Budget, Hint, Meter
from companion.hints.cant_stop.chance import win_chance
from companion.hints.cant_stop.search import Valuation, drop_search, search_for
from companion.hints.cant_stop.threats import claim_chances, claim_table
from companion.hints.cant_stop.turn import _move_sets, rolls
from companion.hints.cant_stop.value import column_chances, shipped_coefficients
from companion.i18n import _, decimal, ngettext, percent


def steps_at_risk(state: CantStopState, seat: int) -> dict[int, int]:
    """{column: spaces climbed this turn} that a bust would lose (A.5.3)."""
    return {c: h - state.marker(seat, c) for c, h in state.runner_map().items() if h > state.marker(seat, c)}


# ----------------------------------------------------------------------------------------------------
# Advice

NODES = 64
"""The default node budget of one decision (:class:`companion.hints.base.Budget`): runner grids built.
More than a decision can build (six pairings, :data:`companion.hints.cant_stop.search.MAX_GRID_BUILDS`
= 4 grids each), so a hint within it is the whole search's."""

RESERVE_MS = 2.0
"""Milliseconds of a deadline kept for the work after the search (the numbers' win chances, the reason):
about 0.5-1 ms on the development machine."""


WARM_UP_ROLL = (2, 3, 4, 6)
"""The first roll of :func:`prepare`'s warm-up hints."""


def prepare(config: CantStopConfig | None = None) -> None:
    """Build the advisor's tables for the rules ``config`` before the first hint (the box calls it when a
    game starts): the 126 rolls and their pairings, each column's chance, the value function's
    coefficients (``assets/cant_stop/value.json``), the claim chances, and the moves the rolls offer every
    set of runner columns (up to ``num_runners``; a grid's own shape is built with the grid); then the
    warm-up hints of a first turn, solo and with two players (a first pairing and its roll-or-bank,
    their searches forgotten afterwards), which load what the first numpy calls load (about 30 ms the
    first time). Idempotent (cached: again for the same rules, it costs nothing); 0.2-0.4 s on the
    development machine, most of it the moves of the 231 sets of columns."""
    config = config or CantStopConfig()
    rolls()
    column_chances()
    shipped_coefficients()
    claim_table(tuple(config.column_heights))
    for size in range(1, min(config.num_runners, 3) + 1):
        for columns in combinations(range(11), size):
            _move_sets(columns)
    _warm_up(config)


@lru_cache(maxsize=8)
def _warm_up(config: CantStopConfig) -> None:
    """Two hints of a first turn (solo and two players), their turn searches forgotten afterwards."""
    for players in (1, 2):
        state = CantStopState.new(players, config)
        if state.phase is Phase.FIRST_PLAYER:
            state = state.apply(state.chance_outcomes()[0][0])
        state = state.apply(Roll(WARM_UP_ROLL))
        if state.phase is Phase.CHOOSE:
            after = state.apply(advise(state, state.active).action)
            if after.phase is Phase.DECIDE:
                advise(after, after.active)
        drop_search(state)


def advise(state: CantStopState, seat: int, budget: Budget | None = None) -> Hint:
    """The recommended action for ``seat`` in ``state``, with a one-line reason and its numbers.

    Works in the CHOOSE phase (a pairing, A.5.2/A.6) and the DECIDE phase (roll again or bank, A.5.4).
    Raises ``ValueError`` when ``seat`` is not the player to act (chance nodes, game over, another
    seat's turn). No side effects beyond a small per-turn cache of grids and valuations (the numbers of
    a look-ahead can differ in the last digits with what an earlier decision of the same turn cached,
    because a look-ahead builds at most a few new grids). Time, whole search: median well under 1 ms once
    the turn's grids exist, tens of ms for the turn's first decisions, which a deadline cuts short
    (``companion bench advisor --game cant-stop``).

    ``budget`` (:class:`companion.hints.base.Budget`; None: :data:`NODES` nodes, no deadline) bounds the
    search: a node is a runner grid built (1-5 ms each on the development machine); with a deadline,
    no grid is started that would end past it, less :data:`RESERVE_MS` (:mod:`.search`). Within
    :data:`NODES` and without a deadline the hint is the whole search's; the hint's ``nodes`` and
    ``cut`` say what it spent and whether the budget stopped it.

    The hint's ``action`` is a :class:`Choose` in CHOOSE, :class:`RollAgain` or :class:`Bank` in DECIDE.
    Its ``numbers``: ``bust_probability`` (0-1, exact: chance that the next roll busts, after the
    recommended pairing in CHOOSE), ``steps_at_risk`` (spaces climbed this turn that a bust would lose),
    ``win_by_banking`` (1.0 or 0.0), ``bank_value`` and ``roll_value`` (the utilities of banking now and
    of rolling on at best), and either ``expected_turns`` (solo: turns still needed after this turn under
    the recommended play, >= 0) or ``win_probability`` (with opponents, 0-1); in CHOOSE also ``choices``
    (legal pairings), and ``threat_column`` (2-12) with ``threat_chance`` (0-1) when the runner-up pairing
    would have climbed a column an opponent is about to claim.
    """
    if state.phase not in (Phase.CHOOSE, Phase.DECIDE) or state.active != seat:
        raise ValueError(f"seat {seat} has no decision to make now (phase {state.phase.value}, "
                         f"seat to act {state.current_player})")
    meter = Meter(budget, NODES, RESERVE_MS)
    with search_for(state).metered(meter):
        hint = _advise_choose(state, seat) if state.phase is Phase.CHOOSE else _advise_decide(state, seat)
    return replace(hint, nodes=meter.spent, cut=meter.cut)


def _numbers(state: CantStopState, seat: int, valuation: Valuation, bust: float, wins: bool) -> dict[str, float]:
    """The hint's numbers. ``win_probability``: the advisor's own utility (against a Rule-of-28-paced
    opponent, for choosing); ``win_chance_bank`` / ``win_chance_bust``: the calibrated chances the screen
    shows (:mod:`companion.hints.cant_stop.chance`), banking now or busting, against an equal player."""
    numbers = {"bust_probability": bust, "steps_at_risk": float(sum(steps_at_risk(state, seat).values())),
               "win_by_banking": 1.0 if wins else 0.0, "bank_value": valuation.bank,
               "roll_value": max(valuation.roll, -1e9)}
    if state.num_players == 1:
        numbers["expected_turns"] = max(0.0, -valuation.value)
    else:
        numbers["win_probability"] = min(1.0, max(0.0, valuation.value))
        if state.phase is Phase.DECIDE:
            numbers["win_chance_bank"] = 1.0 if wins else win_chance(state, seat, moves_first=False,
                                                                    markers=_banked(state, seat))
            numbers["win_chance_bust"] = win_chance(state, seat, moves_first=False)
    return numbers


def _banked(state: CantStopState, seat: int) -> tuple[int, ...]:
    """The seat's markers if it banked now: its runners' heights where it has runners (A.5.5)."""
    markers = list(state.markers[seat])
    for column, height in state.runner_map().items():
        markers[column - 2] = height
    return tuple(markers)


def _steps_text(steps: dict[int, int]) -> str:
    total = sum(steps.values())
    text = ngettext("{steps} step", "{steps} steps", total).format(steps=total)
    columns = ", ".join(str(c) for c in sorted(steps))
    return ngettext("{steps} in column {columns}", "{steps} in columns {columns}", len(steps)).format(
        steps=text, columns=columns)


def _advise_decide(state: CantStopState, seat: int) -> Hint:
    bust = float(bust_chance(state))
    steps = steps_at_risk(state, seat)
    if state.would_win_by_banking():
        valuation = Valuation(0.0 if state.num_players == 1 else 1.0, 0.0, -1e9, bust)
        return Hint(Bank(), _("Bank: this wins the game"), _numbers(state, seat, valuation, bust, True))
    valuation = search_for(state).valuation(state)
    numbers = _numbers(state, seat, valuation, bust, False)
    if valuation.roll > valuation.bank:
        if bust == 0 and state.num_players == 1:  # no roll can bust: name no bust (A.5.3 cannot happen)
            reason = _("Roll again: the next roll cannot bust, {saved} turns saved on average").format(
                saved=decimal(valuation.roll - valuation.bank))
        elif bust == 0:
            reason = _("Roll again: the next roll cannot bust; win chance against an equal player if you bank "
                       "now: {bank}").format(bank=percent(numbers["win_chance_bank"]))
        elif state.num_players == 1:
            reason = _("Roll again: {risk} bust risk is worth it, {saved} turns saved on average").format(
                risk=risk_text(bust), saved=decimal(valuation.roll - valuation.bank))
        else:
            reason = _("Roll again: {risk} bust risk; win chance against an equal player: {bank} if you bank, "
                       "{bust} if you bust").format(
                risk=risk_text(bust), bank=percent(numbers["win_chance_bank"]),
                bust=percent(numbers["win_chance_bust"]))
        return Hint(RollAgain(), reason, numbers)
    if bust == 0:  # banking although no roll can bust: rolling on gains nothing the advisor can see
        return Hint(Bank(), _("Bank: rolling on gains nothing now"), numbers)
    reason = _("Bank: {risk} bust risk would cost {steps}").format(risk=risk_text(bust), steps=_steps_text(steps))
    return Hint(Bank(), reason, numbers)


def risk_text(chance: float) -> str:
    """A chance (0-1) as a whole percentage that never says "0 %" of an outcome that can happen: a chance
    above 0 that rounds to 0 % reads "under 1 %" (the smallest bust chance, 1/1296, is 0.08 %)."""
    if 0 < chance < 0.005:
        return _("under {percent}").format(percent=percent(0.01))
    return percent(chance)


def _choice_text(choice: Choose) -> str:
    totals = choice.totals
    if len(totals) == 2 and totals[0] == totals[1]:
        return _("Use {total} twice").format(total=totals[0])
    if len(totals) == 2:
        return _("Pair {first}+{second}").format(first=totals[0], second=totals[1])
    return _("Use {total} only").format(total=totals[0])


def _advise_choose(state: CantStopState, seat: int) -> Hint:
    options = search_for(state).choose(state)
    # Ties: the engine's order (choices_for lists pairings in dice order).
    ranked = sorted(range(len(options)), key=lambda i: -options[i][1].value)
    choice, valuation, after = options[ranked[0]]
    runner_up = options[ranked[1]][1].value if len(ranked) > 1 else None
    wins = after.phase is Phase.OVER or (after.phase is Phase.DECIDE and after.would_win_by_banking())
    bust = float(bust_chance(after)) if after.phase is Phase.DECIDE else 0.0
    numbers = _numbers(after if after.phase is Phase.DECIDE else state, seat, valuation, bust, wins)
    numbers["choices"] = float(len(options))
    head = _choice_text(choice)
    if wins:
        reason = _("{choice}: banking then wins the game").format(choice=head)
    elif state.num_players == 1:
        turns = max(0.0, -valuation.value)
        if runner_up is None:
            reason = _("{choice}: the only choice; next roll busts {risk}").format(choice=head, risk=risk_text(bust))
        else:
            reason = _("{choice}: {turns} turns to go after this one ({other} otherwise); "
                       "next roll busts {risk}").format(
                choice=head, turns=decimal(turns), other=decimal(max(0.0, -runner_up)), risk=risk_text(bust))
    elif runner_up is None:
        reason = _("{choice}: the only choice; next roll busts {risk}").format(choice=head, risk=risk_text(bust))
    else:
        reason = _("{choice}: next roll busts {risk}; bank then and your win chance against an equal player "
                   "is {win}").format(choice=head, risk=risk_text(bust), win=percent(
                       numbers.get("win_chance_bank", numbers["win_probability"])))
        avoided = _avoided_threat(state, seat, choice, options[ranked[1]][0])
        if avoided is not None:
            column, chance = avoided
            numbers["threat_column"], numbers["threat_chance"] = float(column), chance
            reason += _("; column {column} is nearly lost: the opponent claims it next turn with {chance}"
                        ).format(column=column, chance=percent(chance))
    return Hint(choice, reason, numbers)


THREAT_NOTE = 0.5
"""An opponent's chance to claim a column on their next turn from which the reason names it."""


def threats(state: CantStopState, seat: int) -> dict[int, float]:
    """{open column: chance that some other player claims it on their next turn}, for the columns where
    that chance is at least :data:`THREAT_NOTE` (model of :mod:`companion.hints.cant_stop.threats`; A.7)."""
    heights = tuple(state.config.column_heights)
    closed = (np.asarray(state.claimed) >= 0)[None, :]
    safe = np.ones(11)
    for other in range(state.num_players):
        if other != seat:
            safe *= 1.0 - claim_chances(np.asarray(state.markers[other], float)[None, :], closed, heights)[0]
    return {c: float(1.0 - s) for c, s in zip(COLUMNS, safe) if 1.0 - s >= THREAT_NOTE}


def _avoided_threat(state: CantStopState, seat: int, chosen: Choose, other: Choose) -> tuple[int, float] | None:
    """The most threatened column that the runner-up pairing ``other`` would climb and ``chosen`` does not
    (with its claim chance), or None."""
    danger = threats(state, seat)
    columns = [c for c in set(other.totals) - set(chosen.totals) if c in danger]
    if not columns:
        return None
    column = max(columns, key=lambda c: danger[c])
    return column, danger[column]
