"""Michael Keller's "Rule of 28" for Can't Stop: the published baseline the advisor is measured against.

Where the numbers come from: Keller, "Can't Stop? Try the Rule of 28" (solitairelaboratory.com,
cantstop.html), in the form Glenn and Aloi restate it ("A Generalized Heuristic for Can't Stop",
FLAIRS 2009, section 2) and reuse as the base of their generalized "Rule of N" strategies:

- **Progress weights** (:data:`PROGRESS_WEIGHTS`): each step a runner climbs this turn in column 2..12 adds
  6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6 points (the rarer the total, the more a step is worth). The step that
  places a runner on a column counts **double** (a new runner is a new way to bust).
- **Adjustments** (:data:`ODD_ADJUSTMENT`, :data:`EVEN_ADJUSTMENT`, :data:`HIGH_LOW_ADJUSTMENT`), counted
  once all three runners are on the board: +2 when all three columns are odd, -2 when all are even
  (three odd totals are harder to roll together than three even ones), +4 when all are on 7 or above
  and +4 when all are on 7 or below (one-sided columns share dice).
- **Threshold** (:data:`THRESHOLD`): stop once the count reaches 28, and always stop when stopping wins
  the game (cant-stop.md A.4).
- **Pairing choice** (Glenn and Aloi's move scoring for the Rule of 28): each step in column 2..12 scores
  1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 (:data:`MOVE_WEIGHTS`, the frequent middle columns first), minus 6
  (:data:`NEW_RUNNER_PENALTY`) for each runner it places; the highest score is taken, ties going to the
  engine's first listed choice. The odd/even and high/low adjustments are not applied to the pairing
  choice.

Solo, this rule needs about 10.74 turns on average to claim three columns (Keller's figure; Glenn and
Aloi report the same order). The count is recomputed from the board at each decision (runners against
the turn's start markers), so the agent is stateless.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.cant_stop import Bank, CantStopState, Choose, Phase, RollAgain

PROGRESS_WEIGHTS = {2: 6, 3: 5, 4: 4, 5: 3, 6: 2, 7: 1, 8: 2, 9: 3, 10: 4, 11: 5, 12: 6}
"""Points per step climbed this turn, by column (Keller)."""

MOVE_WEIGHTS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
"""Points per step when scoring a pairing choice, by column (Glenn and Aloi's Rule of 28 move scoring)."""

NEW_RUNNER_PENALTY = 6
"""Points a pairing choice loses per runner it places (Glenn and Aloi)."""

ODD_ADJUSTMENT = 2
"""Added when all three runners stand on odd columns (Keller)."""

EVEN_ADJUSTMENT = -2
"""Added when all three runners stand on even columns (Keller)."""

HIGH_LOW_ADJUSTMENT = 4
"""Added when all three runners stand on columns >= 7, and again when all stand on columns <= 7 (Keller)."""

THRESHOLD = 28
"""Stop once the count reaches this (Keller's rule's name)."""


def progress_count(state: CantStopState) -> int:
    """The Rule of 28 count of the active player's turn so far (points, >= 0).

    Steps climbed in each column since the turn began (runner height over the start marker, A.5.5),
    weighted by :data:`PROGRESS_WEIGHTS`, the placing step counted twice; plus the adjustments once
    three runners are placed.
    """
    seat = state.active
    count = 0
    runners = state.runner_map()
    for column, height in runners.items():
        steps = height - state.marker(seat, column)
        count += PROGRESS_WEIGHTS[column] * (steps + 1)  # the placing step counts double
    if len(runners) >= 3:
        placed = list(runners)
        if all(c % 2 for c in placed):
            count += ODD_ADJUSTMENT
        if not any(c % 2 for c in placed):
            count += EVEN_ADJUSTMENT
        if all(c >= 7 for c in placed):
            count += HIGH_LOW_ADJUSTMENT
        if all(c <= 7 for c in placed):
            count += HIGH_LOW_ADJUSTMENT
    return count


def choice_score(state: CantStopState, choice: Choose) -> int:
    """Glenn and Aloi's Rule of 28 score of a pairing choice: move weights per step, -6 per new runner."""
    after = state.choice_result(choice)
    score = 0
    for column, height in after.items():
        before = state.runner(column) or state.marker(state.active, column)
        if state.runner(column) == 0:
            score -= NEW_RUNNER_PENALTY
        score += MOVE_WEIGHTS[column] * (height - before)
    return score


def rule28_action(state: CantStopState) -> Any:
    """The Rule of 28's action in a CHOOSE or DECIDE state (A.5.2-A.5.5); ``ValueError`` elsewhere."""
    if state.phase is Phase.CHOOSE:
        choices = state.choices_for(state.dice)
        return max(choices, key=lambda c: choice_score(state, c))  # max keeps the first of equals
    if state.phase is Phase.DECIDE:
        if state.would_win_by_banking() or progress_count(state) >= THRESHOLD:
            return Bank()
        return RollAgain()
    raise ValueError(f"the Rule of 28 has no decision in phase {state.phase.value}")


def rule28_agent(state: Any, rng: random.Random) -> Any:
    """Simulation agent (``rule28``): :func:`rule28_action` for the seat to act; ignores ``rng``."""
    return rule28_action(state)

