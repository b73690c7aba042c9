"""The dice reader's speed benchmark (vision.training.bench_dice): its figures, and another checkout's
reader timed in the same run (--against)."""

from __future__ import annotations

import json
from pathlib import Path

import vision
from vision.camera import bundled_photos_dir
from vision.training import bench_dice

ROOT = Path(vision.__file__).resolve().parents[1]


def test_the_bundled_photos_are_timed(capsys):
    assert bench_dice.main([str(bundled_photos_dir()), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["images"] == 14 and 0 < result["median_ms"] <= result["p95_ms"]


def test_another_checkout_is_timed_in_the_same_run(capsys, tmp_path):
    # This checkout against itself: the same reader twice, so a ratio near 1.
    assert bench_dice.main([str(bundled_photos_dir()), "--json", "--against", str(ROOT)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["images"] == 14 and set(result) == {"set", "images", "median_ms", "p95_ms", "against_median_ms",
                                                      "against_p95_ms", "ratio"}
    assert 0.5 < result["ratio"] < 2.0
    assert bench_dice.main([str(bundled_photos_dir()), "--against", str(tmp_path)]) == 2
    assert "no vision/dice/reader.py" in capsys.readouterr().err
