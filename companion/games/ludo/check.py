"""Move checking: which legal Ludo move turns the board before into the board after (issue 4, step 3).

Pure: given the engine state waiting for a move (its pawns are the board before) and the pawns as read
after the player moved by hand, :func:`check_move` decodes the legal move that was made, or reports what
is wrong without guessing: a pawn on a square no legal move reaches, a pawn of another colour moved, a
pawn missing, or a captured pawn still on the track (B.5: it must go back to its yard). A pawn of the
mover moved wrongly is shown where the die takes it (B.4.3) when that is one square, else back where it
was; any other misplaced pawn goes back where it was. On a board with a finish (ludo52) the reading
counts pawns seen nowhere as finished (:mod:`companion.readers.ludo_reading`); a finish no legal move
explains is reported as a missing pawn.

Pawns are given as the engine holds them: per seat, the relative positions (``YARD`` = -1) in any order
(``LudoState.pawns`` order: seat = index into ``state.colours``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.ludo.board import load_board
from companion.games.ludo.rules import YARD, LudoState, Move, MoveInfo, Phase
from companion.i18n import _

UNCHANGED = "unchanged"
MOVED = "moved"
CAPTURE_PENDING = "capture_pending"
ILLEGAL = "illegal"


@dataclass(frozen=True)
class Misplaced:
    """One pawn to correct by hand: ``colour``'s pawn seen at ``seen`` (relative, YARD = -1, None = not
    seen) belongs at ``should`` (relative, YARD = -1, None = nowhere known: take it off that square)."""

    colour: str
    seen: int | None
    should: int | None


@dataclass(frozen=True)
class MoveCheck:
    """The verdict on one board reading.

    status: ``unchanged`` (the board is as before: still waiting), ``moved`` (``move`` is the legal move
    made; apply it), ``capture_pending`` (``move`` was made but a captured pawn is still on the track:
    ``misplaced`` says which; record nothing yet), ``illegal`` (no legal move explains the change:
    ``problems`` and ``misplaced`` say what to put back; record nothing). move/info: the decoded move.
    problems: one translated line each. misplaced: the pawns to correct.
    """

    status: str
    move: Move | None = None
    info: MoveInfo | None = None
    problems: tuple[str, ...] = ()
    misplaced: tuple[Misplaced, ...] = ()


def _where(rel: int | None) -> str:
    if rel is None:
        return "?"
    return _("yard") if rel == YARD else str(rel)


def check_move(state: LudoState, after: Sequence[Sequence[int]]) -> MoveCheck:
    """Decode the move that turned ``state.pawns`` into ``after`` (see :class:`MoveCheck`).

    state: a MOVE-phase state (a roll waiting for its move, B.4.3). after: per seat, the pawns as read.
    Raises ValueError when ``state`` is not waiting for a move or ``after`` has the wrong number of seats.
    Never guesses: a change that no legal move explains is ``illegal``, with the pawns to correct.
    """
    if state.phase is not Phase.MOVE:
        raise ValueError(f"no move is awaited (phase {state.phase.value})")
    if len(after) != state.num_players:
        raise ValueError(f"after has {len(after)} seats, the game {state.num_players}")
    seen = tuple(tuple(sorted(p)) for p in after)
    before = tuple(tuple(sorted(p)) for p in state.pawns)
    if seen == before:
        return MoveCheck(UNCHANGED)
    seat = state.active
    infos = state.move_infos()
    for info in infos:
        if state.pawns_after(info) == seen:
            return MoveCheck(MOVED, info.move, info)
    # the mover's pawns match a capturing move, but captured pawns are still out
    for info in infos:
        if not info.captures:
            continue
        expected = state.pawns_after(info)
        if expected[seat] != seen[seat]:
            continue
        misplaced: list[Misplaced] = []
        consistent = True
        for other in range(state.num_players):
            if other == seat or expected[other] == seen[other]:
                continue
            if seen[other] != before[other]:
                consistent = False
                break
            for rel in _extra(seen[other], expected[other]):
                misplaced.append(Misplaced(state.colours[other], rel, YARD))
        if consistent and misplaced:
            lines = tuple(_("Captured: put the {colour} pawn on {where} back in its yard.").format(
                colour=_(m.colour), where=_where(m.seen)) for m in misplaced)
            return MoveCheck(CAPTURE_PENDING, info.move, info, lines, tuple(misplaced))
    return _diagnose(state, before, seen)


def board_differences(state: LudoState, seen) -> tuple[Misplaced, ...]:
    """The pawns to move so that the board ``seen`` (per seat, relative positions) shows ``state``: each
    seat's pawns not where the state has them, paired in order with the places the state has that the
    board lacks (``should`` None: a pawn too many, ``seen`` None: a pawn missing). Empty when they agree.
    Used when a game starts or resumes (issue 25): the saved game and the table must agree."""
    out: list[Misplaced] = []
    for seat, colour in enumerate(state.colours):
        gone = sorted(_extra(state.pawns[seat], seen[seat]))
        new = sorted(_extra(seen[seat], state.pawns[seat]))
        out += [Misplaced(colour, at, should) for at, should in zip(new, gone)]
        out += [Misplaced(colour, at, None) for at in new[len(gone):]]
        out += [Misplaced(colour, None, should) for should in gone[len(new):]]
    return tuple(out)


def _extra(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The elements of multiset ``a`` not in multiset ``b``."""
    return list((Counter(a) - Counter(b)).elements())


def _diagnose(state: LudoState, before, seen) -> MoveCheck:
    problems: list[str] = []
    misplaced: list[Misplaced] = []
    seat = state.active
    legal = ", ".join(f"{_where(i.move.frm)}->{i.to}" for i in state.move_infos()) or _("none")
    targets: dict[tuple[int, int], tuple[int, ...]] = {}
    for i in state.move_infos():
        targets[(seat, i.move.frm)] = tuple(sorted(set(targets.get((seat, i.move.frm), ())) | {i.to}))
    geometry = load_board(state.config.board)
    off_board = geometry.track_positions + geometry.home_length if geometry.has_finish else None
    for other in range(state.num_players):
        colour = state.colours[other]
        gone = sorted(_extra(before[other], seen[other]))
        new = sorted(_extra(seen[other], before[other]))
        if not gone and not new:
            continue
        if len(gone) != len(new):
            for rel in gone[len(new):]:
                problems.append(_("The {colour} pawn on {where} is missing.").format(colour=_(colour), where=_where(rel)))
                misplaced.append(Misplaced(colour, None, rel))
            for rel in new[len(gone):]:
                problems.append(_("An extra {colour} pawn is on {where}.").format(colour=_(colour), where=_where(rel)))
                misplaced.append(Misplaced(colour, rel, None))
        for frm, to in zip(gone, new):
            if to == off_board and to not in targets.get((other, frm), ()):
                # a pawn seen nowhere counts as taken off to the finish (ludo_reading): here it is missing
                problems.append(_("The {colour} pawn on {where} is missing.").format(
                    colour=_(colour), where=_where(frm)))
                misplaced.append(Misplaced(colour, None, frm))
                continue
            if other == seat:
                problems.append(_("The {colour} move {frm}->{to} is not legal with {die} (legal: {legal}).").format(
                    colour=_(colour), frm=_where(frm), to=_where(to), die="/".join(map(str, state.pool)), legal=legal))
                legal_to = targets.get((other, frm), ())
                # B.4.3: the pawn belongs where the die takes it (when that is one square), else back where it was
                misplaced.append(Misplaced(colour, to, legal_to[0] if len(legal_to) == 1 else frm))
                continue
            problems.append(_("The {colour} pawn moved {frm}->{to}, but it is {turn}'s turn.").format(
                colour=_(colour), frm=_where(frm), to=_where(to), turn=_(state.colours[seat])))
            misplaced.append(Misplaced(colour, to, frm))
    return MoveCheck(ILLEGAL, problems=tuple(problems), misplaced=tuple(misplaced))
