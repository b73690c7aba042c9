"""Drawing the Ludo screen (:class:`companion.screens.ludo.LudoView`) at any size, 800x480 first.

The shared frame (``companion.display.chrome``: the header with the prompt, the player strip with each
player's pawns home, the key chips, the notice band with captures and board problems) around the body:
on the left the board drawn from its geometry (``assets/ludo``; ``companion.games.ludo.board``) with the
pawns, the legal moves as arrows (the selected one thick and white) and rings around pawns to correct;
on the right the die with the dice kept, the six counter and the bonus rolls owed, the moves and the
hint. Every colour is also named in text, never told by colour alone.
"""

from __future__ import annotations

import math

import pygame

from companion.display import text
from companion.display.chrome import board_side, draw_chrome
from companion.display.text import draw_text
from companion.display.window import render_surface
from companion.games.ludo import BoardGeometry, load_board
from companion.i18n import _, ngettext
from companion.screens import palette
from companion.screens.ludo import LudoView
from companion.screens.palette import LUDO_COLOURS as COLOURS
from companion.screens.palette import LUDO_LIGHT as LIGHT

BOARD_BG = (236, 230, 214)
CELL = (252, 252, 248)
LINE = (90, 90, 90)


def cell_centre(rect: pygame.Rect, geo: BoardGeometry, cell: tuple[int, int]) -> tuple[float, float]:
    """Pixel centre of grid ``cell`` (row, col) on a board drawn in ``rect``."""
    size = rect.width / geo.grid_size
    return rect.x + (cell[1] + 0.5) * size, rect.y + (cell[0] + 0.5) * size


def _cell_rect(rect: pygame.Rect, geo: BoardGeometry, cell: tuple[int, int]) -> pygame.Rect:
    size = rect.width / geo.grid_size
    return pygame.Rect(round(rect.x + cell[1] * size), round(rect.y + cell[0] * size), math.ceil(size), math.ceil(size))


def _pawn_cell(geo: BoardGeometry, colour: str, rel: int, yard_index: int) -> tuple[int, int]:
    if rel < 0:
        return geo.colours[colour].yard[yard_index % 4]
    return geo.cell_of(colour, rel)


def pawn_cells(geo: BoardGeometry, view: LudoView) -> list[tuple[str, tuple[int, int]]]:
    """(colour, grid cell) of each pawn of ``view`` as drawn: yard pawns fill their yard's places in order."""
    used: dict[str, int] = {}
    cells = []
    for p in view.pawns:
        k = used.get(p.colour, 0)
        if p.rel < 0:
            used[p.colour] = k + 1
        cells.append((p.colour, _pawn_cell(geo, p.colour, p.rel, k)))
    return cells


def move_start_cell(geo: BoardGeometry, view: LudoView, move) -> tuple[int, int]:
    """The grid cell a move's arrow starts from: its pawn's, and for a pawn leaving the yard the last yard
    place taken (the one that is empty once the pawn has left)."""
    if move.frm >= 0:
        return _pawn_cell(geo, move.colour, move.frm, 0)
    in_yard = sum(1 for p in view.pawns if p.colour == move.colour and p.rel < 0)
    return _pawn_cell(geo, move.colour, move.frm, max(0, in_yard - 1))


def _yard_scale(geo: BoardGeometry) -> float:
    """How much larger than a square a yard's place and its pawn are drawn: 1.6 where the places lie at
    least two squares apart (ludo52's large yards), else 1 (places side by side)."""
    cells = [cell for g in geo.colours.values() for cell in g.yard[:2]]
    apart = min((abs(a[0] - b[0]) + abs(a[1] - b[1]) for a in cells for b in cells if a != b), default=1)
    return 1.6 if apart >= 2 else 1.0


def draw_board(surface: pygame.Surface, rect: pygame.Rect, view: LudoView) -> None:
    """The board of ``view`` (square ``rect``) with pawns, move arrows and correction rings."""
    geo = load_board(view.board)
    pygame.draw.rect(surface, BOARD_BG, rect)
    n = geo.grid_size
    corner = (n - 3) // 2  # yard quarter side (6 on ludo52, 4 on mensch40)
    yard_scale = _yard_scale(geo)
    for colour, g in geo.colours.items():
        r0 = 0 if g.yard[0][0] < n // 2 else n - corner
        c0 = 0 if g.yard[0][1] < n // 2 else n - corner
        if geo.name == "ludo52":
            pygame.draw.rect(surface, COLOURS[colour], _cell_rect(rect, geo, (r0, c0)).union(
                _cell_rect(rect, geo, (r0 + corner - 1, c0 + corner - 1))))
        for cell in g.yard:  # a place: a ring, so that a pawn standing on it is the filled disc
            place = rect.width / n * yard_scale * 0.45
            pygame.draw.circle(surface, LIGHT[colour], cell_centre(rect, geo, cell), place, max(2, round(place / 4)))
            pygame.draw.circle(surface, LINE, cell_centre(rect, geo, cell), place, 1)
        for cell in g.home_column:
            pygame.draw.rect(surface, LIGHT[colour], _cell_rect(rect, geo, cell))
            pygame.draw.rect(surface, LINE, _cell_rect(rect, geo, cell), 1)
        if g.finish is not None:
            pygame.draw.rect(surface, COLOURS[colour], _cell_rect(rect, geo, g.finish))
    safe = set(geo.safe_squares["starts_and_stars"])
    starts = {g.start_offset: c for c, g in geo.colours.items()}
    for i, cell in enumerate(geo.track):
        r = _cell_rect(rect, geo, cell)
        pygame.draw.rect(surface, LIGHT[starts[i]] if i in starts else CELL, r)
        pygame.draw.rect(surface, LINE, r, 1)
        if view.stars_safe and i in safe and i not in starts:
            cx, cy = r.center
            k = r.width * 0.3
            pts = [(cx + k * math.cos(a * math.pi / 5 - math.pi / 2) * (1 if a % 2 == 0 else 0.45),
                    cy + k * math.sin(a * math.pi / 5 - math.pi / 2) * (1 if a % 2 == 0 else 0.45)) for a in range(10)]
            pygame.draw.polygon(surface, (180, 180, 180), pts)
    # pawns, grouped by cell
    groups: dict[tuple[int, int], list[str]] = {}
    for colour, cell in pawn_cells(geo, view):
        groups.setdefault(cell, []).append(colour)
    radius = rect.width / n * 0.4
    yards = {cell for g in geo.colours.values() for cell in g.yard}
    for cell, colours in groups.items():
        cx, cy = cell_centre(rect, geo, cell)
        # a yard's places lie apart: a pawn there is drawn as large as its place
        size = radius * yard_scale if cell in yards else radius
        for j, colour in enumerate(colours[:4]):
            dx = (j - (len(colours[:4]) - 1) / 2) * size * 0.55
            # black rim, white ring, its colour: a pawn stands out on its own colour's yard as well
            rim = max(1, round(size / 7))
            pygame.draw.circle(surface, palette.INK, (cx + dx, cy), size)
            pygame.draw.circle(surface, palette.HIGHLIGHT, (cx + dx, cy), size - rim)
            pygame.draw.circle(surface, COLOURS[colour], (cx + dx, cy), max(1.0, size - 2 * rim))
        if len(colours) > 1:  # how many stand there, on a disc large enough for the floor's type
            floor = text.surface_floor(surface)
            disc = max(size, text.line_height(floor, bold=True) / 2 + 1)
            pygame.draw.circle(surface, palette.HIGHLIGHT, (cx, cy), disc)
            pygame.draw.circle(surface, palette.INK, (cx, cy), disc, 2)
            box = pygame.Rect(0, 0, round(2 * disc), text.line_height(floor, bold=True))
            box.center = (round(cx), round(cy))
            draw_text(surface, str(len(colours)), box, floor, palette.INK, bold=True, align="center")
    # arrows: others first, the selected one last and thick
    for move in sorted(view.moves, key=lambda m: m.selected):
        start = cell_centre(rect, geo, move_start_cell(geo, view, move))
        end = cell_centre(rect, geo, geo.cell_of(move.colour, move.to))
        _arrow(surface, start, end, (255, 255, 255) if move.selected else (60, 60, 60), 5 if move.selected else 2,
               radius)
    for colour, seen, should in view.misplaced:
        for where, ring in ((seen, (255, 0, 255)), (should, (0, 200, 255))):
            if where is None:
                continue
            c = cell_centre(rect, geo, _pawn_cell(geo, colour, where, 0))
            pygame.draw.circle(surface, ring, c, radius * 1.35, 4)


def _arrow(surface, start, end, colour, width, radius) -> None:
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    tip = (end[0] - ux * radius * 0.5, end[1] - uy * radius * 0.5)
    pygame.draw.line(surface, palette.INK, start, tip, width + 4)  # a rim of 2 px: white on the white track
    pygame.draw.line(surface, colour, start, tip, width)
    head = radius * 0.9
    left = (tip[0] - ux * head - uy * head * 0.6, tip[1] - uy * head + ux * head * 0.6)
    right = (tip[0] - ux * head + uy * head * 0.6, tip[1] - uy * head - ux * head * 0.6)
    pygame.draw.polygon(surface, colour, [tip, left, right])
    pygame.draw.polygon(surface, palette.INK, [tip, left, right], 2)


def draw_die(surface: pygame.Surface, rect: pygame.Rect, value: int | None) -> None:
    """A die face (white square, black pips) of ``value`` 1-6 in ``rect``; "?" for None."""
    pygame.draw.rect(surface, palette.DIE_OK, rect, border_radius=max(2, rect.width // 7))
    pygame.draw.rect(surface, palette.INK, rect, 2, border_radius=max(2, rect.width // 7))
    if value is None:
        draw_text(surface, "?", rect, rect.height // 2, palette.INK, bold=True, align="center")
        return
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
             5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)]}[value]
    step = rect.width / 4
    for r, c in spots:
        pygame.draw.circle(surface, palette.INK, (rect.x + step * (c + 1), rect.y + step * (r + 1)), rect.width / 11)


def side_lines(view: LudoView) -> list[str]:
    """The lines beside the die: the dice kept for later moves, the turn's situation (a try for a 6, a
    bonus roll), the six counter."""
    lines = []
    if len(view.pool) > 1:
        lines.append(_("kept: {dice}").format(dice=" ".join(map(str, view.pool))))
    if view.roll_note:
        lines.append(view.roll_note)
    if view.sixes_in_row:
        lines.append(ngettext("{n} six in a row", "{n} sixes in a row", view.sixes_in_row).format(n=view.sixes_in_row))
    return lines


def draw(surface: pygame.Surface, view: LudoView) -> None:
    """Draw the whole Ludo screen at any size: the shared frame (``companion.display.chrome``), the
    board on the left of the body, and beside it the die, the moves (the selected one inverted; a window
    of them around it when they do not all fit) and the hint."""
    layout = draw_chrome(surface, view.chrome)
    body, sizes, pad = layout.body, layout.type, layout.pad
    side = board_side(view.chrome, body.width, body.height)
    board = pygame.Rect(body.x, body.y + (body.height - side) // 2, side, side)
    draw_board(surface, board, view)
    # the notice band lies under the panel, beside the board (Chrome.board_share)
    panel = pygame.Rect(board.right + 2 * pad, body.y, body.right - board.right - 2 * pad,
                        layout.notice.y - pad // 2 - body.y)
    pygame.draw.rect(surface, palette.PANEL, panel, border_radius=pad)
    inner = panel.inflate(-2 * pad, -2 * pad)
    y = inner.y
    # a roll being read or entered: the die large in the empty panel; beside the moves, small
    die_side = sizes.px(52) if view.moves else max(sizes.px(52), min(inner.height // 2, inner.width // 3))
    lines = side_lines(view)
    if view.die is not None or lines:
        x = inner.x
        if view.die is not None:
            draw_die(surface, pygame.Rect(x, y, die_side, die_side), view.die)
            x += die_side + 2 * pad
        line_h = text.line_height(sizes.floor)
        for k, line in enumerate(lines):
            draw_text(surface, line, pygame.Rect(x, y + k * line_h, inner.right - x, line_h), sizes.floor,
                      palette.FOREGROUND)
        y += max(die_side if view.die is not None else 0, len(lines) * line_h) + pad
    hint = _("Hint: ") + view.hint if view.hint else ""
    hint_lines = text.wrap_all(hint, sizes.floor, inner.width) if hint else []
    hint_h = len(hint_lines) * text.line_height(sizes.floor)
    moves_area = pygame.Rect(inner.x, y, inner.width, inner.bottom - hint_h - (pad if hint_h else 0) - y)
    draw_moves(surface, moves_area, view, layout)
    if hint_lines:
        text.draw_lines(surface, hint_lines, pygame.Rect(inner.x, inner.bottom - hint_h, inner.width, hint_h),
                        sizes.floor, palette.FOREGROUND, whole=hint)


def draw_moves(surface: pygame.Surface, area: pygame.Rect, view: LudoView, layout) -> None:
    """The legal moves as rows, the selected one inverted; when they do not all fit, the rows around the
    selected one and a line saying how many more NEXT reaches."""
    if not view.moves or area.height <= 0:
        return
    sizes, pad = layout.type, layout.pad
    row_h = text.line_height(sizes.normal, bold=True) + pad
    rows = max(1, area.height // row_h)
    shown = range(len(view.moves))
    if len(view.moves) > rows:
        rows = max(1, rows - 1)  # the last row says how many more there are
        selected = next((k for k, m in enumerate(view.moves) if m.selected), 0)
        first = min(max(0, selected - rows // 2), len(view.moves) - rows)
        shown = range(first, first + rows)
    y = area.y
    for k in shown:
        move = view.moves[k]
        row = pygame.Rect(area.x, y, area.width, row_h - 2)
        if move.selected:
            pygame.draw.rect(surface, palette.HIGHLIGHT, row, border_radius=pad)
        draw_text(surface, move.text, row.inflate(-2 * pad, 0), sizes.normal,
                  palette.HIGHLIGHT_TEXT if move.selected else palette.FOREGROUND, bold=move.selected)
        y += row_h
    hidden = len(view.moves) - len(shown)
    if hidden:
        draw_text(surface, ngettext("{n} more move: NEXT", "{n} more moves: NEXT", hidden).format(n=hidden),
                  pygame.Rect(area.x + pad, y, area.width - 2 * pad, row_h), sizes.floor, palette.MUTED)


def render(view: LudoView, size: tuple[int, int] = (800, 480)) -> pygame.Surface:
    """A new surface of ``size`` with ``view`` drawn (no window needed)."""
    return render_surface(draw, view, size, view.mode)
