"""Every error the box reports to its users, by cause: :class:`CompanionError` and its kinds (and vision's, re-exported).

A ``CompanionError`` carries a message meant for the person at the table or at the shell: it names the
file, key, flag or rule that is wrong and, where there is one, what to do. The command line prints it
as one line (exit status 2); anything else that escapes is a bug, reported as such with the place its
traceback was logged (``companion.cli``). The engines and the hardware layer raise these too, so this
module imports nothing of the project but :mod:`vision.errors`, the layer below everything here.

Vision imports nothing of companion, so its errors are its own (:class:`vision.errors.VisionError`);
the ones the app handles are re-exported here under their names (``CameraError``, ``NoCameraFound``,
``FrameError``, ``CalibrationError``: the same classes, so ``except CameraError`` catches what the
camera raises, and the app raises them too). :data:`USER_ERRORS` is what the command line prints as
one line with exit status 2: a ``CompanionError`` or a ``VisionError``.

Where an error also is a ``ValueError``, ``OSError`` or ``RuntimeError`` (as python-chess's move errors
are ``ValueError``\\ s), code that caught the built-in kind before goes on working.
"""

from __future__ import annotations

from vision.errors import CalibrationError, CameraError, FrameError, NoCameraFound, VisionError

__all__ = [
    "CompanionError", "UserError", "MissingFileError", "FileFormatError", "IllegalMove", "VariantError", "ConfigError",
    "StateDirError", "StoreError", "StoreBusy", "CorruptLog", "ScriptError", "ScriptEnded", "CameraError", "FrameError",
    "CalibrationError", "NoCameraFound", "VisionError", "USER_ERRORS", "DisplayError", "PinFactoryError", "echo",
]

ECHO_LIMIT = 80
"""The most characters of a user's input an error line repeats (issue 52: a 50 MB script line was echoed whole)."""


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """``value`` as an error line quotes it (``repr`` of a text), cut to ``limit`` characters with an
    ellipsis and its full length, so that a long input is recognisable but never repeated whole."""
    text = repr(value) if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return text
    length = len(value) if isinstance(value, str) else len(text)
    return f"{text[:limit - 1]}… ({length} characters)"


class CompanionError(Exception):
    """Base of every error whose message is meant for the user (one line, names what is wrong)."""


USER_ERRORS: tuple[type[Exception], ...] = (CompanionError, VisionError)
"""The errors whose message is meant for the user: the app's and vision's (``except USER_ERRORS``)."""


class UserError(CompanionError):
    """A command-line argument the user can fix (a bad flag value, an unknown game or agent)."""


class MissingFileError(CompanionError, FileNotFoundError):
    """A file or folder the user named is not there, or is of the other kind (a file for a folder); the
    message names it."""


class FileFormatError(CompanionError, ValueError):
    """A named file that can be opened but not used: not UTF-8 text, not JSON, not the expected shape.
    The message names the file and what is wrong in it."""


# --- rules -----------------------------------------------------------------------------------------


class IllegalMove(CompanionError, ValueError):
    """An action that breaks a rule in this state. ``rule`` cites the rules file section (e.g.
    ``"cant-stop.md A.6"``); it is part of the message for logs and the command line, while a player's
    screen shows :attr:`reason` alone."""

    def __init__(self, message: str, rule: str):
        super().__init__(f"{message} ({rule})")
        self.reason = message
        self.rule = rule


class VariantError(CompanionError, ValueError):
    """A variant setting with an unknown key or a value outside its allowed range; the message names the
    game, the key and what it takes."""


# --- files, settings and the store -----------------------------------------------------------------


class ConfigError(CompanionError, ValueError):
    """The config file cannot be read or holds a bad value; the message names file, key and allowed values."""


class StateDirError(CompanionError, OSError):
    """The state directory cannot be created or written; the message names the path and what to do."""


class StoreError(CompanionError, RuntimeError):
    """The store file cannot be used (not SQLite, damaged, too new, not writable); the message names
    the file and what to do."""


class CorruptLog(StoreError):
    """A stored event log does not replay under the rules (a damaged or foreign store). ``seq``: the
    first event that cannot be read or replayed, when known (the session resumes before it)."""

    def __init__(self, message: str, seq: int | None = None):
        super().__init__(message)
        self.seq = seq


class StoreBusy(StoreError):
    """Another process holds the store (the box is already running); the message names it."""


class ScriptError(CompanionError, ValueError):
    """A script that cannot be read or has a bad line; the message starts with ``FILE:LINE:``."""


class ScriptEnded(CompanionError, RuntimeError):
    """A headless run's script ended while the game still waited for the players."""


# --- devices (the camera's, a frame's and a calibration's errors are vision's, imported above) ----------


class DisplayError(CompanionError, RuntimeError):
    """No window or screen can be opened (SDL's message, e.g. ``"kmsdrm not available"``)."""


class PinFactoryError(CompanionError, RuntimeError):
    """The pin factory named in ``GPIOZERO_PIN_FACTORY`` could not be started; the message says why."""
