"""Writing a file so that a power cut or a kill leaves the old file or the new one, never half of either.

The bytes go to a temporary file in the target's directory, are flushed and fsynced, ``os.replace``
puts the file in place (atomic on POSIX), and the directory is fsynced so that the rename itself
survives a power cut. Used for the camera settings, the dice calibration and any other small file the
box keeps in its state directory (the games themselves live in SQLite, :mod:`companion.store`); and
making an output folder a flag names (:func:`writable_folder`). :func:`write_atomic` itself is
:func:`vision.files.write_atomic` (vision, which imports nothing of companion, stores the dice
calibration with it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from companion.errors import UserError
from vision.files import write_atomic

__all__ = ["write_atomic", "write_json_atomic", "writable_folder"]


def writable_folder(path: str | os.PathLike, flag: str) -> Path:
    """The folder ``path``, made if missing (with its parents), once it can be written to. Raises
    ``UserError`` naming ``flag`` (e.g. ``--screenshots``), the folder and the reason otherwise."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"{flag} {folder}: cannot make this folder ({error.strerror or error}); "
                        "give a folder you can write to") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"{flag} {folder}: this folder cannot be written to; give a folder you can write to")
    return folder


def write_json_atomic(path: str | os.PathLike, data: Any) -> Path:
    """Write ``data`` as indented UTF-8 JSON (and a final newline) to ``path``, atomically as
    :func:`write_atomic`. Raises TypeError for data JSON cannot hold, OSError as :func:`write_atomic`."""
    return write_atomic(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))
