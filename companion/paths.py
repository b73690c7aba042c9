"""Where the box keeps its state (SQLite store, calibrations) and reads its config (STYLE.md 2.5).

One function, :func:`resolve`, makes the choice, so tests and demos can point the app at a temporary
folder by passing their own ``env``. Order for each directory, first match wins:

1. ``COMPANION_STATE_DIR`` / ``COMPANION_CONFIG_DIR``: explicit overrides (tests, demos, a second box
   on one machine);
2. ``STATE_DIRECTORY`` / ``CONFIGURATION_DIRECTORY``: set by systemd for a unit with
   ``StateDirectory=`` / ``ConfigurationDirectory=`` (``/var/lib/companion``, ``/etc/companion``).
   systemd joins several directories with ``:``; the first one is used;
3. platformdirs ``user_state_dir("tabletop-companion")`` / ``user_config_dir(...)``
   (``~/.local/state/tabletop-companion``, ``~/.config/tabletop-companion`` on Linux; these follow
   ``XDG_STATE_HOME`` / ``XDG_CONFIG_HOME`` of the real process environment).

Empty variables count as unset. Nothing is created by :func:`resolve`; :func:`ensure_state_dir` creates
the state directory. The config directory is never created: under systemd it is read-only ``/etc``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from companion.errors import StateDirError

logger = logging.getLogger(__name__)

APP_NAME = "tabletop-companion"
STORE_FILE_NAME = "companion.sqlite3"
CONFIG_FILE_NAME = "config.toml"

STATE_OVERRIDE = "COMPANION_STATE_DIR"
CONFIG_OVERRIDE = "COMPANION_CONFIG_DIR"
SYSTEMD_STATE = "STATE_DIRECTORY"
SYSTEMD_CONFIG = "CONFIGURATION_DIRECTORY"


@dataclass(frozen=True)
class AppPaths:
    """The resolved locations. All paths are absolute.

    state_dir: writable directory for the store and calibrations.
    config_dir: directory holding ``config.toml`` (may not exist).
    config_file: ``config_dir / "config.toml"`` (may not exist: defaults apply).
    store_file: ``state_dir / "companion.sqlite3"``.
    """

    state_dir: Path
    config_dir: Path
    config_file: Path
    store_file: Path

    @classmethod
    def from_dirs(cls, state_dir: Path, config_dir: Path) -> "AppPaths":
        """Build the paths for the given state and config directories (made absolute)."""
        state_dir = Path(state_dir).expanduser().absolute()
        config_dir = Path(config_dir).expanduser().absolute()
        return cls(state_dir, config_dir, config_dir / CONFIG_FILE_NAME, state_dir / STORE_FILE_NAME)


def _first_dir(value: str | None) -> Path | None:
    """The first directory of a (possibly ``:``-joined) variable value, or None when unset/empty."""
    if not value:
        return None
    first = value.split(os.pathsep)[0]
    return Path(first) if first else None


def resolve(env: Mapping[str, str] = os.environ) -> AppPaths:
    """Choose the state and config directories from ``env`` (see the module docstring for the order).

    Does not touch the file system. Returns absolute paths.
    """
    state = _first_dir(env.get(STATE_OVERRIDE)) or _first_dir(env.get(SYSTEMD_STATE))
    if state is None:
        state = Path(platformdirs.user_state_dir(APP_NAME))
    config = _first_dir(env.get(CONFIG_OVERRIDE)) or _first_dir(env.get(SYSTEMD_CONFIG))
    if config is None:
        config = Path(platformdirs.user_config_dir(APP_NAME))
    return AppPaths.from_dirs(state, config)


def ensure_state_dir(paths: AppPaths) -> Path:
    """Create ``paths.state_dir`` (with parents) if needed and check that it is writable.

    Returns the directory. Raises :class:`StateDirError` naming the path when it cannot be created
    (e.g. a file is in the way, or a parent is not writable) or is not writable.
    """
    state_dir = paths.state_dir
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StateDirError(
            f"cannot create the state directory {state_dir}: {error.strerror or error}; "
            f"set {STATE_OVERRIDE} to a writable directory or fix the permissions"
        ) from error
    if not os.access(state_dir, os.W_OK | os.X_OK):
        raise StateDirError(
            f"the state directory {state_dir} is not writable; "
            f"set {STATE_OVERRIDE} to a writable directory or fix the permissions"
        )
    return state_dir
