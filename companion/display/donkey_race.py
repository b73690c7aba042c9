"""Drawing the donkey race screen (:class:`DonkeyRaceView`) on any surface; registered with the Display.

The shared frame (``companion.display.chrome``: header with the round, notice band, player strip with
points and cards, key chips) around the body: the lanes with their tokens on the left; the sectors (each
player's plays this round, the highest marked with a star and the word "highest", never by colour
alone), what beats the current play, the proposed play and the piles on the right; under both what to
do at the table (deal, draw, move a token) and the hint; a winner banner over it all.
"""

from __future__ import annotations

import pygame

from companion.display import text
from companion.display.chrome import draw_chrome, seat_styles
from companion.display.text import draw_text
from companion.display.tokens import draw_token
from companion.display.window import render_surface
from companion.i18n import _, ngettext
from companion.screens import palette
from companion.screens.donkey_race import DonkeyRaceView


def _styles(view: DonkeyRaceView) -> dict[int, palette.PlayerStyle]:
    """Seat -> style, the player strip's (distinct badges)."""
    return {view.chrome.seats[k].seat: style for k, style in seat_styles(view.chrome).items()}


BOTTOM_LINES = 4
"""The lines of the floor size kept under the lanes for what to do at the table and the hint (a round's
end: three; a long hint: two or three)."""


def bottom_lines(view: DonkeyRaceView) -> list[tuple[str, palette.RGB, bool]]:
    """The body's lines under the lanes: what to do at the table (bold), then the hint, what a long press
    does to a play entered by hand and the piles' counts (the panel beside the lanes keeps its room for
    the play and what beats it: a wrapped line there once pushed them out); each (text, colour, bold)."""
    lines = [(line, palette.FOREGROUND, True) for line in view.reminders]
    if view.hint:
        lines.append((_("Hint: ") + view.hint, palette.MUTED, False))
    if view.leaps:
        lines.append((view.leaps, palette.MUTED, False))
    lines.append((_("Draw pile {d} · discards {x}").format(d=view.deck, x=view.discard), palette.MUTED, False))
    return lines


def draw(surface: pygame.Surface, view: DonkeyRaceView) -> None:
    """Draw ``view`` over the whole of ``surface`` at any size: the shared frame, then the body: the lanes
    with their tokens on the left, the round's plays by sector on the right (what beats the current play,
    the play CONFIRM would make, the piles), and under both what to do at the table and the hint (as many of
    those lines as leave each lane a line for its name beside its track)."""
    layout = draw_chrome(surface, view.chrome)
    body, sizes, pad = layout.body, layout.type, layout.pad
    styles = _styles(view)
    floor = sizes.floor
    line_h = text.line_height(floor, bold=True)
    n = len(view.lanes)  # each lane a line (the name beside its track); the panel a line a player and its title
    least_top = max(n * (line_h + pad), (n + 1) * (line_h + 2) + 2 * pad)
    # the lines under the lanes have a space of their own, the same on every screen of the game (so the
    # lanes never move): up to BOTTOM_LINES lines, less where the lanes and the panel need the height
    room = max(0, min(BOTTOM_LINES * line_h, body.height - least_top - pad))
    wrapped, bottom_h = [], 0
    for line, colour, bold in bottom_lines(view):  # what to do at the table first, the hint last: while room
        lines = text.wrap_all(line, floor, body.width, bold)
        if bottom_h + len(lines) * line_h > room:
            break
        wrapped.append((lines, colour, bold, line))
        bottom_h += len(lines) * line_h
    top = pygame.Rect(body.x, body.y, body.width, body.height - room - (pad if room else 0))
    lanes = pygame.Rect(top.x, top.y, round(top.width * 0.58), top.height)
    _draw_lanes(surface, view, lanes, styles, floor, pad)
    side = pygame.Rect(lanes.right + pad, top.y, top.right - lanes.right - pad, top.height)
    _draw_sectors(surface, view, side, styles, sizes, pad)
    y = top.bottom + pad
    for lines, colour, bold, whole in wrapped:
        area = pygame.Rect(body.x, y, body.width, len(lines) * line_h)
        text.draw_lines(surface, lines, area, floor, colour, bold=bold, whole=whole)
        y = area.bottom


def _draw_lanes(surface: pygame.Surface, view: DonkeyRaceView, area: pygame.Rect,
                styles: dict[int, palette.PlayerStyle], floor: int, pad: int) -> None:
    """One lane per player: the name and the space over a track of Start + ``track_length`` spaces, the
    token on its space; when the lanes are too low for two lines each, the name beside the track."""
    n = max(1, len(view.lanes))
    lane_h = area.height // n
    name_h = text.line_height(floor, bold=True)
    spaces = view.track_length + 1
    edge = 3  # the highlight's 2 px frame and a pixel of air: no label or pawn touches it
    stacked = lane_h >= 2 * name_h + pad + 2 * edge
    name_w = 0 if stacked else min(area.width * 2 // 5, max(text.width_of(lane.name, floor, bold=True)
                                                          for lane in view.lanes) + 2 * pad)
    track_h_most = (lane_h - 2 - name_h - 2 * edge) if stacked else lane_h - 2 - 2 * edge
    # a pawn is large enough for its badge ("A", "P1") even where a space is smaller, and stays inside
    # the lane with room to spare at the track's ends
    cell_guess = (area.width - name_w - 2 * pad) / spaces
    pawn = max(4.0, min(track_h_most, max(cell_guess * 0.92, floor * 1.5)))
    inset = max(pad, round(pawn / 2 - cell_guess / 2) + edge + 1)
    track_x, track_w = area.x + name_w + inset, area.width - name_w - 2 * inset
    cell = track_w / spaces
    for i, lane in enumerate(view.lanes):
        y = area.y + i * lane_h
        row = pygame.Rect(area.x, y, area.width, lane_h - 2)
        if view.chrome.active is not None and view.chrome.seats[view.chrome.active].seat == lane.seat:
            pygame.draw.rect(surface, palette.HIGHLIGHT, row, 2, border_radius=pad)
        if stacked:
            label = ngettext("{name}: space {n}", "{name}: space {n}", lane.position).format(name=lane.name,
                                                                                         n=lane.position)
            draw_text(surface, label, pygame.Rect(row.x + pad, y + edge, row.width - 2 * pad, name_h), floor,
                      palette.FOREGROUND, bold=True)
            track_h = max(4, row.bottom - edge - (y + edge + name_h))
            cy = y + edge + name_h + track_h / 2
        else:
            draw_text(surface, lane.name, pygame.Rect(row.x + pad, row.centery - name_h // 2, name_w - 2 * pad,
                                                      name_h), floor, palette.FOREGROUND, bold=True)
            track_h = max(4, row.height - 2 * edge)
            cy = row.centery
        size = min(cell * 0.95, track_h * 0.9)
        for space in range(spaces):
            box = pygame.Rect(round(track_x + space * cell) + 1, round(cy - size / 2), max(2, round(cell) - 2),
                              round(size))
            colour = palette.TOP_SPACE if space in (0, spaces - 1) else palette.SLOT
            pygame.draw.rect(surface, colour, box)
            pygame.draw.rect(surface, palette.SLOT_EDGE, box, 1)
        shown = min(lane.position, spaces - 1)
        draw_token(surface, (track_x + (shown + 0.5) * cell, cy), min(pawn, track_h), styles[lane.seat])


def _draw_sectors(surface: pygame.Surface, view: DonkeyRaceView, area: pygame.Rect,
                  styles: dict[int, palette.PlayerStyle], sizes, pad: int) -> None:
    """The panel of the round: each player's plays (the highest in bold with the word), what beats the
    current play and the play CONFIRM would make (:func:`_panel_lines`)."""
    pygame.draw.rect(surface, palette.PANEL, area, border_radius=pad)
    inner = area.inflate(-2 * pad, -2 * pad)
    floor = sizes.floor
    line_h = text.line_height(floor, bold=True)
    y = inner.y
    draw_text(surface, _("Plays this round"), pygame.Rect(inner.x, y, inner.width, line_h), floor, palette.MUTED)
    y += line_h
    for sector in view.sectors:
        row = pygame.Rect(inner.x, y, inner.width, line_h + 2)
        draw_token(surface, (row.x + row.height / 2, row.centery), row.height * 0.9, styles[sector.seat],
                   letter=False)
        label = sector.label or "\u2013"
        if sector.highest:
            label = label + "  " + _("highest")  # in bold; no star: the strip's star counts games won
        draw_text(surface, label, pygame.Rect(row.x + row.height + pad, row.y, row.width - row.height - pad,
                                              row.height), floor, palette.FOREGROUND, bold=sector.highest)
        y += row.height
    # (text, colour, bold, rank): where not all fit, the highest rank goes first (_panel_lines)
    rest = [(view.to_beat, palette.FOREGROUND, True, 1), (view.proposal, palette.DIE_FLAGGED, True, 0)]
    y += pad // 2
    for words, colour, bold, lines in _panel_lines([part for part in rest if part[0]], inner, y, floor, line_h):
        text.draw_lines(surface, lines, pygame.Rect(inner.x, y, inner.width, len(lines) * line_h), floor, colour,
                        bold=bold, whole=words)
        y += len(lines) * line_h


def _panel_lines(parts: list[tuple[str, palette.RGB, bool, int]], inner: pygame.Rect, top: int, floor: int,
                 line_h: int) -> list[tuple[str, palette.RGB, bool, list[str]]]:
    """The panel's texts under the plays that fit between ``top`` and ``inner.bottom``, each whole and in
    their order, as (text, colour, bold, wrapped lines): where not all fit, the part of the highest rank
    goes first (what beats the play), so the play CONFIRM would make (rank 0) stays: the players must see
    what they enter."""
    wrapped = [(words, colour, bold, text.wrap_all(words, floor, inner.width, bold), rank)
               for words, colour, bold, rank in parts]
    while wrapped and top + sum(len(part[3]) for part in wrapped) * line_h > inner.bottom:
        wrapped.remove(max(wrapped, key=lambda part: part[4]))
    return [part[:4] for part in wrapped]


def render(view: DonkeyRaceView, size: tuple[int, int] = (800, 480)) -> pygame.Surface:
    """A new ``size`` surface with ``view`` drawn on it; needs no window (tests, screenshots)."""
    return render_surface(draw, view, size)
