"""How the appliance (``companion menu``) starts from broken files without crash-looping (issue 9).

Decision: the box always comes up. A problem it can work around is logged (journal) and shown on the
menu screen, and the box runs:

- a bad config file (wrong types, unknown keys, bad or shared pin numbers, not TOML, unreadable):
  the message names the file and key; the box runs with the defaults (:func:`load_box_config`);
- an unusable store file (not SQLite, truncated, damaged, another program's, newer schema): the file is
  moved aside with a timestamp, never deleted, and a fresh store is started
  (``companion.store.open_or_move_aside``);
- a missing state directory is created; one that cannot be created or written (read-only, a file in
  the way), or a disk too full for a new store: the box runs on a store in memory and says that
  games will not be kept (:func:`open_box_store`).

What is left (e.g. no GPIO chip, ``PinFactoryError``) ends ``companion`` with exit status 2 and a
one-line message; the systemd unit has ``RestartPreventExitStatus=2`` so such a start is not repeated
in a loop, while a real crash (status 1, a signal) is restarted up to ``StartLimitBurst`` times.
"""

from __future__ import annotations

import logging
from pathlib import Path

from companion.config import Config, load_config
from companion.errors import ConfigError, StateDirError, StoreBusy, StoreError
from companion.i18n import _
from companion.paths import AppPaths, ensure_state_dir
from companion.screens.notice import Notice
from companion.store import Store, open_or_move_aside

log = logging.getLogger(__name__)

MEMORY = ":memory:"


def load_box_config(path: Path | None) -> tuple[Config, str | None]:
    """(config, message): the file's settings, or the defaults and a message naming the file's problem."""
    try:
        return load_config(path), None
    except ConfigError as error:
        message = _("Config ignored, running with the defaults: {error}. Fix the file and restart.").format(error=error)
        log.error("%s", message)
        return Config(), message


def store_notice(store: Store, message: str | None) -> Notice | None:
    """The notice screen for what :func:`open_box_store` said: none when all was well, the store in
    memory (games are not saved), or a damaged store moved aside."""
    if not message:
        return None
    return Notice.STORE_UNSAVED if str(store.path) == MEMORY else Notice.STORE_MOVED


def open_box_store(paths: AppPaths) -> tuple[Store, str | None]:
    """(store, message): the state directory's store (damaged files moved aside), or a store in memory.

    message is None when all is well, else one line for the log and the screen. Raises
    :class:`~companion.errors.StoreBusy` when another process holds the store (the box already runs: a
    second one would only confuse the players).
    """
    try:
        ensure_state_dir(paths)
        store, message = open_or_move_aside(paths.store_file)
    except StoreBusy:
        raise
    except (StateDirError, StoreError) as error:
        message = _("Games will NOT be saved: {error}").format(error=error)
        log.error("%s", message)
        return Store(MEMORY), message
    if message:
        log.error("%s", message)
    return store, message
