"""``companion bench soak``: a long evening in one process; memory (RSS) and open files before and after.

Can't Stop's session in the one loop (``companion.app.loop.run_loop``) runs headless on the bundled demo: the
photo-folder camera over the demo playlist and the demo's button script, game after game in one store,
one window (SDL dummy driver) for all of them, until ``frames`` loop ticks have run (or ``games`` games have
been played). A game whose script ends (the demo script no longer fits the reader or the advisor) is left
for the next one. Each tick is one frame as on the box: a camera frame through the dice reader while the
session watches the dice, the screen drawn, the inputs polled. Every game starts as on the box
(``companion.app.play.run_game``): it learns from the rolls the games before it kept (issue 39), reads with
what it learned and keeps its confirmed rolls, and the free heap is given back to the system after the
reader is built and after the game (:func:`companion.memory.give_back_free_memory`). The loop runs at the
configured ``[session] fps`` (10 by default: 36,000 frames = an hour), or as fast as it can with ``fast``.

Figures (Linux ``/proc/self``): RSS in MB (``VmRSS``) at the start (before the store and window are
opened), after a warm-up (the first :data:`WARMUP_FRAMES` frames: fonts, reader tables and SQLite caches
are loaded lazily), after each game (``games_rss_mb``, at the same seam of every game: the game left, its
memory given back) and at the end; the peak (``VmHWM``); open file descriptors with the store and window
open, before the first frame and after the last (each game's camera and script are closed by then).
``rss_growth_mb``: RSS after the last game minus RSS after the first (one game: end minus warm-up), what
the games after the first added. Target (issues 9 and 52): under 10 MB over 3,000 frames and over 20
games, learning on, and no more open files at the end than at the start.
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
import time
from pathlib import Path

from companion.app import run_loop
from companion.app.demo import DEMO_PLAYERS, DEMO_SEED, demo_camera, demo_script_path
from companion.app.inputs import open_input
from companion.config import Config
from companion.display import Display
from companion.errors import ScriptEnded
from companion.memory import give_back_free_memory
from companion.readers import ReaderSettings
from companion.registry import game
from companion.session import Waiting
from companion.store import Store

WARMUP_FRAMES = 200
CHUNK = 100  # loop ticks per run_loop call


def rss_mb() -> float:
    """This process's resident set size in MB (``VmRSS`` of ``/proc/self/status``; 0.0 where absent)."""
    return _status_mb("VmRSS:")


def peak_rss_mb() -> float:
    """The most this process has been resident, in MB (``VmHWM`` of ``/proc/self/status``; 0.0 where absent)."""
    return _status_mb("VmHWM:")


def _status_mb(key: str) -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def open_files() -> int:
    """Open file descriptors of this process (entries of ``/proc/self/fd``; -1 where absent)."""
    try:
        return len(os.listdir("/proc/self/fd")) - 1  # minus the one listdir itself holds
    except OSError:
        return -1


def run_soak(frames: int, *, fast: bool = False, state_dir: Path | None = None, games: int | None = None,
             frames_a_game: int | None = None) -> dict:
    """Run the session loop for ``frames`` ticks (or until ``games`` games have been played); returns the
    figures of the module docstring. ``frames_a_game``: a game is left after that many ticks (the players
    walked away), so that a short soak crosses many games. ``state_dir``: the store and the kept and
    learned dice (default a new temporary folder, removed after).

    Keys: frames, games (started), seconds, fps (achieved), rss_start_mb, rss_warm_mb, rss_end_mb,
    rss_peak_mb, games_rss_mb (list), rss_growth_mb, files_start, files_end, kept_dice (in the state
    directory at the end).
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    entry = game("cant-stop")
    config = Config()
    owned = state_dir is None
    folder = Path(tempfile.mkdtemp(prefix="soak-")) if owned else Path(state_dir)
    figures = {"frames": 0, "games": 0, "seconds": 0.0, "fps": 0.0, "rss_start_mb": round(rss_mb(), 1),
               "rss_warm_mb": 0.0, "rss_end_mb": 0.0, "rss_peak_mb": 0.0, "games_rss_mb": [], "rss_growth_mb": 0.0,
               "files_start": 0, "files_end": 0, "kept_dice": 0}
    started = time.monotonic()
    store = Store(folder / "companion.sqlite3")
    display = _CountingDisplay(Display(config.display.width, config.display.height, headless=True))
    figures["files_start"] = open_files()
    try:
        while display.shown < frames and (games is None or figures["games"] < games):
            game_id = store.new_game(entry.name, DEMO_PLAYERS, {})
            figures["games"] += 1
            session = entry.module("session").SESSION(store, game_id, list(DEMO_PLAYERS), entry.config(),
                                                      stable_frames=config.session.stable_frames,
                                                      rng=random.Random(DEMO_SEED))
            inputs = open_input(f"script:{demo_script_path()}", events=display.events)
            until = frames if frames_a_game is None else min(frames, display.shown + frames_a_game)
            try:
                with demo_camera(config.session.frames_per_photo) as camera:
                    reader = entry.module("readers").make_reader(camera, session, ReaderSettings(folder))
                    give_back_free_memory()  # as the box does (companion.app.play.run_game)
                    while display.shown < until:
                        # chunks, so that the warm-up figure is taken on time and a stuck game is noticed
                        chunk = min(CHUNK, until - display.shown)
                        try:
                            run_loop(session, store, camera, reader, inputs, display, screen=entry.module("screens"),
                                     draw=entry.module("display").draw, game=entry.name, headless=fast,
                                     fps=config.session.fps, max_ticks=chunk)
                        except ScriptEnded:  # the script no longer fits this game: start the next one
                            break
                        if display.shown >= WARMUP_FRAMES and not figures["rss_warm_mb"]:
                            figures["rss_warm_mb"] = round(rss_mb(), 1)
                        if session.finished or (inputs.exhausted and session.waiting is Waiting.PLAYERS):
                            break
            finally:
                inputs.close()
                if session.keeper is not None:
                    session.keeper.close()
                session = reader = None
                give_back_free_memory()
            figures["games_rss_mb"].append(round(rss_mb(), 1))
        figures["files_end"] = open_files()
    finally:
        display.close()
        store.close()
        figures["kept_dice"] = sum(int(f.stem.rsplit("-", 1)[-1]) for f in (folder / "dice_examples").glob("roll-*.npz")
                                   if f.stem.rsplit("-", 1)[-1].isdigit())
        if owned:
            shutil.rmtree(folder, ignore_errors=True)
    figures["frames"] = display.shown
    figures["seconds"] = round(time.monotonic() - started, 1)
    figures["fps"] = round(figures["frames"] / max(figures["seconds"], 1e-9), 1)
    figures["rss_end_mb"] = round(rss_mb(), 1)
    # VmHWM is brought up to date by the kernel now and then: never under a figure read since
    figures["rss_peak_mb"] = round(max(peak_rss_mb(), figures["rss_warm_mb"], figures["rss_end_mb"],
                                       *figures["games_rss_mb"]), 1)
    figures["rss_warm_mb"] = figures["rss_warm_mb"] or figures["rss_end_mb"]
    after = figures["games_rss_mb"]
    figures["rss_growth_mb"] = round(after[-1] - after[0] if len(after) >= 2
                                     else figures["rss_end_mb"] - figures["rss_warm_mb"], 1)
    return figures


class _CountingDisplay:
    """The display, counting the frames shown (one per loop tick)."""

    def __init__(self, display):
        self._display = display
        self.shown = 0

    def show(self, view, draw, mode: str = "") -> None:
        self.shown += 1
        self._display.show(view, draw, mode)

    def __getattr__(self, name):
        return getattr(self._display, name)
