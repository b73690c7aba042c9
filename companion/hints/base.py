"""The one shape of a piece of advice, shared by every game's advisor."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Hint:
    """Advice for the seat to act.

    action: the recommended engine action, one of ``state.legal_actions()`` (None where the advisor
    cannot know the seat's options, e.g. the donkey race's hidden hand). reason: one translated line for
    the players, with its numbers. numbers: the figures behind it, named and documented by each game's
    ``advise`` (probabilities 0-1, expected turns, values). kind: the reason's category where the game
    has them (Ludo: ``clear_start``, ``capture``, ``escape``, ``safe``, ``enter``, ``home``, ``progress``), else ``""``.
    ranking: every legal action with its value, best first, where the advisor ranks them (Ludo).
    """

    action: Any
    reason: str
    numbers: Mapping[str, float] = field(default_factory=dict, hash=False)
    kind: str = ""
    ranking: tuple[tuple[Any, float], ...] = field(default=(), hash=False)
