"""What every game's reader shares: its settings, a frame that cannot be read never stops the game, and
the card readers' reasons for refusing a photo, marked for translation (:data:`CARD_PROBLEMS`)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import cv2

from companion.errors import FrameError
from companion.i18n import N_, _

log = logging.getLogger(__name__)

R = TypeVar("R")

CARD_PROBLEMS: tuple[str, ...] = (
    N_("a card lies partly outside the picture: move it into view"),
    N_("more than three cards at one side of a stone"),
    N_("one card is seen in two places"),
)
"""The reasons the card readers refuse a photo for (``vision.cards.checks``: ``OUTSIDE``, ``CROWDED``,
``TWICE``), word for word. Vision reports them in English and imports nothing of companion; they are
marked here for the catalogues, and the card readers show a reading's problem through ``_``
(``tests/readers/test_card_problems.py`` checks that these are vision's texts)."""


@dataclass(frozen=True)
class ReaderSettings:
    """What a reader is built with, loaded once when the game starts (never looked up per frame).

    state_dir: the state directory holding the calibrations (``companion calibrate dice``, the Schotten
    Totten stones), None for none. still_seconds: ``[session] still_seconds``, how long a live camera's
    scene must be still before the dice are read (seconds, >= 0).
    """

    state_dir: Path | None = None
    still_seconds: float = 0.6


def read_safely(read: Callable[[Any], R], frame_bgr: Any, failed: Callable[[str], R]) -> R:
    """``read(frame_bgr)``, or ``failed(reason)`` for a frame the reader cannot take (``FrameError``) or
    a reader that fails on it (logged with its traceback): one bad frame never stops the game, and the
    players see the reason."""
    try:
        return read(frame_bgr)
    except FrameError as error:
        return failed(str(error))
    except (cv2.error, ArithmeticError, IndexError, ValueError) as error:
        log.exception("a reader failed on a frame")
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        return failed(_("the reader failed on this frame: {error}").format(error=reason))
