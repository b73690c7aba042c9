"""A candidate model folder inside the box's reader (vision.training.dice_models_reader): a copy of the
shipped folder reads as the shipped reader; a folder with a network missing is refused naming it."""

from __future__ import annotations

import shutil

import cv2
import pytest

from vision.dice.networks import HEADS_FILE, model_dir
from vision.dice.reader import shipped_reader
from vision.errors import MissingFileError
from vision.training.dice_models_reader import folder_reader


def test_a_copy_of_the_shipped_folder_reads_as_the_shipped_reader(tmp_path):
    folder = tmp_path / "models"
    shutil.copytree(model_dir(), folder)
    frame = cv2.imread(str(model_dir().parent / "dice_photos" / "IMG_20191208_112833.jpg"), cv2.IMREAD_COLOR)
    a, b = shipped_reader().read(frame), folder_reader(folder).read(frame)
    assert [(d.value, d.box, d.flagged) for d in a.dice] == [(d.value, d.box, d.flagged) for d in b.dice]
    assert sorted(d.value for d in b.dice) == [2, 4, 5, 6]  # labels.csv's row of this photo
    (folder / HEADS_FILE).unlink()
    with pytest.raises(MissingFileError, match=HEADS_FILE):
        folder_reader(folder)
