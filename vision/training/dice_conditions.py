"""Copies of a labelled dice set as another camera or another light would show it (development only).

``python -m vision.training.dice_conditions SET OUT --condition NAME [--seed S]`` writes ``OUT`` (``images/``,
``labels.csv`` and the set's ``boxes.csv`` or ``cells.csv``, boxes moved with the image), to be measured by
``companion dice eval OUT --json``. A test of how the reader copes with tables and cameras nobody tuned it
to: the real photos keep their dice, only the camera changes. Conditions (:data:`CONDITIONS`):

- ``tilt``: the camera turned 30 degrees from looking straight down (the issue's largest view angle) about
  the image's horizontal axis, a pinhole of 62 degrees horizontal field of view (a Raspberry Pi camera
  module v2), the whole photo kept in view (:func:`tilt_homography`);
- ``small`` / ``smaller``: the camera farther away: the frame scaled to 0.6 / 0.4 of its size;
- ``dim``: a third of the light and the camera's gain raised: levels times 0.45 plus Gaussian noise of
  sigma 4;
- ``noise``: Gaussian camera noise of sigma 10 (independent per pixel and channel);
- ``bright``: overexposed: levels times 1.5, clipped;
- ``blur``: out of focus: Gaussian blur of sigma 1.5 px;
- ``warm``: another white balance: blue times 0.7, red times 1.15;
- ``jpeg``: strong compression: JPEG quality 20.

Levels are of the stored image (0-255); images are written as PNG. ``--seed`` fixes the noise. Exit
status 0; 2 when ``SET`` is no labelled set or ``OUT`` holds one already (nothing is overwritten).
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.dice.eval import load_set

CONDITIONS = ("tilt", "small", "smaller", "dim", "noise", "bright", "blur", "warm", "jpeg")
# Camera model of "tilt": the angle from vertical (degrees) and the horizontal field of view (degrees;
# Raspberry Pi camera module v2: 62.2).
TILT_DEGREES, FIELD_OF_VIEW = 30.0, 62.2


def tilt_homography(width: int, height: int, degrees: float = TILT_DEGREES,
                    field_of_view: float = FIELD_OF_VIEW) -> np.ndarray:
    """The 3x3 homography taking a photo taken straight down to the view of the same pinhole camera turned
    ``degrees`` about the image's horizontal axis (K R K^-1 for a camera of ``field_of_view`` degrees
    across ``width`` px), then scaled and shifted so that the whole photo stays inside ``width`` x
    ``height`` (the camera a little farther away). Raises ValueError for a tilt of 80 degrees or more."""
    if abs(degrees) >= 80:
        raise ValueError(f"tilt of {degrees} degrees: the table would be seen edge-on")
    f = width / 2 / math.tan(math.radians(field_of_view) / 2)
    k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]])
    a = math.radians(degrees)
    r = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    h = k @ r @ np.linalg.inv(k)
    corners = cv2.perspectiveTransform(np.float32([[[0, 0], [width, 0], [width, height], [0, height]]]), h)[0]
    lo, hi = corners.min(0), corners.max(0)
    s = min(width / (hi[0] - lo[0]), height / (hi[1] - lo[1]))
    fit = np.array([[s, 0, (width - s * (hi[0] - lo[0])) / 2 - s * lo[0]],
                    [0, s, (height - s * (hi[1] - lo[1])) / 2 - s * lo[1]], [0, 0, 1]])
    return fit @ h


def warp_view(image: np.ndarray, boxes: np.ndarray, m: np.ndarray, size: tuple[int, int],
              interpolation: int = cv2.INTER_LINEAR) -> tuple[np.ndarray, np.ndarray]:
    """``image`` (h, w, 3) BGR uint8 seen through the 3x3 homography ``m`` on a ``size`` (w, h) canvas, the
    uncovered part filled with the photo's median colour (the table's, not a mirror image), and its
    ``boxes`` ((n, 4) x0, y0, x1, y1 pixels) moved: each the bounding box of its moved corners. Returns
    (image, boxes (n, 4) float32)."""
    fill = [int(v) for v in np.median(image.reshape(-1, 3), axis=0)]
    out = cv2.warpPerspective(image, m, size, flags=interpolation, borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    moved = np.zeros((len(boxes), 4), np.float32)
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        pts = cv2.perspectiveTransform(np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]]), m)[0]
        moved[i] = (*pts.min(0), *pts.max(0))
    return out, moved


def apply_condition(image: np.ndarray, boxes: list, condition: str,
                    rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """``image`` (h, w, 3) BGR uint8 and its labelled ``boxes`` ((value, (x0, y0, x1, y1)) pairs, pixels)
    as ``condition`` (one of CONDITIONS, module docstring) shows them; a moved box is the bounding box of
    its moved corners. Raises ValueError for an unknown condition."""
    h, w = image.shape[:2]
    if condition in ("tilt", "small", "smaller"):
        if condition == "tilt":
            m, size = tilt_homography(w, h), (w, h)
        else:
            f = 0.6 if condition == "small" else 0.4
            m, size = np.diag([f, f, 1.0]), (round(w * f), round(h * f))
        out, moved = warp_view(image, np.float32([b for _, b in boxes]).reshape(-1, 4), m, size,
                               cv2.INTER_AREA if condition != "tilt" else cv2.INTER_LINEAR)
        return out, [(value, tuple(float(v) for v in box)) for (value, _), box in zip(boxes, moved)]
    x = image.astype(np.float32)
    if condition == "dim":
        x = x * 0.45 + rng.normal(0.0, 4.0, x.shape)
    elif condition == "noise":
        x = x + rng.normal(0.0, 10.0, x.shape)
    elif condition == "bright":
        x = x * 1.5
    elif condition == "blur":
        x = cv2.GaussianBlur(x, (0, 0), 1.5)
    elif condition == "warm":
        x = x * np.float32([0.7, 1.0, 1.15])
    elif condition == "jpeg":
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 20])
        return cv2.imdecode(data, cv2.IMREAD_COLOR), list(boxes)
    else:
        raise ValueError(f"unknown condition {condition!r} (one of {', '.join(CONDITIONS)})")
    return np.clip(x, 0, 255).astype(np.uint8), list(boxes)


def write_condition(set_dir: str | Path, out: str | Path, condition: str, seed: int = 0) -> Path:
    """Write ``set_dir`` (a labelled set, :func:`vision.dice.eval.load_set`) as ``condition`` shows it to
    ``out`` (PNG images under ``images/``, ``labels.csv``, the set's box file); returns ``out``. Images that
    cannot be read are left out. Raises FileExistsError when ``out`` holds a ``labels.csv`` already (a set,
    perhaps ``set_dir`` itself: nothing is overwritten), FileNotFoundError / ValueError as load_set and
    apply_condition."""
    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r} (one of {', '.join(CONDITIONS)})")
    set_dir, out = Path(set_dir), Path(out)
    items, box_file = load_set(set_dir)
    if (out / "labels.csv").exists():
        raise FileExistsError(f"{out} holds a labelled set already: choose a new folder")
    rng = np.random.default_rng(seed)
    (out / "images").mkdir(parents=True, exist_ok=True)
    with open(out / "labels.csv", "w", newline="") as lf, open(out / (box_file or "boxes.csv"), "w", newline="") as bf:
        labels, box_rows = csv.writer(lf), csv.writer(bf)
        labels.writerow(["file", "dice_values", "n_dice", "sum"])
        box_rows.writerow(["file", "value", "x_min", "y_min", "x_max", "y_max"])
        for item in items:
            image = cv2.imread(str(set_dir / item.file), cv2.IMREAD_COLOR)
            if image is None:
                continue
            image, boxes = apply_condition(image, list(item.boxes), condition, rng)
            name = f"images/{Path(item.file).stem}.png"
            cv2.imwrite(str(out / name), image)
            labels.writerow([name, " ".join(str(v) for v in item.values), len(item.values), sum(item.values)])
            for value, box in boxes:
                box_rows.writerow([name, value] + [f"{v:.1f}" for v in box])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.dice_conditions", description=__doc__.splitlines()[0])
    parser.add_argument("set", metavar="SET", help="a labelled set (labels.csv, boxes.csv or cells.csv)")
    parser.add_argument("out", metavar="OUT", help="folder to write the copy to")
    parser.add_argument("--condition", required=True, choices=CONDITIONS)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        out = write_condition(args.set, args.out, args.condition, args.seed)
    except (ValueError, OSError) as error:
        print(f"python -m vision.training.dice_conditions: {error}", file=sys.stderr)
        return 2
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
