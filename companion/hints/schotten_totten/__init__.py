"""Schotten Totten hints: public alerts for the shared screen, a card advisor for simulations, and the
game's words for formations and claims.

:mod:`.advisor` (``advise``, ``public_alerts``), :mod:`.eval` (whole-board evaluation with known hands)
and :mod:`.words` (formation names and claim reasons, translated).
"""

from companion.hints.base import Hint
from companion.hints.schotten_totten.advisor import NODES, Alerts, advise, next_turn_claims, prepare, public_alerts
from companion.hints.schotten_totten.words import formation_label, verdict_text

__all__ = ["Hint", "advise", "Alerts", "public_alerts", "next_turn_claims", "formation_label", "verdict_text",
           "NODES", "prepare"]
