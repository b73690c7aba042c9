"""Teach-then-read's split (vision.training.dice_teach_eval): the first photos teach, the rest is a set of
its own that the evaluation reads, its images found from anywhere."""

from __future__ import annotations

from pathlib import Path

from vision.dice.eval import load_set
from vision.training.dice_teach_eval import split_set


def test_the_first_photos_teach_and_the_others_form_a_set_with_their_boxes(tmp_path):
    src = tmp_path / "set"
    (src / "images").mkdir(parents=True)
    (src / "labels.csv").write_text("file,dice_values\n" + "".join(f"images/{k}.jpg,{k % 6 + 1}\n" for k in range(7)))
    (src / "boxes.csv").write_text("file,value,x_min,y_min,x_max,y_max\n"
                                   + "".join(f"images/{k}.jpg,{k % 6 + 1},1,2,30,31\n" for k in range(7)))
    taught, rest = split_set(src, 5, tmp_path / "rest")
    assert [t.file for t in taught] == [f"images/{k}.jpg" for k in range(5)]
    images, box_file = load_set(rest)
    assert box_file == "boxes.csv"
    assert [Path(i.file) for i in images] == [(src / f"images/{k}.jpg").resolve() for k in (5, 6)]
    assert [i.values for i in images] == [(6,), (1,)]
    assert images[1].boxes == ((1, (1.0, 2.0, 30.0, 31.0)),)
