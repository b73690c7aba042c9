"""Every advisor is an anytime search (issue 40): a legal hint at any budget, reproducible under a node
budget, the whole search's hint within the default budget, and a deadline that stops it."""

from __future__ import annotations

import json
import random
import time

import pytest

from companion.agents import run_simulation
from companion.cli import main
from companion.errors import UserError
from companion.games import CHANCE, TERMINAL
from companion.games.cant_stop import CantStopConfig, CantStopState, Phase, Roll
from companion.hints import Budget, Hint, Meter
from companion.hints import cant_stop, donkey_race, ludo, schotten_totten
from companion.hints.cant_stop import search as cant_stop_search
from companion.hints.cant_stop.search import forget_searches
from companion.registry import game

GAMES = ("cant-stop", "ludo", "schotten-totten", "donkey-race")
BUDGETS = (0, 1, 2, 3, 5, None)


# -- the meter ----------------------------------------------------------------------------------------


def test_the_meter_spends_nodes_until_the_budget_is_gone():
    meter = Meter(Budget(nodes=3), default_nodes=99)
    assert [meter.take() for _ in range(5)] == [True, True, True, False, False]
    assert meter.spent == 3 and meter.refused == 2 and meter.cut
    assert Meter(None, default_nodes=7).nodes == 7 and Meter(Budget(nodes=-4), 7).nodes == 0
    assert not Meter(None, 7).cut


def test_a_share_is_a_part_of_what_is_left_rounded_up_and_the_rest_carries_on():
    meter = Meter(Budget(nodes=10), default_nodes=0)
    with meter.share(3):  # ceil(10 / 3) = 4
        assert sum(meter.take() for _ in range(6)) == 4
    with meter.share(2):  # 6 left: 3
        assert meter.take()  # uses 1 of them; 2 stay for the next part
    with meter.share(1):
        assert sum(meter.take() for _ in range(9)) == 5
    assert meter.spent == 10


def test_a_deadline_refuses_work_that_would_end_past_it():
    meter = Meter(Budget(deadline_ms=50.0), default_nodes=100)
    assert meter.take(1, seconds=0.001)
    assert not meter.take(1, seconds=1.0)  # would end a second later, past the deadline
    late = Meter(Budget(deadline_ms=1.0), default_nodes=100)
    time.sleep(0.002)
    assert not late.take() and late.cut
    meter = Meter(Budget(deadline_ms=10.0), 100)
    with meter.share(2, seconds=0.004):  # two 4 ms nodes fit in the 10 ms: one for each of the two parts
        assert meter.take() and not meter.take()


def test_the_reserve_comes_off_the_deadline():
    meter = Meter(Budget(deadline_ms=5.0), default_nodes=100, reserve_ms=5.0)
    assert not meter.take()


# -- every advisor, at any budget ---------------------------------------------------------------------------


def positions(name: str, count: int, seed: int) -> list[tuple[object, int]]:
    """(the state as the advisor sees it, the seat) of ``count`` decisions of seeded games of ``name``
    between the game's benchmark players and the advisor in seat 0."""
    entry = game(name)
    agents = entry.module("agents")
    rng = random.Random(seed)
    out: list[tuple[object, int]] = []
    players = [agents.AGENTS["advisor"]] + [agents.AGENTS[o] for o in agents.BENCH_OPPONENTS]
    while len(out) < count:
        state = entry.module("games").GAME(len(players), entry.config()).new_initial_state()
        while state.current_player != TERMINAL and len(out) < count:
            if state.current_player == CHANCE:
                action = agents.chance(state, rng)
            else:
                seat = state.current_player
                view = state.observation(seat) if hasattr(state, "observation") else state
                if len(state.legal_actions()) > 1:
                    out.append((view, seat))
                action = players[seat](view, rng)
            state = state.apply(action)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_advisor_gives_a_legal_action_at_any_budget(name):
    advise = game(name).module("hints").advise
    for view, seat in positions(name, 25, seed=4):
        legal = view.legal_actions()
        for nodes in BUDGETS:
            forget_searches()
            hint = advise(view, seat, Budget(nodes=nodes))
            assert isinstance(hint, Hint) and hint.action in legal, (name, nodes)
            assert 0 <= hint.nodes <= (nodes if nodes is not None else 10**6)


@pytest.mark.parametrize("name", GAMES)
def test_a_deadline_already_past_still_gives_a_legal_action(name):
    advise = game(name).module("hints").advise
    for view, seat in positions(name, 15, seed=5):
        forget_searches()
        assert advise(view, seat, Budget(deadline_ms=1e-6)).action in view.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_the_default_budget_is_the_whole_search(name):
    """Within the game's NODES a hint is never cut, and it equals the hint of an unbounded budget."""
    module = game(name).module("hints")
    for view, seat in positions(name, 20, seed=6):
        forget_searches()
        hint = module.advise(view, seat)
        forget_searches()
        unbounded = module.advise(view, seat, Budget(nodes=10**9))
        assert not hint.cut and hint.nodes <= module.NODES
        assert (hint.action, hint.reason, dict(hint.numbers)) == (unbounded.action, unbounded.reason,
                                                                  dict(unbounded.numbers))


@pytest.mark.parametrize("name", ("cant-stop", "ludo", "schotten-totten"))
def test_a_node_budget_gives_the_same_hints_every_time(name):
    module = game(name).module("hints")
    decisions = positions(name, 20, seed=7)
    for nodes in (0, 1, 3):
        runs = []
        for _ in range(2):
            forget_searches()  # the Can't Stop turn searches keep their grids: start both runs alike
            runs.append([(h.action, h.reason, h.nodes, h.cut) for h in
                         (module.advise(view, seat, Budget(nodes=nodes)) for view, seat in decisions)])
        assert runs[0] == runs[1]
    forget_searches()
    assert any(module.advise(view, seat, Budget(nodes=0)).cut for view, seat in decisions)  # some are cut short


def test_simulate_with_a_node_budget_is_reproducible(capsys):
    first = run_simulation("cant-stop", ["advisor", "rule28"], 4, seed=2, budget=1)
    assert first == run_simulation("cant-stop", ["advisor", "rule28"], 4, seed=2, budget=1)
    assert run_simulation("schotten-totten", ["advisor", "greedy"], 2, seed=2, budget=0)["games"] == 2
    with pytest.raises(UserError, match="--budget"):
        run_simulation("ludo", ["advisor", "random"], 1, seed=2, budget=-1)
    assert main(["simulate", "ludo", "--agents", "advisor,random", "--games", "2", "--budget", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


# -- Can't Stop: the grids within the budget -----------------------------------------------------------------


def first_pairing(dice: tuple[int, ...], players: int = 2) -> CantStopState:
    """A turn's first pairing, where the search builds the most grids: no runner yet."""
    state = CantStopState.new(players, CantStopConfig())
    state = state.apply(state.chance_outcomes()[0][0]).apply(Roll(dice))
    assert state.phase is Phase.CHOOSE
    return state


def test_cant_stop_builds_grids_only_within_the_budget_and_keeps_no_cut_valuation():
    state = first_pairing((2, 3, 4, 6))
    forget_searches()
    full = cant_stop.advise(state, state.active)
    assert full.nodes > 1 and not full.cut
    forget_searches()
    one = cant_stop.advise(state, state.active, Budget(nodes=1))
    assert one.nodes == 1 and one.cut and one.action in state.legal_actions()
    search = cant_stop_search.search_for(state)
    assert len(search.grids) == 1 and not search.valuations  # nothing cut is kept for the turn
    again = cant_stop.advise(state, state.active)  # the full search afterwards, on the grid at hand
    assert not again.cut and again.action == full.action


def test_cant_stop_shares_the_budget_among_the_pairings(monkeypatch):
    """As many nodes as pairings: each pairing's look-ahead gets one grid (its likeliest) instead of the
    first taking four and the others none."""
    state = first_pairing((1, 2, 3, 4))  # 3+7, 4+6, 5+5
    choices = len(state.legal_actions())
    assert choices == 3
    spent: list[int] = []
    original = cant_stop_search.TurnSearch.valuation

    def valuation(self, after):
        before = self.meter.spent
        value = original(self, after)
        spent.append(self.meter.spent - before)
        return value

    monkeypatch.setattr(cant_stop_search.TurnSearch, "valuation", valuation)
    forget_searches()
    unbounded = cant_stop.advise(state, state.active)
    assert spent[:choices] == [4, 4, 4]  # each look-ahead wants four new grids
    spent.clear()
    forget_searches()
    hint = cant_stop.advise(state, state.active, Budget(nodes=choices))
    assert spent[:choices] == [1, 1, 1] and hint.nodes == choices and hint.cut and unbounded.nodes == 12


def test_cant_stop_deadline_answers_in_time_on_a_slow_first_pairing():
    state = first_pairing((2, 3, 4, 6))
    forget_searches()
    start = time.perf_counter()
    hint = cant_stop.advise(state, state.active, Budget(deadline_ms=3.0))
    elapsed = (time.perf_counter() - start) * 1000.0
    assert hint.action in state.legal_actions()
    assert elapsed < 3.0 + 60.0  # one grid in flight at most, even on a loaded machine (the bench times it)


# -- the tables, before the first hint ------------------------------------------------------------------------


def test_prepare_builds_each_games_tables_once():
    for module in (cant_stop, ludo, schotten_totten, donkey_race):
        module.prepare()
    from companion.hints.schotten_totten.eval import _candidates
    before = _candidates.cache_info().currsize
    schotten_totten.prepare()
    assert _candidates.cache_info().currsize == before >= 1 + 54 + 54 * 53 // 2


@pytest.mark.parametrize("name", GAMES)
def test_the_boxs_hint_is_the_same_on_a_slow_machine_and_in_the_replay(name, monkeypatch):
    """Issue 51: History's replay showed another hint than the live game at the same step (two
    time-limited searches). The box's budget is nodes only: a machine 100 times slower gets the same hint."""
    module, budget = game(name).module("hints"), game(name).hint_budget()
    assert budget.deadline_ms is None and budget.nodes == module.NODES  # the whole search, no clock
    decisions = positions(name, 12, seed=11)
    forget_searches()
    fast = [module.advise(view, seat, budget) for view, seat in decisions]
    clock = [0.0]

    def slow_clock() -> float:
        clock[0] += 0.1  # every look at the clock: 100 ms later
        return clock[0]

    monkeypatch.setattr(time, "perf_counter", slow_clock)
    forget_searches()
    slow = [module.advise(view, seat, budget) for view, seat in decisions]
    assert [(h.action, h.reason, h.nodes) for h in slow] == [(h.action, h.reason, h.nodes) for h in fast]


def test_a_cant_stop_hint_does_not_depend_on_the_questions_asked_before_it():
    """A turn's search keeps the grids its decisions built; each decision asked again, in a shuffled
    order after all of them, is the one asked afresh (the same action and figures, to rounding: a grid
    built from lower runners sums the same values in another order)."""
    module = game("cant-stop").module("hints")
    decisions = positions("cant-stop", 200, seed=8)

    def said(hint) -> tuple:
        return hint.action, hint.reason, {k: round(v, 9) for k, v in hint.numbers.items()}

    afresh = []
    for view, seat in decisions:
        forget_searches()
        afresh.append(said(module.advise(view, seat)))
    forget_searches()
    order = list(range(len(decisions)))
    random.Random(8).shuffle(order)
    again = {i: said(module.advise(*decisions[i])) for i in order}
    assert [again[i] for i in range(len(decisions))] == afresh
