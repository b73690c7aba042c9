"""Random play of the donkey card race with invariants checked after every action (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import CHANCE
from companion.games.donkey_race import (UNKNOWN, DonkeyRaceConfig, DonkeyRaceState, Draw, Phase, Play,
    action_from_dict, action_to_dict, set_value)

VARIANTS = st.fixed_dictionaries({}, optional={
    "jokers": st.integers(0, 4),
    "donkey_mode": st.sampled_from(["plain_value", "kramer_round", "start_marker_only"]),
    "exact_finish": st.booleans(),
    "refill_mode": st.sampled_from(["up_to_hand_size", "draw_n"]),
    "two_player_round_end": st.sampled_from(["pass_or_max", "max_only"]),
    "leader_may_pass": st.booleans(),
    "allow_equal_raise": st.booleans(),
    "track_length": st.integers(3, 15),
    "deck": st.sampled_from([tuple((v, 8) for v in range(1, 14)), ((1, 4), (2, 4), (3, 4)),
                             tuple((v, 3) for v in range(4, 9))]),
})


def check(state: DonkeyRaceState, composition: Counter) -> None:
    """Invariants of every state."""
    # card conservation: hands + pile + discards + table + removed = the box (unknown slots = pool)
    cards = state.all_cards()
    unknown = cards.pop(UNKNOWN, 0)
    assert unknown == len(state.pool)
    assert cards + Counter(state.pool) == composition
    config = state.config
    gains = [p for p in state.points]
    if config.exact_finish:
        assert state.positions == tuple(min(p, config.track_length) for p in gains)
    else:
        assert state.positions == state.points
    if state.phase is Phase.PLAY:
        assert 0 <= state.active < state.num_players and state.legal_actions()
    if state.phase is Phase.PLAY and state.high_seat >= 0 and not state.donkey_round:
        # strict raising: the highest play so far is the last play made, with a unique top value
        made = [(s, c) for s, c in state.plays if c]
        assert made[-1][0] == state.high_seat
        if not config.allow_equal_raise:
            values = [set_value(c, config) for _, c in made]
            assert values == sorted(values) and len(set(values)) == len(values)


@settings(max_examples=120, deadline=None)
@given(players=st.integers(2, 4), variant=VARIANTS, seed=st.integers(0, 2**32 - 1),
       hidden=st.booleans())
def test_random_play_keeps_the_invariants(players, variant, seed, hidden):
    config = DonkeyRaceConfig(**variant)
    rng = random.Random(seed)
    state = DonkeyRaceState.new(players, config, hidden=hidden)
    composition = Counter(config.composition())
    for _ in range(3000):
        check(state, composition)
        if state.phase is Phase.OVER:
            break
        if state.current_player == CHANCE and state.phase is Phase.DRAW and not hidden:
            action = Draw(rng.choice(state.deck))
        else:
            action = rng.choice(state.legal_actions())
        before = state
        state = state.apply(action)
        assert action_from_dict(action_to_dict(action)) == action
        if isinstance(action, Play) or before.round_no != state.round_no or state.phase is Phase.OVER:
            assert DonkeyRaceState.from_dict(state.to_dict()) == state
        if state.round_no != before.round_no or state.phase is Phase.OVER:
            summary = state.last_round
            if summary.get("round") == before.round_no and not config.allow_equal_raise:
                # exactly one highest player per round that had a play (D.4.5, D.7.8)
                played = [s for s, c in summary["plays"] if c]
                assert (summary["highest"] >= 0) == bool(played)
                if config.advance_mode == "role":
                    twos = [s for s, g in enumerate(summary["gains"]) if g == 2]
                    assert twos == ([summary["highest"]] if played else [])
    assert state.phase is Phase.OVER
    outcome = state.outcome()
    assert outcome is not None and set(outcome.placings) == set(range(players))
    assert state.winners and any(p >= config.track_length for p in state.positions)
    if config.exact_finish:
        assert all(state.positions[w] == config.track_length for w in state.winners)
    best = max(state.points)
    if not config.exact_finish:
        assert all(state.points[w] == best for w in state.winners)
