"""The one dice network inside the reader (vision.training.dice_network_reader): each of the reader's
classifier questions is answered by the head it asks, for the rows it asks about (a stand-in network)."""

from __future__ import annotations

import numpy as np

from vision.training.dice_network_reader import OneNetwork


class Recording:
    """A stand-in for ``cv2.dnn``: each crop's first pixel k gives logits that name it (face: class
    k % 7 high; gate and cocked: class k % 2; embedding: k); records the batches it ran."""

    def __init__(self):
        self.batches = []

    def setInput(self, blob, name):
        assert name == "crops"
        self.blob = blob
        self.batches.append(len(blob))

    def forward(self, names):
        k = self.blob[:, 0, 0, 0].astype(int)
        n = len(k)
        face = np.full((n, 7), -9.0, np.float32)
        face[np.arange(n), k % 7] = 9.0
        two = np.full((n, 2), -9.0, np.float32)
        two[np.arange(n), k % 2] = 9.0
        out = {"face": face, "gate": two, "cocked": -two, "embedding": np.repeat(k[:, None], 4, 1).astype(np.float32),
               "features": np.zeros((n, 8), np.float32)}
        return [out[name] for name in names]


def crops(*ks):
    out = np.zeros((len(ks), 3, 32, 32), np.float32)
    out[:, 0, 0, 0] = ks
    return out


def test_heads_answer_faces_of_the_crops_and_gate_and_cocked_of_the_quarters_in_one_pass():
    net = Recording()
    one = OneNetwork(net, detector=None)
    heads = one.heads(crops(1, 2, 3), crops(4, 5))
    assert one.passes == 1 and net.batches == [5]
    assert heads.face.argmax(axis=1).tolist() == [1, 2, 3]
    assert heads.gate.argmax(axis=1).tolist() == [0, 1] and heads.cocked.argmax(axis=1).tolist() == [1, 0]
    assert heads.features[:, 0].tolist() == [1.0, 2.0, 3.0]
    assert np.allclose(heads.face.sum(axis=1), 1.0)


def test_recheck_routes_turned_crops_and_halves_and_takes_none():
    one = OneNetwork(Recording(), detector=None)
    face, second, gate, cocked = one.recheck(crops(6), crops(5, 4), crops(3))
    assert face.argmax(axis=1).tolist() == [6] and second.argmax(axis=1).tolist() == [5, 4]
    assert gate.argmax(axis=1).tolist() == [1] and cocked.argmax(axis=1).tolist() == [0]
    face, second, gate, cocked = one.recheck(crops(2), crops(), crops())
    assert face.shape == (1, 7) and second.shape == (0, 7) and gate.shape == (0, 2) and cocked.shape == (0, 2)
    assert one.heads(crops(), crops()).face.shape == (0, 7)
