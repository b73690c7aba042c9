"""The one dice network (issue 53) inside the box's reader, measured against the shipped networks in one run.

``python -m vision.training.dice_network_reader MODEL SET... [--errata CSV] [--json]``

:class:`OneNetwork` answers the reader's two classifier passes (:class:`vision.dice.networks.DiceNetworks`'
``heads`` and ``recheck``) with one graph, ``MODEL`` (``dice_network.onnx`` of
:mod:`vision.training.train_dice_network`: input ``crops`` (n, 3, 32, 32), outputs ``face`` (n, 7), ``gate``
(n, 2), ``cocked`` (n, 2), ``embedding`` (n, e)): every head reads every view it is given, so the first
pass is one batch of the crops as they are, transposed and turned; the recheck's "second classifier" is the
same network on the crops (there is no second network: the mean of the two is the first's). The detector,
the settings (``params.json``) and every rule of the reader stay the shipped ones, so the figures say what
the network changes and nothing else. Development only: it needs no torch, but it is a measure, not the box.

For each SET (a folder with ``labels.csv``, :func:`vision.dice.eval.evaluate`) prints one line a reader
(``shipped`` and ``one network``): found, unflagged precision, false accepts, flag rate, right dice flagged
(``flagged_correct``), image accuracy, median ms; ``--json``: one object a set, ``{"set", "shipped": {...}, "one_network": {...}}``.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.dice.networks import DiceNetworks, Heads, _forward, model_dir, softmax
from vision.dice.params import PARAMS_FILE, load_params
from vision.dice.reader import DiceReader
from vision.training.dice_readers import compare_main



class OneNetwork:
    """The reader's networks with both classifier graphs answered by one network (module docstring):
    ``net`` the ``cv2.dnn`` network of ``dice_network.onnx`` (or anything with its ``setInput`` and
    ``forward``), ``detector`` the shipped one; ``heads`` and ``recheck`` as :class:`DiceNetworks`'."""

    def __init__(self, net, detector, heads_id: str = "") -> None:
        self.detector = detector
        self._net = net
        self.passes = 0
        self.heads_id = heads_id

    def _run(self, *blobs: np.ndarray) -> tuple[np.ndarray, ...]:
        """face, gate, cocked probabilities and embeddings of the blobs joined, one pass."""
        joined = np.concatenate([b for b in blobs if len(b)]) if any(len(b) for b in blobs) else blobs[0]
        # OpenCV 5's engine answers every output or none: the trunk's features are asked for and dropped
        face, gate, cocked, emb, _ = _forward(self._net, {"crops": joined}, [
            (name, "crops") for name in ("face", "gate", "cocked", "embedding", "features")])
        return softmax(face), softmax(gate), softmax(cocked), emb.reshape(len(joined), -1).astype(np.float32)

    def heads(self, crops: np.ndarray, quarters: np.ndarray) -> Heads:
        """:meth:`DiceNetworks.heads`: face and embedding of ``crops``, gate and cocked of ``quarters``."""
        if len(crops) == 0:
            return Heads(np.zeros((0, 7), np.float32), np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32))
        self.passes += 1
        n = len(crops)
        face, gate, cocked, emb = self._run(crops, quarters)
        return Heads(face[:n], gate[n:], cocked[n:], emb[:n])

    def recheck(self, turned: np.ndarray, crops: np.ndarray, halves: np.ndarray):
        """:meth:`DiceNetworks.recheck`: face of ``turned``, face of ``crops`` (the "second"), gate and
        cocked of ``halves``."""
        self.passes += 1
        a, b = len(turned), len(crops)
        face, gate, cocked, _ = self._run(turned, crops, halves)
        empty2 = np.zeros((0, 2), np.float32)
        return (face[:a], face[a:a + b], gate[a + b:] if len(halves) else empty2,
                cocked[a + b:] if len(halves) else empty2)


def one_network_reader(model: str | Path) -> DiceReader:
    """The shipped reader (settings, detector, rules) with :class:`OneNetwork` for its classifiers."""
    params = load_params(model_dir() / PARAMS_FILE)
    net = cv2.dnn.readNetFromONNX(str(model))
    return DiceReader(params, OneNetwork(net, DiceNetworks.load(params).detector,
                                         hashlib.sha256(Path(model).read_bytes()).hexdigest()))


def main(argv: list[str] | None = None) -> int:
    return compare_main(argv, "python -m vision.training.dice_network_reader", __doc__.split("\n")[0], "model",
                        one_network_reader, name="one_network")


if __name__ == "__main__":
    sys.exit(main())
