"""The statistics of the saved games in a store: each game's summary, the dice over all of them, and
each player's record (``companion stats``, the menu's screens)."""

from __future__ import annotations

import logging

from companion.errors import CorruptLog
from companion.registry import game as game_entry
from companion.registry import names
from companion.stats.base import GameSummary
from companion.stats.dice import face_counts, fairness, rolls_of

log = logging.getLogger(__name__)


def game_summary(store, game_id: int) -> GameSummary:
    """The summary of the saved game ``game_id`` of ``store`` (its game's ``companion.stats`` module).
    Raises KeyError for no such game, ``UserError`` for a game the box does not know, ``CorruptLog`` when
    its log does not replay."""
    record = store.game(game_id)
    entry = game_entry(record.game)
    return entry.module("stats").summarise(store.events(game_id), list(record.players),
                                           entry.config(record.variant))


def store_figures(store, game: str | None = None, *, hand: bool = False) -> dict:
    """``companion stats``'s figures over the saved games of ``store`` (of ``game`` only, when given):

    ``{"games": n, "finished": n, "dice": {"rolls": n, "faces": [n1..n6], "chi2": f, "p_value": f,
    "verdict": str}, "players": {NAME: {"games": n, "wins": n, "TALLY": n, "TALLY_expected": f, ...}}}``.
    ``rolls`` counts roll events, ``faces`` the dice in them (the camera's only, unless ``hand``).
    Tallies are summed over each player's games (``busts`` and ``busts_expected`` in Can't Stop,
    ``sixes``, ``sixes_expected`` and ``captures`` in Ludo). A game whose log does not replay is left out
    of the players' figures (its dice still count) and listed in ``"unreadable"`` (ids, ascending), as is
    a game whose row or events cannot be read at all (``Store.skipped``, the reasons logged).
    """
    records = [r for r in store.unfinished_games(game) + store.finished_games(game) if r.game in names()]
    records.sort(key=lambda r: r.id)
    rolls, players, unreadable = [], {}, []
    for record in records:
        try:
            events = store.events(record.id)
        except CorruptLog as error:
            log.error("%s; left out of the figures", error)
            unreadable.append(record.id)
            continue
        game_rolls = [r for r in rolls_of(events) if hand or r.source == "camera"]
        rolls += game_rolls
        try:
            summary = game_summary(store, record.id)
        except CorruptLog:
            unreadable.append(record.id)
            continue
        winners = {summary.players[summary.placings[0]]} if summary.placings else set()
        for seat, name in enumerate(summary.players):
            figures = players.setdefault(name, {"games": 0, "wins": 0})
            figures["games"] += 1
            figures["wins"] += name in winners and record.finished
            for tally in summary.tallies_of(seat):
                figures[tally.kind] = figures.get(tally.kind, 0) + tally.count
                if tally.expected is not None:
                    key = f"{tally.kind}_expected"
                    figures[key] = round(figures.get(key, 0.0) + tally.expected, 2)
    test = fairness(face_counts(rolls, hand=True))
    out = {"games": len(records), "finished": sum(1 for r in records if r.finished),
           "dice": {"rolls": len(rolls), **test.to_dict()}, "players": players}
    unreadable = sorted(set(unreadable) | set(store.skipped))
    if unreadable:
        out["unreadable"] = unreadable
    return out
