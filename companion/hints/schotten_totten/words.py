"""Player-facing texts of Schotten Totten: formation names and claim reasons (all through ``_``).

Pure functions, no Pygame: the command line, the session and the screen (companion.screens) share them.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.schotten_totten import Card, ClaimVerdict, formation_key, formation_name
from companion.i18n import N_, _

SHORT_NAMES = {"three of a kind": N_("3 of a kind"), "battalion order": N_("battalion"), "skirmish line": N_("skirmish")}
"""Shorter forms of the longer formation names, for the narrow stone columns of the screen."""


def formation_label(key: tuple[int, int] | None, game: str = "schotten-totten", short: bool = False) -> str:
    """``"colour run (sum 18)"`` for key (5, 18), ``"sum 26"`` for (1, 26); ``""`` for None. Names per
    game (C.5 table); ``short`` uses :data:`SHORT_NAMES` (``"3 of a kind (sum 18)"``). The total is
    called a sum: "three of a kind 6" was read as three sixes (#51)."""
    if key is None:
        return ""
    name = formation_name(key[0], game)
    if short:
        name = SHORT_NAMES.get(name, name)
    if key[0] == 1:  # the formation is the sum itself
        return _("{name} {total}").format(name=_(name), total=key[1])
    return _("{name} (sum {total})").format(name=_(name), total=key[1])


def cards_text(cards: Sequence[Card]) -> str:
    """``"R5 R6 R7"``, in the colour letters of the language spoken."""
    return " ".join(c.name for c in cards)


def verdict_text(verdict: ClaimVerdict, game: str = "schotten-totten") -> str:
    """One line saying why a claim is (not) valid (C.5, C.6), for the screen and the command line."""
    if verdict.claimable:
        return _("can be claimed with {mine}").format(mine=formation_label(verdict.mine, game))
    if verdict.reason == "claimed":
        return _("already claimed")
    if verdict.reason == "incomplete":
        return _("needs 3 own cards before a claim")
    if verdict.reason == "weaker":
        return _("opponent's {theirs} beats {mine}").format(
            theirs=formation_label(verdict.theirs, game), mine=formation_label(verdict.mine, game))
    if verdict.reason == "tie_unknown":
        return _("equal formations; who completed first is not known")
    return _("opponent could still make {cards} ({theirs}), beating {mine}").format(
        cards=cards_text(verdict.beating), theirs=_beating_label(verdict, game),
        mine=formation_label(verdict.mine, game))


def _beating_label(verdict: ClaimVerdict, game: str) -> str:

    return formation_label(formation_key(verdict.beating), game) if len(verdict.beating) == 3 else ""
