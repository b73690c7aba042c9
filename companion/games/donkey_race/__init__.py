"""The donkey card race, the pure rules engine: ``../shared/rules/donkey-race.md``.

The front door of the package: :mod:`.config` (cards and the variant), :mod:`.actions` (actions and
the value of a set) and :mod:`.rules` (the state, full or table-side). ``GAME``, ``CONFIG`` and
``VARIANTS`` are the registry's names (``companion.registry``).
"""

from companion.games.donkey_race.actions import (Draw, FirstLeader, Pass, Play, Reshuffle, action_from_dict,
    action_to_dict, set_value, step_actions)
from companion.games.donkey_race.config import (DONKEY, JOKER, STANDARD_DECK, UNKNOWN, VARIANTS, DonkeyRaceConfig,
    card_from_name, card_name, parse_deck)
from companion.games.donkey_race.rules import Action, DonkeyRaceGame, DonkeyRaceState, Phase

GAME = DonkeyRaceGame
CONFIG = DonkeyRaceConfig

__all__ = [
    "GAME", "CONFIG", "VARIANTS", "DONKEY", "JOKER", "UNKNOWN", "STANDARD_DECK", "DonkeyRaceConfig",
    "DonkeyRaceGame", "DonkeyRaceState", "Phase", "Action", "Draw", "FirstLeader", "Pass", "Play", "Reshuffle",
    "action_from_dict", "action_to_dict", "step_actions", "set_value", "card_name", "card_from_name", "parse_deck",
]
