"""After the game: a saved game's summary (course, placings, luck) and the dice's fairness over the store.

``companion.stats.<game>.summarise(events, players, config)`` (one module a game, found through
``companion.registry``) gives a :class:`GameSummary`; :mod:`.dice` counts the dice the camera read and
tests them against a fair die; :func:`store_figures` gathers both over the saved games for ``companion
stats`` (docs/CLI.md) and the menu.
"""

from __future__ import annotations

from companion.stats.base import Course, GameSummary, Tally
from companion.stats.dice import ALPHA, MIN_DICE, DiceRoll, Fairness, face_counts, fairness, rolls_of
from companion.stats.saved import game_summary, store_figures

__all__ = ["Course", "GameSummary", "Tally", "DiceRoll", "Fairness", "fairness", "face_counts", "rolls_of",
           "MIN_DICE", "ALPHA", "game_summary", "store_figures"]
