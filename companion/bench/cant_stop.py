"""Can't Stop in the benchmarks: its fuzzer engine (``companion bench fuzz``) and its crash workload
(``companion bench crash``)."""

from __future__ import annotations

import random
from pathlib import Path

from companion.bench.crash import Workload, by_hand_workload
from companion.bench.fuzz import FuzzEngine
from companion.games.cant_stop import COLUMNS, Bank, CantStopConfig, CantStopState, Choose, Phase, Roll, StartWith


def fuzz_engine() -> FuzzEngine:
    """The fuzzer's engine: random variants and player counts, and the invariants of cant-stop.md."""
    def new_state(rng: random.Random):
        heights = None
        if rng.random() < 0.3:  # A.9 column_heights: short columns make claims (A.7) frequent
            heights = tuple(rng.randint(1, 6) for _ in COLUMNS)
        config = CantStopConfig(columns_to_win=rng.randint(1, 4), num_runners=rng.randint(1, 4),
                                pairing_rule=rng.choice(["free", "must_maximize_runners"]),
                                first_player=rng.choice(["highest_roll", "youngest", "manual"]),
                                auto_stop_on_win=rng.random() < 0.5,
                                **({"column_heights": heights} if heights else {}))
        return CantStopState.new(rng.randint(1, 4), config)

    def invariants(state, previous, memo) -> list[str]:
        bad = []
        config = state.config
        for column in COLUMNS:
            top = config.height(column)
            if not 0 <= state.runner(column) <= top:
                bad.append(f"A.2: runner off column {column}")
            if not all(0 <= state.marker(s, column) <= top for s in range(state.num_players)):
                bad.append(f"A.2: marker off column {column}")
        if len(state.runner_map()) > config.num_runners:
            bad.append("A.2: more runners than num_runners")
        owners = memo.setdefault("owners", {})
        for column, seat in owners.items():
            if state.owner(column) != seat:
                bad.append(f"A.7: claimed column {column} changed hands")
        for column, seat in state.claimed_map().items():
            owners.setdefault(column, seat)
            if any(state.marker(s, column) for s in range(state.num_players) if s != seat):
                bad.append(f"A.7: another marker in claimed column {column}")
            if state.runner(column) or state.marker(seat, column) != config.height(column):
                bad.append(f"A.7: claimed column {column} not topped by its owner alone")
        if state.phase is Phase.OVER:
            if state.winner is None or state.columns_claimed(state.winner) < config.columns_to_win:
                bad.append("A.4: the game ended without a winner owning columns_to_win columns")
        if previous is not None and state.turn == previous.turn and state.phase in (Phase.CHOOSE, Phase.DECIDE):
            if state.markers != previous.markers:
                bad.append("A.5.5: markers moved without banking")
            if any(b < a for a, b in zip(previous.runners, state.runners)):
                bad.append("A.6: a runner moved down")
        if previous is not None and previous.phase is Phase.ROLL and state.last_bust and state.runner_map():
            bad.append("A.5.3: runners left after a bust")
        return bad

    def junk(state, rng):
        return [Roll((0, rng.randint(1, 6), 7, 1)), Roll((1, 2, 3)), Choose((1, 13)), Choose(()),
                StartWith(state.num_players), StartWith(-1),
                Bank() if state.phase is not Phase.DECIDE else Roll((1,) * 4)]

    return FuzzEngine("cant-stop", new_state, invariants, CantStopState.from_dict, junk, 20000, bounded=False)


def crash_workload(folder: Path, script_lines: int) -> Workload:
    """The seeded game entered by hand, no camera: its first ``script_lines`` presses, then quit
    (:func:`companion.bench.crash.by_hand_workload`: the restarts play on from any stored log)."""
    return by_hand_workload("cant-stop", folder, script_lines)
