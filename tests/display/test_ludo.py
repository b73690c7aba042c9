"""Ludo's board drawing: a move's arrow starts at the pawn that moves."""

import random

from companion.commands import Button, Command
from companion.display.ludo import move_start_cell, pawn_cells
from companion.games.ludo import load_board
from companion.screens.ludo import build_view
from companion.session.ludo import LudoSession
from companion.store import Store


def test_the_arrow_out_of_the_yard_starts_at_the_place_the_pawn_leaves(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        session = LudoSession(store, store.new_game("ludo", ["Ada", "Ben"], {}), ["Ada", "Ben"], rng=random.Random(1))
        session.on_camera_problem("No camera")
        session.on_command(Command(Button.CONFIRM))  # who starts
        session.on_command(Command(Button.DICE, (6,)))
        before = build_view(session)
        (move,) = [m for m in before.moves if m.frm < 0]
        geo = load_board(before.board)
        start = move_start_cell(geo, before, move)
        session.on_command(Command(Button.CONFIRM))
        after = build_view(session)
    cells_before = [cell for colour, cell in pawn_cells(geo, before) if colour == move.colour]
    cells_after = [cell for colour, cell in pawn_cells(geo, after) if colour == move.colour]
    assert start in cells_before and start not in cells_after  # the arrow's pawn is the one gone from the yard
