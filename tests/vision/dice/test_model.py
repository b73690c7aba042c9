"""The shipped die-face classifiers (assets/dice_model) through cv2.dnn: manifests, shapes, bundled photos, and
the joined networks the reader runs (vision.dice.networks) built from exactly those files."""

from __future__ import annotations

import hashlib
import json

import cv2
import numpy as np
import pytest

from vision.camera import bundled_photos_dir
from vision.dice.eval import load_set
from vision.dice.networks import face_crop, model_dir
from vision.training.dice_classifier import (BOX_MANIFEST_FILE, BOX_MODEL_FILE, CROP_SIZE, MANIFEST_FILE, MODEL_FILE,
    FaceClassifier)

# Measured when the model was shipped: crop accuracy 0.839 (47 of 56) on the 14 bundled photos (never
# trained on), see manifest.json "bundled_photos"; the bound is one crop below it.
MIN_BUNDLED_ACCURACY = 0.82


@pytest.fixture(scope="module")
def model():
    return FaceClassifier()


def test_manifest_matches_model_file():
    folder = model_dir()
    data = (folder / MODEL_FILE).read_bytes()
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    assert manifest["bytes"] == len(data) <= 10 * 1024 * 1024
    assert manifest["sha256"] == hashlib.sha256(data).hexdigest()
    assert manifest["command"].startswith("python -m vision.training.train_dice")
    assert manifest["seed"] == 0
    assert {"byler_test_20pct", "bundled_photos", "pi_cam_tray"} <= set(manifest["figures"])


def test_box_classifier_manifest_and_figures():
    # Reader v3's classifier: trained with crops of the detector's own boxes (train_dice --detector).
    folder = model_dir()
    data = (folder / BOX_MODEL_FILE).read_bytes()
    manifest = json.loads((folder / BOX_MANIFEST_FILE).read_text())
    assert manifest["model"] == BOX_MODEL_FILE and manifest["sha256"] == hashlib.sha256(data).hexdigest()
    assert "--detector" in manifest["command"] and manifest["seed"] == 0
    # Measured when shipped: 0.912 of the held-out photos' detector boxes, 0.919 of their labelled boxes.
    assert manifest["figures"]["byler_test_20pct_detector_boxes"]["accuracy"] >= 0.9
    clf = FaceClassifier(model_file=BOX_MODEL_FILE, manifest_file=BOX_MANIFEST_FILE)
    assert clf.manifest["model"] == BOX_MODEL_FILE
    p = clf.probabilities(np.zeros((2, 3, CROP_SIZE, CROP_SIZE), np.float32))
    assert p.shape == (2, 7) and np.allclose(p.sum(axis=1), 1.0, atol=1e-5)


def test_probabilities_shape_and_sum(model):
    rng = np.random.default_rng(0)
    crops = rng.normal(0, 1, (5, 3, CROP_SIZE, CROP_SIZE)).astype(np.float32)
    p = model.probabilities(crops)
    assert p.shape == (5, 7)
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-4)
    assert model.probabilities(np.zeros((0, 3, CROP_SIZE, CROP_SIZE), np.float32)).shape == (0, 7)


def test_face_crop_normalised_and_inside_or_outside_frame():
    image = np.full((40, 60, 3), 200, np.uint8)
    cv2.circle(image, (30, 20), 4, (0, 0, 0), -1)
    crop = face_crop(image, (20, 10, 40, 30))
    assert crop.shape == (3, CROP_SIZE, CROP_SIZE) and crop.dtype == np.float32
    assert abs(float(crop.mean())) < 1e-4 and float(crop.std()) == pytest.approx(1.0, abs=1e-3)
    edge = face_crop(image, (-10, -10, 10, 10))  # partly outside: replicated border, no error
    assert edge.shape == (3, CROP_SIZE, CROP_SIZE) and np.isfinite(edge).all()


def test_bundled_photos_classified(model):
    folder = bundled_photos_dir()
    images, _ = load_set(folder)
    crops, values = [], []
    for item in images:
        frame = cv2.imread(str(folder / item.file))
        for value, box in item.boxes:
            crops.append(face_crop(frame, box))
            values.append(value)
    p = model.probabilities(np.stack(crops))
    predicted = p[:, 1:].argmax(axis=1) + 1
    assert len(values) == 56
    assert float(np.mean(predicted == np.array(values))) >= MIN_BUNDLED_ACCURACY
    # Between two dice (a crop centred off every die) the classifier mostly says "no die face".
    frame = cv2.imread(str(folder / images[0].file))
    h, w = frame.shape[:2]
    table = [face_crop(frame, (x, y, x + 40, y + 40)) for x, y in ((5, 5), (w - 45, 5), (5, h - 45), (w - 45, h - 45))]
    assert float(np.mean(model.probabilities(np.stack(table))[:, 0] > 0.5)) >= 0.75


def test_fold_split_partitions_the_training_photos():
    from vision.training.train_dice import fold_split

    photos = [f"p{i}" for i in range(149)]
    outs = [fold_split(photos, k, 4)[1] for k in range(4)]
    assert sorted(p for out in outs for p in out) == sorted(photos)  # every photo left out exactly once
    assert [len(out) for out in outs] == [38, 37, 37, 37]
    kept, out = fold_split(photos, 2, 4)
    assert not set(kept) & set(out) and len(kept) + len(out) == 149
    assert fold_split(photos, 2, 4) == (kept, out)  # fixed by the seed
    assert fold_split(photos, 2, 4, seed=1)[1] != out
    with pytest.raises(ValueError):
        fold_split(photos, 4, 4)


def test_glare_draws_a_bright_streak_on_the_die_and_keeps_its_crop_in_place():
    from vision.training.train_dice import with_glare

    image = np.full((200, 300, 3), (40, 30, 150), np.uint8)  # a red table
    cv2.rectangle(image, (120, 80), (160, 120), (30, 20, 200), -1)  # a die: 40 px
    box = (120, 80, 160, 120)
    rng = np.random.default_rng(0)
    brighter = 0
    for _ in range(20):
        patch, patch_box = with_glare(image, box, rng)
        assert patch.dtype == np.uint8 and patch.shape == (120, 120, 3)  # one side of margin around the box
        assert patch_box == (40.0, 40.0, 80.0, 80.0)
        face = patch[40:80, 40:80].astype(int)
        assert face.min(axis=2).max() > 60  # a whitish streak on the die (its dimmest channel was 20)
        assert (np.abs(patch[:5].astype(int) - (40, 30, 150)) <= 1).all()  # the table a side away is untouched
        brighter += int(np.mean(face) > np.mean(image[80:120, 120:160]))
    assert brighter == 20
    edge, edge_box = with_glare(image, (0, 0, 30, 30), rng)  # a die at the corner: the patch is clipped
    assert edge.shape == (60, 60, 3) and edge_box == (0.0, 0.0, 30.0, 30.0)


def test_camera_noise_in_colour_variants_and_older_commands_unchanged():
    from vision.training.train_dice import NOISE_SIGMA, _colour_variants

    image = np.full((64, 64, 3), 128, np.uint8)
    plain = _colour_variants(image, np.random.default_rng(3), 4)
    assert all(np.array_equal(a, b) for a, b in zip(plain, _colour_variants(image, np.random.default_rng(3), 4, 0.0)))
    noisy = _colour_variants(image, np.random.default_rng(3), 40, 1.0)
    assert np.array_equal(noisy[0], image)  # the photo itself stays as it is
    sigmas = [float(v.astype(np.float32).std()) for v in noisy[1:] if abs(float(v.mean()) - 128) < 40]
    assert sigmas and all(NOISE_SIGMA[0] * 0.5 <= s <= NOISE_SIGMA[1] * 1.4 for s in sigmas)
    assert max(float(v.astype(np.float32).std()) for v in plain[1:]) < 1.0  # no noise without it


def test_the_joined_networks_are_the_shipped_classifiers():
    """dice_heads.onnx and dice_recheck.onnx (python -m vision.training.merge_dice_networks) hold exactly
    the trained files beside them: a classifier retrained without joining again is caught here."""
    from vision.dice.reader import shipped_reader
    from vision.training.dice_classifier import COCKED_MODEL_FILE, GATE_MODEL_FILE, SECOND_MODEL_FILE
    from vision.training.merge_dice_networks import HEADS, MANIFEST_FILE as JOINED

    folder = model_dir()
    manifest = json.loads((folder / JOINED).read_text())
    for out, parts in HEADS.items():
        entry = manifest["networks"][out]
        assert entry["sha256"] == hashlib.sha256((folder / out).read_bytes()).hexdigest()
        for file, _, head in parts:
            assert entry["heads"][head]["sha256"] == hashlib.sha256((folder / file).read_bytes()).hexdigest()
    crops = np.random.default_rng(1).normal(0, 1, (6, 3, CROP_SIZE, CROP_SIZE)).astype(np.float32)
    networks = shipped_reader().networks
    heads = networks.heads(crops, crops[::-1])
    alone = {f: FaceClassifier(model_file=f).probabilities(crops)
             for f in (BOX_MODEL_FILE, GATE_MODEL_FILE, COCKED_MODEL_FILE, SECOND_MODEL_FILE)}
    assert np.allclose(heads.face, alone[BOX_MODEL_FILE], atol=1e-5)
    assert np.allclose(heads.gate, alone[GATE_MODEL_FILE][::-1], atol=1e-5)
    assert np.allclose(heads.cocked, alone[COCKED_MODEL_FILE][::-1], atol=1e-5)
    face, second, gate, cocked = networks.recheck(crops[:4], crops[2:], crops[:0])
    assert np.allclose(face, alone[BOX_MODEL_FILE][:4], atol=1e-5)
    assert np.allclose(second, alone[SECOND_MODEL_FILE][2:], atol=1e-5)
    assert gate.shape == cocked.shape == (0, 2)
    _, _, gate, cocked = networks.recheck(crops[:0], crops[:0], crops[1:3])
    assert np.allclose(gate, alone[GATE_MODEL_FILE][1:3], atol=1e-5)
    assert np.allclose(cocked, alone[COCKED_MODEL_FILE][1:3], atol=1e-5)
