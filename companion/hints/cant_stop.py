"""A first Can't Stop advisor: which pairing to take, and whether to roll again or bank.

``advise(state, seat)`` looks one roll ahead, from public information only (the whole Can't Stop board
is public). It is a heuristic, not a solver; the numbers it shows are exact where they are odds.

Value model (units: "columns": 1.0 is a whole column climbed):

- A space ``h`` of column ``c`` with ``H`` spaces is worth ``h / H``; the top space is worth
  :data:`CLAIM_BONUS` more, because banking there claims the column and removes the other players'
  markers in it (cant-stop.md A.7).
- Where another player's marker stands above ours, our steps are discounted (:func:`_column_weight`):
  that player is likely to claim the column first and wipe our progress (A.7).
- The **turn value** is what banking now would keep: the value of the runners over the turn's start
  markers (A.5.5). A bust loses all of it (A.5.3).
- **Expected gain** of another roll: over all 1296 rolls, the best usable pairing's added value (A.6),
  weighted by probability; a busting roll adds nothing.

Roll or bank (DECIDE): roll again while the expected gain beats ``RISK_WEIGHT x bust chance x turn
value``; bank when banking wins the game (A.4). Pairing (CHOOSE): take the legal choice whose resulting
position is worth most under that same one-roll rule, i.e. progress now plus what the next roll is
expected to add, so that cheap runners on frequent columns are preferred to a lone step on 2 or 12.

Known limits (a stronger advisor is a later issue): no look-ahead beyond one roll, and no sense of the
race: it takes the same risks whether or not another player is about to win.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

from companion.games.cant_stop import (
    COLUMNS, Action, Bank, CantStopState, Choose, Phase, RollAgain, pairings, roll_distribution)
from companion.i18n import _, ngettext
from companion.odds import bust_probability_for_columns

CLAIM_BONUS = 0.5
"""Extra value (in columns) of standing on a column's top space: banking there claims it (A.7)."""

CONTESTED_FLOOR = 0.3
"""Least weight of a step in a column where another player's marker stands higher (A.7 risk)."""

RISK_WEIGHT = 0.8
"""Weight of ``bust chance x turn value`` against the expected gain of one more roll. Below 1 because a
one-roll look-ahead ignores that, after a good roll, the player may roll again: solo games with seed 7,
11 and 12 (1000 each) took about 0.2 turns fewer at 0.8 than at 1.0, and 0.6 and 1.25 were worse."""

WIN_VALUE = 1000.0
"""Value of a position where banking wins the game (A.4); dwarfs any progress."""


@dataclass(frozen=True)
class Hint:
    """One piece of advice for the seat to act.

    action: the recommended engine action (a :class:`Choose` in the CHOOSE phase, :class:`RollAgain`
    or :class:`Bank` in the DECIDE phase); always one of ``state.legal_actions()``.
    reason: one translated line for the players (``companion.i18n._``).
    numbers: the figures behind it: ``bust_probability`` (0-1, exact: chance that the next roll busts,
    after the recommended choice in CHOOSE), ``expected_gain`` (columns, >= 0), ``turn_value``
    (columns at stake, >= 0), ``steps_at_risk`` (spaces climbed this turn), ``win_by_banking``
    (1.0 or 0.0) and, in CHOOSE, ``score`` of the chosen pairing.
    """

    action: Action
    reason: str
    numbers: Mapping[str, float] = field(default_factory=dict, hash=False)


# ----------------------------------------------------------------------------------------------------
# Odds


@lru_cache(maxsize=None)
def _bust_for_usable(usable: frozenset[int]) -> Fraction:
    """Exact bust chance when exactly the totals ``usable`` may be used (cached; A.5.3)."""
    return bust_probability_for_columns(usable)


@lru_cache(maxsize=1)
def _rolls() -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """The 126 distinct rolls as (ways out of 1296, pairings)."""
    return tuple((int(p * 1296), pairings(roll)) for roll, p in roll_distribution())


def _single_usable(state: CantStopState) -> frozenset[int]:
    """Totals that can be used on their own now (A.6); a roll busts iff none of its totals is here."""
    return frozenset(c for c in COLUMNS if state.usable(c))


def bust_chance(state: CantStopState) -> Fraction:
    """Exact chance that the active player's next roll busts from ``state`` (A.5.3, A.6).

    Equal to :func:`companion.odds.bust_probability` (the tests check it), but cached by the set of
    usable totals so that the advisor can afford it for every candidate pairing.
    """
    return _bust_for_usable(_single_usable(state))


# ----------------------------------------------------------------------------------------------------
# Value model


def _column_weight(state: CantStopState, seat: int, column: int, height: int) -> float:
    """Weight (CONTESTED_FLOOR-1) of a step to ``height`` in ``column``: lower while another seat's
    marker stands higher there, since that player may claim the column first (A.7)."""
    top = state.height(column)
    others = max((state.marker(s, column) for s in range(state.num_players) if s != seat), default=0)
    if others <= height:
        return 1.0
    return max(CONTESTED_FLOOR, 1.0 - (others - height) / top)


def _space_value(state: CantStopState, seat: int, column: int, height: int) -> float:
    """Value (columns) of standing on ``height`` of ``column``; the top carries CLAIM_BONUS (A.7)."""
    top = state.height(column)
    value = height / top * _column_weight(state, seat, column, height)
    return value + CLAIM_BONUS if height >= top else value


def turn_value(state: CantStopState, seat: int | None = None) -> float:
    """Value (columns, >= 0) that banking now would keep: runners over the start markers (A.5.5)."""
    seat = state.active if seat is None else seat
    return sum(_space_value(state, seat, c, h) - _space_value(state, seat, c, state.marker(seat, c))
               for c, h in state.runner_map().items())


def _step_gains(state: CantStopState, seat: int) -> dict[int, tuple[float, float, bool, bool]]:
    """Per usable total: (gain of one step, gain of two steps, second step possible, needs a new runner)."""
    gains = {}
    for column in COLUMNS:
        if not state.usable(column):
            continue
        now = state.progress(column)
        top = state.height(column)
        base = _space_value(state, seat, column, now)
        one = _space_value(state, seat, column, now + 1) - base
        two_ok = now + 2 <= top
        two = _space_value(state, seat, column, min(now + 2, top)) - base
        gains[column] = (one, two, two_ok, state.runner(column) == 0)
    return gains


def expected_gain(state: CantStopState, seat: int | None = None) -> float:
    """Expected value (columns, >= 0) the next roll adds, taking the best usable pairing of each roll
    (A.6, including the last-runner choice, doubles and ``must_maximize_runners``); busts add 0."""
    seat = state.active if seat is None else seat
    gains = _step_gains(state, seat)
    if not gains:
        return 0.0
    free = state.free_runners()
    maximize = state.config.pairing_rule == "must_maximize_runners"
    total = 0.0
    for ways, pairs in _rolls():
        best_count, best = 0, 0.0
        for a, b in pairs:
            ga, gb = gains.get(a), gains.get(b)
            if a == b:
                if ga is None:
                    continue
                count, value = 1, (ga[1] if ga[2] else ga[0])  # one runner, moved once or twice
            elif ga is not None and gb is not None:
                if ga[3] and gb[3] and free < 2:
                    count, value = 1, max(ga[0], gb[0])  # A.6: competing for the last runner
                else:
                    count, value = 2, ga[0] + gb[0]
            elif ga is not None or gb is not None:
                count, value = 1, (ga or gb)[0]  # type: ignore[index]
            else:
                continue
            # must_maximize_runners: only choices moving the most runners count (A.6 CONFIG).
            if maximize and count != best_count:
                if count > best_count:
                    best_count, best = count, value
            elif not best_count or value > best:
                best_count, best = count, value
        total += ways * best
    return total / 1296


def _position_score(state: CantStopState, seat: int) -> tuple[float, float, float, float]:
    """(score, turn value, expected gain, bust chance) of a DECIDE position under the one-roll rule."""
    value = turn_value(state, seat)
    bust = float(bust_chance(state))
    if state.would_win_by_banking():
        return WIN_VALUE, value, 0.0, bust
    gain = expected_gain(state, seat)
    return value + max(0.0, _roll_margin(gain, bust, value)), value, gain, bust


def _roll_margin(gain: float, bust: float, value: float) -> float:
    """How much (columns) rolling once more is expected to beat banking; > 0 means roll (A.5.4)."""
    return gain - RISK_WEIGHT * bust * value


# ----------------------------------------------------------------------------------------------------
# Advice


def advise(state: CantStopState, seat: int) -> Hint:
    """The recommended action for ``seat`` in ``state``, with a one-line reason and its numbers.

    Works in the CHOOSE phase (a pairing, A.5.2/A.6) and the DECIDE phase (roll again or bank, A.5.4).
    Raises ``ValueError`` when ``seat`` is not the player to act (chance nodes, game over, another
    seat's turn). Pure and fast: a few ms on a Pi at most (cached exact odds, one roll of look-ahead).
    """
    if state.phase not in (Phase.CHOOSE, Phase.DECIDE) or state.active != seat:
        raise ValueError(f"seat {seat} has no decision to make now (phase {state.phase.value}, "
                         f"seat to act {state.current_player})")
    if state.phase is Phase.CHOOSE:
        return _advise_choose(state, seat)
    return _advise_decide(state, seat)


def _steps_at_risk(state: CantStopState, seat: int) -> int:
    return sum(h - state.marker(seat, c) for c, h in state.runner_map().items())


def _advise_decide(state: CantStopState, seat: int) -> Hint:
    value = turn_value(state, seat)
    steps = _steps_at_risk(state, seat)
    if state.would_win_by_banking():
        numbers = {"bust_probability": float(bust_chance(state)), "expected_gain": 0.0,
                   "turn_value": value, "steps_at_risk": float(steps), "win_by_banking": 1.0}
        return Hint(Bank(), _("Bank: this wins the game"), numbers)
    bust = float(bust_chance(state))
    gain = expected_gain(state, seat)
    numbers = {"bust_probability": bust, "expected_gain": gain, "turn_value": value,
               "steps_at_risk": float(steps), "win_by_banking": 0.0}
    steps_text = ngettext("{steps} step", "{steps} steps", steps).format(steps=steps)
    if _roll_margin(gain, bust, value) > 0:
        reason = _("Roll again: {risk:.0%} bust risk, {steps_text} at stake").format(
            risk=bust, steps_text=steps_text)
        return Hint(RollAgain(), reason, numbers)
    reason = _("Bank: {risk:.0%} bust risk would cost {steps_text}").format(risk=bust, steps_text=steps_text)
    return Hint(Bank(), reason, numbers)


def _choice_text(choice: Choose) -> str:
    totals = choice.totals
    if len(totals) == 2 and totals[0] == totals[1]:
        return _("Use {total} twice").format(total=totals[0])
    if len(totals) == 2:
        return _("Pair {first}+{second}").format(first=totals[0], second=totals[1])
    return _("Use {total} only").format(total=totals[0])


def _advise_choose(state: CantStopState, seat: int) -> Hint:
    best: tuple[float, Choose, CantStopState, tuple[float, float, float, float]] | None = None
    for choice in state.legal_actions():
        assert isinstance(choice, Choose)
        after = state.apply(choice)
        if after.phase is Phase.OVER:  # auto_stop_on_win banked and won (A.8): no next roll
            moved = state.choice_result(choice)
            result = (WIN_VALUE, turn_value(replace(state, runners=tuple(moved.get(c, 0) for c in COLUMNS)), seat),
                      0.0, 0.0)
        else:
            result = _position_score(after, seat)
        # Tie-break: fewer runners on the board keeps more options (A.6), then engine order.
        key = result[0] - 1e-9 * sum(1 for h in after.runners if h)
        if best is None or key > best[0]:
            best = (key, choice, after, result)
    assert best is not None, "CHOOSE phase always has a legal pairing (a bust skips it, A.5.3)"
    choice, after, (score, value, gain, bust) = best[1:]
    wins = score >= WIN_VALUE
    numbers = {"bust_probability": bust, "expected_gain": gain, "turn_value": value,
               "steps_at_risk": float(_steps_at_risk(after, seat)) if after.phase is not Phase.OVER else 0.0,
               "win_by_banking": 1.0 if wins else 0.0, "score": score}
    head = _choice_text(choice)
    if wins:
        reason = _("{choice}: banking then wins the game").format(choice=head)
    else:
        reason = _("{choice}: most progress for the risk; next roll busts {risk:.0%}").format(
            choice=head, risk=bust)
    return Hint(choice, reason, numbers)
