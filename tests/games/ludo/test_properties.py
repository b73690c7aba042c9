"""Random play over random variant settings: the invariants stated at the end of ludo.md B.2b, and
complete placings at the end (B.6)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import CHANCE
from companion.games.ludo import YARD, LudoConfig, LudoState, Move, Phase

variants = st.fixed_dictionaries({
    "board": st.sampled_from(["ludo52", "mensch40"]),
    "entry_rolls": st.sampled_from([[6], [1, 6], [5, 6]]),
    "triple_six_penalty": st.sampled_from(["forfeit_roll", "undo_turn", "last_moved_to_yard"]),
    "bonus_on_capture": st.booleans(),
    "bonus_on_finish": st.booleans(),
    "six_bonus_if_unused": st.booleans(),
    "safe_squares": st.sampled_from(["none", "starts", "starts_and_stars"]),
    "capture_on_opponent_start": st.booleans(),
    "own_stacking": st.sampled_from(["forbidden", "allowed", "block"]),
    "overshoot": st.sampled_from(["illegal", "bounce"]),
    "split_six_moves": st.booleans(),
    "play_for_places": st.booleans(),
    "must_capture": st.booleans(),
    "must_clear_start": st.booleans(),
    "home_no_jump": st.booleans(),
    "entry_attempts_when_all_in_yard": st.integers(1, 3),
})
colour_sets = st.sampled_from([("red", "yellow"), ("green", "blue"), ("red", "green", "yellow"),
                               ("red", "green", "yellow", "blue")])


def check_invariants(state: LudoState) -> None:
    cfg, geo = state.config, state.geometry
    tp, last = geo.track_positions, geo.last_relative
    assert all(len(p) == 4 for p in state.pawns)  # pawn count constant
    assert all(YARD <= x <= last for p in state.pawns for x in p)
    safe = state.safe_indices()
    for a, here in state.occupancy().items():
        if len(here) > 1:  # different colours share only where protected
            unprotected = [s for s in here if not state.is_protected(s, a)]
            assert len(unprotected) <= 1, (a, here)
            assert a in safe or not cfg.capture_on_opponent_start
        for count in here.values():
            if cfg.own_stacking == "forbidden":
                assert count == 1, (a, here)
            elif cfg.own_stacking == "block":
                assert count <= 2
    for pawns in state.pawns:
        home = [x for x in pawns if tp <= x < (last if geo.has_finish else last + 1)]
        if cfg.own_stacking == "forbidden" or not geo.has_finish:
            assert len(home) == len(set(home))


@settings(max_examples=40, deadline=None)
@given(variant=variants, colours=colour_sets, seed=st.integers(0, 10**6))
def test_random_play_keeps_invariants_and_places_everyone(variant, colours, seed):
    rng = random.Random(seed)
    state = LudoState.new(colours, LudoConfig.from_variant(variant))
    steps = 0
    while state.phase is not Phase.OVER and steps < 20000:
        if state.current_player == CHANCE:
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        else:
            actions = state.legal_actions()
            assert actions, "MOVE phase always offers a move (B.4.3)"
            action = rng.choice(actions)
            assert isinstance(action, Move) and action.die in state.pool
            info = next(i for i in state.move_infos() if i.move == action)
            if action.frm != YARD and state.config.overshoot == "illegal":
                assert info.to == action.frm + action.die  # exact count (B.5)
            if action.frm == YARD:
                assert info.to == 0 and action.die in state.config.entry_rolls
        state = state.apply(action)
        steps += 1
        check_invariants(state)
    assert state.phase is Phase.OVER
    outcome = state.outcome()
    assert sorted(outcome.placings) == list(range(len(colours)))  # placings complete (B.6)
    assert state.is_finished(outcome.winner)
