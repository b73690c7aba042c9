"""Ludo in the benchmarks: its fuzzer engine (``companion bench fuzz``) and its crash workload
(``companion bench crash``)."""

from __future__ import annotations

import random
from pathlib import Path

from companion.bench.crash import Workload, by_hand_workload
from companion.bench.fuzz import FuzzEngine
from companion.games.ludo import YARD, LudoConfig, LudoState, Move, Phase, Roll, StartWith


def fuzz_engine() -> FuzzEngine:
    """The fuzzer's engine: random variants and player counts, and the invariants of ludo.md."""
    colour_sets = [("red", "yellow"), ("green", "blue"), ("red", "green", "yellow"), ("red", "green", "yellow", "blue")]

    def new_state(rng: random.Random):
        variant = {
            "board": rng.choice(["ludo52", "mensch40"]),
            "entry_rolls": rng.choice([[6], [1, 6], [5, 6]]),
            "triple_six_penalty": rng.choice(["forfeit_roll", "undo_turn", "last_moved_to_yard"]),
            "bonus_on_capture": rng.random() < 0.5, "bonus_on_finish": rng.random() < 0.5,
            "six_bonus_if_unused": rng.random() < 0.5,
            "safe_squares": rng.choice(["none", "starts", "starts_and_stars"]),
            "capture_on_opponent_start": rng.random() < 0.5,
            "own_stacking": rng.choice(["forbidden", "allowed", "block"]),
            "overshoot": rng.choice(["illegal", "bounce"]), "split_six_moves": rng.random() < 0.5,
            "play_for_places": rng.random() < 0.5, "must_capture": rng.random() < 0.5,
            "must_clear_start": rng.random() < 0.5, "home_no_jump": rng.random() < 0.5,
            "entry_attempts_when_all_in_yard": rng.randint(1, 3),
        }
        return LudoState.new(rng.choice(colour_sets), LudoConfig.from_variant(variant))

    def invariants(state, previous, memo) -> list[str]:
        bad = []
        cfg, geo = state.config, state.geometry
        tp, last = geo.track_positions, geo.last_relative
        if not all(len(p) == 4 for p in state.pawns):
            bad.append("B.2b: pawn count changed")
        if not all(YARD <= x <= last for p in state.pawns for x in p):
            bad.append("B.2b: a pawn off the board")
        safe = state.safe_indices()
        for square, here in state.occupancy().items():
            if len(here) > 1:
                if len([s for s in here if not state.is_protected(s, square)]) > 1:
                    bad.append(f"B.2b: unprotected pawns of two colours share square {square}")
                if square not in safe and cfg.capture_on_opponent_start:
                    bad.append(f"B.2b: two colours share the unsafe square {square}")
            for count in here.values():
                if (cfg.own_stacking == "forbidden" and count != 1) or (cfg.own_stacking == "block" and count > 2):
                    bad.append(f"B.2b: own_stacking={cfg.own_stacking} broken on square {square}")
        for pawns in state.pawns:
            home = [x for x in pawns if tp <= x < (last if geo.has_finish else last + 1)]
            if (cfg.own_stacking == "forbidden" or not geo.has_finish) and len(home) != len(set(home)):
                bad.append("B.2b: two own pawns on one home square")
        if state.phase is Phase.OVER and not state.placings:
            bad.append("B.6: the game ended without placings")
        return bad

    def junk(state, rng):
        return [Roll(0), Roll(7), Move(rng.randint(-5, 90), rng.choice([0, 7])), StartWith(len(state.colours)),
                Move(YARD, 2) if 2 not in state.config.entry_rolls else Move(YARD, 4)]

    return FuzzEngine("ludo", new_state, invariants, LudoState.from_dict, junk, 20000, bounded=False)


def crash_workload(folder: Path, script_lines: int) -> Workload:
    """The seeded game entered by hand, no camera: its first ``script_lines`` presses, then quit
    (:func:`companion.bench.crash.by_hand_workload`: the restarts play on from any stored log)."""
    return by_hand_workload("ludo", folder, script_lines)
