"""What a card reading must satisfy before it is offered: right, or refused with a reason (issue 25).

Both card readers end with :func:`settle`. A card whose outline reaches past the picture's edge was not
seen whole (or is no card: an outline extrapolated from a mark near the edge), so it is left out and the
photo refused: the players are asked rather than shown a partial table. In Schotten Totten a side of a
stone holds at most three cards (schotten-totten.md C.3) and every card exists once (C.2), so more
cards at a side, or one card in two places, refuse the photo too. The boxes of the cards kept are
clipped to the picture. The reasons (:data:`OUTSIDE`, :data:`CROWDED`, :data:`TWICE`) are English, as
every problem vision reports; the app marks the same texts for translation and shows them translated
(``companion.readers.base.CARD_PROBLEMS``): vision imports nothing of companion, its i18n included.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from vision.observation import CardReading

OUTSIDE_TOLERANCE = 0.03
"""How far (a share of the picture's shorter side) a card's corner may lie past the edge and the card
still count as seen whole: the outline is extrapolated from the printed index box, a few pixels off."""
SIDE_LIMIT = 3
"""Cards at one side of a stone (schotten-totten.md C.3)."""

OUTSIDE = "a card lies partly outside the picture: move it into view"
CROWDED = "more than three cards at one side of a stone"
TWICE = "one card is seen in two places"


def settle(cards: list[CardReading], frame_shape: tuple[int, int], game: str) -> tuple[list[CardReading], str | None]:
    """(the cards kept, boxes clipped to the picture; the problem that refuses the photo, or None).

    cards: the reader's cards; frame_shape: (height, width) pixels; game: ``"schotten-totten"`` (the side
    and uniqueness rules apply) or ``"donkey-race"``."""
    h, w = frame_shape
    margin = OUTSIDE_TOLERANCE * min(h, w)
    inside, problem = [], None
    for card in cards:
        if any(x < -margin or y < -margin or x > w - 1 + margin or y > h - 1 + margin for x, y in card.corners):
            problem = OUTSIDE
            continue
        x0, y0, x1, y1 = card.box
        inside.append(replace(card, box=(max(0, x0), max(0, y0), min(w, x1), min(h, y1))))
    if problem is None and game == "schotten-totten":
        sides = Counter((c.stone, c.side) for c in inside if c.stone is not None)
        codes = Counter(c.code for c in inside if c.code is not None and not c.flagged)
        if any(n > SIDE_LIMIT for n in sides.values()):
            problem = CROWDED
        elif any(n > 1 for n in codes.values()):
            problem = TWICE
    return inside, problem
