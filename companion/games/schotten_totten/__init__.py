"""Schotten Totten (Reiner Knizia) and Battle Line, the pure rules engine: ``../shared/rules/schotten-totten.md``.

The front door of the package: :mod:`.cards` (cards and formations), :mod:`.claims` (exact claims
from the cards on the table), :mod:`.config` (the variant), :mod:`.actions`, :mod:`.rules` (the state)
and :mod:`.positions` (JSON forms). ``GAME``, ``CONFIG`` and ``VARIANTS`` are the registry's names
(``companion.registry``).
"""

from companion.games.schotten_totten.actions import (Action, Claim, Draw, EndClaims, Pass, Play, StartWith,
    action_from_dict, action_to_dict)
from companion.games.schotten_totten.cards import (COLOURS, Card, card_name, formation_key, formation_name,
    formation_rank, full_deck, parse_card)
from companion.games.schotten_totten.claims import SIDE_SIZE, ClaimVerdict, claim_tables, exhaustive_claim
from companion.games.schotten_totten.config import (CLAIM_TIMINGS, GAMES, STALL_RESOLUTIONS, VARIANTS,
    SchottenTottenConfig)
from companion.games.schotten_totten.positions import state_from_position
from companion.games.schotten_totten.rules import (ADJACENT_TO_WIN, NUM_STONES, TOTAL_TO_WIN, Phase,
    SchottenTottenGame, SchottenTottenState, Stone)

GAME = SchottenTottenGame
CONFIG = SchottenTottenConfig

__all__ = [
    "GAME", "CONFIG", "VARIANTS", "GAMES", "CLAIM_TIMINGS", "STALL_RESOLUTIONS", "NUM_STONES", "SIDE_SIZE",
    "ADJACENT_TO_WIN", "TOTAL_TO_WIN",
    "SchottenTottenConfig", "SchottenTottenGame", "SchottenTottenState", "Stone", "Phase", "Action", "StartWith",
    "Draw", "Play", "Claim", "EndClaims", "Pass", "action_from_dict", "action_to_dict", "COLOURS", "Card", "card_name",
    "parse_card", "full_deck", "formation_key", "formation_name", "formation_rank", "ClaimVerdict",
    "claim_tables", "exhaustive_claim", "state_from_position",
]
