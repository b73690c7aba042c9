"""Schotten Totten's demos: the variant of its by-hand demo and its camera demo on rendered frames of its
cards at the stones.

``companion demo --game schotten-totten`` (``companion.app.demo``) finds them here through the registry: every game
has a ``demos`` module (``BY_HAND_VARIANT``, ``CAMERA_DEMO``, ``TABLE_VARIANT``, ``Table``).
"""

from __future__ import annotations

import numpy as np

BY_HAND_VARIANT: dict[str, str] = {"match_length": "1"}
"""One game of the match keeps the by-hand demo short."""

CAMERA_DEMO = "table"
"""The camera demo reads frames of the table rendered as the players play (:class:`Table`)."""

TABLE_VARIANT: dict[str, str] = {"match_length": "1"}
"""One game of the match."""


class Table:
    """The Schotten Totten table seen from above (:func:`vision.cards.render.render_st_scene`): each side's
    cards above or below the line of stones, the card being played added to its column."""

    camera_actions = ("Play",)

    def __init__(self, config, seed: int, size: tuple[int, int] = (1280, 720)):
        self.seed, self.size = seed, size

    def key(self, sim, pending, step: int) -> tuple:
        """The cards of every column, in the order played."""
        from vision.cards.reference_deck import COLOURS

        columns = {(index, "ab"[seat]): [(COLOURS[c.colour], c.value) for c in stone.cards[seat]]
                   for index, stone in enumerate(sim.stones) for seat in (0, 1) if stone.cards[seat]}
        if type(pending).__name__ == "Play":
            columns.setdefault((pending.stone, "ab"[sim.active]), []).append(
                (COLOURS[pending.card.colour], pending.card.value))
        return tuple(sorted((place, tuple(cards)) for place, cards in columns.items()))

    def render(self, sim, pending) -> np.ndarray:
        from vision.cards.render import render_st_scene

        columns = {place: list(cards) for place, cards in self.key(sim, pending, 0)}
        # one generator seed for every frame: the camera and the table stay where they are
        frame, _truth, _stones = render_st_scene(np.random.default_rng(self.seed), columns, size=self.size)
        return frame

    def offered(self, session, action) -> bool:
        """The card the box proposes for checking is the one played, at its stone."""
        return session.proposal == (action.card, action.stone)
