"""A pinhole camera recovered from the board's homography, to know where a standing pawn appears.

A pawn is a short upright body; in an oblique photo its image leans away from the board square it stands
on. With square pixels and the principal point at the image centre, the grid-to-image homography fixes
the focal length (Zhang's constraints on its first two columns) and the camera's pose, so a point at
height ``z`` (grid cells) above grid point ``(col, row)`` can be projected: ``P @ (col, row, z, 1)``.
When the focal length cannot be recovered (a near top-down view), :data:`DEFAULT_FOCAL` x the image's
long side is used; in such a view a pawn barely leans anyway.
"""

from __future__ import annotations

import math

import numpy as np

# Focal length in units of the image's long side when it cannot be measured (a typical webcam / phone).
DEFAULT_FOCAL = 1.1
# Measured focal lengths outside this range (in long sides) are not trusted.
FOCAL_RANGE = (0.4, 6.0)


def focal_from_homography(hom: np.ndarray, shape: tuple[int, ...]) -> float | None:
    """Focal length in pixels from a plane-to-image homography, or None when it is not determined.

    hom: 3x3, plane ``(x, y, 1)`` -> image pixels. shape: the frame's shape (h, w, ...).
    """
    h, w = shape[:2]
    centre = np.array([[1, 0, -w / 2.0], [0, 1, -h / 2.0], [0, 0, 1]])
    m = centre @ hom
    h1, h2 = m[:, 0], m[:, 1]
    estimates = []
    den = h1[2] * h2[2]
    if abs(den) > 1e-12:
        f2 = -(h1[0] * h2[0] + h1[1] * h2[1]) / den
        if f2 > 0:
            estimates.append(f2)
    den = h1[2] ** 2 - h2[2] ** 2
    if abs(den) > 1e-12:
        f2 = (h2[0] ** 2 + h2[1] ** 2 - h1[0] ** 2 - h1[1] ** 2) / den
        if f2 > 0:
            estimates.append(f2)
    long_side = max(h, w)
    good = [math.sqrt(f2) for f2 in estimates
            if FOCAL_RANGE[0] * long_side <= math.sqrt(f2) <= FOCAL_RANGE[1] * long_side]
    return float(np.median(good)) if good else None


def camera_matrix(hom: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """3x4 projection: ``(col, row, z, 1)`` -> image pixels (homogeneous), z in grid cells above the board.

    hom: 3x3 grid -> image homography (:class:`vision.board.find.BoardFit`). shape: frame shape (h, w, ...).
    The height axis points towards the camera. Falls back to :data:`DEFAULT_FOCAL` (see module docstring).
    """
    h, w = shape[:2]
    f = focal_from_homography(hom, shape) or DEFAULT_FOCAL * max(h, w)
    k = np.array([[f, 0, w / 2.0], [0, f, h / 2.0], [0, 0, 1]])
    m = np.linalg.inv(k) @ hom
    lam = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] * lam, m[:, 1] * lam, m[:, 2] * lam
    if t[2] < 0:  # the board must be in front of the camera
        r1, r2, t = -r1, -r2, -t
    r3 = np.cross(r1, r2)
    rot = np.column_stack([r1, r2, r3])
    cam_z = -(rot.T @ t)[2]  # camera centre's height along r3
    if cam_z < 0:
        r3 = -r3
    return k @ np.column_stack([r1, r2, r3, t])


def project(cam: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Project (n, 3) points ``(col, row, z)`` with a 3x4 camera; returns (n, 2) pixels."""
    homog = np.hstack([pts, np.ones((len(pts), 1))]) @ cam.T
    return homog[:, :2] / homog[:, 2:3]


def looking_down(size: tuple[int, int], focal: float, span: float, fill: float, turn: float, tilt: float,
                 centre: tuple[float, float]) -> np.ndarray:
    """3x4 projection of board points ``(x, y, height)`` to pixels, for a camera over a board (renderers).

    size: the image's (width, height) in pixels. focal: the focal length over the image's long side.
    span: the board's extent in board units, shown as ``fill`` of the image's short side. turn: the
    board's turn in the picture, tilt: the camera's tilt from straight down (degrees). centre: the board
    point ``(x, y)`` the camera looks at. The height axis points towards the camera.
    """
    w, h = size
    f = focal * max(w, h)
    k = np.array([[f, 0, w / 2.0], [0, f, h / 2.0], [0, 0, 1]])
    d = f * span / (fill * min(w, h))
    a, t = math.radians(turn), math.radians(tilt)
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    rot = rx @ rz  # world (x, y, depth into the board) -> camera
    eye = np.array([centre[0], centre[1], 0.0]) - d * (rot.T @ np.array([0, 0, 1.0]))
    tvec = -rot @ eye
    return k @ np.column_stack([rot[:, 0], rot[:, 1], -rot[:, 2], tvec])


def plane_homography(cam: np.ndarray) -> np.ndarray:
    """The 3x3 homography of the board plane (``z = 0``) to image pixels of the 3x4 camera ``cam``,
    scaled so its last entry is 1."""
    hom = cam[:, [0, 1, 3]]
    return hom / hom[2, 2]


def ring(x: float, y: float, z: float, r: float, k: int = 20) -> np.ndarray:
    """(k, 3) points of a horizontal circle of radius ``r`` round ``(x, y)`` at height ``z``."""
    a = np.linspace(0, 2 * math.pi, k, endpoint=False)
    return np.column_stack([x + r * np.cos(a), y + r * np.sin(a), np.full(k, z)])
