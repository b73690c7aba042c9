"""``companion bench power-cut``: whole games by hand, the power cut several times each, played to the end.

One run (issue 42, "Nothing lost and nothing stuck"):

1. the game seeded by the run's seed is made action by action with the advisors' play
   (:func:`companion.bench.presses.make_plan`: the by-hand presses of every action);
2. a child process plays its whole script uninterrupted (``companion play GAME --headless --camera none``
   with ``--input script:``): the reference log, result and scoreboard;
3. another child plays the same script in a fresh state folder and is sent SIGKILL after a random delay
   (uniform between its start and the reference run's time for the presses it was given); a new child
   then resumes the game with the presses that follow the last stored event, worked out on the resumed
   session (:func:`companion.bench.presses.following`), and is killed in turn, ``kills`` times in all;
   the last child plays on to the end of the game and its summary (a kill that lands once the game is
   over and stored ends the run there);
4. the run's log (each event's kind and payload), result (``games.result``) and scoreboard are compared
   with the reference's.

Counts: ``runs``; ``kills`` (SIGKILLs that landed on a running child); ``runs_same`` (runs whose log,
result and scoreboard are the reference's, in one game row); ``stuck`` (runs where a resumed session
refused the presses that follow its log, or a child ended by itself before the game did: the script
ran out while the session waited for something else, or it failed). Children are forked from a warm
process (:func:`companion.bench.crash.run_child`); ``jobs`` runs go on at once in worker processes (the
figures do not depend on it: each run's kill delays come from its own seed).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion import stop
from companion.app.by_hand import by_hand_variant
from companion.bench.crash import _child_env, _preload, run_child
from companion.bench.presses import Plan, following, make_plan, stored_game, write_script
from companion.registry import game as game_entry

KILLED = -9
"""``ChildRun.status`` of a child ended by the bench's SIGKILL."""


@dataclass
class RunFigures:
    """One run: kills landed, whether it ended the same as the reference, whether it got stuck, and why."""

    kills: int = 0
    same: bool = False
    stuck: bool = False
    note: str = ""


def play_run(plan: Plan, kills: int, rng: random.Random, root: Path, *, timeout: float = 600.0) -> RunFigures:
    """One run of ``plan`` in ``root`` (module docstring, steps 2-4)."""
    total = len(plan.presses())
    reference_dir = root / "reference"
    script = write_script(root / "game.script", plan.presses())
    reference = run_child([*plan.argv(), "--new", "--input", f"script:{script}"], _child_env(reference_dir),
                          timeout=timeout)
    expected = stored_game(reference_dir, plan.game)
    if reference.status != 0 or expected["log"] != plan.log or expected["result"] is None:
        raise RuntimeError(f"the uninterrupted run of {plan.game} seed {plan.seed} failed (status "
                           f"{reference.status}, {len(expected['log'])} of {len(plan.log)} events)")
    start_at = next((r["at"] for r in reference.records if "start" in r), 0.0)
    per_press = max(reference.seconds - start_at, 0.01) / max(total, 1)
    state_dir = root / "cut"
    figures = RunFigures()
    presses, new, child_no = plan.presses(), True, 0
    while True:
        child_no += 1
        script = write_script(root / f"child-{child_no}.script", presses)
        argv = [*plan.argv(), *(["--new"] if new else []), "--input", f"script:{script}"]
        new = False
        if figures.kills < kills:
            delay = rng.uniform(0.0, start_at + per_press * len(presses))
            child = run_child(argv, _child_env(state_dir), kill_after=delay, timeout=timeout)
        else:
            child = run_child(argv, _child_env(state_dir), timeout=timeout)
        if child.status == KILLED and figures.kills < kills:
            figures.kills += 1
        elif child.status != 0:
            reason = f"child {child_no} ended with status {child.status}"
            figures.note = f"{figures.note}; {reason}" if figures.stuck else reason
            figures.stuck = True
            break
        else:
            break  # played to the end (the game, or what was left of it)
        after = following(plan, state_dir)
        if after.finished:
            break  # the cut came once the game was over and stored: nothing follows
        if after.refused and not figures.stuck:
            figures.stuck, figures.note = True, f"resumed at {after.events} events: {after.refused}"
        presses = after.presses
    got = stored_game(state_dir, plan.game)
    if not figures.stuck and got["result"] is None:
        figures.stuck, figures.note = True, f"the game did not end ({len(got['log'])} events stored)"
    figures.same = (got["games"] == 1 and got["log"] == expected["log"] and got["result"] == expected["result"]
                    and got["scoreboard"] == expected["scoreboard"])
    if not figures.same and not figures.note:
        figures.note = f"{len(got['log'])} events stored, not the reference's {len(expected['log'])}" \
            if got["log"] != expected["log"] else "the result or scoreboard differs"
    return figures


def _one(task: tuple[str, int, int, int, str]) -> RunFigures:
    game, run, kills, seed, workdir = task
    root = Path(tempfile.mkdtemp(prefix=f"run-{run}-", dir=workdir))
    try:
        plan = make_plan(game, seed * 1000 + run)
        return play_run(plan, kills, random.Random(f"{seed}/{run}"), root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def run_power_cut(game: str, runs: int, kills: int, seed: int, *, jobs: int = 1,
                  progress: Callable[[str], None] | None = None) -> dict[str, int]:
    """``runs`` runs of ``game`` with ``kills`` power cuts each (module docstring); returns ``{"runs",
    "kills", "runs_same", "stuck"}``. Raises ``UserError`` for an unknown game, RuntimeError when an
    uninterrupted run fails. ``jobs``: runs at once (0: one per CPU)."""
    entry = game_entry(game)
    _preload(entry)
    entry.module("hints").prepare(entry.config(by_hand_variant(game)))  # built once for every forked child
    totals = {"runs": 0, "kills": 0, "runs_same": 0, "stuck": 0}
    workdir = tempfile.mkdtemp(prefix="power-cut-")
    tasks = [(game, run, kills, seed, workdir) for run in range(runs)]
    jobs = min(jobs or os.cpu_count() or 1, runs)
    pool = multiprocessing.get_context("fork").Pool(jobs, initializer=stop.default_signals) if jobs > 1 else None
    try:
        results = map(_one, tasks) if pool is None else pool.imap(_one, tasks)
        for run, figures in enumerate(results):
            totals["runs"] += 1
            totals["kills"] += figures.kills
            totals["runs_same"] += int(figures.same)
            totals["stuck"] += int(figures.stuck)
            if progress is not None:
                progress(f"run {run}: {figures.kills} kills, same {int(figures.same)}, stuck {int(figures.stuck)}"
                         + (f" ({figures.note})" if figures.note else ""))
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        shutil.rmtree(workdir, ignore_errors=True)
    return totals
