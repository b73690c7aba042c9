"""Writing a file so that a power cut or a kill leaves the old file or the new one, never half of either.

The bytes go to a temporary file in the target's directory, are flushed and fsynced, ``os.replace``
puts the file in place (atomic on POSIX), and the directory is fsynced so that the rename itself
survives a power cut. The one atomic write of the project: vision stores the dice calibration with it,
and ``companion.files`` gives it to the app (the camera settings, the language, any other small file the
box keeps in its state directory). It lives here, in the lowest layer, because vision imports nothing of
companion.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomic"]


def write_atomic(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (see the module docstring); returns ``path`` as a Path.

    The folder must exist. Raises OSError as it comes; the old file, if any, is then unchanged and no
    temporary file is left behind.
    """
    path = Path(path)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _fsync_directory(path.parent)
    return path


def _fsync_directory(folder: Path) -> None:
    try:
        directory = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # some file systems do not open directories; the rename is then as durable as they allow
    try:
        os.fsync(directory)
    except OSError:
        pass
    finally:
        os.close(directory)
