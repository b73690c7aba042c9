"""``companion dice teach / learn / forget`` and ``dice eval --learned`` (issue 39)."""

from __future__ import annotations

import csv
import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.dice import examples_in

own_sets = pytest.importorskip("vision.training.dice_own_sets", reason="the renderer of own dice is development code")


@pytest.fixture
def labelled(tmp_path):
    """Six photos of one design of skull dice with a labels.csv (the format of ../shared/data)."""
    folder = tmp_path / "set"
    (folder / "images").mkdir(parents=True)
    rng = np.random.default_rng(7)
    look = own_sets.design("symbol_one", rng)
    rows = []
    for k, values in enumerate([[1, 3, 4, 5], [1, 2, 6], [1, 1, 4], [2, 5, 6], [1, 3, 4, 5], [1, 2, 6]]):
        photo = own_sets.own_dice_photo(look, values, rng)
        name = f"images/p{k}.png"
        cv2.imwrite(str(folder / name), photo.image)
        rows.append({"file": name, "dice_values": " ".join(map(str, sorted(values))), "n_dice": len(values),
                     "sum": sum(values)})
    with open(folder / "labels.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return folder


def test_teach_keeps_the_photos_dice_and_learns_then_eval_learned_and_forget(app_env, labelled, capsys):
    images = [str(labelled / f"images/p{k}.png") for k in range(4)]
    assert main(["dice", "teach", *images, "--labels", str(labelled / "labels.csv"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["photos"] == 4 and out["kept"] + out["unpaired"] == 13 and out["kept"] >= 8
    assert out["learned"]["dice"] == out["kept"] and out["learned"]["rolls"] == 4
    state = app_env / "state"
    assert len(examples_in(state).files()) == 4 and (state / "dice_learned.npz").is_file()

    assert main(["dice", "eval", str(labelled), "--json", "--learned"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["learned"] == {"dice": out["kept"], "rolls": 4} and figures["images"] == 6

    assert main(["dice", "learn"]) == 0
    assert f"from {out['kept']} dice of 4 rolls" in capsys.readouterr().out
    (state / "dice_learned.npz").write_bytes(b"junk" * 10)  # damaged: set aside, said in one line
    assert main(["dice", "eval", str(labelled), "--learned"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "set aside as dice_learned.npz.damaged" in err
    assert "companion dice learn learns again from the kept rolls" in err
    assert main(["dice", "learn"]) == 0 and (state / "dice_learned.npz").is_file()
    capsys.readouterr()
    assert main(["dice", "forget"]) == 0
    assert "forgot the learned dice and 4 kept rolls" in capsys.readouterr().out
    assert main(["dice", "eval", str(labelled), "--learned"]) == 2
    assert "--learned: no learned dice in" in capsys.readouterr().err
    assert main(["dice", "learn"]) == 0
    assert "nothing to learn" in capsys.readouterr().out


@pytest.mark.parametrize("rows, says", [
    ("file,values\nimages/p0.png,1 3\n", "needs the columns file and dice_values"),
    ("file,dice_values\nimages/p0.png,1 7\n", "line 2: dice_values '1 7' are not faces 1-6"),
    ("file,dice_values\nimages/other.png,1 3\n", "p0.png: no row of"),
])
def test_teach_refuses_labels_that_do_not_fit_in_one_line_and_keeps_nothing(app_env, labelled, capsys, rows, says):
    labels = labelled / "bad.csv"
    labels.write_text(rows, encoding="utf-8")
    assert main(["dice", "teach", str(labelled / "images/p0.png"), "--labels", str(labels)]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1
    assert examples_in(app_env / "state").files() == []
