"""The donkey race in the benchmarks: its fuzzer engine (``companion bench fuzz``) and its crash workload
(``companion bench crash``)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from companion.bench.crash import Workload, by_hand_workload
from companion.bench.fuzz import FuzzEngine
from companion.games.donkey_race import UNKNOWN, DonkeyRaceConfig, DonkeyRaceState, Draw, Pass, Phase, Play


def fuzz_engine() -> FuzzEngine:
    """The fuzzer's engine: random variants and player counts, and the invariants of donkey-race.md."""
    decks = [tuple((v, 8) for v in range(1, 14)), ((1, 4), (2, 4), (3, 4)), tuple((v, 3) for v in range(4, 9))]

    def new_state(rng: random.Random):
        variant = {"jokers": rng.randint(0, 4),
                   "donkey_mode": rng.choice(["plain_value", "kramer_round", "start_marker_only"]),
                   "exact_finish": rng.random() < 0.5, "refill_mode": rng.choice(["up_to_hand_size", "draw_n"]),
                   "two_player_round_end": rng.choice(["pass_or_max", "max_only"]),
                   "leader_may_pass": rng.random() < 0.5, "allow_equal_raise": rng.random() < 0.5,
                   "track_length": rng.randint(3, 15), "deck": rng.choice(decks)}
        variant = {k: v for k, v in variant.items() if rng.random() < 0.7}
        return DonkeyRaceState.new(rng.randint(2, 4), DonkeyRaceConfig(**variant))

    def invariants(state, previous, memo) -> list[str]:
        bad = []
        composition = memo.setdefault("composition", Counter(state.config.composition()))
        cards = state.all_cards()
        unknown = cards.pop(UNKNOWN, 0)
        if unknown != len(state.pool) or cards + Counter(state.pool) != composition:
            bad.append("D.2: cards appeared or vanished")
        config = state.config
        expected = tuple(min(p, config.track_length) for p in state.points) if config.exact_finish else state.points
        if state.positions != expected:
            bad.append("D.6: positions do not follow the points")
        if state.phase is Phase.PLAY and not (0 <= state.active < state.num_players and state.legal_actions()):
            bad.append("D.4: a player to act without a legal action")
        return bad

    def junk(state, rng):
        return [Draw(-7), Play((999,)), Play(()), Pass() if state.phase is not Phase.PLAY else Draw(1)]

    return FuzzEngine("donkey-race", new_state, invariants, DonkeyRaceState.from_dict, junk, 5000)


def crash_workload(folder: Path, script_lines: int) -> Workload:
    """The seeded game entered by hand, no camera: its first ``script_lines`` presses, then quit
    (:func:`companion.bench.crash.by_hand_workload`: the restarts play on from any stored log)."""
    return by_hand_workload("donkey-race", folder, script_lines)
