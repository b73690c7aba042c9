"""Schotten Totten's reader: the cards on both sides of each stone, as a
:class:`companion.session.readings.SchottenTottenReading`.

The card reader (``vision.cards.read_schotten_totten(frame_bgr, calibration) -> CardsObservation``)
reports each card's code, stone (0-8) and side (``"a"`` = seat 0, ``"b"`` = seat 1);
:func:`reading_from_observation` turns that into the reading the session takes (a hand-entered play,
``set STONE CARD``, needs no reading at all). The stones' places come from
``STATE_DIR/schotten-totten-stones.json`` when that file exists (``{"stones": [[x, y], ... nine, left to
right], "palette": {...}}``, as ``vision.cards.StCalibration.from_json`` reads it); otherwise the reader
assumes the nine stones evenly spaced along the frame's horizontal middle.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

from companion.errors import CalibrationError
from companion.games.schotten_totten import parse_card
from companion.i18n import _
from companion.readers.base import ReaderSettings, read_safely
from companion.session import SchottenTottenReading, SeenCard
from vision.cards import StCalibration, read_schotten_totten

log = logging.getLogger(__name__)

CALIBRATION_FILE = "schotten-totten-stones.json"
"""Stone calibration of the card reader, in the state directory (optional)."""


def reading_from_observation(observation, max_value: int = 10) -> SchottenTottenReading:
    """Convert the card reader's ``CardsObservation`` (``cards`` with ``code``, ``stone``, ``side``,
    ``flagged``; ``problem``) into the session's reading. Cards without a stone or side are left out;
    an unreadable code becomes ``card=None`` (flagged)."""
    cards = []
    for reading in getattr(observation, "cards", ()):
        if reading.stone is None or reading.side not in ("a", "b"):
            continue
        try:
            card = parse_card(reading.code, max_value) if reading.code else None
        except ValueError:
            card = None
        cards.append(SeenCard(int(reading.stone), 0 if reading.side == "a" else 1, card,
                              bool(reading.flagged) or card is None))
    problem = getattr(observation, "problem", None)
    return SchottenTottenReading(tuple(cards), _(problem) if problem else None)


def read_table(frame_bgr, calibration: StCalibration | None = None, max_value: int = 10) -> SchottenTottenReading:
    """Read a frame with the card reader and convert it; a frame it cannot take gives a reading with a
    problem (``companion.readers.base.read_safely``)."""
    return read_safely(lambda frame: reading_from_observation(read_schotten_totten(frame, calibration), max_value),
                       frame_bgr, lambda reason: SchottenTottenReading((), reason))


def load_stones(state_dir: Path | None) -> StCalibration | None:
    """The stone calibration in ``state_dir``, None when there is none. Raises
    :class:`~companion.errors.CalibrationError` naming the file when it cannot be read."""
    path = None if state_dir is None else Path(state_dir) / CALIBRATION_FILE
    if path is None or not path.is_file():
        return None
    try:
        return StCalibration.from_json(path.read_text(encoding="utf-8"))
    except (ValueError, KeyError, TypeError) as error:
        raise CalibrationError(f"{path}: not a stone calibration: {error}") from None


def box_stones(state_dir: Path | None) -> StCalibration | None:
    """The stone calibration the box reads with: :func:`load_stones`, but a file that cannot be read is
    set aside (renamed ``*.damaged``, as the dice's learned file is) and logged, and the reader assumes
    evenly spaced stones until the calibration is made again: a damaged file never stops a game."""
    try:
        return load_stones(state_dir)
    except CalibrationError as error:
        path = Path(state_dir) / CALIBRATION_FILE  # load_stones read it: state_dir is set
        target = path.with_name(path.name + ".damaged")
        try:
            os.replace(path, target)
        except OSError as why:
            log.warning("%s; it could not be set aside (%s): the stones are taken as evenly spaced", error,
                        why.strerror or why)
            return None
        log.warning("%s; set aside as %s, the stones are taken as evenly spaced until they are calibrated again",
                    error, target.name)
        return None


def make_reader(camera, session, settings: ReaderSettings) -> Callable[[object], SchottenTottenReading]:
    """The loop's reader for a Schotten Totten ``session``, with the stone calibration of
    ``settings.state_dir`` (loaded once, :func:`box_stones`; with no camera nothing is read and nothing
    loaded)."""
    stones = box_stones(settings.state_dir) if camera is not None else None
    return partial(read_table, calibration=stones, max_value=session.config.max_value)
