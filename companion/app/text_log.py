"""``--text-log FILE``: every text the screens draw, one JSON line each, for checking them from outside.

The lines are those of :class:`companion.display.text.TextLog` (docs/CLI.md, "The text log"): the frame,
the screen's mode, the text, its font size in pixels, its box and whether it was cut.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from companion.display import text
from companion.errors import UserError


@contextmanager
def recording(path: Path | None) -> Iterator[None]:
    """Log every text drawn inside the ``with`` block to ``path`` (created or emptied); nothing when None.
    Raises :class:`UserError` naming ``--text-log`` when the file cannot be written."""
    if path is None:
        yield
        return
    try:
        log = text.TextLog.to_file(path)
    except OSError as error:
        raise UserError(f"--text-log {path}: cannot write it ({error.strerror or error}); "
                        "give a file in a folder that exists and is writable") from None
    previous = text.start_log(log)
    try:
        yield
    finally:
        text.start_log(previous)
        log.close()
