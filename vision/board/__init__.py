"""The Ludo board reader: ``read_board(frame_bgr, geometry, calibration=None) -> BoardObservation``.

:mod:`.reader` (the front: find the board, read the pawns), :mod:`.find` and :mod:`.refine` (the
homography to the board's grid, no markers needed; :mod:`.aruco` optional stickers), :mod:`.pieces`
(which pawn stands where), :mod:`.hand` (places a hand covers), :mod:`.colour`, :mod:`.printed`,
:mod:`.layouts` (each board's print: ``ludo52``, ``mensch40``, ``dga56``), :mod:`.pinhole` and
:mod:`.landed` (a die thrown on the board, told from the print by what changed). For the measures:
:mod:`.render` (synthetic photos), :mod:`.eval` and :mod:`.game_frames` (whole games, measured by
:mod:`companion.bench.board_games`).
"""

from vision.board.layouts import PrintLayout, board_by_name, dga56, layout_for
from vision.board.reader import board_outline, mask_board, read_board
from vision.observation import BoardObservation, PawnReading

__all__ = ["read_board", "mask_board", "board_outline", "BoardObservation", "PawnReading", "board_by_name",
           "layout_for", "dga56", "PrintLayout"]
