"""The store as the menu sees it (:class:`companion.app.menu_model.MenuData`), and deleting a saved game.

:class:`companion.store.Store` has no delete; :func:`delete_saved_game` works on the store's SQLite
connection in one transaction (the ``events`` rows go with the game through ``ON DELETE CASCADE``,
and ``PRAGMA foreign_keys=ON`` is set by the store). Only unfinished games can be deleted, so the
scoreboard, which counts finished games, never changes.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.app.language import store_choice
from companion.app.menu_model import FinishedGame, SavedGame
from companion.app.prints import save_board_prints
from companion.errors import CompanionError
from companion.i18n import _, set_language
from companion.names import is_seat_name
from companion.registry import game_title
from companion.stats import game_summary, store_figures
from companion.store import Store

logger = logging.getLogger(__name__)


def delete_saved_game(connection: sqlite3.Connection, game_id: int) -> bool:
    """Delete the unfinished game ``game_id`` and its event log in one transaction.

    ``connection``: an autocommit (``isolation_level=None``) connection to a companion store with
    foreign keys on, as :class:`Store` keeps it. Returns True when a game was deleted, False when
    there is no unfinished game with that id (finished games are never deleted).
    """
    connection.execute("BEGIN IMMEDIATE")
    try:
        connection.execute("DELETE FROM events WHERE game_id = ? AND game_id IN "
                           "(SELECT id FROM games WHERE finished = 0)", (game_id,))
        cursor = connection.execute("DELETE FROM games WHERE id = ? AND finished = 0", (game_id,))
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return cursor.rowcount == 1


class StoreMenuData:
    """:class:`companion.app.menu_model.MenuData` over an open :class:`Store`; the language chosen on the
    menu is kept in ``state_dir`` (None: not kept)."""

    def __init__(self, store: Store, state_dir: Path | None = None):
        self.store = store
        self.state_dir = state_dir
        self._turns: dict[tuple[int, int], tuple[int | None, str]] = {}

    def saved_games(self) -> list[SavedGame]:
        """Unfinished games, oldest first, with the turns played so far (rounds in the donkey race: the
        game's summary, ``companion.stats``, replays its log; None when it does not replay) and the
        variant stored."""
        saved = []
        for g in self.store.unfinished_games():
            turns, unit = self._turns_of(g.id)
            saved.append(SavedGame(g.id, g.game, g.players, g.created, turns, dict(g.variant or {}), unit))
        return saved

    def _turns_of(self, game_id: int) -> tuple[int | None, str]:
        """(turns played, their unit) of a saved game, replayed once per length of its log (the menu asks
        on every frame it draws)."""
        key = (game_id, self.store.event_count(game_id))
        if key not in self._turns:
            turns, unit = None, "turn"
            try:
                summary = game_summary(self.store, game_id)
                turns, unit = summary.turns, summary.course.step
            except CompanionError as error:  # a damaged log, a game or a variant of a newer box
                logger.warning("saved game %s: no turns counted: %s", game_id, error)
            self._turns[key] = (turns, unit)
        return self._turns[key]

    def known_names(self) -> list[str]:
        """Scoreboard names, most wins (over all games) first, then name; never a default seat name
        ("Player 2", kept by a box before the scoreboard left them out)."""
        wins: dict[str, int] = {}
        for row in self.store.scoreboard():
            if is_seat_name(row.name):
                continue
            wins[row.name] = wins.get(row.name, 0) + row.wins
        return sorted(wins, key=lambda name: (-wins[name], name))

    def scoreboard_lines(self) -> list[str]:
        """One line per scoreboard row: ``game title: name, wins of games won``."""
        return [_("{game}: {name}, {wins} of {games} won").format(game=game_title(row.game), name=row.name,
                                                                   wins=row.wins, games=row.games)
                for row in self.store.scoreboard()]

    def delete_game(self, game_id: int) -> None:
        """Delete an unfinished game (see :func:`delete_saved_game`)."""
        delete_saved_game(self.store._db, game_id)  # the store has no delete method (see module docstring)

    def finished_games(self) -> list[FinishedGame]:
        """Finished games, newest first, with their players and their winner's name."""
        return [FinishedGame(g.id, g.game, g.players, g.created, (g.result or {}).get("winner")
                             if isinstance((g.result or {}).get("winner"), str) else None)
                for g in reversed(self.store.finished_games())]

    def dice(self) -> dict:
        """The dice the camera read over every saved game (``companion.stats.store_figures``)."""
        return store_figures(self.store)["dice"]

    def unreadable(self) -> int:
        """Saved games left out because their row cannot be read (``Store.skipped``, filled by the lists)."""
        return len(self.store.skipped)

    def choose_language(self, code: str) -> str:
        """Speak ``code`` from now on and keep the choice in the state directory (the config file is
        read-only to the service); returns "" or what went wrong, for the screen."""
        set_language(code)
        if self.state_dir is None:
            return ""
        try:
            store_choice(self.state_dir, code)
        except OSError as error:
            logger.error("cannot keep the language chosen: %s", error)
            return _("The language is used now but could not be kept: {error}").format(error=error)
        return ""

    def save_prints(self, game: str, variant: Mapping[str, Any]) -> str:
        """Write the printable board (:func:`companion.app.prints.save_board_prints`) onto a USB stick, else
        into the state directory (the store's folder when none was given); returns the screen's message."""
        folder = self.state_dir if self.state_dir is not None else self.store.path.parent
        try:
            written = save_board_prints(game, variant, folder)
        except OSError as error:
            logger.error("cannot write the printable board: %s", error)
            return _("The board could not be saved: {error}").format(error=error.strerror or error)
        logger.info("printable board written: %s", ", ".join(map(str, written)))
        return _("Board saved for A4 and A3 printing in {folder}").format(folder=written[0].parent)
