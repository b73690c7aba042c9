"""Read a Can't Stop board: every player's marker and the runners, or a plain-words reason to wait.

``read_cant_stop_board(frame_bgr, layout, colours, runner="white") -> CantStopBoardReading``:

1. Check the frame (:class:`FrameError` for input that is not an image; ``problem`` for a black or
   uniform one).
2. Find the board (:mod:`.find`): its ArUco stickers when two or more are seen, else its outline, else
   ``calibration`` (the homography of an earlier reading, e.g. of the empty board).
3. Warp the frame to the board's top view at :data:`SCALE` pixels a pitch and divide out the light: the
   print's layout is known (:mod:`.printed`) and its colours are measured from the frame, together with
   a smooth map of observed / printed (:func:`vision.board.light.light_map`, a median over 2.5 pitches,
   which no piece fills): the light falling on the board, shadows included (:func:`corrected_top`).
   The light's colour is divided out too, against the print's neutral grey spaces, so a piece shows in
   its own colour. What then differs from the print is something on the board.
4. Each different pixel gets a class (:data:`MARKER_COLOURS`, ``white``, ``black``, ``skin``,
   ``other``); the connected patches of each class are the pieces, a marker's patch too large for one
   marker cut where it narrows (:func:`pieces`). A piece's image leans away from the camera (its top is
   higher), so its foot is found from the camera's position over the board
   (:mod:`vision.board.pinhole`): the end of the patch nearest the camera's foot point, plus half the
   patch's width across that direction.
5. Every piece must stand on a space (within :data:`ON_SPACE` pitches of its centre); the players'
   colours at most once a column, runners at most three and one a column. Anything else (a hand, a die, a
   card, a piece between two spaces or two columns, a colour no player has) is no reading: ``problem``
   says what in plain words and the session waits.
6. A reading offered must be the whole board, so what could hide a piece is no reading either: a patch
   of skin or of no class on the board however small, pieces touching or a piece that looks like one
   of several sharing a space with the others unseen (:func:`hidden_or_touching`), and a space whose
   inside shows something no piece read explains (:func:`unexplained_spaces`). Refusing is cheap (the
   session asks again); a wrong reading is not.

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
# Inside a space, two pixels from its rim, the print is one even colour and a piece shows from this
# much (a white runner in dim light is little brighter than a space); the colourless change that no
# class takes (``other``) is still held to CHANGED, as the light map errs that much at a shadow's edge.
CHANGED_FLAT = 18.0
# A frame's channel at least this (0-255) may be clipped: the light there was at least as bright.
CLIPPED = 250
# A space's plain inside (the printed space less this many pixels of the top view) differs from the
# print where a channel is this far (0-255) from it; a space whose inside differs so over more than
# STRAY_SHARE of it, where no piece was read, is unclear.
SPACE_MARGIN, FAINT, STRAY_SHARE = 2, 22.0, 0.06
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
# A piece's patch against its fellows' typical patch (typical_area): over TOUCHING is two pieces,
# under PART (a marker), or a foot OFF_CENTRE pitches off its space's centre (a runner; FAR_OFF_CENTRE a
# marker), is one sharing its space with a hidden one (see hidden_or_touching).
FELLOWS, TYPICAL, TOUCHING, PART, OFF_CENTRE, FAR_OFF_CENTRE = 3, 70, 1.6, 0.75, 0.15, 0.25
# A marker's patch over SPLIT times its fellows' typical one is cut where it narrows: at the cores of its
# distance transform, the parts above CORE of its peak (see split).
SPLIT, CORE = 1.4, 0.6
# Two pieces seen on one space: the larger marker under PAIR_PART of its fellows and the middle of their
# feet PAIR_OFF_CENTRE pitches off the space's centre is a third piece hidden (see hidden_or_touching).
PAIR_PART, PAIR_OFF_CENTRE = 0.55, 0.08
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


def palette_of(top: np.ndarray, layout: CantStopLayout, light: np.ndarray | None = None) -> np.ndarray:
    """(3, 3) float32: the colour the frame's top view ``top`` shows the face, the spaces and the light
    parts in (rows :data:`FACE`, :data:`SPACE`, :data:`LIGHT`; a published board's face is any colour),
    under even light: ``top / light`` when a light map is given. Pieces cover a few spaces and little
    face, so the medians are the print's."""
    regions = print_regions(layout)
    even = top if light is None else top / np.maximum(light, 0.05)
    inner = np.ones((5, 5), np.uint8)
    palette = np.zeros((3, 3), np.float32)
    for region in (FACE, SPACE):
        mask = cv2.erode((regions == region).astype(np.uint8), inner) > 0
        palette[region] = np.median(even[mask], axis=0)
    palette[LIGHT] = np.percentile(even[regions == LIGHT], 75, axis=0)
    return palette


def _light(top: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """The light map (:func:`vision.board.light.light_map`) of ``top`` over ``expected``, at the top
    view's size; computed on an averaged, coarser view, as a median of means is smoother."""
    h, w = top.shape[:2]
    f = LIGHT_SIDE / SCALE
    small_top, small_print = (cv2.resize(v + 1.0, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
                              for v in (top, expected))
    light = light_map(small_top, small_print, round(LIGHT_PITCHES * LIGHT_SIDE))
    return cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)


def corrected_top(frame_bgr: np.ndarray, hom: np.ndarray, layout: CantStopLayout
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the frame's top view with the light divided out, float32 BGR; the print as it then looks; the top
    view's mask of pixels the frame covers). ``hom``: board -> frame pixels.

    The print's colours and the light are measured together: medians over the whole board mix the
    bright and the dark ends of a lamp's gradient or a shadow band, so that the spaces (mostly in the
    middle) and the face (everywhere) come out in different light and the spaces would differ from the
    print. So the palette is measured again under the light map it gave, and the light map again from
    that palette. Last, the light's colour is divided out: the printed spaces are a known neutral grey
    (:data:`vision.board.cant_stop.printed.SPACE_BGR`), so the corrected view shows a piece in its own
    colour, a white runner white, whatever the lamp's colour."""
    w, h = top_size(layout, SCALE)
    warp = hom @ np.linalg.inv(to_top(layout, SCALE))
    top = cv2.warpPerspective(frame_bgr, warp, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP).astype(np.float32)
    seen = cv2.warpPerspective(np.full(frame_bgr.shape[:2], 255, np.uint8), warp, (w, h),
                               flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP) > 0
    regions = print_regions(layout)
    palette = palette_of(top, layout)
    light = _light(top, palette[regions])
    palette = palette_of(top, layout, light)
    light = _light(top, palette[regions])
    neutral = np.asarray(SPACE_BGR, np.float32) / np.maximum(palette[SPACE], 1.0)
    corrected = top / np.maximum(light, 0.05) * neutral
    # A clipped channel only says the true level is at least this: under a tinted lamp a white piece
    # clips in its lamp's channels and, divided by that lamp's gain, would take the other channels' tint.
    clipped = top >= CLIPPED
    corrected = np.where(clipped, np.maximum(corrected, corrected.max(axis=2, keepdims=True)), corrected)
    return corrected, palette[regions] * neutral, seen


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
    # a space's inside with no rim within two pixels
    flat = ((high - low).max(axis=2) < 1.0) & (print_regions(layout) == SPACE)
    margin = np.where(flat, CHANGED_FLAT, CHANGED).astype(np.float32)[..., None]
    changed = (((corrected > high + margin) | (corrected < low - margin)).any(axis=2) & seen
               & ~sticker_mask(layout))
    strict = changed & (~flat | ((corrected > high + CHANGED) | (corrected < low - CHANGED)).any(axis=2))
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
    other = (strict & (known == 0)).astype(np.uint8)
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


def typical_area(areas: list[float]) -> float | None:
    """What one piece's patch covers, from the patches of its fellows (all markers are one shape and
    size, and so are the runners): their :data:`TYPICAL` th percentile, as many of them share a space
    and are smaller; None with fewer than :data:`FELLOWS` to go by."""
    return float(np.percentile(areas, TYPICAL)) if len(areas) >= FELLOWS else None


def split(blob: np.ndarray) -> list[np.ndarray]:
    """A patch (uint8 0/1) cut where it narrows: the cores of its distance transform (above
    :data:`CORE` of its peak) each grown back over the patch, so two pieces of one colour that touch
    (neighbours in a row, or one leaning over the next) are two patches again. One core: the patch as
    it is."""
    dist = cv2.distanceTransform(blob, cv2.DIST_L2, 3)
    count, labels = cv2.connectedComponents((dist > CORE * dist.max()).astype(np.uint8), connectivity=8)
    if count <= 2:
        return [blob]
    labels = labels.astype(np.uint8)  # few cores: grow each over the patch, a pixel a step
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(blob.shape[0] + blob.shape[1]):
        grown = np.where((labels == 0) & (blob > 0), cv2.dilate(labels, kernel), labels)
        if np.array_equal(grown, labels):
            break
        labels = grown
    return [(labels == i).astype(np.uint8) for i in range(1, count)]


def pieces(masks: dict[str, np.ndarray], layout: CantStopLayout, foot: tuple[float, float] | None) -> list[Piece]:
    """The patches of every class as :class:`Piece`, specks dropped; a patch's foot as in the module
    docstring (its centroid where the camera is right above it). All markers are one shape and size, so
    a marker's patch over :data:`SPLIT` times the markers' typical patch (:func:`typical_area`) is two
    touching: it is :func:`split`."""
    x0, y0, _, _ = layout.outline
    speck = PIECE_AREA[0] * SCALE * SCALE * 0.5
    found = []
    for kind, mask in masks.items():
        count, comp, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
        for i in range(1, count):
            x, y, w, h, area = stats[i]
            if area >= speck:
                found.append((kind, (slice(y, y + h), slice(x, x + w)), (comp[y:y + h, x:x + w] == i).astype(np.uint8)))
    marker_areas = [int(b.sum()) for kind, _, b in found if kind in MARKER_COLOURS]
    typical = typical_area(marker_areas)
    out = []
    for kind, window, whole in found:
        blobs = [whole]
        if typical is not None and kind in MARKER_COLOURS and whole.sum() > SPLIT * typical:
            blobs = [b for b in split(whole) if b.sum() >= speck]
        for blob in blobs:
            area = int(blob.sum())
            contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            filled = np.zeros_like(blob)
            cv2.drawContours(filled, contours, -1, 1, -1)
            inside = (filled > 0) & (blob == 0)
            spots = (masks["black"] if kind != "black" else masks["white"])[window]
            holes = float(np.count_nonzero(inside & spots)) / max(1, int(filled.sum()))
            ys, xs = np.nonzero(blob)
            pts = np.column_stack([(xs + window[1].start) / SCALE + x0, (ys + window[0].start) / SCALE + y0])
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


_SPACE_DISCS: dict[str, list[tuple[int, int, tuple[slice, slice], np.ndarray]]] = {}


def space_discs(layout: CantStopLayout) -> list[tuple[int, int, tuple[slice, slice], np.ndarray]]:
    """Every space as ``(column, k, window, disc)``: the top view's window round it and the bool mask of
    its plain inside there (the printed space less :data:`SPACE_MARGIN` pixels: no rim, even when the fit
    is a pixel off), cached per layout."""
    if layout.name not in _SPACE_DISCS:
        regions = print_regions(layout)
        inside = cv2.erode((regions == SPACE).astype(np.uint8), np.ones((2 * SPACE_MARGIN + 1,) * 2, np.uint8)) > 0
        out = []
        half = int(np.ceil(layout.space_radius * SCALE)) + 1
        for column, k, (x, y) in layout.spaces():
            cx, cy = (to_top(layout, SCALE) @ np.array([x, y, 1.0]))[:2]
            window = (slice(int(cy) - half, int(cy) + half + 1), slice(int(cx) - half, int(cx) + half + 1))
            out.append((column, k, window, inside[window]))
        _SPACE_DISCS[layout.name] = out
    return _SPACE_DISCS[layout.name]


def unexplained_spaces(corrected: np.ndarray, expected: np.ndarray, masks: dict[str, np.ndarray],
                       layout: CantStopLayout, read: tuple[str, ...]) -> list[tuple[int, int]]:
    """The spaces whose plain inside shows something where no piece that was read lies: (column, k) of
    each. A space's inside is one even colour, so a change far smaller than :data:`CHANGED` shows there:
    a dim white runner that no class took, a piece's edge peeking out from behind another. The light map
    is smooth and may leave a whole space a little off, so a pixel is measured against the rest of the
    space's inside not covered by a piece read (``read``: the classes of the pieces read, their patches
    widened by two pixels): a part of it :data:`FAINT` off that is more than :data:`STRAY_SHARE` of the
    inside, is something unread, and the reading is not offered."""
    explained = np.zeros(corrected.shape[:2], np.uint8)
    for kind in read:
        if kind in masks:
            explained |= masks[kind].astype(np.uint8)
    explained = cv2.dilate(explained, np.ones((5, 5), np.uint8)) > 0
    diff = corrected - expected
    out = []
    for column, k, window, disc in space_discs(layout):
        free = disc & ~explained[window]
        if np.count_nonzero(free) < STRAY_SHARE * np.count_nonzero(disc):
            continue
        d = diff[window][free]
        stray = np.abs(d - np.median(d, axis=0)).max(axis=1) > FAINT
        if np.count_nonzero(stray) > STRAY_SHARE * np.count_nonzero(disc):
            out.append((column, k))
    return out


def hidden_or_touching(placed: list[tuple[Piece, int, int]], layout: CantStopLayout, runner: str) -> list[str]:
    """Why pieces placed on spaces (``(piece, column, k)``, a piece's patches of one class on one space
    taken together) may not be all there is: plain words for each, none when the reading can stand.

    All markers are one shape and size, and so are the runners, so a piece's patch is measured against
    its fellows' typical patch (:func:`typical_area`: markers, or runners): a patch over
    :data:`TOUCHING` times that is two pieces touching (their feet are then not where the patch's foot
    is). Pieces sharing a space stand side by side in it, each smaller than the space and off its
    centre; one piece alone on a space that looks so is a piece sharing the space with another hidden
    behind it (a near piece hides a far one). A marker does when its patch is under :data:`PART` of its
    fellows' (or, gross, its foot is :data:`FAR_OFF_CENTRE` pitches off the space's centre: a marker's
    foot is measured a little off in one of a hundred, and a board holds twenty). A white runner's patch
    is not measured so: where it stands over a space's white rim it does not differ from the print, and
    its patch is smaller than it is; a runner does when its foot is :data:`OFF_CENTRE` pitches off.
    Two pieces seen on a space stand either side of its centre, each :data:`PAIR_PART` of a marker or
    more; when the larger marker is smaller than that and the two stand to one side of the centre (their
    feet's middle :data:`PAIR_OFF_CENTRE` off), the space is shared by three and the third is hidden."""
    groups: dict[tuple[str, int, int], list[Piece]] = {}
    for piece, column, k in placed:
        groups.setdefault((piece.kind, column, k), []).append(piece)
    on_space: dict[tuple[int, int], int] = {}
    for _, column, k in groups:
        on_space[column, k] = on_space.get((column, k), 0) + 1
    area = {key: sum(p.area for p in ps) for key, ps in groups.items()}
    foot = {key: max(ps, key=lambda p: p.area).foot for key, ps in groups.items()}
    fellows: dict[bool, list[float]] = {}
    for key, a in area.items():
        fellows.setdefault(key[0] == runner, []).append(a)
    out = []
    typical_marker = typical_area(fellows.get(False, []))
    pairs: dict[tuple[int, int], list[tuple[str, int, int]]] = {}
    for key in area:
        pairs.setdefault(key[1:], []).append(key)
    for (column, k), keys in pairs.items():
        if len(keys) != 2 or typical_marker is None:
            continue
        sizes = [area[key] / typical_marker for key in keys if key[0] != runner]
        x, y = layout.space(column, k)
        middle = np.mean([foot[key] for key in keys], axis=0)
        if sizes and max(sizes) < PAIR_PART and float(np.hypot(middle[0] - x, middle[1] - y)) > PAIR_OFF_CENTRE:
            out.append(f"a third piece may be hidden on column {column}, space {k}")
    for key, a in area.items():
        kind, column, k = key
        of = fellows[kind == runner]
        typical = typical_area(of)
        x, y = layout.space(column, k)
        off = float(np.hypot(foot[key][0] - x, foot[key][1] - y))
        if typical is not None and a > TOUCHING * typical:
            out.append(f"pieces touching at column {column}, space {k}")
        elif on_space[column, k] == 1 and (off > (OFF_CENTRE if kind == runner or typical is None else FAR_OFF_CENTRE)
                                           or (kind != runner and typical is not None and a < PART * typical)):
            out.append(f"a piece may be hidden behind the {kind} one on column {column}, space {k}")
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
    placed: list[tuple[Piece, int, int]] = []
    for piece in found:
        where = _space_at(layout, *piece.foot)
        if piece.kind in ("skin", "other"):
            if piece.area >= COVER_AREA:
                problems.append("a hand over the board" if piece.kind == "skin" else "something lies on the board")
            elif piece.area >= PIECE_AREA[0] and where != "off":  # what could hide a piece, or be one
                problems.append("something on the board that is no player's piece")
            continue
        if where == "off" and piece.area <= PIECE_AREA[1]:  # a piece beside the columns; a card is no piece
            continue
        if not PIECE_AREA[0] <= piece.area <= PIECE_AREA[1] or piece.holes > MAX_HOLES:
            problems.append(f"something {piece.kind} on the board that is not a piece")
            continue
        if isinstance(where, str):
            problems.append(f"a {piece.kind} piece {where}")
            continue
        column, k = where
        placed.append((piece, column, k))
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
    problems += hidden_or_touching(placed, layout, runner)
    if not problems:
        problems += [f"something unclear on column {c}, space {k}"
                     for c, k in unexplained_spaces(corrected, expected, masks, layout, (*colours, runner))]
    return done(markers=markers, runners=runners, problem="; ".join(dict.fromkeys(problems)) or None, **fit)
