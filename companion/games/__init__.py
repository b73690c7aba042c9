"""Pure rules engines, one package per game, all with the Game/State shape of ARCHITECTURE.md.

The shared vocabulary is here: :data:`CHANCE` and :data:`TERMINAL` (``current_player`` at a chance
node or once the game is over), :class:`Outcome`, the variant tables (:mod:`.variants`) and the errors
the engines raise (``companion.errors.IllegalMove``, ``VariantError``). No engine does I/O, keeps a
clock or draws a random number.
"""

from companion.errors import IllegalMove, VariantError
from companion.games.base import CHANCE, TERMINAL, Outcome
from companion.games.variants import VariantKey, check_variant, parse_variant

__all__ = ["CHANCE", "TERMINAL", "Outcome", "IllegalMove", "VariantError", "VariantKey", "parse_variant",
           "check_variant"]
