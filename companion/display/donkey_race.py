"""Drawing the donkey race screen (:class:`DonkeyRaceView`) on any surface; registered with the Display.

Regions at any size (proportions of an 800 x 480 screen): the prompt bar on top; the four lanes with
their tokens on the left; the sectors (each player's plays this round, the highest marked with a star
and the word "highest", never by colour alone), what beats the current play and the proposed play on
the right; the counts, reminders, hint, message and keys at the bottom (the hint and the message wrapped
onto the lines left there); a winner banner over it all.
"""

from __future__ import annotations

import pygame

from companion.display.text import draw_text, draw_wrapped
from companion.display.tokens import draw_token
from companion.display.window import render_surface
from companion.i18n import _, ngettext
from companion.screens import palette
from companion.screens.donkey_race import DonkeyRaceView


def _styles(view: DonkeyRaceView) -> dict[int, palette.PlayerStyle]:
    lanes = sorted(view.lanes, key=lambda lane: lane.seat)
    badges = palette.badges([lane.name for lane in lanes])
    return {lane.seat: palette.player_style(lane.seat, lane.name, badge)
            for lane, badge in zip(lanes, badges, strict=True)}


def draw(surface: pygame.Surface, view: DonkeyRaceView) -> None:
    """Draw ``view`` over the whole of ``surface``; reads no file once the fonts are cached."""
    w, h = surface.get_size()
    sx, sy = w / 800, h / 480
    styles = _styles(view)
    surface.fill(palette.BACKGROUND)
    # top bar
    top = pygame.Rect(0, 0, w, round(46 * sy))
    pygame.draw.rect(surface, palette.PANEL, top)
    draw_text(surface, view.prompt, top.inflate(-round(150 * sx), -6).move(-round(65 * sx), 0), round(24 * sy),
              palette.FOREGROUND, bold=True)
    draw_text(surface, _("Round {n}").format(n=view.round_no), pygame.Rect(w - round(140 * sx), 0, round(130 * sx),
              top.height), round(18 * sy), palette.MUTED, align="right")
    lanes = pygame.Rect(round(8 * sx), top.bottom + round(6 * sy), round(482 * sx), round(262 * sy))
    _draw_lanes(surface, view, lanes, styles)
    side = pygame.Rect(lanes.right + round(8 * sx), lanes.y, w - lanes.right - round(16 * sx), lanes.height)
    _draw_sectors(surface, view, side, styles)
    bottom = pygame.Rect(round(8 * sx), lanes.bottom + round(6 * sy), w - round(16 * sx), h - lanes.bottom - round(10 * sy))
    _draw_bottom(surface, view, bottom)
    if view.winners:
        _draw_banner(surface, view, styles)


def _draw_lanes(surface: pygame.Surface, view: DonkeyRaceView, area: pygame.Rect,
                styles: dict[int, palette.PlayerStyle]) -> None:
    """One lane per player: name and points, Start + track_length spaces, the token on its space."""
    n = max(1, len(view.lanes))
    lane_h = area.height // 4 if n <= 4 else area.height // n
    name_w = round(area.width * 0.24)
    spaces = view.track_length + 1
    track = pygame.Rect(area.x + name_w, area.y, area.width - name_w, lane_h)
    cell = track.width / spaces
    for i, lane in enumerate(view.lanes):
        y = area.y + i * lane_h
        row = pygame.Rect(area.x, y, area.width, lane_h - 4)
        if view.active == lane.seat:
            pygame.draw.rect(surface, palette.HIGHLIGHT, row, 2)
        label = pygame.Rect(area.x + 4, y + 2, name_w - 8, (lane_h - 4) // 2)
        draw_text(surface, lane.name, label, round(lane_h * 0.32), palette.FOREGROUND, bold=True,
                  min_size=round(lane_h * 0.2))  # the longest names (MAX_NAME_LENGTH) shrink rather than cut
        info = ngettext("{p} point", "{p} points", lane.points).format(p=lane.points) + " · " + ngettext(
            "{c} card", "{c} cards", lane.hand).format(c=lane.hand)
        draw_text(surface, info, label.move(0, label.height), round(lane_h * 0.26), palette.MUTED)
        cy = y + (lane_h - 4) / 2
        size = min(cell * 0.95, lane_h * 0.62)
        token = min(cell * 0.92, lane_h * 0.6)  # within its own space: it never covers the next one
        for space in range(spaces):
            box = pygame.Rect(round(track.x + space * cell) + 1, round(cy - size / 2), max(2, round(cell) - 2), round(size))
            colour = palette.TOP_SPACE if space in (0, spaces - 1) else palette.SLOT
            pygame.draw.rect(surface, colour, box)
            pygame.draw.rect(surface, palette.SLOT_EDGE, box, 1)
        for space, text in ((0, _("S")), (spaces - 1, _("F"))):
            box = pygame.Rect(round(track.x + space * cell), round(cy + size / 2), round(cell), round(lane_h * 0.2))
            draw_text(surface, text, box, round(lane_h * 0.2), palette.MUTED, align="center")
        shown = min(lane.position, spaces - 1)
        centre = (track.x + (shown + 0.5) * cell, cy)
        draw_token(surface, centre, token, styles[lane.seat])
        if lane.position > spaces - 1:
            over = pygame.Rect(round(track.right - cell * 3), y, round(cell * 3), round(lane_h * 0.3))
            draw_text(surface, f"+{lane.position - (spaces - 1)}", over, round(lane_h * 0.26), palette.FOREGROUND,
                      align="right")


def _draw_sectors(surface: pygame.Surface, view: DonkeyRaceView, area: pygame.Rect,
                  styles: dict[int, palette.PlayerStyle]) -> None:
    pygame.draw.rect(surface, palette.PANEL, area)
    inner = area.inflate(-12, -8)
    line_h = inner.height // 9
    draw_text(surface, _("Plays this round"), pygame.Rect(inner.x, inner.y, inner.width, line_h), round(line_h * 0.7),
              palette.MUTED)
    y = inner.y + line_h
    for sector in view.sectors:
        row = pygame.Rect(inner.x, y, inner.width, round(line_h * 1.2))
        draw_token(surface, (row.x + row.height / 2, row.centery), row.height * 0.8, styles[sector.seat])
        text = sector.label or "…"
        if sector.highest:
            text = "★ " + text + "  " + _("highest")
        draw_text(surface, text, row.inflate(-row.height - 6, 0).move(row.height // 2 + 3, 0), round(line_h * 0.85),
                  palette.FOREGROUND, bold=sector.highest)
        y += round(line_h * 1.25)
    y += line_h // 3
    if view.to_beat:
        draw_wrapped(surface, view.to_beat, pygame.Rect(inner.x, y, inner.width, line_h * 2), round(line_h * 0.8),
                     palette.FOREGROUND, bold=True, max_lines=2)
        y += line_h * 2
    if view.proposal:
        draw_text(surface, view.proposal, pygame.Rect(inner.x, y, inner.width, line_h), round(line_h * 0.75),
                  palette.DIE_FLAGGED)


def _draw_bottom(surface: pygame.Surface, view: DonkeyRaceView, area: pygame.Rect) -> None:
    line = area.height // 7
    counts = _("Draw pile {d} · discards {x}").format(d=view.deck, x=view.discard)
    drawn = draw_text(surface, counts, pygame.Rect(area.x, area.y, area.width // 3, line), round(line * 0.8),
                      palette.MUTED)
    keys = "   ".join(f"{k}: {v}" for k, v in view.keys)  # the keys take what the counts leave
    gap = max(4, line // 2)
    draw_text(surface, keys, pygame.Rect(drawn.right + gap, area.y, area.right - drawn.right - gap, line),
              round(line * 0.8), palette.MUTED, align="right", min_size=max(6, round(line * 0.5)))
    y = area.y + line
    for text in view.reminders[:5]:
        draw_text(surface, text, pygame.Rect(area.x, y, area.width, line), round(line * 0.8), palette.FOREGROUND)
        y += line
    for extra, colour in ((view.hint and _("Hint: ") + view.hint, palette.MUTED), (view.message, palette.DIE_FLAGGED)):
        if extra and y + line <= area.bottom + 2:  # wrapped onto the lines left; smaller only when out of them
            room = max(1, (area.bottom + 2 - y) // line)
            used = draw_wrapped(surface, extra, pygame.Rect(area.x, y, area.width, room * line), round(line * 0.8),
                                colour, max_lines=room)
            y = max(y + line, used.bottom + 2)


def _draw_banner(surface: pygame.Surface, view: DonkeyRaceView, styles: dict[int, palette.PlayerStyle]) -> None:
    w, h = surface.get_size()
    box = pygame.Rect(w // 6, h // 3, w * 2 // 3, h // 4)
    pygame.draw.rect(surface, palette.HIGHLIGHT, box)
    pygame.draw.rect(surface, palette.INK, box, 3)
    names = ", ".join(lane.name for lane in view.lanes if lane.seat in view.winners)
    title = _("{names} wins!").format(names=names) if len(view.winners) == 1 else _("Shared win: {names}").format(
        names=names)
    for i, seat in enumerate(view.winners):
        draw_token(surface, (box.x + box.height * (0.35 + 0.5 * i), box.y + box.height * 0.35), box.height * 0.4,
                   styles[seat])
    draw_text(surface, title, box.inflate(-20, -box.height // 2).move(0, box.height // 6), round(box.height * 0.3),
              palette.HIGHLIGHT_TEXT, bold=True, align="center")


def render(view: DonkeyRaceView, size: tuple[int, int] = (800, 480)) -> pygame.Surface:
    """A new ``size`` surface with ``view`` drawn on it; needs no window (tests, screenshots)."""
    return render_surface(draw, view, size)
