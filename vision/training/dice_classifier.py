"""One trained dice classifier as a single network, for training and measuring (development only).

The box runs its classifiers joined in two graphs (:mod:`vision.dice.networks`,
``python -m vision.training.merge_dice_networks``); the training tools, the classical reader
(:mod:`vision.training.dice_classical`) and the out-of-fold measures load them one by one with
:class:`FaceClassifier`. File names of the trained classifiers in ``assets/dice_model``:
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.dice.networks import face_crop, model_dir

CROP_SIZE = 32
MODEL_FILE, MANIFEST_FILE = "face32.onnx", "manifest.json"
"""The classical reader's face classifier (python -m vision.training.train_dice)."""
BOX_MODEL_FILE, BOX_MANIFEST_FILE = "face32_det.onnx", "face32_det_manifest.json"
"""The box's face classifier, trained on the detector's own boxes too (train_dice --detector ...)."""
SECOND_MODEL_FILE, SECOND_MANIFEST_FILE = "face32_det_b.onnx", "face32_det_b_manifest.json"
"""The second opinion: the same command with another seed (train_dice ... --second)."""
GATE_MODEL_FILE, GATE_MANIFEST_FILE = "gate32.onnx", "gate32_manifest.json"
"""The gate (python -m vision.training.train_dice_gate)."""
COCKED_MODEL_FILE, COCKED_MANIFEST_FILE = "cocked32.onnx", "cocked32_manifest.json"
"""The cocked-die classifier (python -m vision.training.train_dice_cocked)."""


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
        7 for the face classifiers, 2 for the cocked-die and gate classifiers; (0, 7) for no crops."""
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
    ``views`` quarter turns (1-4): for the two-class models (gate, cocked), whose answer does not depend
    on how a die is turned."""
    crops = np.stack([face_crop(image_bgr, box) for box in boxes])
    turned = np.concatenate([np.rot90(crops, k, axes=(2, 3)) for k in range(views)])
    p = classifier.probabilities(np.ascontiguousarray(turned))
    return p.reshape(views, len(boxes), -1).mean(axis=0).astype(np.float32)


@lru_cache(maxsize=1)
def shipped_classifier() -> FaceClassifier | None:
    """The classical reader's classifier (MODEL_FILE), loaded once; None when the file is absent."""
    try:
        return FaceClassifier()
    except (FileNotFoundError, cv2.error):
        return None
