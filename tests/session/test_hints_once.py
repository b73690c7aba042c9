"""The hint is worked out once per state and kept (issue 40): drawing the screen again asks no advisor."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.games import CHANCE, TERMINAL
from companion.hints import Budget
from companion.registry import game
from companion.store import Store

ADVISOR = {"cant-stop": "advise", "ludo": "advise", "donkey-race": "advise", "schotten-totten": "public_alerts"}
"""The name of the advisor each game's session asks (Schotten Totten's shared screen shows the alerts)."""


@pytest.mark.parametrize("name", sorted(ADVISOR))
def test_a_second_build_view_does_not_search_again(name, tmp_path, monkeypatch):
    entry = game(name)
    sessions, agents, screens = entry.module("session"), entry.module("agents"), entry.module("screens")
    asked: Counter = Counter()
    real = getattr(sessions, ADVISOR[name])

    def counted(state, *args):
        asked[state] += 1
        return real(state, *args)

    monkeypatch.setattr(sessions, ADVISOR[name], counted)
    rng = random.Random(3)
    with Store(tmp_path / "store.sqlite3") as store:
        game_id = store.new_game(name, ["Ada", "Ben"], {})
        session = sessions.SESSION(store, game_id, ["Ada", "Ben"], entry.config(), rng=random.Random(1),
                                   hint_budget=Budget(nodes=2))
        sim = entry.module("games").GAME(2, entry.config()).new_initial_state()
        for _ in range(60):
            if sim.current_player == TERMINAL:
                break
            for _twice in range(2):
                screens.build_view(session, {})
            if sim.current_player == CHANCE:
                if getattr(sim.phase, "value", "") in ("first_player", "start") and hasattr(session, "start_seat"):
                    action = next(a for a, _p in sim.chance_outcomes() if a.seat == session.start_seat)
                else:
                    action = agents.chance(sim, rng)
            else:
                action = agents.AGENTS["advisor"](sim, rng)
            sim = sim.apply(action)
            sessions.press_for(session, action)
    assert asked and max(asked.values()) == 1  # each state asked once, however often it was drawn


def test_the_sessions_hint_uses_its_budget(tmp_path):
    from companion.games.cant_stop import Roll, StartWith
    from companion.hints.cant_stop.search import forget_searches
    from companion.session.cant_stop import CantStopSession, press_for

    forget_searches()  # no grid of an earlier test's first turn at hand
    with Store(tmp_path / "store.sqlite3") as store:
        game_id = store.new_game("cant-stop", ["Ada", "Ben"], {})
        session = CantStopSession(store, game_id, ["Ada", "Ben"], rng=random.Random(1),
                                  hint_budget=Budget(nodes=0))
        press_for(session, StartWith(session.start_seat))
        press_for(session, Roll((2, 3, 4, 6)))  # a turn's first pairing: the search wants grids
        hint = session.hint()
        assert hint is not None and hint.nodes == 0 and hint.cut
        assert hint.action in session.state.legal_actions()
