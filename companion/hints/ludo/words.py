"""How the Ludo hint and the list of moves name a pawn: as players say it, never by the rules engine's
per-colour step numbers (ludo.md B.2), which no player can find on the board."""

from __future__ import annotations

from companion.games.ludo import YARD
from companion.i18n import N_, _

PAWN_RANKS = (N_("the leading pawn"), N_("the second pawn"), N_("the third pawn"), N_("the rearmost pawn"))
"""How a move names the pawn it moves: by its place among the player's pawns out on the board (the
board's arrows show which)."""


def pawn_phrase(state, frm: int, seat: int | None = None) -> str:
    """The pawn at relative position ``frm`` of ``seat`` (default the active seat) of ``state`` (a
    ``LudoState``), translated:
    "a pawn out of the yard", "the leading pawn", "the second pawn"... "the rearmost pawn" (of those out on
    the board, by progress; a pawn already home is no longer counted: the third of three left on the
    board was named "the second pawn" beside one home)."""
    if frm == YARD:
        return _("a pawn out of the yard")
    out = sorted({p for p in state.pawns[state.active if seat is None else seat]
                  if p != YARD and not state.is_finished_position(p)}, reverse=True)
    rank = out.index(frm) if frm in out else 0
    if len(out) > 1 and rank == len(out) - 1:
        return _(PAWN_RANKS[-1])
    return _(PAWN_RANKS[min(rank, len(PAWN_RANKS) - 2)])
