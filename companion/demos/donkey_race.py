"""The donkey race's demos: the variant of its by-hand demo and its camera demo on rendered frames of the
cards in the players' sectors.

``companion demo --game donkey-race`` (``companion.app.demo``) finds them here through the registry: every game
has a ``demos`` module (``BY_HAND_VARIANT``, ``CAMERA_DEMO``, ``TABLE_VARIANT``, ``Table``).
"""

from __future__ import annotations

import numpy as np

BY_HAND_VARIANT: dict[str, str] = {}
"""The default race."""

CAMERA_DEMO = "table"
"""The camera demo reads frames of the table rendered as the players play (:class:`Table`)."""

TABLE_VARIANT: dict[str, str] = {}
"""The default race."""


class Table:
    """The donkey race table seen from above (:func:`vision.cards.render.render_donkey_scene`): the cards
    each player laid this round in the sector in front of them."""

    camera_actions = ("Play",)

    def __init__(self, config, seed: int, size: tuple[int, int] = (800, 800)):
        self.config, self.seed, self.size = config, seed, size

    def key(self, sim, pending, step: int) -> tuple:
        """The card values in each seat's sector, the set being played included."""
        sectors = [list(sim.sector(seat)) for seat in range(sim.num_players)]
        if type(pending).__name__ == "Play":
            sectors[sim.active] += list(pending.cards)
        return tuple(tuple(self.config.value_of(code) for code in sector) for sector in sectors)

    def render(self, sim, pending) -> np.ndarray:
        from vision.cards.render import render_donkey_scene

        hands = [list(values) for values in self.key(sim, pending, 0)]
        frame, _truth = render_donkey_scene(np.random.default_rng(self.seed), hands, size=self.size)
        return frame

    def offered(self, session, action) -> bool:
        """The camera's new cards in the active sector are the set played (CONFIRM plays them)."""
        return session.mode.value == "play" and session.proposed_play() == (tuple(sorted(action.cards)), "camera")
