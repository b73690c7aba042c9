"""Can't Stop (Sid Sackson), the pure rules engine: ``../shared/rules/cant-stop.md``.

The front door of the package: :mod:`.config` (the variant), :mod:`.rules` (state, actions, positions) and
:mod:`.odds` (exact bust chances). ``GAME``, ``CONFIG`` and ``VARIANTS`` are the registry's names
(``companion.registry``).
"""

from companion.games.cant_stop.config import COLUMNS, STANDARD_HEIGHTS, VARIANTS, CantStopConfig
from companion.games.cant_stop.odds import bust_chance, bust_probability, bust_probability_for_columns
from companion.games.cant_stop.rules import (MAX_PLAYERS, Action, Bank, CantStopGame, CantStopState, Choose, Phase,
    Roll, RollAgain, StartWith, action_from_dict, action_to_dict, pairings, roll_distribution, state_from_position)

GAME = CantStopGame
CONFIG = CantStopConfig

__all__ = [
    "GAME", "CONFIG", "VARIANTS", "COLUMNS", "STANDARD_HEIGHTS", "MAX_PLAYERS", "CantStopConfig", "CantStopGame",
    "CantStopState", "Phase", "Action", "StartWith", "Roll", "Choose", "RollAgain", "Bank", "action_from_dict",
    "action_to_dict", "pairings", "roll_distribution", "state_from_position", "bust_probability",
    "bust_probability_for_columns", "bust_chance",
]
