"""The shape every rules engine shares (ARCHITECTURE.md, Rules engines), after OpenSpiel and python-chess.

Engines are pure: no I/O, no clock, no randomness. Chance outcomes (dice, draws) are actions applied
like any other; ``State.current_player`` is :data:`CHANCE` when the table must supply one.
"""

from __future__ import annotations

from dataclasses import dataclass

CHANCE = -1
"""``current_player`` when the table (camera, hand entry or a seeded RNG) must supply an outcome."""

TERMINAL = -2
"""``current_player`` once the game is over."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    winner: the winning seat, or None for a draw. placings: seats from first to last.
    scores: a per-seat number whose meaning each game documents (Can't Stop: columns claimed).
    """

    winner: int | None
    placings: tuple[int, ...]
    scores: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"winner": self.winner, "placings": list(self.placings), "scores": list(self.scores)}
