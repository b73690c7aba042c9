"""The donkey race's reader: the cards face up in each player's sector, as a
:class:`companion.session.readings.DonkeyRaceReading` (the only place the session meets the card reader)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from companion.games.donkey_race import DONKEY, UNKNOWN, DonkeyRaceConfig
from companion.i18n import _
from companion.readers.base import ReaderSettings, read_safely
from companion.session import DonkeyRaceReading
from vision.cards import read_donkey_race, sector_names


def reading_from_observation(observation, players: int, config: DonkeyRaceConfig) -> DonkeyRaceReading:
    """The adapter from the card reader (``vision.cards.read_donkey_race`` -> CardsObservation): each
    card's ``value`` and ``sector`` name become codes per seat; ``donkey`` marks the donkey card."""
    names = sector_names(players)
    sectors: list[list[int]] = [[] for _ in range(players)]
    donkey_seat = None
    for card in observation.cards:
        if card.sector not in names:
            continue
        seat = names.index(card.sector)
        if card.donkey and config.donkey:
            sectors[seat].append(DONKEY)
            donkey_seat = seat
        elif card.value is None:
            sectors[seat].append(UNKNOWN)
        else:
            sectors[seat].append(int(card.value))
    flagged = any(card.flagged for card in observation.cards)
    problem = _(observation.problem) if observation.problem else None
    return DonkeyRaceReading(tuple(tuple(sorted(s)) for s in sectors), flagged, donkey_seat, problem)


def read_table(frame_bgr: np.ndarray, players: int, config: DonkeyRaceConfig) -> DonkeyRaceReading:
    """Read one camera frame with the donkey race card reader; a frame it cannot take becomes a reading
    with a ``problem`` (``companion.readers.base.read_safely``)."""
    def read(frame):
        observation = read_donkey_race(frame, players=players, donkey_value=config.donkey_value)
        return reading_from_observation(observation, players, config)

    return read_safely(read, frame_bgr, lambda reason: DonkeyRaceReading(((),) * players, problem=reason))


def make_reader(camera, session, settings: ReaderSettings) -> Callable[[np.ndarray], DonkeyRaceReading]:
    """The loop's reader for a donkey race ``session``: its players' sectors and its variant."""
    return partial(read_table, players=len(session.players), config=session.config)
