"""Ludo move legality for one pawn and one die value (ludo.md B.4.3, B.5, B.7, B.2b), used by
:meth:`companion.games.ludo.rules.LudoState.move_infos`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.ludo.actions import YARD, Move, MoveInfo

if TYPE_CHECKING:
    from companion.games.ludo.rules import LudoState


def try_move(state: "LudoState", seat: int, frm: int, die: int, occ: dict[int, dict[int, int]]) -> MoveInfo | None:
    """What moving ``seat``'s pawn at relative ``frm`` (YARD = -1) by ``die`` does, or None when illegal.

    occ: :meth:`LudoState.occupancy` of ``state``. The must-rules (B.2b must_capture, must_clear_start)
    are applied by :meth:`LudoState.move_infos`, not here. Rules: B.4.3 entering, B.5 exact finish / own
    pawn on destination / capture / private home, B.7 bounce, blocks, safe squares, B.2b home_no_jump.
    """
    cfg, geo = state.config, state.geometry
    tp, last = geo.track_positions, geo.last_relative
    n = geo.track_length
    off = state.start_offset(seat)
    block_mode = cfg.own_stacking == "block"
    if frm == YARD:
        if die not in cfg.entry_rolls:
            return None  # B.4.3, B.7 entry_rolls
        path = [0]
        to = 0
    else:
        if frm >= last:
            return None  # at the finish: out of play (B.2)
        to = frm + die
        path = list(range(frm + 1, min(to, last) + 1))
        if to > last:
            if cfg.overshoot == "illegal":
                return None  # B.5 exact finish
            to = 2 * last - to  # B.7 overshoot = bounce
            if to < tp or to == frm:
                return None  # engine decision: a bounce stays inside the home area and moves the pawn
            path += list(range(last - 1, to - 1, -1))
    own = list(state.pawns[seat])
    if frm != YARD:
        own.remove(frm)  # the moving pawn itself
    # passing and landing on blocks (B.7 own_stacking = block): no pawn may pass or land on one
    if block_mode:
        for rel in path:
            if rel < tp:
                here = occ.get((off + rel) % n)
                if here and any(c >= 2 for c in here.values()):
                    return None
    # private home area (B.5, B.2b home_no_jump)
    if to >= tp:
        if cfg.home_no_jump and any(tp <= rel < last + (0 if geo.has_finish else 1) and rel in own
                                    for rel in path):
            return None
        on_finish = geo.has_finish and to == last
        if not on_finish and to in own:
            if not geo.has_finish or cfg.own_stacking == "forbidden":
                return None  # B.5 own pawn on destination; mensch40 home squares hold one pawn
        finishes = on_finish or (not geo.has_finish and frm < tp)
        return MoveInfo(Move(frm, die), to, (), frm == YARD, finishes, False)
    a = (off + to) % n
    here = occ.get(a, {})
    mine = here.get(seat, 0)
    if frm != YARD and ((off + frm) % n) == a:
        mine -= 1
    if mine and cfg.own_stacking == "forbidden":
        return None  # B.5 own token on destination (B.5 entering blocked by own pawn on start)
    captures: list[tuple[int, int]] = []
    for other, count in here.items():
        if other == seat:
            continue
        if state.is_protected(other, a):
            continue  # B.7 safe squares / capture_on_opponent_start = false: both share the square
        captures.append((other, count))  # B.5 capture; B.8 two pawns on one square: both go home
    return MoveInfo(Move(frm, die), to, tuple(captures), frm == YARD, False,
                    block_mode and mine >= 1)
