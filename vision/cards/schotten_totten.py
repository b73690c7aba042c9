"""Card reader for Schotten Totten (schotten-totten.md C.2-C.3) on our reference deck
(vision.cards.reference_deck): each card's colour and value, and the stone (0-8) and side ("a"/"b") it lies at.

Calibration (:class:`StCalibration`): the nine stones' centres in frame pixels, left to right as the camera
sees them (a JSON file ``{"stones": [[x, y], ...9], "palette": {...}}`` or ``--st-stones "x,y;x,y;..."``);
without one the stones are taken evenly spaced along the frame's horizontal middle. Side "a" is the side of
the stone line toward the top of the frame, "b" toward the bottom. ``palette`` maps each colour to its
white-balanced Lab value; the default is the printed reference colours, and :func:`calibrate_colours`
learns it from one frame showing one card of each colour (red, orange, yellow, green, blue, purple, in
stone order) - for another printer, light or a real deck whose cards have white index boxes.

Method: every card shows its index box, also in an overlapping column (each earlier card's top third
stays visible): a white rectangle about 2:1, brighter than its surroundings, ringed by saturated colour.
Each box is one card. Its top is its long side nearer the stone line (cards face their player); the
box is rectified and the black digit in its left half read by the digit classifier (values 1-9); the
card's colour is the median of the saturated ring round the box divided by the box's white (white
balance: a colour cast or a shadow cancels), nearest to the palette in Lab. The card's outline is
extrapolated from the box; its top edge's midpoint gives the stone and side.

Another deck (any design with its value printed in a top corner): :func:`calibrate_deck` learns it from one
card of each colour shown once (vision.cards.corner: the index's place, each colour's hue/saturation
histogram; ``companion cards calibrate IMAGE --game schotten-totten --deck other --out FILE``) and stores
it in the calibration (``"design"``); every card, single or in an overlapping column,
is then read by its corner index with the digit network. Without that calibration, a card outline holding
no index box is read as one card by its centre value and always flagged.

Public API: :class:`StCalibration`, :func:`read_cards`, :func:`calibrate_colours`, :func:`stones_table`,
:func:`calibrate_deck` (another deck's design); CLI hooks :func:`add_arguments`, :func:`calibration_from_args`,
:func:`read_cards_json`. The colour-blind symbols are for the players: the reader does not read them.
The index boxes themselves are found by :mod:`vision.cards.st_index`.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.errors import CalibrationError
from vision.cards.checks import settle
from vision.cards.common import FLAG_BELOW
from vision.cards.corner import CornerDesign, learn_design, read_corner_cards, stone_cuts
from vision.cards.find import find_card_quads, orient_corners, rectify
from vision.cards.reference_deck import COLOUR_BGR, COLOURS, LETTER, card_layout
from vision.cards.st_index import find_index_boxes, lab_of
from vision.cards.value import read_centre_value
from vision.frames import frame_problem_bgr
from vision.observation import CardReading, CardsObservation

STRIP_WIDTH = 160  # pixels of a rectified card's (or column's) width
COLOUR_FLAG_DISTANCE = 28.0  # Lab distance to the nearest palette colour above which a card is flagged
DESIGN_FLAG_DISTANCE = 0.5  # another deck: histogram distance (Bhattacharyya) above which a card is flagged


DEFAULT_PALETTE = {c: tuple(float(v) for v in lab_of(COLOUR_BGR[c])) for c in COLOURS}


@dataclass(frozen=True)
class StCalibration:
    """Where the nine stones lie and what the six colours look like.

    stones: nine (x, y) frame pixels, left to right. palette: {colour: (L, a, b)} of the white-balanced
    body colour (OpenCV float Lab: L 0-100, a/b about -128..127). design: another deck's look learnt by
    :func:`calibrate_deck` (vision.cards.corner.CornerDesign); when set, cards are read by their corner
    index instead of the reference deck's index box.
    """

    stones: tuple[tuple[float, float], ...]
    palette: dict = field(default_factory=lambda: dict(DEFAULT_PALETTE))
    design: CornerDesign | None = None

    def __post_init__(self):
        if len(self.stones) != 9:
            raise ValueError(f"schotten-totten calibration: 9 stones, not {len(self.stones)}")

    @classmethod
    def default(cls, frame_shape: tuple[int, ...]) -> "StCalibration":
        """Nine stones evenly spaced along the frame's horizontal middle."""
        h, w = frame_shape[:2]
        return cls(stones=tuple(((i + 0.5) * w / 9, h / 2) for i in range(9)))

    @classmethod
    def from_json(cls, text: str) -> "StCalibration":
        """Parse ``{"stones": [[x, y] x9], "palette": {colour: [L, a, b]}, "design": {...}}`` (palette and
        design optional; design as vision.cards.corner.CornerDesign.to_dict). Every value is checked:
        raises ValueError naming what is wrong (not JSON, nested too deep, not an object, not nine
        stones of two finite pixel coordinates 0-100000, a palette colour that is not three finite
        numbers, a bad design)."""
        try:
            data = json.loads(text)
        except RecursionError:
            raise ValueError("JSON nested too deep") from None
        if not isinstance(data, dict):
            raise ValueError('a JSON object {"stones": [[x, y], ... nine]} expected')
        stones = data.get("stones")
        if not isinstance(stones, list) or len(stones) != 9 or not all(_pair(p) for p in stones):
            raise ValueError('"stones": nine [x, y] pixel centres (finite numbers 0-100000) expected, left to right')
        palette_in = data.get("palette", {})
        if not isinstance(palette_in, dict) or not all(_finite(v, 3) for v in palette_in.values()):
            raise ValueError('"palette": a JSON object of colour -> [L, a, b] (three finite numbers) expected')
        palette = dict(DEFAULT_PALETTE)
        palette.update({c: tuple(map(float, v)) for c, v in palette_in.items() if c in COLOURS})
        design = CornerDesign.from_dict(data["design"]) if data.get("design") else None
        return cls(stones=tuple((float(x), float(y)) for x, y in stones), palette=palette, design=design)

    def to_json(self) -> str:
        out = {"stones": [list(p) for p in self.stones],
               "palette": {c: [round(v, 2) for v in lab] for c, lab in self.palette.items()}}
        if self.design is not None:
            out["design"] = self.design.to_dict()
        return json.dumps(out)

    def line(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(origin, unit direction left->right, unit normal toward side "a") of the stone line."""
        pts = np.array(self.stones, np.float64)
        origin = pts.mean(axis=0)
        _, _, vt = np.linalg.svd(pts - origin)
        direction = vt[0] if vt[0][0] >= 0 else -vt[0]
        normal = np.array([direction[1], -direction[0]])  # points up in the frame for a level line
        return origin, direction, normal

    def locate(self, x: float, y: float) -> tuple[int, str]:
        """(stone 0-8, side "a"/"b") of a frame point: the stone nearest along the line, the line's side."""
        origin, direction, normal = self.line()
        p = np.array([x, y]) - origin
        along = [float((np.array(s) - origin) @ direction) for s in self.stones]
        t = float(p @ direction)
        stone = int(np.argmin([abs(t - a) for a in along]))
        return stone, "a" if float(p @ normal) > 0 else "b"

    def line_distance(self, x: float, y: float) -> float:
        origin, _, normal = self.line()
        return abs(float((np.array([x, y]) - origin) @ normal))


def _finite(value: object, count: int, limit: float = 1e6) -> bool:
    """Whether ``value`` is a list of ``count`` finite JSON numbers (not true/false) of size at most ``limit``."""
    return (isinstance(value, list) and len(value) == count
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= limit
                    and math.isfinite(v) for v in value))


def _pair(value: object) -> bool:
    """Whether ``value`` is an [x, y] pixel position: two finite numbers 0-100000."""
    return _finite(value, 2, 100_000) and min(value) >= 0


def _nearest_colour(lab: np.ndarray | None, palette: dict) -> tuple[str | None, float]:
    if lab is None:
        return None, float("inf")
    best, best_d = None, float("inf")
    for colour, ref in palette.items():
        ref = np.array(ref)
        d = float(np.sqrt((lab[1] - ref[1]) ** 2 + (lab[2] - ref[2]) ** 2 + 0.5 * (lab[0] - ref[0]) ** 2))
        if d < best_d:
            best, best_d = colour, d
    return best, best_d


def _card_from_box(box: np.ndarray) -> np.ndarray:
    """The whole card's corners (frame pixels, TL TR BR BL) extrapolated from its index box's corners."""
    lay = card_layout(1000)
    cw, ch = lay["size"]
    ix0, iy0, ix1, iy1 = lay["index"]
    src = np.array([[ix0, iy0], [ix1, iy0], [ix1, iy1], [ix0, iy1]], np.float32)
    m = cv2.getPerspectiveTransform(src, box.astype(np.float32))
    card = np.array([[[0, 0], [cw, 0], [cw, ch], [0, ch]]], np.float32)
    return cv2.perspectiveTransform(card, m)[0]


def _reading(code, value, colour, corners, confidence, flagged, stone, side) -> CardReading:
    pts = np.asarray(corners, np.float32)
    x0, y0 = np.floor(pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 1
    return CardReading(code=code, value=value, colour=colour, box=(int(x0), int(y0), int(x1), int(y1)),
                       corners=tuple((float(x), float(y)) for x, y in pts), confidence=float(confidence),
                       flagged=bool(flagged), stone=stone, side=side)


def _read_design(frame_bgr: np.ndarray, calibration: StCalibration) -> list[CardReading]:
    """Cards of a calibrated other deck (calibration.design), read by their corner index."""
    cards = []
    for card in read_corner_cards(frame_bgr, calibration.design, calibration.line_distance, max_value=9,
                                  cuts=stone_cuts(calibration.stones)):
        top_mid = (card.corners[0] + card.corners[1]) / 2
        stone, side = calibration.locate(float(top_mid[0]), float(top_mid[1]))
        confidence = card.value_conf * (1.0 if card.colour_distance <= DESIGN_FLAG_DISTANCE else 0.4)
        code = f"{LETTER[card.colour]}{card.value}" if card.colour else None
        cards.append(_reading(code, card.value, card.colour, card.corners, confidence,
                              confidence < FLAG_BELOW or code is None, stone, side))
    return cards


def _read_frame(frame_bgr: np.ndarray, calibration: StCalibration) -> list[CardReading]:
    if calibration.design is not None:
        return _read_design(frame_bgr, calibration)
    cards = []
    boxes = find_index_boxes(frame_bgr, calibration.line_distance)
    for box in boxes:
        card = _card_from_box(box.corners)
        top_mid = (card[0] + card[1]) / 2
        stone, side = calibration.locate(float(top_mid[0]), float(top_mid[1]))
        colour, dist = _nearest_colour(box.lab, calibration.palette)
        confidence = box.value_conf * (1.0 if dist <= COLOUR_FLAG_DISTANCE else 0.4)
        code = f"{LETTER[colour]}{box.value}" if colour and box.value else None
        cards.append(_reading(code, box.value, colour, card, confidence,
                              confidence < FLAG_BELOW or code is None or box.covered, stone, side))
    if boxes:
        return cards
    # no index box anywhere: another deck's design; each card outline is read by its centre value, flagged
    for quad in find_card_quads(frame_bgr):
        if quad.aspect > 1.8:
            continue
        corners = orient_corners(quad.corners, calibration.line_distance)
        card = rectify(frame_bgr, corners, STRIP_WIDTH)
        read = read_centre_value(card, upright_bonus=1.0)
        top_mid = (corners[0] + corners[1]) / 2
        stone, side = calibration.locate(float(top_mid[0]), float(top_mid[1]))
        colour = _nearest_colour(lab_of(read.ink_bgr), calibration.palette)[0] if read.ink_bgr else None
        value = read.value if read.value is not None and 1 <= read.value <= 9 else None
        code = f"{LETTER[colour]}{value}" if colour and value else None
        cards.append(_reading(code, value, colour, corners, read.confidence * 0.5, True, stone, side))
    return cards


def read_cards(frame_bgr: np.ndarray, calibration: StCalibration | None = None) -> CardsObservation:
    """Read every reference-deck card face up in a BGR uint8 frame (h, w, 3).

    calibration: stones and palette (default: StCalibration.default for this frame). Returns a
    CardsObservation whose cards are ordered by stone, side ("a" first) and distance from the stone line
    (the order played, schotten-totten.md C.4), each with code ("R5"), value 1-9, colour, stone, side;
    ``extra["stones"]`` lists per stone {"a": [codes], "b": [codes]} as in the claims position file.
    ``problem`` refuses the photo whole: a frame that cannot be read, or a reading that breaks the
    table's rules (:func:`vision.cards.checks.settle`: a card past the picture's edge, four cards at one
    side of a stone, one card in two places). Raises FrameError for input that is not a (h, w, 3) uint8 array.
    """
    start = time.perf_counter()
    problem = frame_problem_bgr(frame_bgr)
    h, w = frame_bgr.shape[:2]
    calibration = calibration or StCalibration.default((h, w))
    cards: list[CardReading] = []
    if problem is None:
        cards, problem = settle(_read_frame(frame_bgr, calibration), (h, w), "schotten-totten")

    def order(card: CardReading):
        top = ((card.corners[0][0] + card.corners[1][0]) / 2, (card.corners[0][1] + card.corners[1][1]) / 2)
        return card.stone, card.side, calibration.line_distance(*top)

    cards.sort(key=order)
    ms = (time.perf_counter() - start) * 1000
    return CardsObservation(game="schotten-totten", cards=tuple(cards), frame_shape=(h, w), ms=ms,
                            problem=problem, extra={"stones": stones_table(cards)})


def stones_table(cards) -> list[dict]:
    """Per stone 0-8: {"a": [codes], "b": [codes]} in the given order (unread cards as None)."""
    table = [{"a": [], "b": []} for _ in range(9)]
    for card in cards:
        if card.stone is not None and card.side in ("a", "b"):
            table[card.stone][card.side].append(card.code)
    return table


def calibrate_colours(frame_bgr: np.ndarray, calibration: StCalibration | None = None,
                      colours: tuple[str, ...] = COLOURS) -> StCalibration:
    """Learn the palette from a frame showing exactly one card of each colour, in ``colours`` order by
    stone (then side a before b). Returns a new StCalibration with the measured white-balanced Lab
    values. Raises ValueError unless exactly len(colours) cards with a measurable colour are found."""
    problem = frame_problem_bgr(frame_bgr)
    if problem is not None:
        raise CalibrationError(f"colour calibration: {problem}")
    calibration = calibration or StCalibration.default(frame_bgr.shape)
    samples = []
    for box in find_index_boxes(frame_bgr, calibration.line_distance):
        if box.lab is not None:
            mid = box.corners.mean(axis=0)
            samples.append((calibration.locate(float(mid[0]), float(mid[1])), box.lab))
    if len(samples) != len(colours):
        raise CalibrationError(f"colour calibration: expected {len(colours)} cards, found {len(samples)}")
    samples.sort(key=lambda s: s[0])
    palette = dict(calibration.palette)
    palette.update({c: tuple(float(v) for v in lab) for c, (_, lab) in zip(colours, samples)})
    return StCalibration(stones=calibration.stones, palette=palette)


def calibrate_deck(frame_bgr: np.ndarray, calibration: StCalibration | None = None,
                   colours: tuple[str, ...] = COLOURS) -> StCalibration:
    """Learn another deck (any design with a printed value in a top corner) from a frame showing one
    whole card of each colour, in ``colours`` order by stone (vision.cards.corner.learn_design): returns a
    new StCalibration with the design set (save it with to_json). Raises ValueError for a bad frame or
    when the cards or their corner values are not all found."""
    problem = frame_problem_bgr(frame_bgr)
    if problem is not None:
        raise CalibrationError(f"deck calibration: {problem}")
    calibration = calibration or StCalibration.default(frame_bgr.shape)
    design = learn_design(frame_bgr, calibration, colours, max_value=10)
    return StCalibration(stones=calibration.stones, palette=calibration.palette, design=design)
