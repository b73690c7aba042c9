"""The engines ``companion bench fuzz`` covers: random variants and the invariants of each rules file.

Each :class:`FuzzEngine` gives ``new_state(rng)`` (a random variant and player count, as the rules
file's CONFIG switches allow), ``invariants(state, previous, memo)`` (the violated invariants of the
rules file as short texts; ``memo`` is a per-game dict for facts that must persist, e.g. claimed
columns), ``from_dict`` and ``junk(state, rng)`` (malformed actions: values outside the game's
ranges, which must raise ``IllegalMove``). An engine whose module is missing is left out of
:data:`ENGINES`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FuzzEngine:
    """One engine for the fuzzer (see the module docstring). ``max_steps``: the most steps one game
    is played. ``bounded``: the rules guarantee an end within ``max_steps`` (a finite deck, a track
    that every round advances), so a longer game is a violation; in a dice game a run of busts or
    missed entries can last any time, so there the game is only stopped (counted as unfinished)."""

    name: str
    new_state: Callable[[random.Random], Any]
    invariants: Callable[[Any, Any, dict], list[str]]
    from_dict: Callable[[Any], Any]
    junk: Callable[[Any, random.Random], list]
    max_steps: int
    bounded: bool = True


# --- Can't Stop (cant-stop.md) -----------------------------------------------------------------------


def _cant_stop() -> FuzzEngine:
    from companion.games.cant_stop.rules import (
        COLUMNS,
        Bank,
        CantStopConfig,
        CantStopState,
        Choose,
        Phase,
        Roll,
        StartWith,
    )

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


# --- Ludo (ludo.md) ----------------------------------------------------------------------------------


def _ludo() -> FuzzEngine:
    from companion.games.ludo.config import LudoConfig
    from companion.games.ludo.rules import YARD, LudoState, Move, Phase, Roll, StartWith

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


# --- Schotten Totten (schotten-totten.md) ---------------------------------------------------------------


def _schotten_totten() -> FuzzEngine:
    from companion.games.schotten_totten.actions import Claim, Play
    from companion.games.schotten_totten.cards import Card
    from companion.games.schotten_totten.rules import (
        CLAIM_TIMINGS,
        GAMES,
        NUM_STONES,
        STALL_RESOLUTIONS,
        Phase,
        SchottenTottenConfig,
        SchottenTottenState,
    )

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


# --- the donkey card race (donkey-race.md) --------------------------------------------------------------


def _donkey_race() -> FuzzEngine:
    from companion.games.donkey_race.rules import UNKNOWN, DonkeyRaceConfig, DonkeyRaceState, Draw, Pass, Phase, Play

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


def _available() -> dict[str, FuzzEngine]:
    engines = {}
    for make in (_cant_stop, _ludo, _schotten_totten, _donkey_race):
        try:
            engine = make()
        except ImportError:  # that engine has not landed in this tree
            continue
        engines[engine.name] = engine
    return engines


ENGINES: dict[str, FuzzEngine] = _available()
"""The engines present in this tree, by game name."""
