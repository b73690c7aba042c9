"""Claims (schotten-totten.md C.6) against a plain enumeration, on hundreds of random positions, and
random-play invariants of the engine (hypothesis)."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games import CHANCE
from companion.games.schotten_totten import (Claim, Phase, SchottenTottenConfig, SchottenTottenState, claim_tables,
    exhaustive_claim, formation_key)


def random_position(rng: random.Random, variant: str = "schotten-totten") -> dict:
    """A random position file: nine stones with 0-3 cards a side, some stones claimed."""
    values = 9 if variant == "schotten-totten" else 10
    deck = [f"{c}{v}" for c in "ROYGBP" for v in range(1, values + 1)]
    rng.shuffle(deck)
    fill = rng.randint(6, len(deck) - 2)  # how far the game has gone
    stones = []
    for _ in range(9):
        sides = {}
        for side in "ab":
            n = rng.choice([0, 1, 2, 3, 3, 3]) if deck[fill:] else 0
            n = min(n, max(0, fill))
            sides[side] = [deck.pop() for _ in range(n)] if len(deck) > n else []
        first = rng.choice(["a", "b"]) if len(sides["a"]) == 3 and len(sides["b"]) == 3 else None
        owner = rng.choice(["a", "b"]) if rng.random() < 0.1 else None
        stones.append({"a": sides["a"], "b": sides["b"], "first_complete": first, "owner": owner})
    return {"variant": variant, "stones": stones}


def exhaustive_claims(state: SchottenTottenState, seat: int) -> list[int]:
    table = set(state.table_cards())
    unseen = [c for c in state.config.deck if c not in table]
    result = []
    for i, stone in enumerate(state.stones):
        if stone.owner is not None:
            continue
        first = stone.first_complete()
        if exhaustive_claim(stone.cards[seat], stone.cards[1 - seat], unseen,
                            None if first is None else first == seat):
            result.append(i)
    return result


def test_claims_agree_with_plain_enumeration_on_random_positions():
    from companion.games.schotten_totten import state_from_position

    rng = random.Random(5)
    checked = refused_by_proof = proved = 0
    for n in range(300):
        variant = "battle-line" if n % 4 == 3 else "schotten-totten"
        state = state_from_position(random_position(rng, variant))
        for seat in (0, 1):
            fast = list(state.claimable_stones(seat))
            assert fast == exhaustive_claims(state, seat), (state.to_dict(), seat)
            for i, stone in enumerate(state.stones):
                if stone.owner is None and len(stone.cards[seat]) == 3 and len(stone.cards[1 - seat]) < 3:
                    checked += 1
                    verdict = state.claim_verdict(i, seat)
                    if verdict.claimable:
                        proved += 1
                    else:
                        refused_by_proof += 1
                        # the reason is a real completion from unseen cards that strictly beats the claimant
                        beat = verdict.beating
                        assert len(beat) == 3 and beat[:len(stone.cards[1 - seat])] == stone.cards[1 - seat]
                        assert not set(beat[len(stone.cards[1 - seat]):]) & set(state.table_cards())
                        assert formation_key(beat) > formation_key(stone.cards[seat])
    assert checked > 300 and proved > 30 and refused_by_proof > 30


def test_claim_tables_sizes():
    assert len(claim_tables(9).key_of) == 24804 and len(claim_tables(10).key_of) == 34220


def test_cli_claims_json(tmp_path, capsys):
    pos = {"variant": "schotten-totten", "stones": [
        {"a": ["R7", "R8", "R9"], "b": ["B2", "B3"], "first_complete": None, "owner": None},
        {"a": ["R1", "O1", "Y1"], "b": ["G5", "G6", "G7"], "first_complete": "a", "owner": None},
        {"a": ["P1", "P2", "P4"], "b": [], "first_complete": None, "owner": None}]
        + [{"a": [], "b": [], "first_complete": None, "owner": None}] * 6}
    good = tmp_path / "p.json"
    good.write_text(json.dumps(pos))
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["schotten-totten", "claims", str(good), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"file": str(good), "a": [0], "b": [1]}
    assert main(["schotten-totten", "claims", str(bad), str(good), "--json"]) == 2
    captured = capsys.readouterr()
    assert "nine" in captured.err or "9 stones" in captured.err
    assert json.loads(captured.out)["a"] == [0]


# -- random-play invariants -------------------------------------------------------------------------


def _play_random(seed: int, config: SchottenTottenConfig) -> list[SchottenTottenState]:
    rng = random.Random(seed)
    state = SchottenTottenState.new(config)
    states = [state]
    while state.phase is not Phase.OVER and len(states) < 600:
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choice(outcomes)[0]
        else:
            actions = state.legal_actions()
            action = rng.choice(actions)
        state = state.apply(action)
        states.append(state)
    return states


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), game=st.sampled_from(["schotten-totten", "battle-line"]),
       timing=st.sampled_from(["after_play", "start_of_turn"]))
def test_random_play_invariants(seed, game, timing):
    config = SchottenTottenConfig(game=game, claim_timing=timing)
    states = _play_random(seed, config)
    end = states[-1]
    assert end.phase is Phase.OVER  # C.7/C.11: the game always ends
    deck = set(config.deck)
    for state in states:
        table = state.table_cards()
        held = [c for hand in state.hands for c in hand]
        everything = list(table) + held
        assert len(everything) == len(set(everything)) and set(everything) <= deck  # each card once (C.2)
        assert len(everything) + state.pile == len(deck)
        for stone in state.stones:
            assert all(len(side) <= 3 for side in stone.cards)  # C.4
        if state.phase is Phase.CLAIM:
            assert all(isinstance(a, Claim) for a in state.legal_actions()[:-1])
    outcome = end.outcome()
    if end.ended in ("breakthrough", "envelopment"):  # C.7 and C.8 points
        assert end._win_by(end.winner) == end.ended
        assert outcome.scores[end.winner] == 5 and outcome.scores[1 - end.winner] == end.stones_of(1 - end.winner)
    # claimed stones stay claimed and keep their cards (C.6)
    for before, after in zip(states, states[1:], strict=False):
        for s0, s1 in zip(before.stones, after.stones, strict=False):
            if s0.owner is not None:
                assert s1 == s0


def test_benchmark_runs_and_agrees():
    from companion.bench.claims import run

    result = run(20, 3)
    assert result["positions"] == 20 and result["checks"] > 20 and result["disagreements"] == 0
    assert 0 < result["median_ms"] <= result["p95_ms"] <= result["worst_ms"]
