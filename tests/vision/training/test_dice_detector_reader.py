"""A candidate detector inside the box's reader (vision.training.dice_detector_reader): everything but the
detector stays the shipped reader's, and both detectors are timed on the same frames."""

from __future__ import annotations

import cv2

from vision.dice.networks import DETECTOR_FILE, model_dir
from vision.dice.reader import shipped_reader
from vision.training.dice_detector_reader import candidate_reader, detector_ms


def test_the_shipped_detector_as_the_candidate_reads_as_the_shipped_reader():
    photos = model_dir().parent / "dice_photos"
    frame = cv2.imread(str(photos / "IMG_20191208_112833.jpg"), cv2.IMREAD_COLOR)
    shipped, candidate = shipped_reader(), candidate_reader(model_dir() / DETECTOR_FILE)
    assert candidate.networks.detector is not shipped.networks.detector
    assert candidate.networks.heads_id == shipped.networks.heads_id  # the classifiers are the shipped ones
    a, b = shipped.read(frame), candidate.read(frame)
    assert [(d.value, d.box, d.flagged) for d in a.dice] == [(d.value, d.box, d.flagged) for d in b.dice]
    assert sorted(d.value for d in a.dice) == [2, 4, 5, 6]  # labels.csv's row of this photo
    times = detector_ms({"shipped": shipped, "candidate": candidate}, photos, limit=2)
    assert set(times) == {"shipped", "candidate"} and all(t > 0 for t in times.values())


def test_the_candidate_runs_at_the_levels_asked_and_a_bad_levels_value_is_refused(capsys):
    import pytest

    from vision.training.dice_detector_reader import levels_option, main

    candidate = candidate_reader(model_dir() / DETECTOR_FILE, (480, 96))
    assert candidate.params.detect_levels == (480, 96) == candidate.networks.detector.params.detect_levels
    assert shipped_reader().params.detect_levels != (480, 96)
    assert levels_option("480,96") == (480, 96)
    for bad in ("480", "480,x", "500,96", "480,32"):
        with pytest.raises(Exception, match="--levels"):
            levels_option(bad)
    with pytest.raises(SystemExit) as stop:
        main([str(model_dir() / DETECTOR_FILE), "nowhere", "--levels", "481,96"])
    assert stop.value.code == 2 and "--levels" in capsys.readouterr().err
