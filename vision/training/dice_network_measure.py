"""Measure the one dice network (issue 53) against today's ``dice_heads.onnx`` (development only).

``python -m vision.training.dice_network_measure [--model ONNX] [--own DIR] [--json OUT]``

Everything through ``cv2.dnn`` (as the box runs it) on crops of the labelled boxes
(:func:`vision.dice.networks.face_crop`), so the detector is not measured:

1. **Teaching a design it never saw** (:func:`imprint`): for each set, the dice of its first 5 photos
   teach a prototype per value (the mean of their L2-normalised embeddings); every die of the other
   photos (less any near-copy of a taught photo: :func:`vision.training.dice_network_data.near_copies`)
   is read as the value of the most similar prototype, and accepted when its similarity exceeds the
   second best's by a margin. Printed: accuracy, and at the least margin that gives unflagged precision
   >= 0.99, the fraction of dice asked about and of right dice asked about. The new network's
   ``embedding`` against today's ``face_features`` (dice_heads.onnx), each on two views (the crop and its
   transpose, as the reader takes features) and the new one also on one view, and the new trunk's pooled
   ``features`` on two views. Sets: rune55's
   ``circular_cam_gray`` (left out of training), the rendered own sets in ``--own`` (``python -m
   vision.training.dice_own_sets DIR --n 40 --seed 2``), pi_cam_tray and ivory_grid (never trained on).
2. **The face head** on byler_d6's held-out photos and pi_cam_tray (and the sets above): accuracy of
   the argmax of one view and of two views (geometric mean), new against today's.
3. **Gate and cocked heads** on labelled dice: the fraction of real (flat) dice the gate doubts or the
   cocked head marks cocked (byler_d6 held out, pi_cam_tray, circular_cam_gray: oblique views must not
   make a die cocked), on 100 rendered cocked tables (seed 1) the cocked dice caught, and on the reader's
   found boxes of 60 game tables (seed 1) the dice the gate doubts and the others (a board's circle, a
   pawn, a card's print) it passes.
4. **Time** of one classifier pass for 12 and 64 dice, one OpenCV thread: the new network on one view
   of each crop against dice_heads.onnx as the reader's first pass runs it (two views of each crop for
   the face, two quarter turns for gate and cocked); the median of 40 runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.dice.networks import HEADS_FILE, model_dir, softmax
from vision.training import dice_network_data as d
from vision.training.train_dice import SHARED_DICE, _photos

TARGET_PRECISION = 0.99
# Every output of each graph is asked for (OpenCV 5's engine runs a graph for all its outputs or none).
NEW_OUTPUTS = ["face", "gate", "cocked", "embedding", "features"]
TODAY_OUTPUTS = ["face", "gate", "cocked", "face_features"]


def _run(net, inputs: dict[str, np.ndarray], outputs: list[str], batch: int = 64) -> list[np.ndarray]:
    """``net``'s named ``outputs`` for equal-length named ``inputs``, in batches."""
    n = len(next(iter(inputs.values())))
    parts: list[list] = [[] for _ in outputs]
    for i in range(0, n, batch):
        for name, blob in inputs.items():
            net.setInput(np.ascontiguousarray(blob[i:i + batch], np.float32), name)
        for j, a in enumerate(net.forward(outputs)):
            parts[j].append(a.reshape(len(a), -1))
    return [np.concatenate(p) for p in parts]


def _normalise(f: np.ndarray) -> np.ndarray:
    return f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-9)


class New:
    """The new network: embeddings (or, ``use="features"``, the trunk's pooled features) and face
    probabilities of crops, one or two views."""

    def __init__(self, path: Path, use: str = "embedding", net=None) -> None:
        self.net = net if net is not None else cv2.dnn.readNetFromONNX(str(path))
        self.use = use
        self.name = "new" if use == "embedding" else "new_features"

    def outputs(self, crops: np.ndarray, views: int):
        both = np.concatenate([crops, crops.transpose(0, 1, 3, 2)]) if views == 2 else crops
        face, _, _, emb, feats = _run(self.net, {"crops": both}, NEW_OUTPUTS)
        emb = emb if self.use == "embedding" else feats
        n = len(crops)
        p = softmax(face)
        if views == 2:
            return _normalise(emb[:n] + emb[n:]), _geo(p[:n], p[n:])
        return _normalise(emb), p


class Today:
    """Today's dice_heads.onnx: face_features and face probabilities (two views, as the reader reads)."""

    name = "today"

    def __init__(self, path: Path) -> None:
        self.net = cv2.dnn.readNetFromONNX(str(path))

    def outputs(self, crops: np.ndarray, views: int):
        both = np.concatenate([crops, crops.transpose(0, 1, 3, 2)]) if views == 2 else crops
        face, _, _, feats = _run(self.net, {"crops": both, "quarters": both}, TODAY_OUTPUTS)
        n = len(crops)
        p = softmax(face)
        if views == 2:
            return _normalise(feats[:n] + feats[n:]), _geo(p[:n], p[n:])
        return _normalise(feats), p


def _geo(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    g = np.sqrt(np.maximum(a, 1e-9) * np.maximum(b, 1e-9))
    return g / g.sum(1, keepdims=True)


def trade_off(pred: np.ndarray, margin: np.ndarray, truth: np.ndarray) -> dict:
    """Accuracy, and at the least margin giving precision >= TARGET_PRECISION over the accepted dice, the
    fractions asked (of all, and of the right dice)."""
    right = pred == truth
    order = np.argsort(-margin)
    cum_right = np.cumsum(right[order])
    k = np.arange(1, len(order) + 1)
    ok = np.flatnonzero(cum_right / k >= TARGET_PRECISION)
    accepted = int(ok.max() + 1) if len(ok) else 0
    asked = np.ones(len(pred), bool)
    asked[order[:accepted]] = False
    return {"dice": int(len(truth)), "accuracy": round(float(right.mean()), 4),
            "asked": round(float(asked.mean()), 4),
            "right_asked": round(float((asked & right).sum() / max(1, right.sum())), 4),
            "margin": round(float(margin[order[accepted - 1]]), 4) if accepted else None}


def imprint(model, views: int, teach: tuple, read: tuple) -> dict:
    """Prototype reading (module docstring) of ``read`` (crops, values) taught by ``teach``."""
    emb_t, _ = model.outputs(teach[0], views)
    emb_r, _ = model.outputs(read[0], views)
    protos = np.full((7, emb_t.shape[1]), 0.0, np.float32)
    taught = np.zeros(7, bool)
    for v in range(1, 7):
        m = teach[1] == v
        if m.any():
            protos[v] = _normalise(emb_t[m].mean(0, keepdims=True))[0]
            taught[v] = True
    sims = emb_r @ protos.T
    sims[:, ~taught] = -2.0
    top2 = np.sort(sims, axis=1)[:, -2:]
    result = trade_off(sims.argmax(1), top2[:, 1] - top2[:, 0], read[1])
    result["values_taught"] = int(taught.sum())
    return result


def gate_cocked(model, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """P(a die) and P(cocked) of each crop: the new network on the crop as it is, today's the mean over the
    crop and its quarter turn (the first pass's two views)."""
    if model.name == "today":
        turned = np.ascontiguousarray(np.rot90(crops, 1, axes=(2, 3)))
        _, gate, cocked, _ = _run(model.net, {"crops": crops, "quarters": crops}, TODAY_OUTPUTS)
        _, gate2, cocked2, _ = _run(model.net, {"crops": turned, "quarters": turned}, TODAY_OUTPUTS)
        return (softmax(gate)[:, 1] + softmax(gate2)[:, 1]) / 2, (softmax(cocked)[:, 1] + softmax(cocked2)[:, 1]) / 2
    _, gate, cocked, _, _ = _run(model.net, {"crops": crops}, NEW_OUTPUTS)
    return softmax(gate)[:, 1], softmax(cocked)[:, 1]


def flags(model, crops: np.ndarray, cocked: np.ndarray | None = None, threshold: float = 0.5) -> dict:
    """Of labelled dice (all flat unless ``cocked`` says): the fraction the gate doubts (P(a die) < 0.5,
    the reader's die_below) and of flat and cocked dice marked cocked (P(cocked) >= 0.5, cocked_at)."""
    gate, p = gate_cocked(model, crops)
    cocked = np.zeros(len(crops), bool) if cocked is None else cocked
    out = {"gate_doubts": round(float((gate < threshold).mean()), 4),
           "flat_marked_cocked": round(float((p[~cocked] >= threshold).mean()), 4)}
    if cocked.any():
        out["cocked_marked_cocked"] = round(float((p[cocked] >= threshold).mean()), 4)
    return out


def cocked_tables(n: int = 100, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Crops of the labelled dice of ``n`` rendered cocked tables (seed 1: a measured seed, never trained
    on) and which are cocked."""
    from vision.dice.networks import face_crop
    from vision.training.dice_cocked import make_image

    rng = np.random.default_rng(seed)
    xs, cocked = [], []
    for _ in range(n):
        table = make_image(rng)
        for _, box, c in table.dice:
            xs.append(face_crop(table.image, box))
            cocked.append(bool(c))
    return np.stack(xs).astype(np.float32), np.array(cocked)


def game_table_boxes(n: int = 60, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Crops of the shipped reader's found boxes on ``n`` game tables with dice (seed 1: a measured seed)
    and whether each is a die (:func:`vision.training.train_dice_gate.found_boxes`)."""
    from vision.dice.networks import face_crop
    from vision.training.dice_game_tables import make_game_set
    from vision.training.train_dice_gate import found_boxes

    xs, die = [], []
    for im in make_game_set(n, seed):
        for box, cls in found_boxes(im.image, im.boxes):
            xs.append(face_crop(im.image, box))
            die.append(bool(cls))
    return np.stack(xs).astype(np.float32), np.array(die)


def face_accuracy(model, crops: np.ndarray, values: np.ndarray, views: int) -> float:
    _, p = model.outputs(crops, views)
    return round(float((p.argmax(1) == values).mean()), 4)


def left_out_sets(own: Path | None) -> dict[str, tuple[list, list]]:
    """(teach photos, read photos) of each unseen set: the first 5 photos teach."""
    sets = {}
    groups = d.rune55_groups()
    cam = groups[d.LEFT_OUT_GROUP]
    teach, rest = cam[:5], cam[5:]
    copies = d.near_copies(rest, teach)
    sets[f"rune55/{d.LEFT_OUT_GROUP}"] = (teach, [p for i, p in enumerate(rest) if i not in copies])
    print(f"rune55/{d.LEFT_OUT_GROUP}: {len(copies)} near-copies of the 5 taught photos not read", flush=True)
    if own and own.is_dir():
        from vision.dice.eval import load_set

        for folder in sorted(p for p in own.iterdir() if (p / "labels.csv").is_file()):
            images, _ = load_set(folder)
            photos = [(folder / it.file, it) for it in images if it.boxes]
            sets[f"own/{folder.name}"] = (photos[:5], photos[5:])
    for name in ("pi_cam_tray", "ivory_grid"):
        photos = _photos(name)
        sets[name] = (photos[:5], photos[5:])
    return sets


def timing(models: list, repeat: int = 40) -> dict:
    """Median ms of one first pass for 12 and 64 crops, one OpenCV thread (module docstring)."""
    cv2.setNumThreads(1)
    rng = np.random.default_rng(0)
    out = {}
    for n in (12, 64):
        crops = rng.normal(0, 1, (n, 3, 32, 32)).astype(np.float32)
        for model in models:
            if model.name == "today":
                both = np.concatenate([crops, crops.transpose(0, 1, 3, 2)])
                quarters = np.concatenate([crops, np.ascontiguousarray(np.rot90(crops, 1, axes=(2, 3)))])
                feeds, names = {"crops": both, "quarters": quarters}, TODAY_OUTPUTS
            else:
                feeds, names = {"crops": crops}, NEW_OUTPUTS
            times = []
            for _ in range(repeat + 3):
                t = time.perf_counter()
                for k, v in feeds.items():
                    model.net.setInput(np.ascontiguousarray(v), k)
                model.net.forward(names)
                times.append((time.perf_counter() - t) * 1000)
            out[f"{model.name}_{n}_crops_ms"] = round(float(np.median(times[3:])), 3)
        out[f"ratio_{n}"] = round(out[f"new_{n}_crops_ms"] / out[f"today_{n}_crops_ms"], 3)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.dice_network_measure", description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=Path(__file__).resolve().parent / "dice_network" / "dice_network.onnx")
    parser.add_argument("--own", type=Path, default=None, help="folder of dice_own_sets' sets")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here too")
    args = parser.parse_args(argv)
    from vision.training.train_dice_detect import split_photos

    new, today = New(args.model), Today(model_dir() / HEADS_FILE)
    new_features = New(args.model, "features", new.net)
    figures: dict = {"model": str(args.model), "timing": timing([new, today])}
    print(json.dumps(figures["timing"]), flush=True)
    cv2.setNumThreads(2)
    imprinting = {}
    for name, (teach_photos, read_photos) in left_out_sets(args.own).items():
        teach, read = d.plain_crops(teach_photos), d.plain_crops(read_photos)
        row = {"teach_photos": len(teach_photos), "teach_dice": int(len(teach[1])), "read_photos": len(read_photos)}
        for model, views in ((new, 1), (new, 2), (new_features, 2), (today, 2)):
            row[f"{model.name}_{views}view"] = imprint(model, views, teach, read)
        row["face_head_accuracy"] = {f"{m.name}_{v}view": face_accuracy(m, *read, v)
                                     for m, v in ((new, 1), (new, 2), (today, 1), (today, 2))}
        imprinting[name] = row
        print(name, json.dumps(row), flush=True)
    figures["imprinting"] = imprinting
    faces = {}
    for name, photos in (("byler_d6_heldout", split_photos()[1]), ("pi_cam_tray", _photos("pi_cam_tray"))):
        crops, values = d.plain_crops(photos)
        faces[name] = {"dice": int(len(values)), **{f"{m.name}_{v}view": face_accuracy(m, crops, values, v)
                                                    for m, v in ((new, 1), (new, 2), (today, 1), (today, 2))}}
        print(name, json.dumps(faces[name]), flush=True)
    figures["face_head"] = faces
    heads = {}
    sets = {"byler_d6_heldout": d.plain_crops(split_photos()[1])[0], "pi_cam_tray": d.plain_crops(_photos("pi_cam_tray"))[0],
            "rune55/" + d.LEFT_OUT_GROUP: d.plain_crops(d.rune55_groups()[d.LEFT_OUT_GROUP][5:])[0]}
    for name, crops in sets.items():
        heads[name] = {"dice": int(len(crops)), "new": flags(new, crops), "today": flags(today, crops)}
    crops, cocked = cocked_tables()
    heads["cocked_tables_seed1"] = {"dice": int(len(crops)), "cocked": int(cocked.sum()),
                                    "new": flags(new, crops, cocked), "today": flags(today, crops, cocked)}
    crops, die = game_table_boxes()
    for model in (new, today):
        gate, _ = gate_cocked(model, crops)
        heads.setdefault("game_tables_seed1_found_boxes", {"dice": int(die.sum()), "others": int((~die).sum())})[
            model.name] = {"dice_doubted": round(float((gate[die] < 0.5).mean()), 4),
                           "others_passed": round(float((gate[~die] >= 0.5).mean()), 4)}
    for name, row in heads.items():
        print("gate/cocked", name, json.dumps(row), flush=True)
    figures["gate_cocked"] = heads
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
