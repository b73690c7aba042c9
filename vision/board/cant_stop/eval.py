"""The Can't Stop board reader measured on rendered boards: ``evaluate(renders, seed) -> dict``.

Each render draws a position a game could reach (:func:`.render.random_position`) on one of the layouts
in turn, in a scene drawn from :func:`.render.random_scene` (tilt up to 35 degrees, any turn, coloured
light, shadows, noise, blur, JPEG, every marker and runner shape; a fifth of them with a hand, a die or a
card on the board). A reading is ``exact`` when it is offered and equals the truth, ``refused`` when it is
not offered (a problem, or the board not found), a ``false_accept`` when it is offered and differs from
the truth (the figure players feel). A scene whose clutter covers a space or a piece must be refused: an
offered reading there counts as a false accept whatever it says.
"""

from __future__ import annotations

import time

import numpy as np

from vision.board.cant_stop.layouts import LAYOUTS
from vision.board.cant_stop.reader import read_cant_stop_board
from vision.board.cant_stop.render import random_position, random_scene, render

PLAYER_COLOURS = ("red", "blue", "green", "yellow")
"""The players' marker colours of the renders (four players)."""
CLUTTER_RATE = 0.2
LOW_TILT = 20.0


def _same(reading, position) -> bool:
    seen = {c: m for c, m in reading.markers.items() if m}
    truth = {c: m for c, m in position.markers.items() if m}
    return seen == truth and reading.runners == position.runners


def evaluate(renders: int, seed: int, layouts: tuple[str, ...] = tuple(LAYOUTS), max_tilt: float = 35.0) -> dict:
    """Read ``renders`` rendered boards (the layouts in turn) and count (module docstring). Returns
    ``{"positions", "exact", "refused", "false_accepts", "refused_low_tilt", "low_tilt", "with_clutter",
    "clutter_false_accepts", "ms_median", "layouts": {name: {"positions", "exact", "refused",
    "false_accepts"}}}``; ``refused_low_tilt`` is the share refused among the renders of tilt up to 20
    degrees with no clutter."""
    rng = np.random.default_rng(seed)
    total = {"positions": 0, "exact": 0, "refused": 0, "false_accepts": 0}
    per = {name: dict(total) for name in layouts}
    low, low_refused, cluttered, clutter_fa, times = 0, 0, 0, 0, []
    for i in range(renders):
        name = layouts[i % len(layouts)]
        layout = LAYOUTS[name]
        position = random_position(rng, PLAYER_COLOURS, layout)
        scene = random_scene(rng, max_tilt=max_tilt, clutter_rate=CLUTTER_RATE)
        shot = render(layout, position, scene)
        start = time.perf_counter()
        reading = read_cant_stop_board(shot.image, layout, PLAYER_COLOURS, scene.runner_colour)
        times.append((time.perf_counter() - start) * 1000.0)
        outcome = "refused" if not reading.ok else (
            "exact" if _same(reading, position) and not shot.refuse else "false_accepts")
        for counts in (total, per[name]):
            counts["positions"] += 1
            counts[outcome] += 1
        if scene.clutter:
            cluttered += 1
            clutter_fa += outcome == "false_accepts"
        elif scene.tilt <= LOW_TILT:
            low += 1
            low_refused += outcome == "refused"
    return {**total, "low_tilt": low, "refused_low_tilt": round(low_refused / low, 4) if low else None,
            "with_clutter": cluttered, "clutter_false_accepts": clutter_fa,
            "ms_median": round(float(np.median(times)), 1) if times else None, "seed": seed, "layouts": per}
