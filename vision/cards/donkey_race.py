"""Card reader for the donkey card race (donkey-race.md D.2-D.5): the value of each card face up in each
player's sector, and the donkey card.

Sectors: the frame is split around a centre (the frame's centre unless given) into ``players`` equal
wedges, one per seat. Seat 0 sits at the bottom edge of the image ("south"); the next seats follow
counter-clockwise on the image: with 4 players south, east (right edge), north (top), west (left); with 2
players south and north; with 3 players south, north-east, north-west. A card belongs to the wedge its
centre lies in.

Orientation: a card lies facing its player, so its top is the short edge nearest the centre; the value is
also read turned by 180 degrees and only a clearly better reading overrides that prior (a 6 and a 9 are
told apart by the prior alone).

Values: the large value in the middle of the card, digits 0-9 or two digits side by side (10-13, D.2's
default deck), read by the digit network (vision.cards.digit_net; the k-NN votes of vision.cards.digits
when the model is missing); a solid picture (the J/Q/K of the handwritten test deck) is read as J/Q/K = 11/12/13 by a
deck-specific guess and always flagged. The donkey card is the card whose value is ``donkey_value``
(DEFAULT 0, D.5 ``donkey_mode`` plain_value: the donkey is a number card with value 0).

Public API: :func:`read_cards`, :func:`sector_of`, :func:`sector_names`; CLI hooks :func:`add_arguments`,
:func:`read_cards_json`.
"""

from __future__ import annotations

import math
import time

import numpy as np

from vision.cards.common import FLAG_BELOW
from vision.cards.find import find_card_quads, orient_corners, rectify
from vision.cards.value import centre_glyph, picture_rank, read_centre_value
from vision.cards.checks import settle
from vision.frames import frame_problem_bgr
from vision.observation import CardReading, CardsObservation

CARD_WIDTH = 150  # pixels of a rectified card's short side
PICTURE_VALUES = {"J": 11, "Q": 12, "K": 13}
COMPASS = {2: ("south", "north"), 4: ("south", "east", "north", "west")}


def sector_names(players: int) -> tuple[str, ...]:
    """Sector names for 2-4 players, seat 0 first (see the module docstring). Raises ValueError otherwise."""
    if players not in (2, 3, 4):
        raise ValueError(f"donkey race: 2-4 players, not {players}")
    return COMPASS.get(players, ("south", "north-east", "north-west"))


def sector_of(x: float, y: float, centre: tuple[float, float], players: int) -> int:
    """The seat (0 .. players-1) whose wedge holds the point (x, y) in frame pixels."""
    sector_names(players)
    angle = math.degrees(math.atan2(y - centre[1], x - centre[0]))  # image coords: 90 = straight down
    # seat k's direction is 90 - k * 360 / players degrees (south, then counter-clockwise on the image)
    step = 360.0 / players
    return int(round(((90.0 - angle) % 360.0) / step)) % players


def read_cards(frame_bgr: np.ndarray, players: int = 4, centre: tuple[float, float] | None = None,
               donkey_value: int = 0) -> CardsObservation:
    """Read every card face up in a BGR uint8 frame (h, w, 3).

    players: 2-4 (sectors, see the module docstring). centre: the table centre in frame pixels (default the
    frame's centre). donkey_value: the donkey card's value (D.5, default 0).
    Returns a CardsObservation with cards sorted by seat, then by distance to the centre; ``extra`` holds
    ``players``, ``sectors`` ({name: [codes]}) and ``donkey_sector`` (name or None). ``problem`` refuses
    the photo whole (a frame that cannot be read, a card past the picture's edge:
    :func:`vision.cards.checks.settle`). Raises FrameError for input that is not a (h, w, 3) uint8 array, ValueError for a bad player count.
    """
    start = time.perf_counter()
    names = sector_names(players)
    problem = frame_problem_bgr(frame_bgr)
    h, w = frame_bgr.shape[:2]
    cx, cy = centre if centre is not None else (w / 2.0, h / 2.0)
    cards = []
    if problem is None:
        for quad in find_card_quads(frame_bgr):
            if quad.aspect > 1.8:
                continue  # overlapping cards: this game lays each play side by side
            corners = orient_corners(quad.corners, lambda x, y: (x - cx) ** 2 + (y - cy) ** 2)
            card = rectify(frame_bgr, corners, CARD_WIDTH)
            read = read_centre_value(card)
            if read.rotated:
                corners = np.roll(corners, 2, axis=0)
            mid = corners.mean(axis=0)
            seat = sector_of(float(mid[0]), float(mid[1]), (cx, cy), players)
            if read.picture:
                code = picture_rank(centre_glyph(card)[0])
                value, confidence, flagged = PICTURE_VALUES[code], read.confidence * 0.5, True
            elif read.value is None:
                code, value, confidence, flagged = None, None, 0.0, True
            else:
                code, value, confidence = str(read.value), read.value, read.confidence
                flagged = confidence < FLAG_BELOW
            cards.append(CardReading(code=code, value=value, colour=None, box=quad.box,
                                     corners=tuple((float(x), float(y)) for x, y in corners),
                                     confidence=confidence, flagged=flagged, sector=names[seat],
                                     donkey=value == donkey_value))
    if problem is None:
        cards, problem = settle(cards, (h, w), "donkey-race")
    cards.sort(key=lambda c: (names.index(c.sector), _along(c, names.index(c.sector), players, (cx, cy))))
    sectors = {name: [c.code for c in cards if c.sector == name] for name in names}
    donkey = next((c.sector for c in cards if c.donkey), None)
    ms = (time.perf_counter() - start) * 1000
    return CardsObservation(game="donkey-race", cards=tuple(cards), frame_shape=(h, w), ms=ms, problem=problem,
                            extra={"players": players, "sectors": sectors, "donkey_sector": donkey})


def _along(card: CardReading, seat: int, players: int, centre: tuple[float, float]) -> float:
    """Position of a card along its player's right-hand direction (their left to right), pixels."""
    direction = math.radians(90.0 - seat * 360.0 / players)
    ux, uy = math.cos(direction), math.sin(direction)
    mx = sum(x for x, _ in card.corners) / 4 - centre[0]
    my = sum(y for _, y in card.corners) / 4 - centre[1]
    return mx * uy - my * ux
