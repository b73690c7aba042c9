"""Synthetic photographs of Can't Stop boards with their truth, to measure the reader on many scenes.

``render(layout, position, scene) -> Render``: the board's print (:mod:`.printed`; a published layout gets
a face of another grey or beige) on a table, photographed by a pinhole camera turned any way, tilted up to
:attr:`Scene.tilt` degrees from straight down, under coloured light with a brightness gradient, maybe a
shadow band, sensor noise, blur and JPEG. The pieces are solid shapes in three dimensions (cubes, cones,
discs, pawns), drawn far to near so a near one hides what is behind it; pieces sharing a space stand side
by side in it. ``scene.clutter`` adds what lies on real boards: a hand over it, dice, a card; the truth
then says the reading must be refused (``refuse``) when the object covers a space or touches a piece.

``random_position(rng, colours)`` is a position a game could reach: each player's markers in a few
columns (a claimed column's marker on its top space and no other marker there), up to three runners in
open columns, at or above where the active player's marker stood.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.board.aruco import marker_image
from vision.board.cant_stop.find import sticker_corners
from vision.board.cant_stop.layouts import COLUMNS, CantStopLayout
from vision.board.cant_stop.printed import print_image, to_top
from vision.board.pinhole import looking_down, plane_homography, project, ring

PIECE_BGR = {"red": (45, 40, 205), "orange": (30, 125, 245), "yellow": (40, 215, 240), "green": (60, 165, 40),
             "blue": (200, 110, 30), "purple": (150, 45, 125), "white": (238, 238, 234), "black": (35, 35, 38)}
KINDS = ("cube", "cone", "disc", "pawn")
TABLES_BGR = ((70, 95, 140), (40, 70, 110), (60, 110, 60), (150, 150, 150), (45, 45, 50), (120, 160, 190))
FACES_BGR = ((112, 108, 104), (120, 150, 175), (95, 100, 100), (130, 130, 128))
SKIN_BGR = ((150, 175, 225), (110, 140, 190), (80, 100, 140))


@dataclass(frozen=True)
class Position:
    """Where the pieces stand: ``markers`` colour -> {column: space}; ``runners`` {column: space}."""

    markers: dict[str, dict[int, int]] = field(default_factory=dict)
    runners: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Scene:
    """How the board is photographed (see the module docstring). size: (width, height) pixels. turn: the
    board's turn in the picture (degrees). tilt: from straight down (degrees). fill: the board's long side
    over the image's short side. focal: over the image's long side. light: per-channel gains (B, G, R).
    gradient: brightness change across (0-0.4). shadow: a shadow band. noise: sigma (0-255). blur: a
    Gaussian's sigma in pixels. jpeg: quality (0: none). kind: the markers' shape; runner_kind the
    runners'. piece_size: a piece's width in pitches. stickers: the stickers lie beside a published
    board. clutter: ``hand``, ``die``, ``card`` or None. seed: the scene's randomness."""

    size: tuple[int, int] = (1280, 960)
    turn: float = 0.0
    tilt: float = 0.0
    fill: float = 0.9
    focal: float = 1.1
    light: tuple[float, float, float] = (1.0, 1.0, 1.0)
    gradient: float = 0.0
    shadow: bool = False
    noise: float = 2.0
    blur: float = 0.0
    jpeg: int = 0
    kind: str = "cube"
    runner_kind: str = "cone"
    piece_size: float = 0.55
    runner_colour: str = "white"
    stickers: bool = False
    clutter: str | None = None
    table: int = 0
    face: int = 0
    seed: int = 0


@dataclass(frozen=True)
class Render:
    """A rendered frame and its truth: image (h, w, 3) uint8 BGR; homography 3x3 board -> image;
    refuse: the clutter covers a space or a piece, so the only right answer is no reading."""

    image: np.ndarray
    position: Position
    homography: np.ndarray
    refuse: bool = False


def random_position(rng: np.random.Generator, colours: tuple[str, ...], layout: CantStopLayout) -> Position:
    """A position a game could reach (module docstring), for players of ``colours``."""
    markers: dict[str, dict[int, int]] = {c: {} for c in colours}
    claimed: dict[int, str] = {}
    for column in COLUMNS:
        h = layout.height(column)
        if rng.random() < 0.08:
            owner = colours[int(rng.integers(len(colours)))]
            claimed[column] = owner
            markers[owner][column] = h
            continue
        for colour in colours:
            if rng.random() < 0.45:
                markers[colour][column] = int(rng.integers(1, h))
    active = colours[int(rng.integers(len(colours)))]
    runners: dict[int, int] = {}
    open_columns = [c for c in COLUMNS if c not in claimed]
    for column in rng.permutation(open_columns)[: int(rng.integers(0, 4))]:
        column = int(column)
        low = markers[active].get(column, 0) + 1
        runners[column] = int(rng.integers(low, layout.height(column) + 1)) if low <= layout.height(column) else layout.height(column)
    return Position(markers, runners)


def camera(layout: CantStopLayout, scene: Scene) -> np.ndarray:
    """3x4 projection of board points ``(x, y, height)`` (pitches) to image pixels for ``scene``."""
    x0, y0, x1, y1 = layout.outline
    return looking_down(scene.size, scene.focal, max(layout.size), scene.fill, scene.turn, scene.tilt,
                        ((x0 + x1) / 2, (y0 + y1) / 2))


def _shade(bgr, factor: float) -> tuple[int, int, int]:
    return tuple(int(min(255, max(0, v * factor))) for v in bgr)


def _fill(img: np.ndarray, pts: np.ndarray, bgr) -> None:
    hull = cv2.convexHull(np.rint(pts * 4).astype(np.int32))
    cv2.fillConvexPoly(img, hull, bgr, cv2.LINE_AA, shift=2)


def draw_piece(img: np.ndarray, cam: np.ndarray, x: float, y: float, kind: str, size: float, bgr,
               turn: float = 0.0) -> None:
    """One piece of ``kind`` (:data:`KINDS`), ``size`` pitches wide, standing at board point ``(x, y)``."""
    r = size / 2
    if kind == "cube":
        a = turn + np.arange(4) * math.pi / 2 + math.pi / 4
        foot = np.column_stack([x + r * math.sqrt(2) * np.cos(a), y + r * math.sqrt(2) * np.sin(a), np.zeros(4)])
        top = foot + np.array([0, 0, size])
        _fill(img, project(cam, np.vstack([foot, top])), _shade(bgr, 0.78))
        _fill(img, project(cam, top), _shade(bgr, 1.05))
    elif kind == "cone":
        _fill(img, project(cam, np.vstack([ring(x, y, 0, r), [[x, y, size * 1.5]]])), _shade(bgr, 0.85))
        _fill(img, project(cam, np.vstack([ring(x, y, size * 0.3, r * 0.8), [[x, y, size * 1.5]]])), _shade(bgr, 1.0))
    elif kind == "disc":
        _fill(img, project(cam, np.vstack([ring(x, y, 0, r), ring(x, y, size * 0.3, r)])), _shade(bgr, 0.8))
        _fill(img, project(cam, ring(x, y, size * 0.3, r)), _shade(bgr, 1.05))
    elif kind == "pawn":
        _fill(img, project(cam, np.vstack([ring(x, y, 0, r), ring(x, y, size * 0.9, r * 0.5)])), _shade(bgr, 0.82))
        head = [(size * 1.15 + dz, r * 0.55 * math.sqrt(max(0.0, 1 - (dz / (r * 0.55)) ** 2)))
                for dz in np.linspace(-r * 0.55, r * 0.55, 7)]
        _fill(img, project(cam, np.vstack([ring(x, y, z, rr) for z, rr in head])), _shade(bgr, 1.0))
    else:
        raise ValueError(f"unknown piece kind {kind!r}: one of {', '.join(KINDS)}")


def _pieces(layout: CantStopLayout, position: Position, scene: Scene, rng: np.random.Generator) -> list[tuple]:
    """(x, y, kind, size, bgr) of every piece, side by side where several share a space."""
    by_space: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for colour, columns in position.markers.items():
        for column, k in columns.items():
            by_space.setdefault((column, k), []).append((colour, scene.kind))
    for column, k in position.runners.items():
        by_space.setdefault((column, k), []).append((scene.runner_colour, scene.runner_kind))
    out = []
    for (column, k), here in by_space.items():
        x, y = layout.space(column, k)
        n = len(here)
        size = scene.piece_size * (1.0 if n == 1 else 0.8 if n == 2 else 0.68)
        spread = 0.0 if n == 1 else 0.17 if n == 2 else 0.21  # round the space's centre, inside its rim
        start = rng.uniform(0, 2 * math.pi)
        for i, (colour, kind) in enumerate(here):
            a = start + 2 * math.pi * i / n
            jitter = rng.normal(0, 0.03, 2)
            bgr = tuple(np.clip(np.array(PIECE_BGR[colour]) * rng.uniform(0.85, 1.1), 0, 255))
            out.append((x + spread * math.cos(a) + jitter[0], y + spread * math.sin(a) + jitter[1], kind, size, bgr))
    return out


def render(layout: CantStopLayout, position: Position, scene: Scene = Scene()) -> Render:
    """Draw ``position`` on ``layout``'s board as photographed in ``scene`` (module docstring)."""
    rng = np.random.default_rng(scene.seed)
    w, h = scene.size
    cam = camera(layout, scene)
    hom = plane_homography(cam)
    scale = 40
    art = print_image(layout, scale, FACES_BGR[0] if layout.printed_stickers else FACES_BGR[scene.face % len(FACES_BGR)])
    img = np.empty((h, w, 3), np.uint8)
    img[:] = TABLES_BGR[scene.table % len(TABLES_BGR)]
    img = np.clip(img.astype(np.int16) + rng.integers(-10, 10, (h, w, 1)), 0, 255).astype(np.uint8)
    warp = hom @ np.linalg.inv(to_top(layout, scale))
    mask = cv2.warpPerspective(np.full(art.shape[:2], 255, np.uint8), warp, (w, h), flags=cv2.INTER_NEAREST)
    board = cv2.warpPerspective(art, warp, (w, h), flags=cv2.INTER_AREA)
    img[mask > 0] = board[mask > 0]
    if scene.stickers and not layout.printed_stickers:
        _table_stickers(img, layout, hom)
    pieces = _pieces(layout, position, scene, rng)
    depth = cam[2, :3]
    pieces.sort(key=lambda p: -(depth @ np.array([p[0], p[1], 0.0])))
    refuse = False
    for x, y, kind, size, bgr in pieces:
        draw_piece(img, cam, x, y, kind, size, bgr, turn=float(rng.uniform(0, math.pi / 2)))
    if scene.clutter:
        refuse = _clutter(img, cam, layout, scene.clutter, pieces, rng)
    img = _light(img, scene, rng)
    if scene.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), scene.blur)
    if scene.noise > 0:
        img = np.clip(img.astype(np.float32) + rng.normal(0, scene.noise, img.shape), 0, 255).astype(np.uint8)
    if scene.jpeg:
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])[1], cv2.IMREAD_COLOR)
    return Render(img, position, hom, refuse)


def _table_stickers(img: np.ndarray, layout: CantStopLayout, hom: np.ndarray) -> None:
    """The stickers on the table beside a published board's corners, warped in place."""
    h, w = img.shape[:2]
    px = 120
    for marker_id, corners in sticker_corners(layout).items():
        sticker = cv2.cvtColor(marker_image(marker_id, px), cv2.COLOR_GRAY2BGR)
        side = (corners[1, 0] - corners[0, 0]) * 1.5
        cx, cy = corners.mean(axis=0)
        to_board = np.array([[side / px, 0, cx - side / 2], [0, side / px, cy - side / 2], [0, 0, 1]])
        warp = hom @ to_board
        mask = cv2.warpPerspective(np.full((px, px), 255, np.uint8), warp, (w, h), flags=cv2.INTER_NEAREST)
        art = cv2.warpPerspective(sticker, warp, (w, h), flags=cv2.INTER_AREA)
        img[mask > 0] = art[mask > 0]


def _clutter(img: np.ndarray, cam: np.ndarray, layout: CantStopLayout, what: str, pieces: list,
             rng: np.random.Generator) -> bool:
    """Draw a hand, a die or a card somewhere over the board; True when it covers a space's centre or a
    piece (the reading must then be refused), False when it lies clear of them."""
    x0, y0, x1, y1 = layout.outline
    x, y = rng.uniform(x0 + 1, x1 - 1), rng.uniform(y0 + 1, y1 - 1)
    mask = np.zeros(img.shape[:2], np.uint8)
    if what == "hand":
        z = rng.uniform(1.5, 5.0)
        a = np.linspace(0, 2 * math.pi, 24, endpoint=False)
        _fill(mask, project(cam, np.column_stack([x + 1.6 * np.cos(a), y + 1.3 * np.sin(a), np.full(24, z)])), 1)
        for k in range(4):
            fx = x - 1.2 + 0.8 * k
            _fill(mask, project(cam, np.array([[fx - 0.25, y, z], [fx + 0.25, y, z], [fx + 0.25, y - 2.6, z],
                                                [fx - 0.25, y - 2.6, z]])), 1)
        arm = project(cam, np.array([[x - 0.9, y, z], [x + 0.9, y, z], [x + 1.2, y + 12, z + 4], [x - 1.2, y + 12, z + 4]]))
        _fill(mask, arm, 1)
        skin = SKIN_BGR[int(rng.integers(len(SKIN_BGR)))]
        img[mask > 0] = skin
    elif what == "die":
        size = rng.uniform(0.6, 0.9)
        body = PIECE_BGR["white"] if rng.random() < 0.6 else PIECE_BGR[str(rng.choice(["red", "green", "blue"]))]
        draw_piece(mask, cam, x, y, "cube", size, (255, 255, 255))  # every face > 0
        draw_piece(img, cam, x, y, "cube", size, body)
        pip_bgr = (20, 20, 20) if body == PIECE_BGR["white"] else (240, 240, 240)
        face = int(rng.integers(1, 7))
        spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
                 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[face]
        for sx, sy in spots:
            centre = project(cam, np.array([[x + sx * size * 0.27, y + sy * size * 0.27, size]]))[0]
            edge = project(cam, np.array([[x + sx * size * 0.27 + size * 0.09, y + sy * size * 0.27, size]]))[0]
            cv2.circle(img, tuple(int(v) for v in np.rint(centre)), max(1, int(np.hypot(*(edge - centre)))), pip_bgr, -1,
                       cv2.LINE_AA)
    else:  # a card lying on the board
        cw, ch = 2.2, 3.2
        a = rng.uniform(0, math.pi)
        corners = np.array([[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]])
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        pts = corners @ rot.T + [x, y]
        pts3 = np.column_stack([pts, np.full(4, 0.02)])
        _fill(mask, project(cam, pts3), 1)
        img[mask > 0] = (235, 240, 245)
        inner = np.column_stack([(corners * 0.7) @ rot.T + [x, y], np.full(4, 0.02)])
        cv2.polylines(img, [np.rint(project(cam, inner)).astype(np.int32)], True, (40, 40, 160), 3)
    near = [layout.space(c, k) for c, k, _ in layout.spaces()] + [(p[0], p[1]) for p in pieces]
    pts = project(cam, np.array([[px, py, 0.0] for px, py in near]))
    hh, ww = mask.shape
    for u, v in np.rint(pts).astype(int):
        if 0 <= u < ww and 0 <= v < hh and mask[max(0, v - 3):v + 4, max(0, u - 3):u + 4].any():
            return True
    return False


def _light(img: np.ndarray, scene: Scene, rng: np.random.Generator) -> np.ndarray:
    """Coloured light, a brightness gradient and (``scene.shadow``) a soft shadow band."""
    h, w = img.shape[:2]
    out = img.astype(np.float32) * np.array(scene.light, np.float32)[None, None, :]
    if scene.gradient:
        a = rng.uniform(0, 2 * math.pi)
        xx, yy = np.meshgrid(np.linspace(-1, 1, w, dtype=np.float32), np.linspace(-1, 1, h, dtype=np.float32))
        out *= (1 + scene.gradient * (xx * math.cos(a) + yy * math.sin(a)))[..., None]
    if scene.shadow:
        mask = np.zeros((h, w), np.uint8)
        x0 = int(rng.uniform(0.2, 0.7) * w)
        width = int(rng.uniform(0.06, 0.18) * w)
        slant = int(rng.uniform(-0.3, 0.3) * h)
        cv2.fillConvexPoly(mask, np.array([[x0, 0], [x0 + width, 0], [x0 + width + slant, h], [x0 + slant, h]], np.int32), 1)
        soft = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 6)
        out *= 1 - soft[..., None] * rng.uniform(0.25, 0.5)
    return np.clip(out, 0, 255).astype(np.uint8)


def random_scene(rng: np.random.Generator, max_tilt: float = 35.0, clutter_rate: float = 0.0) -> Scene:
    """A scene drawn from the ranges the reader must handle (module docstring)."""
    temp = rng.uniform(-0.15, 0.15)
    return Scene(size=(1280, 960) if rng.random() < 0.5 else (1024, 768), turn=float(rng.uniform(-180, 180)),
                 tilt=float(rng.uniform(0, max_tilt)), fill=float(rng.uniform(0.5, 0.8)),
                 focal=float(rng.uniform(0.8, 1.4)),
                 light=(float(1 - temp) * rng.uniform(0.7, 1.2), float(rng.uniform(0.7, 1.2)),
                        float(1 + temp) * rng.uniform(0.7, 1.2)),
                 gradient=float(rng.uniform(0, 0.3)), shadow=bool(rng.random() < 0.3),
                 noise=float(rng.uniform(1, 5)), blur=float(rng.uniform(0, 1.2)),
                 jpeg=int(rng.choice([0, 75, 90])), kind=str(rng.choice(KINDS)),
                 runner_kind=str(rng.choice(KINDS)), piece_size=float(rng.uniform(0.45, 0.65)),
                 runner_colour="white", stickers=bool(rng.random() < 0.5),
                 clutter=str(rng.choice(["hand", "die", "card"])) if rng.random() < clutter_rate else None,
                 table=int(rng.integers(len(TABLES_BGR))), face=int(rng.integers(len(FACES_BGR))),
                 seed=int(rng.integers(2**31)))
