"""The dice reader's networks, loaded once and handed to :class:`vision.dice.reader.DiceReader`.

:class:`DiceNetworks` holds the die detector (:class:`vision.dice.detect.DieDetector`, ``detect.onnx``)
and the two classifier graphs a die may go through (``python -m vision.training.merge_dice_networks``
joins the trained classifiers into them; each head is its trained network unchanged):

- :meth:`DiceNetworks.heads`, ``dice_heads.onnx``: the face classifier (P(no die face), P(1) .. P(6);
  ``face32_det.onnx``), the gate (P(not a die), P(a die): a board's circle, a pawn, a card's print;
  ``gate32.onnx``) and the cocked-die classifier (P(flat), P(cocked); ``cocked32.onnx``), one pass (the
  face classifier on crops as they are and transposed, the other two on crops as they are and turned
  by a quarter, as each was trained).
- :meth:`DiceNetworks.recheck`, ``dice_recheck.onnx``: the face classifier on two more views, the second
  classifier (``face32_det_b.onnx``, the same network trained with another seed), and the gate and the
  cocked-die classifier on two more views, one pass.

Every classifier reads the crop of :func:`face_crop`: a square ``crop_margin`` times the box's side around
it, scaled to 32 px, normalised per crop (minus its mean, over its standard deviation), so the table's
and the die's colour and the exposure matter less than the pattern of pips. Training commands and
figures: ``assets/dice_model/README.md`` and the manifests beside the files.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from vision.dice.detect import DieDetector
from vision.dice.params import DiceParams
from vision.errors import MissingFileError, VisionError

DETECTOR_FILE, HEADS_FILE, RECHECK_FILE = "detect.onnx", "dice_heads.onnx", "dice_recheck.onnx"
FEATURES = 96
"""Width of the face classifier's features (``face32_det.onnx``: its last convolution's channels)."""
MAX_BATCH = 64
"""The most crops one input of a classifier graph is given at a time. ``cv2.dnn`` keeps the buffers of
the largest batch it has run for as long as the network lives: learning 384 kept dice in one batch of
3,072 crops held on to 700 MB (issue 52). A frame's dice fit in one batch; more are run in batches of this
size, so the reader's memory stays what one frame needs."""


class BrokenModelError(VisionError, RuntimeError):
    """A model file of the dice reader that is there but cannot be loaded: a broken install."""


def model_dir() -> Path:
    """The folder holding the shipped models and settings (``assets/dice_model``)."""
    return Path(str(resources.files("assets") / "dice_model"))


def face_crop(image_bgr: np.ndarray, box, size: int = 32, margin: float = 1.2,
              centre_shift=(0.0, 0.0), scale: float = 1.0, angle: float = 0.0) -> np.ndarray:
    """A normalised (3, size, size) float32 crop around ``box`` (x0, y0, x1, y1, pixels, may run past the
    image: the border is replicated) of a BGR uint8 image; ``size`` and ``margin`` as trained
    (:attr:`DiceParams.crop_size`, :attr:`DiceParams.crop_margin`). ``centre_shift`` (fractions of the
    side), ``scale`` and ``angle`` (degrees) perturb the crop: the training's augmentation."""
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


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax (n, k) float32 of logits (n, k, ...) (n may be 0)."""
    z = logits.reshape(len(logits), int(np.prod(logits.shape[1:]))).astype(np.float64)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)


@dataclass(frozen=True)
class Heads:
    """The first pass's answers for n crops: ``face`` (n, 7), ``gate`` (n, 2), ``cocked`` (n, 2), each row
    softmax probabilities; ``features`` (n, c) float32, the face classifier's features of each crop (the
    input of its last layer, c = :data:`FEATURES`; None from a stand-in without them): what :mod:`vision.dice.learning` adapts on)."""

    face: np.ndarray
    gate: np.ndarray
    cocked: np.ndarray
    features: np.ndarray | None = None


class DiceNetworks:
    """The detector and the classifier graphs, through ``cv2.dnn``.

    Build with :meth:`load`; a test may pass objects of its own with the same methods. ``passes`` counts the
    classifier passes so far (each call of :meth:`heads` or :meth:`recheck` with crops)."""

    def __init__(self, detector: DieDetector, heads_net, recheck_net, heads_id: str = "") -> None:
        self.detector = detector
        self._heads = heads_net
        self._recheck = recheck_net
        self.passes = 0
        self.heads_id = heads_id
        """The sha256 (hex) of the heads graph: what learned features belong to (:mod:`vision.dice.learning`)."""

    @classmethod
    def load(cls, params: DiceParams, folder: str | Path | None = None) -> DiceNetworks:
        """The networks in ``folder`` (default :func:`model_dir`). Raises MissingFileError naming the file
        when one is absent and BrokenModelError when OpenCV cannot read one: the install is broken."""
        folder = Path(folder) if folder else model_dir()
        nets = []
        for name in (DETECTOR_FILE, HEADS_FILE, RECHECK_FILE):
            path = folder / name
            if not path.is_file():
                raise MissingFileError(f"{path}: the dice reader's model file is missing (reinstall the box)")
            try:
                nets.append(DieDetector(path, params) if name == DETECTOR_FILE else cv2.dnn.readNetFromONNX(str(path)))
            except cv2.error as e:
                why = " ".join(str(e).split())  # OpenCV's message spans lines; it says what the importer met
                raise BrokenModelError(f"{path}: the dice reader's model file cannot be read, reinstall the box "
                                       f"(OpenCV: {why[:160]})") from None
        return cls(*nets, heads_id=hashlib.sha256((folder / HEADS_FILE).read_bytes()).hexdigest())

    def heads(self, crops: np.ndarray, quarters: np.ndarray) -> Heads:
        """Face probabilities of ``crops`` and gate and cocked probabilities of ``quarters`` (each (n, 3, s,
        s) float32, :func:`face_crop`), one pass."""
        if len(crops) == 0:
            return Heads(np.zeros((0, 7), np.float32), np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32),
                         np.zeros((0, FEATURES), np.float32))
        self.passes += 1
        face, gate, cocked, features = _forward(self._heads, {"crops": crops, "quarters": quarters},
                                                [("face", "crops"), ("gate", "quarters"), ("cocked", "quarters"),
                                                 ("face_features", "crops")])
        return Heads(softmax(face), softmax(gate), softmax(cocked), features.reshape(len(crops), -1).astype(np.float32))

    def recheck(self, turned: np.ndarray, crops: np.ndarray, halves: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One pass: the face classifier's probabilities (m, 7) of ``turned``, the second classifier's
        (k, 7) of ``crops``, the gate's and the cocked classifier's (j, 2) of ``halves`` (each (·, 3, s, s)
        float32; an empty one is answered with (0, ·))."""
        self.passes += 1
        face, second, gate, cocked = _forward(self._recheck, {"turned": turned, "crops": crops, "halves": halves},
                                              [("face", "turned"), ("second", "crops"), ("gate", "halves"),
                                               ("cocked", "halves")])
        return softmax(face), softmax(second), softmax(gate), softmax(cocked)


def _forward(net, blobs: dict[str, np.ndarray], outputs: list[tuple[str, str]],
             batch: int = MAX_BATCH) -> list[np.ndarray]:
    """Run ``net`` on its named input ``blobs`` (each (n_i, ...) float32; the inputs' batches are
    independent) in steps of at most ``batch`` crops an input; returns each ``outputs`` entry (output
    name, the input its rows answer) as (n_input, ...), the steps' rows joined. An input with no rows
    left in a step is given one blank crop (``cv2.dnn`` takes no empty batch), its answer dropped."""
    steps = max(1, -(-max(len(b) for b in blobs.values()) // batch))
    parts: list[list[np.ndarray]] = [[] for _ in outputs]
    for k in range(steps):
        rows = {}
        for name, blob in blobs.items():
            part = blob[k * batch:(k + 1) * batch]
            rows[name] = len(part)
            net.setInput(np.ascontiguousarray(part if len(part) else np.zeros((1,) + blob.shape[1:]),
                                              dtype=np.float32), name)
        answers = net.forward([name for name, _ in outputs])
        for j, (answer, (_, source)) in enumerate(zip(answers, outputs)):
            parts[j].append(answer[:rows[source]])
    return [np.concatenate(p) for p in parts]
