"""Drawing the Ludo screen (:class:`companion.screens.ludo.LudoView`) at any size, 800x480 first.

Left: the board drawn from its geometry (``assets/ludo``; ``companion.games.ludo.board``) with the
pawns, the legal moves as arrows (the selected one thick and white) and rings around pawns to correct.
Top: the prompt. Right: the players (turn marker, pawns home, place), the die with the six counter and
the bonus rolls owed, the moves, the hint, and the message or board problems. Every colour is also
named in text, never told by colour alone.
"""

from __future__ import annotations

import math

import pygame

from companion.display import fonts
from companion.display.text import draw_text, draw_wrapped
from companion.display.window import render_surface
from companion.games.ludo import BoardGeometry, load_board
from companion.i18n import _
from companion.screens import palette
from companion.screens.ludo import LudoView

COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (214, 48, 49), "green": (39, 160, 72), "yellow": (240, 200, 40), "blue": (40, 104, 212)}
LIGHT: dict[str, tuple[int, int, int]] = {
    "red": (246, 190, 190), "green": (190, 232, 198), "yellow": (250, 236, 170), "blue": (186, 206, 246)}
BOARD_BG = (236, 230, 214)
CELL = (252, 252, 248)
LINE = (90, 90, 90)
TOP_BAR = 40


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


def legend_rows(entries: list[str], font: pygame.font.Font, width: int, rows: int = 2) -> list[str]:
    """The key legend on at most ``rows`` lines, broken between entries ("CONFIRM: move"), never inside
    one; the last line takes what is left (drawn shrunk if need be)."""
    lines: list[str] = []
    for entry in entries:
        if lines and len(lines) < rows and font.size(lines[-1] + "   " + entry)[0] > width:
            lines.append(entry)
        elif lines:
            lines[-1] += "   " + entry
        else:
            lines.append(entry)
    return lines


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


def draw_board(surface: pygame.Surface, rect: pygame.Rect, view: LudoView) -> None:
    """The board of ``view`` (square ``rect``) with pawns, move arrows and correction rings."""
    geo = load_board(view.board)
    pygame.draw.rect(surface, BOARD_BG, rect)
    n = geo.grid_size
    corner = (n - 3) // 2  # yard quarter side (6 on ludo52, 4 on mensch40)
    for colour, g in geo.colours.items():
        r0 = 0 if g.yard[0][0] < n // 2 else n - corner
        c0 = 0 if g.yard[0][1] < n // 2 else n - corner
        if geo.name == "ludo52":
            pygame.draw.rect(surface, COLOURS[colour], _cell_rect(rect, geo, (r0, c0)).union(
                _cell_rect(rect, geo, (r0 + corner - 1, c0 + corner - 1))))
        for cell in g.yard:
            pygame.draw.circle(surface, LIGHT[colour], cell_centre(rect, geo, cell), rect.width / n * 0.45)
            pygame.draw.circle(surface, LINE, cell_centre(rect, geo, cell), rect.width / n * 0.45, 1)
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
        if i in safe and i not in starts:
            cx, cy = r.center
            k = r.width * 0.3
            pts = [(cx + k * math.cos(a * math.pi / 5 - math.pi / 2) * (1 if a % 2 == 0 else 0.45),
                    cy + k * math.sin(a * math.pi / 5 - math.pi / 2) * (1 if a % 2 == 0 else 0.45)) for a in range(10)]
            pygame.draw.polygon(surface, (180, 180, 180), pts)
    # pawns, grouped by cell
    groups: dict[tuple[int, int], list[str]] = {}
    for colour, cell in pawn_cells(geo, view):
        groups.setdefault(cell, []).append(colour)
    radius = rect.width / n * 0.36
    for cell, colours in groups.items():
        cx, cy = cell_centre(rect, geo, cell)
        for j, colour in enumerate(colours[:4]):
            dx = (j - (len(colours[:4]) - 1) / 2) * radius * 0.55
            pygame.draw.circle(surface, COLOURS[colour], (cx + dx, cy), radius)
            pygame.draw.circle(surface, palette.INK, (cx + dx, cy), radius, 2)
        if len(colours) > 1:
            draw_text(surface, str(len(colours)), pygame.Rect(cx - radius, cy - radius, 2 * radius, 2 * radius),
                      max(10, int(radius)), palette.INK, bold=True, align="center")
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
    pygame.draw.line(surface, palette.INK, start, tip, width + 2)
    pygame.draw.line(surface, colour, start, tip, width)
    head = radius * 0.9
    left = (tip[0] - ux * head - uy * head * 0.6, tip[1] - uy * head + ux * head * 0.6)
    right = (tip[0] - ux * head + uy * head * 0.6, tip[1] - uy * head - ux * head * 0.6)
    pygame.draw.polygon(surface, colour, [tip, left, right])
    pygame.draw.polygon(surface, palette.INK, [tip, left, right], 1)


def _die(surface: pygame.Surface, rect: pygame.Rect, value: int | None) -> None:
    pygame.draw.rect(surface, palette.DIE_OK, rect, border_radius=8)
    pygame.draw.rect(surface, palette.INK, rect, 2, border_radius=8)
    if value is None:
        draw_text(surface, "?", rect, rect.height // 2, palette.INK, bold=True, align="center")
        return
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
             5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)]}[value]
    step = rect.width / 4
    for r, c in spots:
        pygame.draw.circle(surface, palette.INK, (rect.x + step * (c + 1), rect.y + step * (r + 1)), rect.width / 11)


def draw(surface: pygame.Surface, view: LudoView) -> None:
    """Draw the whole Ludo screen (any size; laid out for 800x480)."""
    w, h = surface.get_size()
    surface.fill(palette.BACKGROUND)
    side = min(h - TOP_BAR - 4, int(w * 0.58))
    board = pygame.Rect(4, TOP_BAR + 2, side, side)
    draw_board(surface, board, view)
    pygame.draw.rect(surface, palette.PANEL, pygame.Rect(0, 0, w, TOP_BAR))
    draw_text(surface, view.prompt, pygame.Rect(8, 2, w - 16, TOP_BAR - 4), 22, palette.FOREGROUND, bold=True)
    x = board.right + 10
    pw = w - x - 6
    y = TOP_BAR + 4
    line = 24
    for seat, p in enumerate(view.players):
        row = pygame.Rect(x, y, pw, line)
        if seat == view.active:
            pygame.draw.rect(surface, palette.HIGHLIGHT, row, 2)
        pygame.draw.circle(surface, COLOURS[p.colour], (x + 12, y + line // 2), 8)
        pygame.draw.circle(surface, palette.INK, (x + 12, y + line // 2), 8, 1)
        status = _("place {k}").format(k=p.place) if p.place else _("{n}/4 home").format(n=p.home)
        draw_text(surface, f"{p.name} ({_(p.colour)})", pygame.Rect(x + 24, y, pw - 110, line), 18, palette.FOREGROUND,
                  bold=seat == view.active)
        draw_text(surface, status, pygame.Rect(x + pw - 86, y, 82, line), 16, palette.MUTED, align="right")
        y += line + 2
    y += 4
    die = pygame.Rect(x, y, 54, 54)
    _die(surface, die, view.die)
    counters = [_("sixes in a row: {n}").format(n=view.sixes_in_row), _("bonus rolls: {n}").format(n=view.bonus_rolls)]
    if len(view.pool) > 1:
        counters.append(_("kept: {dice}").format(dice=" ".join(map(str, view.pool))))
    for k, text in enumerate(counters):
        draw_text(surface, text, pygame.Rect(x + 62, y + k * 18, pw - 62, 18), 16, palette.FOREGROUND)
    y += 60
    for move in view.moves[:5]:
        row = pygame.Rect(x, y, pw, 22)
        if move.selected:
            pygame.draw.rect(surface, palette.HIGHLIGHT, row)
        draw_text(surface, move.text, row.inflate(-6, 0), 17,
                  palette.HIGHLIGHT_TEXT if move.selected else palette.FOREGROUND, bold=move.selected)
        y += 23
    if len(view.moves) > 5:
        draw_text(surface, _("+{n} more (NEXT)").format(n=len(view.moves) - 5), pygame.Rect(x, y, pw, 18), 15, palette.MUTED)
        y += 19
    y += 4
    if view.hint:
        hint_h = 3 * fonts.font(16).get_linesize()  # up to three lines before the type shrinks
        y = draw_wrapped(surface, _("Hint: ") + view.hint, pygame.Rect(x, y, pw, hint_h), 16, palette.FOREGROUND,
                         max_lines=3).bottom + 4
    legend_h = 2 * fonts.font(15).get_linesize() if view.keys else 0
    notes = list(view.problems) or ([view.message] if view.message else [])
    if notes:
        colour = (255, 120, 255) if view.problems else palette.MUTED
        draw_wrapped(surface, " ".join(notes), pygame.Rect(x, y, pw, max(20, h - y - 4 - legend_h)), 16, colour)
    if view.keys:
        rows = legend_rows([f"{button}: {what}" for button, what in view.keys], fonts.font(15), pw)
        row_h = legend_h // 2
        for k, row in enumerate(rows):
            draw_text(surface, row, pygame.Rect(x, h - legend_h - 2 + k * row_h, pw, row_h), 15, palette.MUTED,
                      min_size=9)
    if view.winner is not None:
        banner = pygame.Rect(board.x + 20, board.bottom - 100, board.width - 40, 80)
        pygame.draw.rect(surface, palette.PANEL, banner, border_radius=10)
        pygame.draw.rect(surface, palette.HIGHLIGHT, banner, 3, border_radius=10)
        draw_text(surface, _("{name} wins!").format(name=view.winner), banner.inflate(-20, -10), 34,
                  palette.FOREGROUND, bold=True, align="center")



def render(view: LudoView, size: tuple[int, int] = (800, 480)) -> pygame.Surface:
    """A new surface of ``size`` with ``view`` drawn (no window needed)."""
    return render_surface(draw, view, size)
