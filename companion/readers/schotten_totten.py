"""The one adapter between the card reader and the Schotten Totten session.

The card reader (``vision.cards.schotten_totten.read_cards(frame_bgr) -> CardsObservation``, written
separately) reports each card's code, stone (0-8) and side (``"a"`` = seat 0, ``"b"`` = seat 1).
:func:`reading_from_observation` turns that into a :class:`TableReading`, the only shape the session
takes; a hand-entered play (``set STONE CARD``) needs no reading at all. Plugging in another reader
means writing one function that returns a :class:`TableReading`.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.schotten_totten.cards import Card, parse_card
from companion.games.schotten_totten.rules import SchottenTottenState


@dataclass(frozen=True)
class SeenCard:
    """One card read at the table: stone 0-8, seat 0 (side a) or 1 (side b), the card (None: unread),
    flagged when the reader is unsure."""

    stone: int
    seat: int
    card: Card | None
    flagged: bool = False


@dataclass(frozen=True)
class TableReading:
    """Every card read in one frame; ``problem``: why the frame could not be read, else None."""

    cards: tuple[SeenCard, ...]
    problem: str | None = None


def reading_from_observation(observation, max_value: int = 10) -> TableReading:
    """Convert the card reader's ``CardsObservation`` (``cards`` with ``code``, ``stone``, ``side``,
    ``flagged``; ``problem``) into a :class:`TableReading`. Cards without a stone or side are left out;
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
    return TableReading(tuple(cards), getattr(observation, "problem", None))


def read_table(frame_bgr, calibration=None) -> TableReading:
    """Read a frame with the card reader and convert it (the loop's ``reader`` for this game)."""
    from vision.cards.schotten_totten import read_cards

    try:
        return reading_from_observation(read_cards(frame_bgr, calibration))
    except ValueError as error:  # FrameError and the like: a frame the reader cannot take
        return TableReading((), str(error))


def new_card(state: SchottenTottenState, reading: TableReading) -> tuple[Card, int] | None:
    """The play the reading shows: exactly one readable, unflagged card not yet on the table, at the
    active seat's side of a stone where it may play (C.4); else None."""
    table = set(state.table_cards())
    new = [c for c in reading.cards if c.card is None or c.card not in table]
    if len(new) != 1 or new[0].flagged:
        return None
    seen = new[0]
    if seen.card is None or seen.seat != state.active or not state.stones[seen.stone].has_room(seen.seat):
        return None
    return seen.card, seen.stone
