"""Is it a die at all? A small classifier says whether a die the reader found is a real die or something
of a game table that looks like one: a Ludo yard's printed circle, a pawn seen from above, a card's index
disc or big digit (issue 25: no pawn, printed circle or board pip becomes an unflagged die).

It only flags: a die it doubts is kept, with its value, and flagged, so the players are asked; it never
changes a value or drops a die, so the readings of dice on a plain table stay as they were.
The classifier is the face classifier's network (:func:`vision.training.train_dice.build_net`) with two
outputs (not a die, a die), run through ``cv2.dnn`` on the reader's crop of each die
(:func:`vision.dice.model.face_crop`, 32 x 32) in four quarter turns, their probabilities averaged.
It is trained by ``python -m vision.training.train_dice_gate`` on the reader's own detections on rendered
game tables with byler's training dice on them (:mod:`vision.training.dice_game_tables`, generator seeds
never those of the measured sets) and on byler_d6's training photos; the command and its figures are in
``assets/dice_model/gate32_manifest.json`` and ``assets/dice_model/README.md``.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.dice.model import FaceClassifier, turned_probabilities

MODEL_FILE = "gate32.onnx"
MANIFEST_FILE = "gate32_manifest.json"
VIEWS = 4
"""Quarter turns of each crop averaged (as :data:`vision.dice.cocked.VIEWS`)."""
DIE_BELOW = 0.5
"""P(a die) under which a found die is flagged: the classifier's even odds. Figures (game tables' unflagged
precision, flags on real photos): assets/dice_model/README.md."""


@lru_cache(maxsize=1)
def shipped_gate_classifier() -> FaceClassifier | None:
    """The shipped gate classifier, loaded once; None when its file is absent (no die is then flagged
    by it)."""
    try:
        return FaceClassifier(model_file=MODEL_FILE, manifest_file=MANIFEST_FILE)
    except (FileNotFoundError, cv2.error):
        return None


def die_probabilities(image_bgr: np.ndarray, boxes, classifier: FaceClassifier | None = None) -> np.ndarray:
    """P(a die) (n,) float32 in 0-1 for the dice found at ``boxes`` ((x0, y0, x1, y1) pixels of the BGR
    uint8 image ``image_bgr``): the mean over the crop turned by VIEWS quarter turns. Ones (every die
    trusted) when no classifier is given and none is shipped."""
    classifier = classifier or shipped_gate_classifier()
    if classifier is None or len(boxes) == 0:
        return np.ones(len(boxes), np.float32)
    return turned_probabilities(classifier, image_bgr, boxes, VIEWS)[:, 1]
