"""The learned die-face classifier: a small CNN that tells, from a 32x32 crop around a candidate, whether
it is one die seen from above and which face (1-6) it shows. Runs through ``cv2.dnn`` (ONNX file in
``assets/dice_model/``; trained by ``python -m vision.training.train_dice``, see assets/dice_model/README.md).

Classes (outputs of :meth:`FaceClassifier.probabilities`, softmax, each row sums to 1):
``0`` not a single die face (table, shadow, half a die, two dice, a die's side) and ``1``-``6`` the pip
count of the face.

The crop (:func:`face_crop`) is a square centred on the candidate box, CROP_MARGIN times its longer
side, resized to CROP_SIZE pixels with a replicated border outside the frame, and normalised per crop
(each channel minus the crop's mean over all channels, divided by the crop's standard deviation), so the
table's and the die's colour and the exposure matter less than the pattern of pips.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

CROP_SIZE = 32
# Crop side over the candidate box's longer side: the whole face with a thin ring of table, so the net
# sees the face's outline (is it one die, is it cut off?).
CROP_MARGIN = 1.2
MODEL_FILE = "face32.onnx"
MANIFEST_FILE = "manifest.json"
# The classifier of reader v3 (vision.dice.learned): the same network trained with crops cut around the
# die detector's own boxes too (python -m vision.training.train_dice --detector ...); reader v2 keeps MODEL_FILE.
BOX_MODEL_FILE = "face32_det.onnx"
BOX_MANIFEST_FILE = "face32_det_manifest.json"
# Reader v3's second opinion on the dice its classifier is unsure of (vision.dice.learned.SECOND_OPINION):
# the same network and training command with another seed (python -m vision.training.train_dice ... --second).
SECOND_MODEL_FILE = "face32_det_b.onnx"
SECOND_MANIFEST_FILE = "face32_det_b_manifest.json"


def model_dir() -> Path:
    """The folder holding the shipped model (assets/dice_model)."""
    return Path(str(resources.files("assets") / "dice_model"))


def face_crop(image_bgr: np.ndarray, box, size: int = CROP_SIZE, margin: float = CROP_MARGIN,
              centre_shift=(0.0, 0.0), scale: float = 1.0, angle: float = 0.0) -> np.ndarray:
    """A normalised (3, size, size) float32 crop around ``box`` (x0, y0, x1, y1) of a BGR uint8 image.

    ``centre_shift`` (fractions of the side), ``scale`` and ``angle`` (degrees) perturb the crop; the
    training uses them for augmentation, the reader leaves them at their defaults.
    """
    x0, y0, x1, y1 = (float(v) for v in box)
    side = max(x1 - x0, y1 - y0, 2.0) * margin * scale
    cx = (x0 + x1) / 2 + centre_shift[0] * side
    cy = (y0 + y1) / 2 + centre_shift[1] * side
    m = cv2.getRotationMatrix2D((cx, cy), angle, size / side)
    m[0, 2] += size / 2 - cx
    m[1, 2] += size / 2 - cy
    crop = cv2.warpAffine(image_bgr, m, (size, size), flags=cv2.INTER_AREA if side > size else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    crop -= crop.mean()
    crop /= max(float(crop.std()), 4.0)
    return np.ascontiguousarray(crop.transpose(2, 0, 1))


class FaceClassifier:
    """The ONNX face classifier through cv2.dnn. Raises FileNotFoundError when the model file is missing."""

    def __init__(self, folder: Path | None = None, model_file: str = MODEL_FILE,
                 manifest_file: str = MANIFEST_FILE) -> None:
        folder = Path(folder) if folder else model_dir()
        path = folder / model_file
        if not path.is_file():
            raise FileNotFoundError(f"dice model missing: {path} (train it with python -m vision.training.train_dice)")
        self.net = cv2.dnn.readNetFromONNX(str(path))
        manifest = folder / manifest_file
        self.manifest = json.loads(manifest.read_text()) if manifest.is_file() else {}

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """Class probabilities (n, classes) float32 for crops (n, 3, CROP_SIZE, CROP_SIZE) from face_crop:
        7 for the face classifiers, 2 for the cocked-die and gate classifiers (:mod:`vision.dice.cocked`,
        :mod:`vision.dice.gate`); (0, 7)
        for no crops."""
        if len(crops) == 0:
            return np.zeros((0, 7), np.float32)
        self.net.setInput(np.ascontiguousarray(crops, dtype=np.float32))
        logits = self.net.forward().reshape(len(crops), -1).astype(np.float64)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)


def turned_probabilities(classifier: FaceClassifier, image_bgr: np.ndarray, boxes, views: int) -> np.ndarray:
    """Class probabilities (n, classes) float32 of ``classifier`` for the dice at ``boxes`` ((x0, y0, x1, y1)
    pixels of the BGR uint8 image ``image_bgr``): the mean over each crop (:func:`face_crop`) turned by
    ``views`` quarter turns (1-4). Used by the two-class models (:mod:`vision.dice.cocked`,
    :mod:`vision.dice.gate`), whose answer does not depend on how a die is turned."""
    crops = np.stack([face_crop(image_bgr, box) for box in boxes])
    turned = np.concatenate([np.rot90(crops, k, axes=(2, 3)) for k in range(views)])
    p = classifier.probabilities(np.ascontiguousarray(turned))
    return p.reshape(views, len(boxes), -1).mean(axis=0).astype(np.float32)


@lru_cache(maxsize=1)
def shipped_classifier() -> FaceClassifier | None:
    """The shipped classifier, loaded once; None when the model file is absent (the reader then counts
    pips alone)."""
    try:
        return FaceClassifier()
    except (FileNotFoundError, cv2.error):
        return None


@lru_cache(maxsize=1)
def shipped_box_classifier() -> FaceClassifier | None:
    """Reader v3's classifier (BOX_MODEL_FILE, trained on the detector's crops too), loaded once; the
    shipped classifier (:func:`shipped_classifier`) when that file is absent."""
    try:
        return FaceClassifier(model_file=BOX_MODEL_FILE, manifest_file=BOX_MANIFEST_FILE)
    except (FileNotFoundError, cv2.error):
        return shipped_classifier()


@lru_cache(maxsize=1)
def shipped_second_classifier() -> FaceClassifier | None:
    """Reader v3's second classifier (SECOND_MODEL_FILE), loaded once; None when that file is absent (the
    reader then goes by its first classifier alone)."""
    try:
        return FaceClassifier(model_file=SECOND_MODEL_FILE, manifest_file=SECOND_MANIFEST_FILE)
    except (FileNotFoundError, cv2.error):
        return None
