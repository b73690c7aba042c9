"""The one dice network's data and measure (vision.training.dice_network_data, dice_network_measure): the
rendered designs' dice and the accept/ask trade-off (no torch needed)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.training.dice_network_data import render_design, render_design_die
from vision.training.dice_network_measure import trade_off


def test_trade_off_asks_the_least_that_reaches_the_precision():
    # 200 dice: the 100 of largest margin right, then 100 of which every other one is wrong
    truth = np.ones(200, int)
    pred = truth.copy()
    pred[101::2] = 2
    margin = np.linspace(1.0, 0.0, 200)
    got = trade_off(pred, margin, truth)
    assert got["accuracy"] == 0.75
    assert got["asked"] <= 0.5 and got["asked"] >= 0.48  # the first 100 (and at most two more) accepted
    assert 0 < got["right_asked"] < 0.35
    none = trade_off(np.full(10, 2), np.ones(10), np.ones(10, int))
    assert none["asked"] == 1.0 and none["margin"] is None


def test_a_design_draws_its_glyph_face_without_pips():
    rng = np.random.default_rng(4)
    for _ in range(40):
        design = render_design(rng)
        if design[2]:
            break
    look, _, glyph_face, _ = design
    cut = render_design_die(glyph_face, design, rng)
    assert cut.image.ndim == 3 and cut.image.shape[2] == 4 and cut.image.dtype == np.uint8
    # the glyph's colour is the pips' colour of that face: some of the face shows it
    ink = np.abs(cut.image[..., :3].astype(float) - np.array(look.pips[glyph_face])).sum(axis=2) < 60
    assert ink.mean() > 0.01


def test_the_candidate_network_runs_in_opencv():
    # vision/training/dice_network/dice_network.onnx (issue 53's candidate, not loaded by the reader): cv2.dnn reads it
    # and answers every head for a batch, the embedding L2-normalised
    import cv2

    from vision.training.dice_network_measure import NEW_OUTPUTS
    from vision.training.train_dice_network import CANDIDATE_DIR, MODEL_FILE

    path = CANDIDATE_DIR / MODEL_FILE
    if not path.is_file():
        pytest.skip("no candidate network")
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(np.random.default_rng(0).normal(0, 1, (3, 3, 32, 32)).astype(np.float32), "crops")
    face, gate, cocked, emb, _ = net.forward(NEW_OUTPUTS)
    assert face.shape == (3, 7) and gate.shape == (3, 2) and cocked.shape == (3, 2)
    assert np.allclose(np.linalg.norm(emb.reshape(3, -1), axis=1), 1.0, atol=1e-4)


def test_episodes_draw_support_and_queries_of_one_design():
    from vision.training.train_dice_network import Episodes

    # designs 0-2 with every face 5 crops; design 3 with one face only (no episode: nothing to tell apart);
    # crops of no class (-1) never drawn
    design = [d * 6 + f for d in range(3) for f in range(6) for _ in range(5)] + [18] * 5 + [-1] * 7
    episodes = Episodes(np.array(design), shots=3, queries=2, designs=2)
    assert episodes.keys == [0, 1, 2]
    rng = np.random.default_rng(0)
    for _ in range(20):
        drawn = episodes.sample(rng)
        assert len(drawn) == 2
        assert len({int(design[s[0, 0]]) // 6 for s, _ in drawn}) == 2  # two different designs
        for support, queries in drawn:
            assert support.shape == (6, 3) and queries.shape == (6, 2)
            assert not set(support.ravel()) & set(queries.ravel())
            # each row holds one face of the design
            rows = [{design[i] for i in list(support[f]) + list(queries[f])} for f in range(6)]
            assert all(len(r) == 1 for r in rows) and len(set.union(*rows)) == 6


def test_the_episode_loss_is_low_when_queries_lie_by_their_prototypes():
    torch = pytest.importorskip("torch")
    from vision.training.train_dice_network import episode_loss

    class Net:
        """Embeds a 'crop' as its first numbers, normalised (the crops are the embeddings)."""

        def __call__(self, x):
            e = torch.nn.functional.normalize(x.flatten(1)[:, :4], dim=1)
            return None, None, None, e, None

    # three faces of one design; embeddings near the face's axis, or (shuffled) near another face's
    axes = torch.eye(4)[:3]
    x = torch.zeros(18, 3, 32, 32)
    rng = torch.Generator().manual_seed(0)
    for i in range(18):
        x[i].view(-1)[:4] = axes[i // 6] + 0.1 * torch.randn(4, generator=rng)
    support = np.array([[f * 6 + k for k in range(3)] for f in range(3)])
    queries = np.array([[f * 6 + 3 + k for k in range(3)] for f in range(3)])
    right = float(episode_loss(Net(), x, [(support, queries)]))
    wrong = float(episode_loss(Net(), x, [(support, queries[[1, 2, 0]])]))
    assert right < 0.1 < 5.0 < wrong
