"""The Can't Stop board reader: which space of each column holds which player's marker and the runners.

``read_cant_stop_board(frame_bgr, layout, colours) -> CantStopBoardReading`` (:mod:`.reader`);
:mod:`.layouts` (the boards players have), :mod:`.printed` (the box's printable board and stickers),
:mod:`.render` (synthetic photos with their truth) and :mod:`.eval` (the measure). The game's rules are
not imported (vision imports nothing of companion): the reading is checked against the record by the
session.
"""

from vision.board.cant_stop.layouts import COLUMNS, HEIGHTS, LAYOUTS, CantStopLayout, layout_named
from vision.board.cant_stop.reader import MARKER_COLOURS, CantStopBoardReading, read_cant_stop_board

__all__ = ["read_cant_stop_board", "CantStopBoardReading", "CantStopLayout", "LAYOUTS", "COLUMNS", "HEIGHTS",
           "MARKER_COLOURS", "layout_named"]
