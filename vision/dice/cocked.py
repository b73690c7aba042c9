"""Is a die cocked? A small classifier says whether a die the reader found leans on an edge or on another
die instead of lying flat (issue 25: such a die is flagged and marked ``"cocked": true``, never read
silently).

The classifier is the face classifier's network (:func:`vision.training.train_dice.build_net`) with two
outputs (flat, cocked), run through ``cv2.dnn`` on the reader's crop of each die
(:func:`vision.dice.model.face_crop`, 32 x 32) in four quarter turns, their probabilities averaged.
It is trained by ``python -m vision.training.train_dice_cocked`` on rendered cocked and flat dice
(:mod:`vision.training.dice_cocked`) and on byler_d6's training photos (every die there lies flat); the
command and its figures are in ``assets/dice_model/cocked32_manifest.json`` and
``assets/dice_model/README.md``.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.dice.model import FaceClassifier, turned_probabilities

MODEL_FILE = "cocked32.onnx"
MANIFEST_FILE = "cocked32_manifest.json"
VIEWS = 4
"""Quarter turns of each crop averaged. Measured (validation tables of seed 2, byler_d6): one view caught
0.99 of the cocked dice and marked 14 flat byler dice, two 1.0 and 6, four 1.0 and 7; four cost ~5 ms a
bundled photo here (22 -> 27 ms median), no more than two within the timing noise."""
COCKED_AT = 0.5
"""P(cocked) at or above which a die is marked cocked (and flagged): the classifier's even odds. Figures
of false marks on real photos and of cocked dice caught on rendered tables: assets/dice_model/README.md."""


@lru_cache(maxsize=1)
def shipped_cocked_classifier() -> FaceClassifier | None:
    """The shipped cocked-die classifier, loaded once; None when its file is absent (no die is then
    marked cocked)."""
    try:
        return FaceClassifier(model_file=MODEL_FILE, manifest_file=MANIFEST_FILE)
    except (FileNotFoundError, cv2.error):
        return None


def cocked_probabilities(image_bgr: np.ndarray, boxes, classifier: FaceClassifier | None = None) -> np.ndarray:
    """P(cocked) (n,) float32 in 0-1 for the dice at ``boxes`` ((x0, y0, x1, y1) pixels of the BGR uint8
    image ``image_bgr``): the mean over the crop turned by VIEWS quarter turns. Zeros when no
    classifier is given and none is shipped."""
    classifier = classifier or shipped_cocked_classifier()
    if classifier is None or len(boxes) == 0:
        return np.zeros(len(boxes), np.float32)
    return turned_probabilities(classifier, image_bgr, boxes, VIEWS)[:, 1]
