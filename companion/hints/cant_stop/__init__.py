"""The Can't Stop advisor: which pairing to take, and whether to roll again or bank.

:mod:`.advisor` (``advise``), over :mod:`.search` (the turn's utilities), :mod:`.turn` (exact roll-or-bank
values over the runners' positions), :mod:`.value` (expected turns from the banked board) and
:mod:`.threats` (columns an opponent is about to claim).
"""

from companion.hints.base import Hint
from companion.hints.cant_stop.advisor import NODES, advise, prepare, steps_at_risk

__all__ = ["NODES", "Hint", "advise", "prepare", "steps_at_risk"]
