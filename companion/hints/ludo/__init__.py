"""The Ludo advisor: which pawn to move, and why (:mod:`.advisor`, with capture danger from :mod:`.danger`)."""

from companion.hints.base import Hint
from companion.hints.ludo.advisor import (BASE_WEIGHTS, NODES, SAFE_WEIGHTS, Weights, advise, danger, pawn_value,
    prepare, weights_for)

__all__ = ["Hint", "advise", "pawn_value", "danger", "Weights", "BASE_WEIGHTS", "SAFE_WEIGHTS", "weights_for",
           "NODES", "prepare"]
