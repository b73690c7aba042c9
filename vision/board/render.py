"""Synthetic photos of a Ludo board for testing the reader: drawn from the geometry, pawns, camera, light.

``render(geometry, position, scene) -> Render``: the printed board (:mod:`vision.board.printed`) seen by a
pinhole camera (any turn of the board in the picture, tilt, distance), upright pawns drawn as shaded
cylinders with heads (nearest last), then light changes (gain, gradient), a bluish cast shadow, a hand
(skin-coloured palm and fingers) and sensor noise. The truth comes back with the image: the position,
the grid-to-image homography and the places the hand hides.

``random_position(geometry, rng)`` draws a legal-looking position (4 pawns a colour in yard, on distinct
track squares or home squares). Nothing here reads files or depends on the real photos.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.board.geometry import BoardGeometry
from vision.board.aruco import MARKER_CELLS, marker_centres, marker_image
from vision.board.layouts import layout_for
from vision.board.pinhole import looking_down, plane_homography, project, ring
from vision.board.printed import print_image, to_top

PAWN_BGR = {"red": (30, 25, 205), "green": (25, 150, 10), "yellow": (20, 205, 250), "blue": (250, 170, 10)}
"""Pawn colours: deeper than the print, like the real pawns (saturation 220-250 against 140-210)."""
SKIN_BGR = (150, 175, 225)
TABLE_BGR = (70, 95, 140)
# Pawn shape in grid cells: body radius and height, head radius and height of its centre.
BODY_R, BODY_H, HEAD_R, HEAD_Z = 0.3, 1.0, 0.22, 1.2
# Pawns sharing a track square stand side by side, this far apart (cells; a pawn is 0.6 wide) along the
# grid's column axis.
STACK_STEP = 0.6


@dataclass(frozen=True)
class Position:
    """Where the pawns are: ``squares`` absolute track index -> colour, or a tuple of colours for two or
    more pawns on one square (a capture not yet cleared, a stack; drawn side by side, :data:`STACK_STEP`
    cells apart); ``yards`` colour -> count (0-4); ``homes`` colour -> occupied home squares (0-based)."""

    squares: dict[int, str | tuple[str, ...]] = field(default_factory=dict)
    yards: dict[str, int] = field(default_factory=dict)
    homes: dict[str, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Scene:
    """How the board is photographed.

    size: image (width, height) in pixels. turn: the board's rotation in the picture (degrees, any).
    tilt: camera tilt from straight down (degrees, 0-40). fill: board side over the image's short side
    (0.3-1.0). focal: focal length over the image's long side. gain: overall brightness (0.5-1.3);
    gradient: brightness change across the image (0-0.4). shadow: cast a shadow band. hand: cover part of
    the board with a hand (``None`` or the grid point ``(col, row)`` the hand's palm is over).
    noise: sensor noise sigma (0-255 scale). seed: noise and shadow randomness. markers: the four ArUco
    stickers of :mod:`vision.board.aruco` lie on the table at the board's corners.
    """

    size: tuple[int, int] = (800, 600)
    turn: float = 0.0
    tilt: float = 0.0
    fill: float = 0.85
    focal: float = 1.1
    gain: float = 1.0
    gradient: float = 0.0
    shadow: bool = False
    hand: tuple[float, float] | None = None
    noise: float = 2.0
    seed: int = 0
    markers: bool = False


@dataclass(frozen=True)
class Render:
    """A rendered frame and its truth: image (h, w, 3) uint8 BGR; homography 3x3 grid -> image;
    hidden: places the hand covers (``("track", i)``, ``("home", colour, k)``, ``("yard", colour)``)."""

    image: np.ndarray
    position: Position
    homography: np.ndarray
    hidden: frozenset = frozenset()


def random_position(geometry: BoardGeometry, rng: np.random.Generator, home_rate: float = 0.15) -> Position:
    """Four pawns a colour: each in its yard, on a free track square or (``home_rate``) a free home square."""
    squares: dict[int, str] = {}
    yards: dict[str, int] = {}
    homes: dict[str, tuple[int, ...]] = {}
    n = geometry.track_length
    for colour in geometry.colours:
        yard, home = 0, []
        for _ in range(4):
            roll = rng.random()
            if roll < home_rate:
                free = [k for k in range(geometry.home_length) if k not in home]
                home.append(int(rng.choice(free)))
            elif roll < 0.55:
                free = [i for i in range(n) if i not in squares]
                squares[int(rng.choice(free))] = colour
            else:
                yard += 1
        yards[colour] = yard
        homes[colour] = tuple(sorted(home))
    return Position(squares, yards, homes)


def camera(geometry: BoardGeometry, scene: Scene) -> np.ndarray:
    """3x4 projection of grid points ``(col, row, height)`` (cells) to image pixels for ``scene``."""
    c = (geometry.grid_size - 1) / 2.0
    return looking_down(scene.size, scene.focal, geometry.grid_size + 2, scene.fill, scene.turn, scene.tilt, (c, c))


def _shade(bgr: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    return tuple(int(min(255, max(0, v * factor))) for v in bgr)


def _draw_pawn(img: np.ndarray, cam: np.ndarray, col: float, row: float, colour: str) -> None:
    """An upright pawn: body cylinder, lit top, head."""
    base = PAWN_BGR[colour]
    body = np.vstack([project(cam, ring(col, row, 0.0, BODY_R)), project(cam, ring(col, row, BODY_H, BODY_R))])
    cv2.fillConvexPoly(img, cv2.convexHull(np.rint(body).astype(np.int32)), _shade(base, 0.8), cv2.LINE_AA)
    top = project(cam, ring(col, row, BODY_H, BODY_R))
    cv2.fillConvexPoly(img, np.rint(top).astype(np.int32), _shade(base, 1.08), cv2.LINE_AA)
    rings = [(HEAD_Z + dz, HEAD_R * math.sqrt(max(0.0, 1 - (dz / HEAD_R) ** 2)))
             for dz in np.linspace(-HEAD_R, HEAD_R, 7)]
    head = np.vstack([project(cam, ring(col, row, z, r)) for z, r in rings])
    cv2.fillConvexPoly(img, cv2.convexHull(np.rint(head).astype(np.int32)), _shade(base, 1.0), cv2.LINE_AA)


def render(geometry: BoardGeometry, position: Position, scene: Scene = Scene(),
           clockwise: tuple[str, ...] | None = None) -> Render:
    """Draw ``position`` on ``geometry``'s board as photographed in ``scene`` (see the module docstring).

    clockwise: print the colours in this order from red (default: the geometry's own order).
    """
    layout = layout_for(geometry)
    rng = np.random.default_rng(scene.seed)
    w, h = scene.size
    cam = camera(geometry, scene)
    hom = plane_homography(cam)
    scale = 32
    art, _ = print_image(layout, clockwise, scale)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = TABLE_BGR
    img = np.clip(img.astype(np.int16) + rng.integers(-12, 12, (h, w, 1)), 0, 255).astype(np.uint8)
    warp = hom @ np.linalg.inv(to_top(scale))
    board_mask = cv2.warpPerspective(np.full(art.shape[:2], 255, np.uint8), warp, (w, h), flags=cv2.INTER_NEAREST)
    board = cv2.warpPerspective(art, warp, (w, h), flags=cv2.INTER_LINEAR)
    img[board_mask > 0] = board[board_mask > 0]
    if scene.markers:
        _draw_markers(img, hom, geometry.grid_size)
    printed = dict(zip(layout.clockwise, clockwise or layout.clockwise, strict=True))
    inverse = {v: k for k, v in printed.items()}
    pawns = []
    for i, here in position.squares.items():
        r, c = geometry.track[i]
        here = (here,) if isinstance(here, str) else tuple(here)
        for k, colour in enumerate(here):
            pawns.append((float(c) + STACK_STEP * (k - (len(here) - 1) / 2), float(r), colour))
    for colour, count in position.yards.items():
        spots = layout.yard_spots[inverse[colour]]
        pawns += [(sc, sr, colour) for sr, sc in spots[:count]]
    for colour, ks in position.homes.items():
        cells = geometry.colours[inverse[colour]].home_column
        pawns += [(float(cells[k][1]), float(cells[k][0]), colour) for k in ks]
    rot_z = cam[2, :3]
    pawns.sort(key=lambda p: -(rot_z @ np.array([p[0], p[1], 0.0])))  # far first
    for col, row, colour in pawns:
        _draw_pawn(img, cam, col, row, colour)
    img = _light(img, scene, rng)
    hidden: frozenset = frozenset()
    if scene.hand is not None:
        hand_mask = _hand(img, cam, scene.hand, geometry.grid_size)
        hidden = _hidden(hand_mask, cam, geometry, layout, inverse)
    if scene.noise > 0:
        img = np.clip(img.astype(np.float32) + rng.normal(0, scene.noise, img.shape), 0, 255).astype(np.uint8)
    return Render(img, position, hom, hidden)


def _draw_markers(img: np.ndarray, hom: np.ndarray, grid_size: int) -> None:
    """The four ArUco stickers (with their white border) warped onto the table, in place."""
    px = 120
    side = MARKER_CELLS * 1.5  # the sticker with its border: the black square is 2/3 of it
    h, w = img.shape[:2]
    for k, (cc, rr) in marker_centres(grid_size).items():
        sticker = cv2.cvtColor(marker_image(k, px), cv2.COLOR_GRAY2BGR)
        to_grid = np.array([[side / px, 0, cc - side / 2], [0, side / px, rr - side / 2], [0, 0, 1]])
        warp = hom @ to_grid
        mask = cv2.warpPerspective(np.full((px, px), 255, np.uint8), warp, (w, h), flags=cv2.INTER_NEAREST)
        art = cv2.warpPerspective(sticker, warp, (w, h), flags=cv2.INTER_AREA)
        img[mask > 0] = art[mask > 0]


def _light(img: np.ndarray, scene: Scene, rng: np.random.Generator) -> np.ndarray:
    """Gain, a left-to-right brightness gradient and (``scene.shadow``) a bluish shadow band."""
    h, w = img.shape[:2]
    out = img.astype(np.float32) * scene.gain
    if scene.gradient:
        ramp = np.linspace(1 - scene.gradient, 1 + scene.gradient, w, dtype=np.float32)
        out *= ramp[None, :, None]
    if scene.shadow:
        mask = np.zeros((h, w), np.uint8)
        x0 = int(rng.uniform(0.2, 0.7) * w)
        width = int(rng.uniform(0.06, 0.15) * w)
        slant = int(rng.uniform(-0.3, 0.3) * h)
        poly = np.array([[x0, 0], [x0 + width, 0], [x0 + width + slant, h], [x0 + slant, h]], np.int32)
        cv2.fillConvexPoly(mask, poly, 1)
        mask = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 3)
        tint = np.array([0.7, 0.6, 0.5], np.float32)  # B, G, R: shade under a blue sky
        out *= 1 - mask[..., None] * (1 - tint)
    return np.clip(out, 0, 255).astype(np.uint8)


def _hand(img: np.ndarray, cam: np.ndarray, at: tuple[float, float], n: int) -> np.ndarray:
    """Draw a hand (palm 3 cells wide, four fingers) over grid point ``at``; returns its mask (h, w)."""
    mask = np.zeros(img.shape[:2], np.uint8)
    col, row = at
    z = 4.0  # the hand hovers above the board
    a = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    palm = project(cam, np.column_stack([col + 1.6 * np.cos(a), row + 0.3 + 1.3 * np.sin(a), np.full(24, z)]))
    cv2.fillConvexPoly(mask, cv2.convexHull(np.rint(palm).astype(np.int32)), 1)
    for k in range(4):
        fx = col - 1.2 + 0.8 * k
        finger = project(cam, np.array([[fx - 0.25, row, z], [fx + 0.25, row, z], [fx + 0.25, row - 2.6, z],
                                         [fx - 0.25, row - 2.6, z]]))
        cv2.fillConvexPoly(mask, np.rint(finger).astype(np.int32), 1)
    shade = np.linspace(0.85, 1.05, img.shape[1], dtype=np.float32)[None, :, None]
    skin = np.clip(np.array(SKIN_BGR, np.float32)[None, None, :] * shade, 0, 255).astype(np.uint8)
    skin = np.broadcast_to(skin, img.shape)
    img[mask > 0] = skin[mask > 0]
    return mask


def _hidden(mask: np.ndarray, cam: np.ndarray, geometry: BoardGeometry, layout, inverse: dict) -> frozenset:
    """Places whose foot point lies under the hand (a yard when any of its spots does)."""
    h, w = mask.shape
    out = set()

    def under(col: float, row: float) -> bool:
        x, y = project(cam, np.array([[col, row, 0.0]]))[0]
        xi, yi = int(round(x)), int(round(y))
        return 0 <= xi < w and 0 <= yi < h and bool(mask[yi, xi])

    for i, (r, c) in enumerate(geometry.track):
        if under(c, r):
            out.add(("track", i))
    for colour, lay_colour in inverse.items():
        for k, (r, c) in enumerate(geometry.colours[lay_colour].home_column):
            if under(c, r):
                out.add(("home", colour, k))
        if any(under(c, r) for r, c in layout.yard_spots[lay_colour]):
            out.add(("yard", colour))
    return frozenset(out)
