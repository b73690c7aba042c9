"""Schotten Totten in the benchmarks: its fuzzer engine (``companion bench fuzz``) and its crash workload
(``companion bench crash``)."""

from __future__ import annotations

import random
from pathlib import Path

from companion.bench.crash import Workload, by_hand_workload
from companion.bench.fuzz import FuzzEngine
from companion.games.schotten_totten import (CLAIM_TIMINGS, GAMES, NUM_STONES, STALL_RESOLUTIONS, Card, Claim, Phase,
    Play, SchottenTottenConfig, SchottenTottenState)


def fuzz_engine() -> FuzzEngine:
    """The fuzzer's engine: random variants and player counts, and the invariants of schotten-totten.md."""
    def new_state(rng: random.Random):
        game = rng.choice(GAMES)
        config = SchottenTottenConfig(game=game, hand_size=rng.choice([0, 0, rng.randint(1, 8)]),
                                      claim_timing=rng.choice(CLAIM_TIMINGS),
                                      stall_resolution=rng.choice(STALL_RESOLUTIONS))
        return SchottenTottenState.new(config)

    def invariants(state, previous, memo) -> list[str]:
        bad = []
        table = state.table_cards()
        hands = [c for hand in state.hands for c in hand]
        if len(table) + len(hands) + state.pile != len(state.config.deck):
            bad.append("C.2: cards appeared or vanished (hands + stones + pile != deck)")
        known = [*table, *(c for c in hands if c is not None)]
        if len(set(known)) != len(known):
            bad.append("C.2: a card is in two places")
        if any(len(side) > stone.side_size() for stone in state.stones for side in stone.cards):
            bad.append("C.4: more than three cards on one side of a stone")
        passes = memo.setdefault("passes", [0, 0])
        if (previous is not None and previous.phase is Phase.PLAY and state.phase is not Phase.PLAY
                and len(state.table_cards()) == len(previous.table_cards())):
            passes[previous.active] += 1  # C.4: a player who cannot play skips the play step, still draws
        if any(len(hand) > state.config.hand_size + passes[seat] for seat, hand in enumerate(state.hands)):
            bad.append("C.3/C.4: a hand holds more than hand_size cards plus one per skipped play")
        owners = memo.setdefault("owners", {})
        for index, stone in enumerate(state.stones):
            if index in owners and stone.owner != owners[index]:
                bad.append(f"C.6: claimed stone {index} changed hands")
            if stone.owner is not None:
                owners.setdefault(index, stone.owner)
        if state.phase is Phase.OVER and state.ended in ("breakthrough", "envelopment"):
            if state.winner is None or state.stones_of(state.winner) < 3:
                bad.append("C.7: a win without three stones")
        return bad

    def junk(state, rng):
        card = Card(rng.randrange(6), rng.randint(1, state.config.max_value))
        return [Play(card, NUM_STONES), Play(card, -1), Claim(NUM_STONES), Claim(-1)]

    return FuzzEngine("schotten-totten", new_state, invariants, SchottenTottenState.from_dict, junk, 2000)


def crash_workload(folder: Path, script_lines: int) -> Workload:
    """The seeded game entered by hand, no camera: its first ``script_lines`` presses, then quit
    (:func:`companion.bench.crash.by_hand_workload`: the restarts play on from any stored log)."""
    return by_hand_workload("schotten-totten", folder, script_lines)
