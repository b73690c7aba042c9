"""What the donkey race screen shows: frozen view values built by ``companion.session.donkey_race``.

Every string is already translated; the drawing code (:mod:`companion.display.donkey_race`) only lays
them out. Seats index the palette (colour, token shape) as in every game.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LaneView:
    """One player's lane: ``position`` spaces from Start (0) to Finish (``track_length``; more when a
    token overshoots), ``points``, games won before (``wins``) and cards in hand (``hand``)."""

    name: str
    seat: int
    position: int
    points: int
    wins: int
    hand: int


@dataclass(frozen=True)
class SectorView:
    """One player's sector this round: ``label`` lists the sets played ("7 | 9", "PASS", "" when not
    yet acted); ``highest`` marks the round's highest play so far."""

    seat: int
    label: str
    highest: bool = False


@dataclass(frozen=True)
class DonkeyRaceView:
    """The whole donkey race screen.

    lanes and sectors: one per seat. active: the seat to act (or the proposed first leader), None
    between rounds. prompt: the top line. to_beat: "2 cards higher than 7, or PASS". proposal: the
    play CONFIRM would make. deck / discard: card counts. reminders: what to do at the table (draw,
    reshuffle, which token moves how far). winners: seats that won once the game is over.
    """

    title: str
    lanes: tuple[LaneView, ...]
    track_length: int
    active: int | None
    sectors: tuple[SectorView, ...]
    prompt: str
    to_beat: str = ""
    proposal: str = ""
    round_no: int = 1
    deck: int = 0
    discard: int = 0
    reminders: tuple[str, ...] = ()
    hint: str = ""
    message: str = ""
    keys: tuple[tuple[str, str], ...] = ()
    winners: tuple[int, ...] = ()
