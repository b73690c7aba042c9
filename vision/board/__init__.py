"""The Ludo board reader: ``read_board(frame_bgr, geometry, calibration=None) -> BoardObservation``.

:mod:`.reader` (the front: find the board, read the pawns), :mod:`.find` and :mod:`.refine` (the
homography to the board's grid, no markers needed; :mod:`.aruco` optional stickers), :mod:`.pieces`
(which pawn stands where), :mod:`.hand` (places a hand covers), :mod:`.colour`, :mod:`.printed`,
:mod:`.layouts` (each board's print: ``ludo52``, ``mensch40``, ``dga56``), :mod:`.pinhole` and
:mod:`.landed` (a die thrown on the board, told from the print by what changed). For the measures:
:mod:`.render` (synthetic photos) and :mod:`.eval` (whole games are rendered with the rules by
``companion.demos.ludo_frames`` and measured by ``companion.bench.board_games``).

The board's geometry is handed in (:mod:`.geometry`: what the reader needs of it; the app loads it,
``companion.games.ludo.load_board``): vision imports nothing of companion.
"""

from vision.board.geometry import PAWNS, BoardGeometry, Boards
from vision.board.layouts import PrintLayout, layout_for
from vision.board.reader import board_outline, mask_board, read_board
from vision.observation import BoardObservation, PawnReading

__all__ = ["read_board", "mask_board", "board_outline", "BoardObservation", "PawnReading", "layout_for",
           "PrintLayout", "BoardGeometry", "Boards", "PAWNS"]
