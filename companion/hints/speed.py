"""How fast this machine runs the advisors, against the development machine: the Pi's speed factor.

The box's deadline for a hint (``[hints] deadline_ms``, :mod:`companion.config`) is set on the
development machine; a slower machine needs it multiplied by how many times slower it runs the same
search (``[hints] speed_factor``), or it searches less within it. :func:`speed_factor` measures that on
a fixed piece of advisor work (:func:`reference_work`: a solo Can't Stop game and a Schotten Totten game
of advisors against each other, dice and draws seeded, each hint at the default node budget without a
deadline, so the work is the same everywhere), best of three, against :data:`REFERENCE_MS`, the same
work's time on the development machine. ``companion selftest`` reports it.
"""

from __future__ import annotations

import random
import time

from companion.games import CHANCE, TERMINAL
from companion.games.cant_stop import CantStopState, Roll
from companion.games.schotten_totten import Draw, Phase, SchottenTottenState, StartWith
from companion.hints.cant_stop import advise as cant_stop_advise
from companion.hints.cant_stop import prepare as cant_stop_prepare
from companion.hints.cant_stop.search import forget_searches
from companion.hints.schotten_totten import advise as schotten_totten_advise
from companion.hints.schotten_totten import prepare as schotten_totten_prepare

REFERENCE_SEED = 40
"""Seeds the dice and the draws of :func:`reference_work`."""

REFERENCE_MS = 61.0
"""Milliseconds :func:`reference_work` takes on the development machine (2 cores, otherwise idle: load
under 0.5), best of three after :func:`prepare`; measured with ``python -m companion.hints.speed``."""


def prepare() -> None:
    """Build the tables :func:`reference_work` uses (as the box does when a game starts)."""
    cant_stop_prepare()
    schotten_totten_prepare()


CANT_STOP_TURNS = 3
"""Turns of the solo Can't Stop game in :func:`reference_work`."""

SCHOTTEN_TOTTEN_HINTS = 8
"""Hints of the Schotten Totten game in :func:`reference_work`."""


def reference_work() -> int:
    """The fixed advisor work: the first :data:`CANT_STOP_TURNS` turns of a solo Can't Stop game (every
    hint of the advisor, its turn searches cold) and the first :data:`SCHOTTEN_TOTTEN_HINTS` hints of a
    Schotten Totten game between two advisors. Returns the hints asked (the same on every machine)."""
    rng = random.Random(REFERENCE_SEED)
    forget_searches()
    hints = 0
    state = CantStopState.new(1)
    while state.current_player != TERMINAL and state.turn <= CANT_STOP_TURNS:
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            action = (Roll(tuple(rng.randint(1, 6) for _ in range(4))) if isinstance(outcomes[0][0], Roll)
                      else outcomes[0][0])
        else:
            action = cant_stop_advise(state, state.current_player).action
            hints += 1
        state = state.apply(action)
    table, asked = SchottenTottenState.new(), 0
    while table.current_player != TERMINAL and asked < SCHOTTEN_TOTTEN_HINTS:
        if table.current_player == CHANCE:
            action = StartWith(0) if table.phase is Phase.START else Draw(rng.choice(table.unknown_cards()))
        else:
            seat = table.current_player
            action = schotten_totten_advise(table.observation(seat), seat).action
            asked += 1
        table = table.apply(action)
    return hints + asked


def reference_ms(repeats: int = 3) -> float:
    """Milliseconds :func:`reference_work` takes here, the best of ``repeats`` runs (tables built first)."""
    prepare()
    best = float("inf")
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        reference_work()
        best = min(best, (time.perf_counter() - start) * 1000.0)
    return best


def speed_factor(repeats: int = 3) -> float:
    """How many times slower than the development machine this one runs the advisors (1.0 there; a
    Raspberry Pi 4 about 3-4): :func:`reference_ms` over :data:`REFERENCE_MS`."""
    return reference_ms(repeats) / REFERENCE_MS


if __name__ == "__main__":  # pragma: no cover - the measurement behind REFERENCE_MS
    print(f"reference work: {reference_work()} hints, {reference_ms(5):.1f} ms (best of 5); "
          f"factor {speed_factor():.2f} against {REFERENCE_MS:g} ms")
