"""Ludo and "Mensch ärgere Dich nicht", the pure rules engine: ``../shared/rules/ludo.md``.

The front door of the package: :mod:`.board` (geometry as data), :mod:`.config` (the variant),
:mod:`.actions`, :mod:`.rules` (the state), :mod:`.moves` (one pawn's move), :mod:`.check` (which legal
move turns one board into another) and :mod:`.position` (position files). ``GAME``, ``CONFIG`` and
``VARIANTS`` are the registry's names (``companion.registry``).
"""

from companion.games.ludo.actions import YARD, Move, MoveInfo, Roll, StartWith, action_from_dict, action_to_dict
from companion.games.ludo.board import BOARD_NAMES, COLOURS, BoardGeometry, ColourGeometry, load_board, load_boards
from companion.games.ludo.check import (CAPTURE_PENDING, ILLEGAL, MOVED, UNCHANGED, Misplaced, MoveCheck,
    board_differences, check_move)
from companion.games.ludo.config import VARIANTS, LudoConfig
from companion.games.ludo.position import position_moves, state_from_position
from companion.games.ludo.rules import PAWNS, Action, LudoGame, LudoState, Phase

GAME = LudoGame
CONFIG = LudoConfig

__all__ = [
    "GAME", "CONFIG", "VARIANTS", "LudoConfig", "LudoGame", "LudoState", "Phase", "PAWNS", "YARD", "Action",
    "StartWith", "Roll", "Move", "MoveInfo", "action_from_dict", "action_to_dict", "BOARD_NAMES", "COLOURS",
    "BoardGeometry", "ColourGeometry", "load_board", "load_boards", "check_move", "board_differences", "MoveCheck", "Misplaced", "MOVED", "UNCHANGED",
    "CAPTURE_PENDING", "ILLEGAL", "position_moves", "state_from_position",
]
