"""Read one large value glyph (a digit 0-9) from a binary ink crop: HOG-like features and a
k-nearest-neighbour vote (numpy).

The classifier is a k-nearest-neighbour vote over features of digits rendered by OpenCV's own Hershey
fonts (every font, upright and italic, several stroke widths, random small rotations, shears and scales)
and of handwriting-style digits (vision.cards.strokes), fixed seed :data:`SEED`. The training features ship
as ``assets/cards/digit_features.png`` (8-bit, one row a sample) with ``digit_features.json`` (settings,
sha256, command), made by ``python -m vision.cards.digits --write``; when they are missing or stale the
features are rendered at first use (1-3 s). The runtime needs only OpenCV and numpy. Printed digits (the reference deck, a real deck's indices) match
closely; handwritten digits less well (vision.cards.eval measures both).

With the digit network shipped (vision.cards.digit_net, assets/cards/digit_cnn.onnx) the network's
probabilities replace the neighbours' votes (method "auto"); the k-NN distance still measures how
digit-like a glyph is. Public API: :func:`classify_glyph` (one binary crop -> (digit, confidence)), :func:`glyph_scores`,
:func:`nearest_distance`, :func:`normalise`, :func:`features`.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.resources
import json
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.cards import digit_net
from vision.cards.digit_net import SIZE  # glyphs are normalised to SIZE x SIZE before HOG and the network
from vision.cards.strokes import render_hand_digit

SEED = 20261130
K = 5
CLOSE, FAR = 2.5, 6.0  # nearest-digit feature distances for full and for lowest confidence
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
         cv2.FONT_HERSHEY_PLAIN)
VARIANTS = 14  # random distortions per (digit, font, italic)
HAND_VARIANTS = 300  # handwriting-style renders per digit (vision.cards.strokes)
FEATURE_VERSION = 1  # bump when features() or the training renders change: the stored model is then ignored
FEATURE_SCALE = 100.0  # stored features are round(value * FEATURE_SCALE) as 8 bits (values are 0-2)
MODEL_PNG, MODEL_MANIFEST = "digit_features.png", "digit_features.json"


_ys, _xs = np.indices((SIZE, SIZE))
_CELL_INDEX = ((_ys // (SIZE // 4)) * 4 + _xs // (SIZE // 4)) * 9  # first histogram bin of each pixel's cell


def features(glyph: np.ndarray) -> np.ndarray:
    """A HOG-like descriptor (float32, 4x4 cells x 9 unsigned orientation bins + an 8x8 ink map) of a
    normalised SIZE x SIZE glyph. (OpenCV 5 builds may lack cv2.HOGDescriptor, so it is computed here.)
    """
    img = cv2.GaussianBlur(glyph.astype(np.float32) / 255.0, (3, 3), 0)
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) / np.pi * 9
    bins = np.minimum(ang.astype(np.int32), 8)
    index = (_CELL_INDEX + bins).ravel()
    hist = np.bincount(index, weights=mag.ravel(), minlength=144).reshape(4, 4, 9).astype(np.float32)
    hist /= np.linalg.norm(hist, axis=2, keepdims=True) + 1e-3
    ink = cv2.resize(img, (8, 8), interpolation=cv2.INTER_AREA).ravel() * 2.0
    return np.concatenate([hist.ravel(), ink]).astype(np.float32)


def normalise(mask: np.ndarray) -> np.ndarray:
    """Crop a binary glyph (uint8, ink > 0) to its ink, keep the aspect, centre it in SIZE x SIZE uint8.

    Raises ValueError when the mask holds no ink.
    """
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        raise ValueError("glyph has no ink")
    crop = mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = crop.shape
    side = max(h, w)
    scale = (SIZE - 4) / side
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    small = cv2.resize(crop.astype(np.uint8) * 255 if crop.max() <= 1 else crop, (nw, nh),
                       interpolation=cv2.INTER_AREA)
    out = np.zeros((SIZE, SIZE), np.uint8)
    y0, x0 = (SIZE - nh) // 2, (SIZE - nw) // 2
    out[y0:y0 + nh, x0:x0 + nw] = small
    return out


def _render(digit: int, font: int, italic: bool, thickness: int, rng: np.random.Generator) -> np.ndarray:
    canvas = np.zeros((96, 96), np.uint8)
    face = font | (cv2.FONT_ITALIC if italic else 0)
    (tw, th), _ = cv2.getTextSize(str(digit), face, 2.0, thickness)
    cv2.putText(canvas, str(digit), ((96 - tw) // 2, (96 + th) // 2), face, 2.0, 255, thickness, cv2.LINE_AA)
    angle = rng.uniform(-18, 18)
    shear = rng.uniform(-0.45, 0.35)
    sx, sy = rng.uniform(0.6, 1.25), rng.uniform(0.85, 1.2)
    m = cv2.getRotationMatrix2D((48, 48), angle, 1.0)
    a = np.array([[sx, shear, 0], [0, sy, 0]], np.float64)
    a[:, 2] = 48 - a[:, :2] @ np.array([48, 48])
    m3 = np.vstack([m, [0, 0, 1]]) @ np.vstack([a, [0, 0, 1]])
    warped = cv2.warpAffine(canvas, m3[:2], (96, 96))
    return (warped > 100).astype(np.uint8) * 255


def train() -> tuple[np.ndarray, np.ndarray]:
    """Render the training digits and return (features (N, D) float32, labels (N,) int32), seed SEED."""
    rng = np.random.default_rng(SEED)
    feats, labels = [], []
    for digit in range(10):
        for font in FONTS:
            for italic in (False, True):
                for _ in range(VARIANTS):
                    glyph = _render(digit, font, italic, int(rng.integers(2, 15)), rng)
                    feats.append(features(normalise(glyph)))
                    labels.append(digit)
        for _ in range(HAND_VARIANTS):
            feats.append(features(normalise(render_hand_digit(digit, rng))))
            labels.append(digit)
    return np.array(feats, np.float32), np.array(labels, np.int32)


def _settings() -> dict:
    return {"seed": SEED, "size": SIZE, "variants": VARIANTS, "hand_variants": HAND_VARIANTS,
            "fonts": len(FONTS), "feature_version": FEATURE_VERSION, "feature_scale": FEATURE_SCALE}


def _assets_dir() -> Path:
    return Path(str(importlib.resources.files("assets") / "cards"))


def write_model(folder: Path | None = None) -> tuple[Path, Path]:
    """Train and store the features as a PNG (row = one sample: label, then the features times
    FEATURE_SCALE as 8-bit) with a JSON manifest (settings, rows, sha256, the command); returns both paths."""
    folder = folder or _assets_dir()
    feats, labels = train()
    table = np.hstack([labels[:, None], np.clip(np.round(feats * FEATURE_SCALE), 0, 255)]).astype(np.uint8)
    png = folder / MODEL_PNG
    cv2.imwrite(str(png), table, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    manifest = {**_settings(), "rows": int(len(labels)), "sha256": hashlib.sha256(png.read_bytes()).hexdigest(),
                "command": "python -m vision.cards.digits --write"}
    path = folder / MODEL_MANIFEST
    path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return png, path


def load_model(folder: Path | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The stored features (as train() returns them, to 1/FEATURE_SCALE), or None when the files are
    missing or were made with other settings than this module's."""
    folder = folder or _assets_dir()
    try:
        manifest = json.loads((folder / MODEL_MANIFEST).read_text(encoding="utf-8"))
        table = cv2.imread(str(folder / MODEL_PNG), cv2.IMREAD_GRAYSCALE)
    except (OSError, ValueError):
        return None
    if table is None or any(manifest.get(k) != v for k, v in _settings().items()) or len(table) != manifest["rows"]:
        return None
    return table[:, 1:].astype(np.float32) / FEATURE_SCALE, table[:, 0].astype(np.int32)


@lru_cache(maxsize=1)
def _model():
    return load_model() or train()


def _knn_votes(feat: np.ndarray) -> tuple[np.ndarray, float]:
    train, labels = _model()
    dists = np.sqrt(((train - feat) ** 2).sum(axis=1))
    nearest = np.argpartition(dists, K)[:K]
    votes = np.zeros(10)
    for index in nearest:
        votes[labels[index]] += 1.0 / (0.05 + float(dists[index]))
    return votes / votes.sum(), float(dists.min())


def _use_net(method: str) -> bool:
    if method not in ("auto", "net", "knn"):
        raise ValueError(f"digit method: auto, net or knn, not {method!r}")
    if method == "knn":
        return False
    if method == "net" or digit_net.available():
        return True
    return False


def glyph_scores(mask: np.ndarray, method: str = "auto") -> np.ndarray:
    """Scores per digit 0-9 (shape (10,), sums to 1) for a binary glyph mask (ink > 0): the digit
    network's probabilities (vision.cards.digit_net; method "net", or "auto" when the model is shipped)
    or the k-nearest-neighbour votes (method "knn", or "auto" without the model).

    Raises ValueError when the mask holds no ink or for an unknown method; RuntimeError for "net"
    without the model.
    """
    glyph = normalise(mask)
    if _use_net(method):
        return digit_net.probabilities(glyph[None])[0].astype(np.float64)
    return _knn_votes(features(glyph))[0]


def warm_up() -> None:
    """Load (or, without the stored model, train: 1-3 s) the classifier now, not at the first card read."""
    _model()


def nearest_distance(mask: np.ndarray) -> float:
    """Feature distance from a binary glyph to the nearest training digit (printed digits about 1-2.5,
    handwritten ones and drawings 3-7): how digit-like a glyph is. Raises ValueError without ink."""
    train, _ = _model()
    feat = features(normalise(mask))
    return float(np.sqrt(((train - feat) ** 2).sum(axis=1)).min())


def classify_glyph(mask: np.ndarray, method: str = "auto") -> tuple[int, float]:
    """The digit 0-9 a binary glyph (uint8 2-D, ink > 0, upright) shows, and a confidence 0-1: the
    score of the best digit (glyph_scores, by ``method``) times how close the glyph lies to its nearest
    k-NN training digit (full up to CLOSE, falling to 0.05 at FAR: an upside-down digit or a drawing
    agrees with itself but lies far).

    Raises ValueError when the mask holds no ink or for an unknown method.
    """
    glyph = normalise(mask)
    votes, nearest = _knn_votes(features(glyph))
    if _use_net(method):
        votes = digit_net.probabilities(glyph[None])[0].astype(np.float64)
    best = int(votes.argmax())
    closeness = float(np.clip((FAR - nearest) / (FAR - CLOSE), 0.05, 1.0))
    return best, float(votes[best]) * closeness


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="train the card digit classifier and store it in assets/cards")
    parser.add_argument("--write", action="store_true", help="write digit_features.png and .json")
    args = parser.parse_args(argv)
    if not args.write:
        parser.print_help()
        return 0
    for path in write_model():
        print(path, path.stat().st_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
