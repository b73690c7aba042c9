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


class IllegalMove(ValueError):
    """An action that breaks a rule in this state; ``rule`` cites the rules file section."""

    def __init__(self, message: str, rule: str):
        super().__init__(f"{message} ({rule})")
        self.rule = rule


class VariantError(ValueError):
    """A variant setting with an unknown key or a value outside its allowed range."""


def parse_bool(raw: object) -> bool:
    """A variant switch's truth value: a bool, or ``1/true/yes/on`` and ``0/false/no/off`` in any case.

    Raises ``ValueError`` for anything else (the engines turn it into a :class:`VariantError`).
    """
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(raw)


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
