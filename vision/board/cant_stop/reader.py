"""Read a Can't Stop board: every player's marker and the runners, or a plain-words reason to wait.

``read_cant_stop_board(frame_bgr, layout, colours, runner="white") -> CantStopBoardReading``:

1. Check the frame (:class:`FrameError` for input that is not an image; ``problem`` for a black or
   uniform one).
2. Find the board (:mod:`.find`): its ArUco stickers when two or more are seen, else its outline, else
   ``calibration`` (the homography of an earlier reading, e.g. of the empty board).
3. Warp the frame to the board's top view at :data:`SCALE` pixels a pitch and divide out the light: the
   print's layout is known (:mod:`.printed`) and its colours are measured from the frame
   (:func:`expected_top`), so a smooth map of observed / printed (:func:`vision.board.light.light_map`,
   a median over 2.5 pitches, which no piece fills) is the light falling on the board, its colour and
   shadows included. What then differs from the print is something on the board.
4. Each different pixel gets a class (:data:`MARKER_COLOURS`, ``white``, ``black``, ``skin``,
   ``other``); the connected patches of each class are the pieces. A piece's image leans away from the
   camera (its top is higher), so its foot is found from the camera's position over the board
   (:mod:`vision.board.pinhole`): the end of the patch nearest the camera's foot point, plus half the
   patch's width across that direction.
5. Every piece must stand on a space (within :data:`ON_SPACE` pitches of its centre); the players'
   colours at most once a column, runners at most three and one a column. Anything else (a hand, a die, a
   card, a piece between two spaces or two columns, a colour no player has) is no reading: ``problem``
   says what in plain words and the session waits.

A reading is only ever the positions seen; whether they agree with the game is the session's question.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.board.cant_stop.find import find_cant_stop_board
from vision.board.cant_stop.layouts import COLUMNS, STICKER_SIDE, CantStopLayout
from vision.board.cant_stop.printed import FACE_BGR, SPACE_BGR, print_image, to_top, top_size
from vision.board.light import light_map
from vision.board.pinhole import camera_matrix
from vision.frames import frame_problem_bgr

MARKER_COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
"""The marker colours the reader tells apart (each seat's is one of them: ``board read --variant
marker_colours=red+blue``)."""
RUNNER_COLOURS = ("white", "black")
# Hue bands (OpenCV's 0-179) of the marker colours after the light is divided out; red wraps round 0.
HUES = {"red": (170, 5), "orange": (5, 17), "yellow": (17, 36), "green": (36, 86), "blue": (86, 130),
        "purple": (130, 170)}
# A coloured pixel further than this from every colour in play (hue, 0-179) is no marker's.
MAX_HUE_GAP = 16
# Top view: pixels a pitch; light map: median over this many pitches, on a view of LIGHT_SIDE pixels a pitch.
SCALE = 24
LIGHT_PITCHES, LIGHT_SIDE = 2.5, 4
# A pixel differs from the print when a channel of its light-corrected colour is this far (0-255) outside
# what the print holds within two pixels of it: below it is the print's own texture and misregistration.
CHANGED = 35.0
# A coloured pixel: saturation at least this (0-255) after correction; skin is warm and less saturated.
COLOURED_SAT, SKIN_SAT = 105, 35
# White and black against the print's own brightness there (ratios).
WHITE_RATIO, BLACK_RATIO = 1.22, 0.55
# A piece's patch, in square pitches: smaller is a speck, larger is not one piece.
PIECE_AREA = (0.04, 1.6)
# A patch with more of its outline in holes than this is no piece (a die: its pips).
MAX_HOLES = 0.04
# Skin or an unknown object larger than this (square pitches) over the board: no reading.
COVER_AREA = 0.25
# A piece's foot within this many pitches of a space's centre stands on it.
ON_SPACE = 0.42
# Most runners on the board (cant-stop.md A.1: three neutral runners).
MAX_RUNNERS = 3


@dataclass(frozen=True)
class CantStopBoardReading:
    """What the camera saw on a Can't Stop board.

    layout: the layout's key. found: whether the board was found (``how``: ``stickers``, ``outline`` or
    ``calibration``). markers: colour -> {column: space (1..height)} for the markers seen. runners:
    {column: space}. problem: why there is no reading (the board not found, a hand over it, a piece
    between two spaces, ...), None when the reading is whole; with a problem, markers and runners hold
    what was seen and mean nothing. homography: 3x3 board ``(x, y, 1)`` in pitches -> frame pixels, as
    nested tuples (None when not found). ms: wall time.
    """

    layout: str
    found: bool
    markers: dict[str, dict[int, int]] = field(default_factory=dict)
    runners: dict[int, int] = field(default_factory=dict)
    problem: str | None = None
    how: str | None = None
    homography: tuple[tuple[float, ...], ...] | None = None
    ms: float = 0.0

    @property
    def ok(self) -> bool:
        """Found and read with no problem: a reading that may be offered."""
        return self.found and self.problem is None

    def to_dict(self) -> dict:
        """The JSON form (``companion board read --game cant-stop``): columns as strings."""
        return {"layout": self.layout, "found": self.found, "how": self.how, "problem": self.problem,
                "markers": {c: {str(k): v for k, v in sorted(m.items())} for c, m in self.markers.items()},
                "runners": {str(k): v for k, v in sorted(self.runners.items())},
                "homography": [list(r) for r in self.homography] if self.homography else None,
                "ms": round(self.ms, 1)}


@dataclass(frozen=True)
class Piece:
    """One patch of one class in the top view: its class, foot point (pitches), area (square pitches), and
    the share of its outline's area that is holes of black (white for a black patch): a die's pips in
    its body; a piece has none."""

    kind: str
    foot: tuple[float, float]
    area: float
    holes: float = 0.0


_REGIONS: dict[str, np.ndarray] = {}
FACE, SPACE, LIGHT = 0, 1, 2


def print_regions(layout: CantStopLayout) -> np.ndarray:
    """(h, w) uint8 of the top view at :data:`SCALE`: :data:`FACE`, :data:`SPACE` (a space's inside) or
    :data:`LIGHT` (rims, numbers, stickers), cached per layout."""
    if layout.name not in _REGIONS:
        art = print_image(layout, SCALE).astype(np.int16)
        regions = np.full(art.shape[:2], LIGHT, np.uint8)
        regions[(np.abs(art - FACE_BGR).sum(axis=2) < 12)] = FACE
        regions[(np.abs(art - SPACE_BGR).sum(axis=2) < 12)] = SPACE
        _REGIONS[layout.name] = regions
    return _REGIONS[layout.name]


def expected_top(top: np.ndarray, layout: CantStopLayout) -> np.ndarray:
    """The print as this frame shows it (float32 BGR, the top view's shape): the face, the spaces and the
    light parts each in the colour the frame's top view ``top`` shows most of them in (a published
    board's face is any colour; the light's mean colour is in it too). Pieces cover a few spaces and
    little face, so the medians are the print's."""
    regions = print_regions(layout)
    inner = np.ones((5, 5), np.uint8)
    palette = np.zeros((3, 3), np.float32)
    for region in (FACE, SPACE):
        mask = cv2.erode((regions == region).astype(np.uint8), inner) > 0
        palette[region] = np.median(top[mask], axis=0)
    palette[LIGHT] = np.percentile(top[regions == LIGHT], 75, axis=0)
    return palette[regions]


def corrected_top(frame_bgr: np.ndarray, hom: np.ndarray, layout: CantStopLayout
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the frame's top view with the light divided out, float32 BGR; the print as the frame shows it,
    :func:`expected_top`; the top view's mask of pixels the frame covers). ``hom``: board -> frame pixels."""
    w, h = top_size(layout, SCALE)
    warp = hom @ np.linalg.inv(to_top(layout, SCALE))
    top = cv2.warpPerspective(frame_bgr, warp, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP).astype(np.float32)
    seen = cv2.warpPerspective(np.full(frame_bgr.shape[:2], 255, np.uint8), warp, (w, h),
                               flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP) > 0
    expected = expected_top(top, layout)
    f = LIGHT_SIDE / SCALE  # the light map on an averaged, coarser view: a median of means is smoother
    small_top, small_print = (cv2.resize(v + 1.0, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) for v in (top, expected))
    light = light_map(small_top, small_print, round(LIGHT_PITCHES * LIGHT_SIDE))
    light = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)
    return top / np.maximum(light, 0.05), expected, seen


_STICKERS: dict[str, np.ndarray] = {}


def sticker_mask(layout: CantStopLayout) -> np.ndarray:
    """(h, w) bool of the top view: the printed stickers with a quarter pitch round them (their fine
    pattern is never compared with the print)."""
    if layout.name not in _STICKERS:
        h, w = print_regions(layout).shape
        mask = np.zeros((h, w), bool)
        if layout.printed_stickers:
            half = STICKER_SIDE * 0.75 + 0.25
            for x, y in layout.stickers.values():
                (ax, ay), (bx, by) = [(to_top(layout, SCALE) @ np.array([px, py, 1.0]))[:2]
                                      for px, py in ((x - half, y - half), (x + half, y + half))]
                mask[max(0, int(ay)):int(by) + 1, max(0, int(ax)):int(bx) + 1] = True
        _STICKERS[layout.name] = mask
    return _STICKERS[layout.name]


def _hue_centre(name: str) -> float:
    lo, hi = HUES[name]
    return ((lo + hi + 180) / 2) % 180 if lo > hi else (lo + hi) / 2


def _hue_gap(hue: np.ndarray, centre: float) -> np.ndarray:
    d = np.abs(hue.astype(np.float32) - centre)
    return np.minimum(d, 180 - d)


def classify(corrected: np.ndarray, expected: np.ndarray, layout: CantStopLayout, seen: np.ndarray,
             in_play: tuple[str, ...] = MARKER_COLOURS) -> dict[str, np.ndarray]:
    """Class name -> (h, w) bool mask of the top view's pixels of that class (see the module docstring).
    A coloured pixel takes the colour in play (``in_play``) nearest its hue, none when it is more than
    :data:`MAX_HUE_GAP` from all. A class's mask is opened (specks and slivers go) and closed (a piece cut
    by a space's light rim is one patch);
    ``other`` leaves out the edges of what the other classes hold."""
    near = np.ones((5, 5), np.uint8)  # a fit a pixel or two off must not turn the rims into pieces
    high, low = cv2.dilate(expected, near), cv2.erode(expected, near)
    changed = (((corrected > high + CHANGED) | (corrected < low - CHANGED)).any(axis=2) & seen
               & ~sticker_mask(layout))
    img = np.clip(corrected, 0, 255).astype(np.uint8)
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    hue, sat = hsv[..., 0], hsv[..., 1]
    value = corrected.mean(axis=2)
    out: dict[str, np.ndarray] = {}
    coloured = changed & (sat >= COLOURED_SAT)
    centres = {name: _hue_centre(name) for name in in_play}
    if centres:  # each coloured pixel to the nearest colour in play, none when far from all of them
        names = list(centres)
        gaps = np.stack([_hue_gap(hue, centres[n]) for n in names])
        nearest = np.argmin(gaps, axis=0)
        close = gaps.min(axis=0) <= MAX_HUE_GAP
        for i, name in enumerate(names):
            out[name] = coloured & close & (nearest == i)
    warm = (hue < 22) | (hue >= 168)
    out["skin"] = changed & ~coloured & warm & (sat >= SKIN_SAT)
    out["white"] = changed & ~coloured & ~out["skin"] & (value >= WHITE_RATIO * expected.mean(axis=2))
    out["black"] = changed & ~coloured & (value <= BLACK_RATIO * expected.mean(axis=2))
    kernel = np.ones((3, 3), np.uint8)
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    out = {k: cv2.morphologyEx(cv2.morphologyEx(v.astype(np.uint8), cv2.MORPH_OPEN, kernel), cv2.MORPH_CLOSE, close)
           for k, v in out.items()}
    known = np.zeros(changed.shape, np.uint8)
    for mask in out.values():
        known |= mask
    known = cv2.dilate(known, np.ones((5, 5), np.uint8))
    other = (changed & (known == 0)).astype(np.uint8)
    out["other"] = cv2.morphologyEx(other, cv2.MORPH_OPEN, kernel)
    return {k: v.astype(bool) for k, v in out.items()}


def camera_foot(hom: np.ndarray, shape: tuple[int, ...]) -> tuple[float, float, float] | None:
    """The camera's foot point on the board ``(x, y)`` in pitches and its height over the board, from the
    board -> frame homography (:func:`vision.board.pinhole.camera_matrix`); None when not determined."""
    try:
        cam = camera_matrix(hom, shape)
    except (np.linalg.LinAlgError, ValueError):
        return None
    _, _, vt = np.linalg.svd(cam)
    centre = vt[-1]
    if abs(centre[3]) < 1e-12:
        return None
    x, y, z = centre[:3] / centre[3]
    return float(x), float(y), float(abs(z))


def pieces(masks: dict[str, np.ndarray], layout: CantStopLayout, foot: tuple[float, float] | None) -> list[Piece]:
    """The patches of every class as :class:`Piece`, specks dropped; a patch's foot as in the module
    docstring (its centroid where the camera is right above it)."""
    x0, y0, _, _ = layout.outline
    speck = PIECE_AREA[0] * SCALE * SCALE * 0.5
    out = []
    for kind, mask in masks.items():
        count, comp, stats, centroids = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
        for i in range(1, count):
            area = stats[i, cv2.CC_STAT_AREA]
            if area < speck:
                continue
            blob = (comp == i).astype(np.uint8)
            contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            filled = np.zeros_like(blob)
            cv2.drawContours(filled, contours, -1, 1, -1)
            inside = (filled > 0) & (blob == 0)
            spots = masks["black"] if kind != "black" else masks["white"]
            holes = float(np.count_nonzero(inside & spots)) / max(1, int(filled.sum()))
            ys, xs = np.nonzero(blob)
            pts = np.column_stack([xs / SCALE + x0, ys / SCALE + y0])
            centre = pts.mean(axis=0)
            base = centre
            if foot is not None:
                away = centre - np.array(foot)
                dist = float(np.hypot(*away))
                if dist > 0.5:
                    u = away / dist
                    across = np.array([-u[1], u[0]])
                    along = (pts - centre) @ u
                    side = (pts - centre) @ across
                    radius = (np.percentile(side, 97) - np.percentile(side, 3)) / 2
                    base = centre + u * (np.percentile(along, 3) + radius)
            out.append(Piece(kind, (float(base[0]), float(base[1])), area / (SCALE * SCALE), holes))
    return out


def _space_at(layout: CantStopLayout, x: float, y: float) -> tuple[int, int] | str:
    """(column, space) a foot at ``(x, y)`` stands on, or why none: ``off`` (beyond the columns: the
    supply beside the board), ``between columns``, ``between spaces``."""
    column = int(round(x)) + 2
    if column not in COLUMNS:
        return "off"
    if abs(x - (column - 2)) > ON_SPACE:
        return "between columns"
    first = layout.space(column, 1)[1]
    k = int(round(first - y)) + 1
    if k < 1 or k > layout.height(column):
        top = layout.space(column, layout.height(column))[1]
        return "off" if y > first + 0.5 or y < top - 0.5 else "between spaces"
    if abs(layout.space(column, k)[1] - y) > ON_SPACE:
        return "between spaces"
    return column, k


def read_cant_stop_board(frame_bgr: np.ndarray, layout: CantStopLayout, colours: tuple[str, ...],
                         runner: str = "white", calibration: np.ndarray | None = None) -> CantStopBoardReading:
    """Read ``frame_bgr`` ((h, w, 3) uint8 BGR) as a board of ``layout`` whose players' markers are
    ``colours`` (each one of :data:`MARKER_COLOURS`, in seat order) and whose runners are ``runner``
    (``white`` or ``black``). ``calibration``: a board -> frame homography to fall back on. See the module
    docstring. Raises :class:`vision.errors.FrameError` for input that is not an image, ValueError for a
    colour the reader does not know or two seats of one colour."""
    start = time.perf_counter()
    unknown = [c for c in colours if c not in MARKER_COLOURS]
    if unknown or runner not in RUNNER_COLOURS:
        raise ValueError(f"marker colours are {', '.join(MARKER_COLOURS)} and runners {' or '.join(RUNNER_COLOURS)}, "
                         f"not {', '.join(unknown) or runner}")
    if len(set(colours)) != len(colours):
        raise ValueError(f"two players have one marker colour: {', '.join(colours)}")

    def done(**kw) -> CantStopBoardReading:
        return CantStopBoardReading(layout.name, ms=(time.perf_counter() - start) * 1000.0, **kw)

    problem = frame_problem_bgr(frame_bgr)
    if problem:
        return done(found=False, problem=problem)
    hom, how = find_cant_stop_board(frame_bgr, layout)
    if hom is None and calibration is not None:
        hom, how = np.asarray(calibration, np.float64), "calibration"
    if hom is None:
        return done(found=False, problem="the board is not in view")
    fit = dict(found=True, how=how, homography=tuple(tuple(float(v) for v in row) for row in hom))
    corrected, expected, seen = corrected_top(frame_bgr, hom, layout)
    if seen.mean() < 0.97:
        return done(problem="part of the board is out of the picture", **fit)
    masks = classify(corrected, expected, layout, seen, tuple(colours))
    cam = camera_foot(hom, frame_bgr.shape)
    found = pieces(masks, layout, None if cam is None else cam[:2])
    markers: dict[str, dict[int, int]] = {}
    runners: dict[int, int] = {}
    problems: list[str] = []
    for piece in found:
        where = _space_at(layout, *piece.foot)
        if piece.kind in ("skin", "other"):
            if piece.area >= COVER_AREA:
                problems.append("a hand over the board" if piece.kind == "skin" else "something lies on the board")
            elif piece.kind == "other" and piece.area >= PIECE_AREA[0] and where != "off":
                problems.append("something on the board that is no player's piece")  # a runner in tinted light
            continue
        if where == "off":
            continue
        if not PIECE_AREA[0] <= piece.area <= PIECE_AREA[1] or piece.holes > MAX_HOLES:
            problems.append(f"something {piece.kind} on the board that is not a piece")
            continue
        if isinstance(where, str):
            problems.append(f"a {piece.kind} piece {where}")
            continue
        column, k = where
        # two patches of one colour on one space are one piece (its top and its side)
        if piece.kind == runner:
            if column in runners and runners[column] != k:
                problems.append(f"two runners in column {column}")
            runners[column] = k
        elif piece.kind in colours:
            column_of = markers.setdefault(piece.kind, {})
            if column in column_of and column_of[column] != k:
                problems.append(f"two {piece.kind} markers in column {column}")
            column_of[column] = k
        elif piece.kind in MARKER_COLOURS:
            problems.append(f"a {piece.kind} piece on {column}: no player has that colour")
        else:  # the other of white and black
            problems.append(f"a {piece.kind} piece on {column}, space {k}")
    if len(runners) > MAX_RUNNERS:
        problems.append(f"{len(runners)} runners on the board")
    return done(markers=markers, runners=runners, problem="; ".join(dict.fromkeys(problems)) or None, **fit)
