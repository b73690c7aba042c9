"""Ludo's demos: the variant of its by-hand demo and its camera demo on rendered frames of its board (no
photographs of whole games may be shipped).

``companion demo --game ludo`` (``companion.app.demo``) finds them here through the registry: every game
has a ``demos`` module (``BY_HAND_VARIANT``, ``CAMERA_DEMO``, ``TABLE_VARIANT``, ``Table``).
"""

from __future__ import annotations

import random

import numpy as np

BY_HAND_VARIANT: dict[str, str] = {}
"""The by-hand demo plays the default board (``ludo52``)."""

CAMERA_DEMO = "table"
"""The camera demo reads frames of the table rendered as the players play (:class:`Table`)."""

TABLE_VARIANT: dict[str, str] = {"board": "dga56"}
"""The camera demo plays on ``dga56``, the board of the real photos (ludo.md B.2c)."""


class Table:
    """The Ludo table: the board of a state photographed by a fixed camera (random turn and tilt), the die
    thrown to a new place beside the board for each roll and lying there until the next one; the light
    changes now and then (as in :func:`companion.demos.ludo_frames.generate`)."""

    camera_actions = ("Roll", "Move")

    def __init__(self, config, seed: int, size: tuple[int, int] = (480, 360)):
        from companion.games.ludo import load_board
        from companion.demos.ludo_frames import DIE_SIDE, homography
        from vision.board.render import Scene

        self.geometry = load_board(config.board)
        self.rng = random.Random(seed)
        rng = self.rng
        self.scene = Scene(size=size, turn=rng.uniform(0, 360), tilt=rng.uniform(0, 18), fill=rng.uniform(0.6, 0.68),
                           noise=2.0, seed=rng.randrange(1 << 30))
        self.hom = homography(self.geometry, self.scene)
        self.side = DIE_SIDE * min(size)
        self.die: tuple | None = None
        self._thrown_at = -1

    def key(self, sim, pending, step: int) -> tuple:
        """What the camera sees: the pawns (the pending move made) and which roll's die lies there."""
        name = type(pending).__name__
        if name == "Roll" and step != self._thrown_at:
            self._throw(pending.value)
            self._thrown_at = step
        shown = sim.apply(pending) if name == "Move" else sim
        return shown.pawns, self.die, self.scene

    def _throw(self, value: int) -> None:
        from dataclasses import replace

        from companion.demos.ludo_frames import DIE_TURN, LIGHT_CHANGE, die_place

        rng = self.rng
        if rng.random() < LIGHT_CHANGE:
            self.scene = replace(self.scene, gain=rng.uniform(0.85, 1.1), gradient=rng.uniform(0, 0.2),
                                 shadow=rng.random() < 0.3, seed=rng.randrange(1 << 30))
        last = None if self.die is None else self.die[0]
        at = die_place(rng, self.geometry, self.hom, self.scene.size, self.side, last)
        self.die = (at, self.side, rng.uniform(0, DIE_TURN), value)

    def render(self, sim, pending) -> np.ndarray:
        from companion.demos.ludo_frames import table_photo

        shown = sim.apply(pending) if type(pending).__name__ == "Move" else sim
        return table_photo(self.geometry, shown, self.scene, self.die)

    def offered(self, session, action) -> bool:
        """The Ludo session takes what it reads at once: nothing waits for CONFIRM."""
        return False
