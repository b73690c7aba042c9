"""``companion bench soak``: a long evening in one process; memory (RSS) and open files before and after.

Can't Stop's session in the one loop (``companion.app.loop.run_loop``) runs headless on the bundled demo: the
photo-folder camera over the demo playlist and the demo's button script, game after game in one store,
one window (SDL dummy driver) for all of them, until ``frames`` loop ticks have run. A game whose
script ends (the demo script no longer fits the reader or the advisor) is left for the next one. Each tick is one
frame as on the box: a camera frame through the dice reader while the session watches the dice, the
screen drawn, the inputs polled. The loop runs at the configured ``[session] fps`` (10 by default: 36,000
frames = an hour), or as fast as it can with ``fast``.

Figures (Linux ``/proc/self``): RSS in MB (``VmRSS``) at the start (before the store and window are
opened), after a warm-up (the first :data:`WARMUP_FRAMES` frames: fonts, reader tables and
SQLite caches are loaded lazily) and at the end; open file descriptors with the store and window open,
before the first frame and after the last (each game's camera and script are closed by then).
Target (issue 9): growth from warm-up to end under 10 MB, and no more open files at the end than at the start.
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
from companion.readers import ReaderSettings
from companion.registry import game
from companion.session import Waiting
from companion.store import Store

WARMUP_FRAMES = 200
CHUNK = 100  # loop ticks per run_loop call


def rss_mb() -> float:
    """This process's resident set size in MB (``VmRSS`` of ``/proc/self/status``; 0.0 where absent)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
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


def run_soak(frames: int, *, fast: bool = False, state_dir: Path | None = None) -> dict:
    """Run the session loop for ``frames`` ticks; returns the figures of the module docstring.

    Keys: frames, games (started), seconds, fps (achieved), rss_start_mb, rss_warm_mb, rss_end_mb,
    rss_growth_mb (end minus warm-up), files_start, files_end.
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    entry = game("cant-stop")
    config = Config()
    owned = state_dir is None
    folder = Path(tempfile.mkdtemp(prefix="soak-")) if owned else Path(state_dir)
    figures = {"frames": 0, "games": 0, "seconds": 0.0, "fps": 0.0, "rss_start_mb": round(rss_mb(), 1),
               "rss_warm_mb": 0.0, "rss_end_mb": 0.0, "rss_growth_mb": 0.0, "files_start": 0, "files_end": 0}
    started = time.monotonic()
    store = Store(folder / "companion.sqlite3")
    display = _CountingDisplay(Display(config.display.width, config.display.height, headless=True))
    figures["files_start"] = open_files()
    try:
        while display.shown < frames:
            game_id = store.new_game(entry.name, DEMO_PLAYERS, {})
            figures["games"] += 1
            session = entry.module("session").SESSION(store, game_id, list(DEMO_PLAYERS), entry.config(),
                                                      stable_frames=config.session.stable_frames,
                                                      rng=random.Random(DEMO_SEED))
            inputs = open_input(f"script:{demo_script_path()}", events=display.events)
            try:
                with demo_camera(config.session.frames_per_photo) as camera:
                    reader = entry.module("readers").make_reader(camera, session, ReaderSettings(folder))
                    while display.shown < frames:
                        # chunks, so that the warm-up figure is taken on time and a stuck game is noticed
                        chunk = min(CHUNK, frames - display.shown)
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
        figures["files_end"] = open_files()
    finally:
        display.close()
        store.close()
        if owned:
            shutil.rmtree(folder, ignore_errors=True)
    figures["frames"] = display.shown
    figures["seconds"] = round(time.monotonic() - started, 1)
    figures["fps"] = round(figures["frames"] / max(figures["seconds"], 1e-9), 1)
    figures["rss_end_mb"] = round(rss_mb(), 1)
    figures["rss_warm_mb"] = figures["rss_warm_mb"] or figures["rss_end_mb"]
    figures["rss_growth_mb"] = round(figures["rss_end_mb"] - figures["rss_warm_mb"], 1)
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
