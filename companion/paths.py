"""Where the box keeps its state (SQLite store, calibrations) and reads its config (STYLE.md 2.5).

One function, :func:`resolve`, makes the choice, so tests and demos can point the app at a temporary
folder by passing their own ``env``. Order for each directory, first match wins:

1. ``COMPANION_STATE_DIR`` / ``COMPANION_CONFIG_DIR``: explicit overrides (tests, demos, a second box
   on one machine);
2. ``STATE_DIRECTORY`` / ``CONFIGURATION_DIRECTORY``: set by systemd for a unit with
   ``StateDirectory=`` / ``ConfigurationDirectory=`` (``/var/lib/companion``, ``/etc/companion``).
   systemd joins several directories with ``:``; the first one is used;
3. the installed box's system directories, ``/var/lib/companion`` (when it exists and this user can
   write it) and ``/etc/companion`` (when its ``config.toml`` exists and this user can read it), the
   ones ``systemd/install.sh`` makes and the service uses: ``companion selftest``, ``stats`` or ``play`` run
   by hand then see the box the service runs. When the installed state exists but this user cannot write
   it, one line says so (once) and what to do;
4. platformdirs ``user_state_dir("tabletop-companion")`` / ``user_config_dir(...)``
   (``~/.local/state/tabletop-companion``, ``~/.config/tabletop-companion`` on Linux; these follow
   ``XDG_STATE_HOME`` / ``XDG_CONFIG_HOME`` of the real process environment).

``COMPANION_SYSTEM_ROOT`` (from ``env``, else from the process environment) puts the system directories
under another root (``ROOT/var/lib/companion``, ``ROOT/etc/companion``): the tests point it at a folder
that does not exist, so that they never see a box installed on the machine that runs them.

Empty variables count as unset. Nothing is created by :func:`resolve` (it only looks whether the system
directories exist); :func:`ensure_state_dir` creates the state directory. The config directory is never
created: under systemd it is read-only ``/etc``.
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
SYSTEM_ROOT_OVERRIDE = "COMPANION_SYSTEM_ROOT"
SYSTEM_STATE_DIR = Path("/var/lib/companion")
"""The installed box's state directory (``systemd/install.sh``, the unit's ``StateDirectory=companion``)."""
SYSTEM_CONFIG_DIR = Path("/etc/companion")
"""The installed box's config directory (the unit's ``ConfigurationDirectory=companion``)."""
SERVICE_USER = "companion"

_said: set[str] = set()


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


def system_dirs(env: Mapping[str, str] = os.environ) -> tuple[Path, Path]:
    """The installed box's state and config directories, under ``COMPANION_SYSTEM_ROOT`` when ``env`` (or
    else the process environment) sets it."""
    root = env.get(SYSTEM_ROOT_OVERRIDE) or os.environ.get(SYSTEM_ROOT_OVERRIDE)
    if not root:
        return SYSTEM_STATE_DIR, SYSTEM_CONFIG_DIR
    return (Path(root) / SYSTEM_STATE_DIR.relative_to("/"), Path(root) / SYSTEM_CONFIG_DIR.relative_to("/"))


def _say_once(message: str) -> None:
    """Log ``message`` as a warning the first time only (resolve runs several times in one command)."""
    if message not in _said:
        _said.add(message)
        logger.warning("%s", message)


def _system_state(directory: Path) -> Path | None:
    """``directory`` when it exists and this user can write it; None otherwise (saying so when it exists)."""
    if not directory.is_dir():
        return None
    if os.access(directory, os.W_OK | os.X_OK):
        return directory
    _say_once(f"the installed box's state {directory} is not writable by this user, so its saved games are not "
              f"used here: run the command as the service user (sudo -u {SERVICE_USER} ...), or set "
              f"{STATE_OVERRIDE} to choose a state directory")
    return None


def _system_config(directory: Path) -> Path | None:
    """``directory`` when its ``config.toml`` exists and this user can read it; None otherwise."""
    file = directory / CONFIG_FILE_NAME
    if not file.is_file():
        return None
    if os.access(file, os.R_OK):
        return directory
    _say_once(f"the installed box's config {file} is not readable by this user, so the defaults apply here: "
              f"run the command as the service user (sudo -u {SERVICE_USER} ...), or set {CONFIG_OVERRIDE}")
    return None


def resolve(env: Mapping[str, str] = os.environ) -> AppPaths:
    """Choose the state and config directories from ``env`` (see the module docstring for the order).

    Creates nothing; looks only whether the installed box's directories exist and may be used. Returns
    absolute paths.
    """
    system_state, system_config = system_dirs(env)
    state = _first_dir(env.get(STATE_OVERRIDE)) or _first_dir(env.get(SYSTEMD_STATE))
    if state is None:
        state = _system_state(system_state) or Path(platformdirs.user_state_dir(APP_NAME))
    config = _first_dir(env.get(CONFIG_OVERRIDE)) or _first_dir(env.get(SYSTEMD_CONFIG))
    if config is None:
        config = _system_config(system_config) or Path(platformdirs.user_config_dir(APP_NAME))
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
