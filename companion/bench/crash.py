"""``companion bench crash``: pull the plug on ``companion play GAME``: nothing lost, nothing stuck.

One trial (issue 9, item 1; issue 42):

1. a child process runs ``companion play GAME --headless`` on the workload's script, with
   ``COMPANION_TRACE_EVENTS=1`` (``companion.app.trace``) so that it prints every event whose acceptance
   it has put on the screen;
2. the parent sends it SIGKILL at a random moment: in :data:`STARTUP_KILLS` of the trials during
   start-up (uniform before the reference run's first screen), else uniformly between the child's
   first screen and the time the uninterrupted reference run of the same workload took to its end;
3. a second child restarts ``companion play GAME`` (no ``--new``, so it resumes; it prints the state it
   rebuilt from the log) and is given the presses of the next action that the stored log does not hold
   yet, then quits;
4. the parent checks the store.

The workloads are games entered by hand (every game's ``crash_workload`` is :func:`by_hand_workload`):
the advisors' play of a seeded game, action by action (:func:`companion.bench.presses.make_plan`), its
first ``script_lines`` presses (rounded up to a whole action) then ``quit``, with no camera. Built action
by action, the game says what follows any stored log: the next action is the first one whose presses
begin at or after the events the resumed session holds, its presses are worked out on that resumed
session, rebuilt from a copy of the store as ``companion play`` rebuilds it
(:func:`companion.bench.presses.following`), and the reference says which events they store, automatic
ones included (Schotten Totten's draw after a card, a donkey race's refill in the same ``step``). A
random script of commands cannot say that, which is why a cut between a card played and its draw
(issue 42: the resumed game refused every card) went unseen while the restart only quit.

Counts, summed over the trials:

- ``lost``: events shown before the kill that are not in the store (same ``seq``, kind and payload);
- ``duplicated``: events that are in the store twice: events appended by the restart beyond what its
  presses store in the reference run (the completion of an automatic step the log stopped before is
  not one: the reference holds it), an event repeated where the reference run has no repeat, and extra
  game rows (a restart that started a new game instead of resuming);
- ``diverged``: trials where the stored log is not a prefix of the reference run's log, the restarted
  state is not the replay of the log it started from, or the restart failed;
- ``stuck``: trials where the resumed game refused to go on: the resumed session refused the presses of
  the next action, or the restart did not store the events they store in the reference run.

Children are forked from this process by default (the imports are paid once, so a trial costs the game
itself); ``exec_children=True`` runs each child as a fresh ``python -m companion`` instead. A workload
without a plan (:class:`Workload` ``plan`` None: a game's own script of commands) gets the old restart,
which only quits; ``stuck`` is then not checked. The state the restarted child must print is the replay
of the stored log by the game's session module (``replay_state``). :mod:`.power_cut` plays whole games
through several cuts each.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app.trace import TRACE_ENV
from companion.bench.presses import Plan, following, make_plan, write_script
from companion.cli import build_parser, main
from companion.paths import STORE_FILE_NAME
from companion.registry import GameEntry
from companion.registry import game as game_entry
from companion.store import Store
from vision.dice import warm_up


@dataclass(frozen=True)
class Workload:
    """What a child plays: ``argv`` for ``companion`` (without ``--input``), and the script file; ``plan``:
    the game it enters by hand, action by action (what follows a cut), or None."""

    argv: list[str]
    script: Path
    plan: Plan | None = None


BY_HAND_SEED = 1
"""The seed of the game every crash workload plays (the trials differ by their kill moments)."""


def by_hand_workload(name: str, folder: Path, script_lines: int, seed: int = BY_HAND_SEED) -> Workload:
    """The crash workload of ``name`` (module docstring): the first ``script_lines`` presses of its
    seeded game entered by hand, rounded up to a whole action, then ``quit``."""
    plan = make_plan(name, seed, presses=script_lines)  # the script's actions and the one after them
    count = presses = 0
    while count < len(plan.chunks) and presses < script_lines:
        presses += len(plan.chunks[count].presses)
        count += 1
    script = write_script(Path(folder) / "crash.script", plan.presses(0, count), quit=True)
    return Workload(plan.argv(), script, plan)


def random_commands(seed: int, count: int, make: Callable[[random.Random], list[str]]) -> list[str]:
    """``count`` groups of commands drawn by ``make``: valid or not (a random pairing that is not on offer,
    a card that does not fit), the session takes or refuses each the same way every run, so a script
    replays identically; long scripts give many events quickly."""
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < count:
        lines += make(rng)
    return lines[:count]


STARTUP_KILLS = 0.1
"""Share of the kills drawn during start-up (before the game is on the screen); the others fall
uniformly between the reference run's first screen and its end."""


@dataclass
class ChildRun:
    """What a child printed (trace records), its exit status (negative: killed by that signal), wall time."""

    records: list[dict] = field(default_factory=list)
    status: int | None = None
    seconds: float = 0.0


def _child_env(state_dir: Path) -> dict[str, str]:
    return {"COMPANION_STATE_DIR": str(state_dir), "COMPANION_CONFIG_DIR": str(state_dir / "config"),
            "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", TRACE_ENV: "1"}


def _start_child(argv: list[str], env: dict[str, str], exec_children: bool) -> tuple[int, int]:
    """Start ``companion ARGV``; returns (pid, read end of its stdout)."""
    if exec_children:
        process = subprocess.Popen([sys.executable, "-m", "companion", *argv], env={**os.environ, **env},
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        return process.pid, os.dup(process.stdout.fileno())
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run the command line, never return into the parent's code
        status = 70
        try:
            os.close(read_fd)
            os.dup2(write_fd, 1)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.environ.update(env)
            sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
            sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
            status = main(argv)
            sys.stdout.flush()
        finally:
            os._exit(status)
    os.close(write_fd)
    return pid, read_fd


def _wait(pid: int) -> int:
    _, raw = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(raw)


def run_child(argv: list[str], env: dict[str, str], *, kill_after: float | None = None,
              kill_after_start: float | None = None, exec_children: bool = False,
              timeout: float = 300.0) -> ChildRun:
    """Run ``companion ARGV``, reading its trace; SIGKILL it ``kill_after`` seconds after it was
    started, or ``kill_after_start`` seconds after it printed its ``start`` record (the game is on the
    screen), whichever is given. Without either it runs to its end (or ``timeout``).

    Lines the child wrote before it died are read after the kill, so they all count as shown.
    ``ChildRun.records`` get an ``"at"`` key: seconds from the start of the child to the line's arrival.
    """
    started = time.monotonic()
    pid, fd = _start_child(argv, env, exec_children)
    run, pending, killed = ChildRun(), b"", False
    deadline = started + (kill_after if kill_after is not None else timeout)
    try:
        while True:
            wait = deadline - time.monotonic()
            if wait <= 0 and not killed:
                os.kill(pid, signal.SIGKILL)
                killed = True
            ready, _, _ = select.select([fd], [], [], max(0.0, wait) if not killed else 1.0)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                record = _parse(line)
                if record is None:
                    continue
                record["at"] = time.monotonic() - started
                run.records.append(record)
                if "start" in record and kill_after_start is not None and kill_after is None and not killed:
                    deadline = time.monotonic() + kill_after_start
    finally:
        if not killed:
            try:
                os.kill(pid, signal.SIGKILL)  # past the timeout, or the parent was interrupted
            except ProcessLookupError:
                pass
        os.close(fd)
        run.status = _wait(pid)
    run.seconds = time.monotonic() - started
    return run


def _parse(line: bytes) -> dict | None:
    try:
        record = json.loads(line.decode("utf-8", "replace"))
    except json.JSONDecodeError:
        return None  # a line cut by the kill, or other output
    return record if isinstance(record, dict) else None


def _shown_events(records: list[dict]) -> dict[int, tuple[str, Any]]:
    shown: dict[int, tuple[str, Any]] = {}
    for record in records:
        if "shown" in record:
            shown[record["shown"]] = (record["kind"], record["payload"])
        elif "dropped" in record:
            shown.pop(record["dropped"], None)
    return shown


def _stored(state_dir: Path, game: str) -> tuple[list[int], list[tuple[int, str, Any]]]:
    """(game ids, events of the first game as (seq, kind, payload)) in the trial's store.

    Read with plain SQLite (which recovers the WAL like any opener) rather than :class:`Store`, so that
    the check never migrates or otherwise writes a store that the child left half-created.
    """

    path = state_dir / STORE_FILE_NAME
    if not path.exists():
        return [], []
    db = sqlite3.connect(path)
    try:
        ids = [row[0] for row in db.execute("SELECT id FROM games WHERE game = ? ORDER BY id", (game,))]
        rows = db.execute("SELECT seq, kind, payload FROM events WHERE game_id = ? ORDER BY seq",
                          (ids[0],)).fetchall() if ids else []
    except sqlite3.OperationalError as error:
        if "no such table" not in str(error):
            raise
        return [], []
    finally:
        db.close()
    return ids, [(seq, kind, json.loads(payload)) for seq, kind, payload in rows]


def _preload(entry: GameEntry) -> None:
    """Import what ``companion play`` needs for ``entry``, so that forked children start warm."""
    importlib.import_module("companion.app.play")
    for layer in ("session", "readers", "screens", "display"):
        entry.module(layer)
    build_parser(["play"])
    warm_up()  # loads what the dice reader caches


def replayed_state(entry: GameEntry, store: Store, game_id: int, events: int | None = None) -> Any:
    """The rules state rebuilt from the stored log of ``game_id`` (its first ``events`` events; None:
    all), as ``state.to_dict()`` (what the restarted child must print)."""
    record = store.game(game_id)
    state = entry.module("session").replay_state(store.events(game_id)[:events], len(record.players),
                                                 entry.config(record.variant))
    return state.to_dict()


def check_trial(shown: dict[int, tuple[str, Any]], before: list[tuple[int, str, Any]],
                after: list[tuple[int, str, Any]], games: int, ref_log: list[tuple[str, Any]],
                restart: ChildRun, replayed: Any, expected: int | None = None) -> tuple[int, int, bool, bool]:
    """(lost, duplicated, diverged, stuck) of one trial (see the module docstring).

    shown: {seq: (kind, payload)} shown before the kill; before/after: the stored log as (seq, kind,
    payload) before and after the restart; games: game rows after the restart; ref_log: the reference
    run's (kind, payload) list (the whole game's, for a workload with a plan); restart: the restarted
    child; replayed: the replay of the log it started from (the ``events`` of its ``start`` record);
    expected: the events the log must hold once the restart's presses of the next action are taken
    (None: the restart only quits, the log must stay ``before``; ``stuck`` is not checked).
    """
    stored = {seq: (kind, payload) for seq, kind, payload in before}
    lost = sum(1 for seq, event in shown.items() if stored.get(seq) != event)
    log = [(kind, payload) for _, kind, payload in after]
    duplicated = max(0, len(after) - (len(before) if expected is None else max(expected, len(before))))
    duplicated += max(0, games - 1)
    duplicated += sum(1 for i in range(1, min(len(log), len(ref_log)))
                      if log[i] == log[i - 1] and ref_log[i] != ref_log[i - 1])
    starts = [r for r in restart.records if "start" in r]
    diverged = (log != ref_log[:len(log)] or [seq for seq, _, _ in after] != list(range(1, len(after) + 1))
                or restart.status != 0 or not starts or (games > 0 and starts[0]["state"] != replayed))
    stuck = expected is not None and len(after) < expected
    return lost, duplicated, bool(diverged), stuck


def run_crash_bench(game: str, trials: int, seed: int, *, script_lines: int = 60, exec_children: bool = False,
                    workdir: Path | None = None, progress: Callable[[str], None] | None = None) -> dict[str, int]:
    """Run ``trials`` kill-and-restart trials of ``game`` (a game of the registry).

    Returns ``{"trials", "lost", "duplicated", "diverged", "stuck"}`` (see the module docstring). Raises
    ``UserError`` for an unknown game and RuntimeError when the uninterrupted reference run fails.
    """
    entry = game_entry(game)
    if not exec_children:
        _preload(entry)
    rng = random.Random(seed)
    owned = workdir is None
    root = Path(tempfile.mkdtemp(prefix="crash-bench-")) if owned else Path(workdir)
    totals = {"trials": 0, "lost": 0, "duplicated": 0, "diverged": 0, "stuck": 0}
    try:
        workload = entry.module("bench").crash_workload(root / "workload", script_lines)
        if not exec_children:  # the advisor's tables, built once here for every forked child
            entry.module("hints").prepare(entry.config(workload.plan.variant if workload.plan else {}))
        quit_script = write_script(root / "quit.script", [], quit=True)
        play = [*workload.argv, "--input", f"script:{workload.script}"]
        reference_dir = root / "reference"
        reference = run_child([*play, "--new"], _child_env(reference_dir), exec_children=exec_children)
        if reference.status != 0:
            raise RuntimeError(f"the reference run of {game} exited with status {reference.status}")
        _, ref_events = _stored(reference_dir, game)
        start_at = next((r["at"] for r in reference.records if "start" in r), 0.0)
        ref_log = [(kind, payload) for _, kind, payload in ref_events]
        if workload.plan is not None:
            if ref_log != workload.plan.log[:len(ref_log)]:
                raise RuntimeError(f"the reference run of {game} did not store the events its presses make")
            ref_log = workload.plan.log  # and the next action's events, as far as the restarts go
        for trial in range(trials):
            state_dir = root / f"trial-{trial}"
            if rng.random() < STARTUP_KILLS:  # while the program starts (store being created...)
                moment = {"kill_after": rng.uniform(0, start_at)}
            else:  # while the game is played
                moment = {"kill_after_start": rng.uniform(0, max(reference.seconds - start_at, 0.01))}
            killed = run_child([*play, "--new"], _child_env(state_dir), exec_children=exec_children, **moment)
            shown = _shown_events(killed.records)
            ids, before = _stored(state_dir, game)
            script, expected, refused = quit_script, None, ""
            if workload.plan is not None:
                follow = following(workload.plan, state_dir, actions=1)
                script = write_script(root / f"trial-{trial}.script", follow.presses, quit=True)
                expected, refused = follow.through, follow.refused
            restart = run_child([*workload.argv, "--input", f"script:{script}"], _child_env(state_dir),
                                exec_children=exec_children)
            ids_after, after = _stored(state_dir, game)
            replayed = None
            starts = [r for r in restart.records if "start" in r]
            if ids_after:
                with Store(state_dir / STORE_FILE_NAME) as store:
                    replayed = replayed_state(entry, store, ids_after[0],
                                              starts[0].get("events") if starts else None)
            lost, duplicated, diverged, stuck = check_trial(shown, before, after, len(ids_after), ref_log,
                                                            restart, replayed, expected)
            stuck = stuck or bool(refused)
            totals["trials"] += 1
            totals["lost"] += lost
            totals["duplicated"] += duplicated
            totals["diverged"] += int(diverged)
            totals["stuck"] += int(stuck)
            if progress is not None:
                progress(f"trial {trial}: killed after {len(shown)} shown events, {len(before)} stored; "
                         f"lost {lost}, duplicated {duplicated}, diverged {int(diverged)}, stuck {int(stuck)}"
                         + (f" ({refused})" if refused else ""))
            shutil.rmtree(state_dir, ignore_errors=True)
    finally:
        if owned:
            shutil.rmtree(root, ignore_errors=True)
    return totals
