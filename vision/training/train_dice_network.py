"""Train the one dice network (issue 53, first stage; development only): one trunk, four heads.

``python -m vision.training.train_dice_network [--seed S] [--epochs E] [--designs N] [--rune55 N]
[--cocked N] [--game-tables N] [--distil-face W] [--embedding classes|episodes] [--minutes M] [--init PT] [--out DIR]``

Needs torch and onnx (as :mod:`vision.training.train_dice`; neither is a run-time dependency) and
``../shared/data/dice``. The input is the reader's crop (:func:`vision.dice.networks.face_crop`, 32 px,
one view); a trunk of six 3x3 convolutions (16-32-64-64-128-128 channels, ~280 k weights, ~8.7 M
multiply-adds a crop: one view of it costs about what one of today's face classifier's does, where the
first pass runs three classifiers on two views each) feeds four heads: ``face`` (7 logits: no die face,
1-6), ``gate`` (2: not a die, a die), ``cocked`` (2: flat, cocked) and ``embedding`` (64 numbers,
L2-normalised), trained with a cosine softmax with a margin (CosFace, scale 16, margin 0.2) over the
design-and-face classes of :mod:`vision.training.dice_network_data`, where the same face of one design is
one class, or (``--embedding episodes``) with prototypical episodes within one design (:class:`Episodes`).
``features`` (the trunk's 128 pooled numbers) is exported too.

Data and splits (:func:`vision.training.dice_network_data`): byler_d6's training photos (the split of
train_dice, seed 0: its held-out 20 % and the bundled photos never seen), rune55's groups but
``circular_cam_gray`` (left out, with every near-copy of its photos in the other groups), at most
``--rune55`` photos of the rest (drawn with the seed), ``--designs`` rendered designs, ``--cocked`` cocked
tables and ``--game-tables`` game tables (reader's found boxes). pi_cam_tray and ivory_grid are measured
only. Writes into ``--out`` (default :data:`CANDIDATE_DIR`, ``vision/training/dice_network``: a training
candidate, not in the wheel; ``assets/dice_model`` holds what the box loads, within its 10 MB) ``dice_network.pt`` (the checkpoint: weights
and the cosine classes' centres, each epoch, so a stopped run leaves its last epoch; ``--init`` fine-tunes
from one), ``dice_network.onnx`` (for ``cv2.dnn``; input ``crops``, outputs ``face``, ``gate``,
``cocked``, ``embedding``, ``features``) and ``dice_network_manifest.json`` (command, seed, data and
splits, seconds, figures). Training stops after ``--minutes`` even mid-schedule.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.training.command import command_line

MODEL_FILE, CHECKPOINT_FILE, MANIFEST_FILE = "dice_network.onnx", "dice_network.pt", "dice_network_manifest.json"
CANDIDATE_DIR = Path(__file__).resolve().parent / "dice_network"
EMBED, SCALE, MARGIN = 64, 16.0, 0.2


def build_net(classes: int):
    """The network (torch module): trunk, heads, and the cosine classes' centres (``classes`` x EMBED)."""
    import torch
    import torch.nn as nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU()]

    class DiceNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.trunk = nn.Sequential(*block(3, 16), nn.MaxPool2d(2), *block(16, 32), nn.MaxPool2d(2),
                                       *block(32, 64), *block(64, 64), nn.MaxPool2d(2), *block(64, 128),
                                       *block(128, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.face, self.gate, self.cocked = nn.Linear(128, 7), nn.Linear(128, 2), nn.Linear(128, 2)
            self.embed = nn.Linear(128, EMBED)
            self.centres = nn.Parameter(torch.randn(classes, EMBED) * 0.1)

        def forward(self, x):
            f = self.trunk(x)
            e = self.embed(f)
            e = e / torch.sqrt((e * e).sum(1, keepdim=True) + 1e-12)
            return self.face(f), self.gate(f), self.cocked(f), e, f

    return DiceNet()


def losses(net, out, batch, distil: float = 0.0) -> dict:
    """The heads' losses of one batch (each head over the samples that have its target); ``distil``: the
    weight of today's face probabilities (``batch["teacher"]``) as soft targets where the face has a label."""
    import torch
    import torch.nn.functional as F

    face, gate, cocked, emb, _ = out
    got = {}
    m = batch["face"] >= 0
    if m.any():
        got["face"] = F.cross_entropy(face[m], batch["face"][m], label_smoothing=0.05)
        if distil and "teacher" in batch:
            got["distil"] = -distil * (batch["teacher"][m] * torch.log_softmax(face[m], 1)).sum(1).mean()
    for name, logits in (("gate", gate), ("cocked", cocked)):
        t = batch[name]
        m = t >= 0
        if m.any():
            p = torch.log_softmax(logits[m], 1)
            got[name] = -(t[m] * p[:, 1] + (1 - t[m]) * p[:, 0]).mean()
    m = batch["design"] >= 0
    if m.any():
        w = F.normalize(net.centres, dim=1)
        cos = emb[m] @ w.T
        target = batch["design"][m]
        cos = cos - MARGIN * F.one_hot(target, cos.shape[1])
        got["embedding"] = F.cross_entropy(SCALE * cos, target)
    return got


class Exported:
    """The heads alone (no centres) for the ONNX export."""

    def __new__(cls, net):
        import torch.nn as nn

        class Heads(nn.Module):
            def __init__(self):
                super().__init__()
                self.net = net

            def forward(self, crops):
                return self.net(crops)

        return Heads()


def export(net, path: Path) -> None:
    import torch

    net.eval()
    torch.onnx.export(Exported(net), torch.zeros(1, 3, 32, 32), str(path), input_names=["crops"],
                      output_names=["face", "gate", "cocked", "embedding", "features"],
                      dynamic_axes={k: {0: "n"} for k in ("crops", "face", "gate", "cocked", "embedding", "features")},
                      opset_version=13, dynamo=False)


class Episodes:
    """Prototypical episodes over the design-and-face classes (``design * 6 + value - 1``) of ``design``
    (an int array, -1: none): a few designs a step, for each of its faces with at least ``shots + 1`` crops
    ``shots`` as support and up to ``queries`` others as queries. Used by :func:`episode_loss`, whose
    objective is what the box does when it learns (a prototype a taught value, the mean of the players'
    confirmed dice of one design; a die read by its cosine similarity to them)."""

    def __init__(self, design: np.ndarray, shots: int = 3, queries: int = 3, designs: int = 8) -> None:
        self.shots, self.queries, self.designs = shots, queries, designs
        by_class: dict[int, list[int]] = {}
        for i, c in enumerate(design):
            if c >= 0:
                by_class.setdefault(int(c), []).append(i)
        faces: dict[int, list[np.ndarray]] = {}
        for c, idx in by_class.items():
            if len(idx) > shots:
                faces.setdefault(c // 6, []).append(np.array(idx))
        self.faces = {d: f for d, f in faces.items() if len(f) >= 2}
        self.keys = sorted(self.faces)

    def sample(self, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
        """One step's episodes: per design, (support (faces, shots), queries (faces, q)) crop indices."""
        out = []
        for d in rng.choice(self.keys, min(self.designs, len(self.keys)), replace=False):
            q = min(self.queries, min(len(f) for f in self.faces[d]) - self.shots)
            picks = [rng.choice(f, self.shots + q, replace=False) for f in self.faces[d]]
            out.append((np.stack([p[:self.shots] for p in picks]), np.stack([p[self.shots:] for p in picks])))
        return out


def episode_loss(net, x, episodes: list) -> "torch.Tensor":
    """Mean cross-entropy of the queries' faces against the support's prototypes (cosine x SCALE, the
    target lowered by MARGIN) over ``episodes`` (:meth:`Episodes.sample`); ``x`` the crops tensor."""
    import torch
    import torch.nn.functional as F

    idx = np.concatenate([np.concatenate([s.ravel(), q.ravel()]) for s, q in episodes])
    emb = net(x[torch.from_numpy(idx)].float())[3]
    losses, at = [], 0
    for s, q in episodes:
        faces = len(s)
        sup = emb[at:at + s.size].view(faces, s.shape[1], -1)
        at += s.size
        qry = emb[at:at + q.size]
        at += q.size
        protos = F.normalize(sup.mean(1), dim=1)
        target = torch.arange(faces).repeat_interleave(q.shape[1])
        cos = qry @ protos.T - MARGIN * F.one_hot(target, faces)
        losses.append(F.cross_entropy(SCALE * cos, target))
    return torch.stack(losses).mean()


def train(net, data: dict, epochs: int, seed: int, deadline: float, save, log=print, distil: float = 0.0,
          episodes: Episodes | None = None) -> int:
    """Train ``net`` on ``data`` (arrays of :meth:`dice_network_data.Samples.arrays`) for ``epochs``
    (AdamW, one-cycle, batches of 256, half mirrored) or until ``deadline`` (time.time()); ``save(epoch)``
    after each epoch. With ``episodes``, the embedding learns from them (:func:`episode_loss`, one step's
    episodes beside each batch) instead of the cosine softmax over classes. Returns the epochs done."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    tensors = {k: torch.from_numpy(v) for k, v in data.items()}
    n = len(data["x"])
    steps = epochs * math.ceil(n / 256)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=6e-3, total_steps=steps)
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(n, generator=gen)
        sums: dict[str, float] = {}
        for i in range(0, n, 256):
            idx = order[i:i + 256]
            batch = {k: v[idx] for k, v in tensors.items()}
            x = batch["x"].float()
            if torch.rand(1, generator=gen).item() < 0.5:
                x = x.flip(3)
            if episodes is not None:
                batch["design"] = torch.full_like(batch["design"], -1)
            got = losses(net, net(x), batch, distil)
            if episodes is not None:
                got["episodes"] = episode_loss(net, tensors["x"], episodes.sample(rng))
            loss = sum(got.values())
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            for k, v in got.items():
                sums[k] = sums.get(k, 0.0) + float(v.detach()) * len(idx) / n
        log(f"epoch {epoch + 1}/{epochs}: " + ", ".join(f"{k} {v:.4f}" for k, v in sums.items()))
        save(epoch + 1)
        if time.time() > deadline:
            log("time is up: stopping")
            return epoch + 1
    return epochs


def face_accuracy(net, x: np.ndarray, y: np.ndarray) -> dict:
    import torch

    if not len(y):
        return {"crops": 0}
    net.eval()
    with torch.no_grad():
        face = torch.cat([net(torch.from_numpy(x[i:i + 512]))[0] for i in range(0, len(x), 512)]).numpy()
    return {"crops": int(len(y)), "accuracy": round(float((face.argmax(1) == y).mean()), 4)}


def gather(args, log=print) -> tuple[dict, dict]:
    """(arrays, data list) of the training samples (module docstring)."""
    from vision.dice.reader import shipped_reader
    from vision.training import dice_network_data as d
    from vision.training.train_dice_detect import split_photos

    rng = np.random.default_rng(args.seed)
    out = d.Samples()
    train_photos, heldout, bundled = split_photos()
    for path, item in train_photos:
        d.labelled_samples(out, cv2.imread(str(path), cv2.IMREAD_COLOR), list(item.boxes), rng, 0, 6, 6, 3)
    log(f"byler_d6: {len(train_photos)} photos, {len(out.xs)} crops")
    groups = d.rune55_groups()
    left_out = groups.pop(d.LEFT_OUT_GROUP)
    others = [p for g in groups.values() for p in g]
    copies = d.near_copies(others, left_out)
    copy_names = {others[i][0].name for i in copies}
    log(f"rune55: {len(copies)} near-copies of {d.LEFT_OUT_GROUP} photos left out")
    rune_list = {}
    for k, (name, photos) in enumerate(sorted(groups.items())):
        kept = [p for p in photos if p[0].name not in copy_names]
        take = max(1, round(args.rune55 * len(kept) / max(1, len(others) - len(copies))))
        chosen = [kept[i] for i in sorted(rng.choice(len(kept), min(take, len(kept)), replace=False))]
        for path, item in chosen:
            d.labelled_samples(out, cv2.imread(str(path), cv2.IMREAD_COLOR), list(item.boxes), rng, 1 + k, 3, 2, 1)
        rune_list[name] = {"design": 1 + k, "photos": len(chosen), "of": len(photos),
                           "near_copies_dropped": len(photos) - len(kept)}
    log(f"rune55 trained groups: {rune_list}; {len(out.xs)} crops")
    first = 1 + len(groups)
    d.rendered_samples(out, args.designs, first, rng)
    log(f"rendered designs: {args.designs}; {len(out.xs)} crops")
    d.cocked_samples(out, args.cocked, rng)
    d.game_table_samples(out, args.game_tables, args.seed + 3000, rng)
    log(f"cocked and game tables: {len(out.xs)} crops")
    arrays = out.arrays()
    distilled = d.distil_gate(arrays, shipped_reader().networks, face=bool(args.distil_face))
    data_list = {
        "byler_d6": {"trained": f"{len(train_photos)} training photos (train_dice_detect.split_photos, seed 0)",
                     "heldout": f"{len(heldout)} photos (measured)", "bundled": f"{len(bundled)} photos (never)"},
        "rune55": {"left_out_group": d.LEFT_OUT_GROUP, "left_out_photos": len(left_out), "trained_groups": rune_list,
                   "near_copy_rule": f"same dice values and 16x16 thumbnail correlation >= {d.NEAR_COPY} "
                                     "(any quarter turn or mirror)"},
        "rendered": {"designs": args.designs, "design_ids": f"{first}..{first + args.designs - 1}",
                     "families": "plain pips (random body and pip colours, per-face pip colours 30 %), marbled "
                                 "30 %, one face a random glyph 35 %; no skull, star or translucent body"},
        "cocked_tables": args.cocked, "game_tables": f"{args.game_tables} with dice, {max(1, args.game_tables // 3)} empty",
        "measured_only": ["pi_cam_tray", "ivory_grid", "rune55/" + d.LEFT_OUT_GROUP, "byler_d6 held out"],
        "crops": int(len(arrays["face"])), "design_classes": int(first + args.designs) * 6,
        "gate_targets_distilled_from_dice_heads": distilled,
        "face_distilled_from_dice_heads": args.distil_face,
    }
    return arrays, data_list


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.train_dice_network", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=24)
    parser.add_argument("--designs", type=int, default=400, help="rendered designs (default 400)")
    parser.add_argument("--rune55", type=int, default=1500, help="photos of rune55's trained groups (default 1500)")
    parser.add_argument("--cocked", type=int, default=400, help="rendered cocked tables (default 400)")
    parser.add_argument("--game-tables", type=int, default=150, help="game tables with dice (default 150)")
    parser.add_argument("--distil-face", type=float, default=0.0, metavar="W",
                        help="weight of today's face probabilities (dice_heads.onnx) as soft targets (default 0)")
    parser.add_argument("--embedding", choices=("classes", "episodes"), default="classes",
                        help="the embedding's objective: a cosine softmax over design-and-face classes (default) "
                             "or prototypical episodes within one design (class Episodes)")
    parser.add_argument("--minutes", type=float, default=50.0, help="stop training after this long (default 50)")
    parser.add_argument("--init", type=Path, default=None, help="a checkpoint (.pt) to fine-tune from")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default vision/training/dice_network)")
    args = parser.parse_args(argv)
    import torch

    from vision.training import dice_network_data as d
    from vision.training.train_dice import _photos
    from vision.training.train_dice_detect import split_photos

    start = time.time()
    log = lambda line: print(f"[{time.time() - start:6.0f} s] {line}", flush=True)  # noqa: E731
    out = args.out or CANDIDATE_DIR
    out.mkdir(parents=True, exist_ok=True)
    arrays, data_list = gather(args, log)
    log(f"{len(arrays['face'])} crops")
    classes = data_list["design_classes"]
    net = build_net(classes)
    init_sha = hashlib.sha256(args.init.read_bytes()).hexdigest() if args.init else None
    if args.init:
        state = torch.load(args.init)["state"]
        if state["centres"].shape != net.centres.shape:
            del state["centres"]
        net.load_state_dict(state, strict=False)
    tests = {"byler_d6_heldout": d.plain_crops(split_photos()[1]), "pi_cam_tray": d.plain_crops(_photos("pi_cam_tray"))}
    command = command_line(parser, args, always=("seed", "epochs"), leave_out=("out",))

    def save(epoch: int) -> None:
        torch.save({"state": net.state_dict(), "epoch": epoch, "command": command, "classes": classes},
                   out / CHECKPOINT_FILE)
        export(net, out / MODEL_FILE)
        data = (out / MODEL_FILE).read_bytes()
        manifest = {
            "model": MODEL_FILE, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
            "checkpoint": CHECKPOINT_FILE, "command": command, "seed": args.seed, "epochs_done": epoch,
            "epochs": args.epochs, "input": "crops (n, 3, 32, 32) float32 from vision.dice.networks.face_crop",
            "outputs": {"face": "7 logits: no die face, 1-6", "gate": "2 logits: not a die, a die",
                        "cocked": "2 logits: flat, cocked", "embedding": f"{EMBED}, L2-normalised",
                        "features": "128, the trunk's pooled features"},
            "init": {"path": str(args.init), "sha256": init_sha} if args.init else None,
            "data": data_list, "figures": {name: face_accuracy(net, *xy) for name, xy in tests.items()},
            "seconds": round(time.time() - start, 1),
        }
        (out / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2) + "\n")
        log(f"saved epoch {epoch}: {json.dumps(manifest['figures'])}")

    episodes = Episodes(arrays["design"]) if args.embedding == "episodes" else None
    if episodes is not None:
        log(f"episodes over {len(episodes.keys)} designs")
    train(net, arrays, args.epochs, args.seed, start + args.minutes * 60, save, log, args.distil_face, episodes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
