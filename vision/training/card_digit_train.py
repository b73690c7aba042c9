"""Development-time training of the card digit network (vision.cards.digit_net): renders digits 0-9 from
several typefaces and handwriting-style strokes with heavy augmentation, trains a small convolutional
network with torch (fixed seed) and exports it to ONNX for ``cv2.dnn`` in ``assets/cards/``.

Training glyphs are binary ink masks, as the readers cut them out of a card (vision.cards.value,
vision.cards.corner), normalised by vision.cards.digits.normalise to SIZE x SIZE. Sources:

- TrueType faces found on the development machine (DejaVu Sans/Serif/Mono, condensed, bold, oblique:
  ``FONT_DIRS``), rendered with pygame.freetype. pygame's own ``freesansbold.ttf`` is held out: it is the
  font of our "other design" test deck (vision.cards.render_other), so that deck measures an unseen font;
- OpenCV's Hershey fonts (upright and italic; the reference deck's digits are Hershey Duplex);
- handwriting-style strokes (vision.cards.strokes).

Augmentation per glyph: stroke thickness (dilate/erode, pen width), rotation, shear, aspect, perspective,
elastic distortion, blur and re-threshold (ragged or rounded edges), specks and small bites.

``python -m vision.training.card_digit_train [--per-class N] [--epochs E] [--seed S]`` (needs torch, onnx; a few
CPU minutes on one thread: 9 wall minutes on a busy two-core machine) writes ``digit_cnn.onnx`` and ``digit_cnn.json`` (settings, seed, fonts,
accuracy on held-out renders, sha256, the command). Not imported at run time.

Public API: :func:`font_files`, :func:`augment`, :func:`render_set`, :func:`train`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time
from pathlib import Path

import cv2
import numpy as np

from vision.cards.digits import SIZE, normalise
from vision.cards.strokes import render_hand_digit

SEED = 20261130
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype")
HELD_OUT = ("freesansbold.ttf",)
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
           cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
           cv2.FONT_HERSHEY_PLAIN)
CANVAS = 128


def font_files() -> list[str]:
    """TrueType files used for training (sorted paths; the held-out font excluded; math fonts skipped)."""
    found = set()
    for folder in FONT_DIRS:
        if os.path.isdir(folder):
            for root, _, files in os.walk(folder):
                found.update(os.path.join(root, f) for f in files
                             if f.endswith(".ttf") and f not in HELD_OUT and "Math" not in f)
    return sorted(found)


class _Fonts:
    def __init__(self, paths):
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame.freetype as ft
        ft.init()
        self.fonts = [ft.Font(p, 72) for p in paths]

    def render(self, index: int, digit: int) -> np.ndarray:
        surface, _ = self.fonts[index].render(str(digit), (255, 255, 255), (0, 0, 0))
        import pygame
        arr = pygame.surfarray.array3d(surface)[:, :, 0].T.copy()
        canvas = np.zeros((CANVAS, CANVAS), np.uint8)
        h, w = arr.shape
        y0, x0 = (CANVAS - h) // 2, (CANVAS - w) // 2
        canvas[y0:y0 + h, x0:x0 + w] = arr
        return canvas


def _hershey(digit: int, font: int, italic: bool, rng: np.random.Generator) -> np.ndarray:
    canvas = np.zeros((CANVAS, CANVAS), np.uint8)
    face = font | (cv2.FONT_ITALIC if italic else 0)
    thickness = int(rng.integers(2, 16))
    (tw, th), _ = cv2.getTextSize(str(digit), face, 2.4, thickness)
    cv2.putText(canvas, str(digit), ((CANVAS - tw) // 2, (CANVAS + th) // 2), face, 2.4, 255, thickness,
                cv2.LINE_AA)
    return canvas


def _hand(digit: int, rng: np.random.Generator) -> np.ndarray:
    return render_hand_digit(digit, rng, CANVAS)


def augment(glyph: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One distorted binary copy (uint8 0/255, CANVAS x CANVAS) of a rendered glyph."""
    img = glyph.astype(np.float32) / 255.0
    k = int(rng.integers(-2, 6))  # stroke thickness
    if k:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (abs(k) + 1, abs(k) + 1))
        img = cv2.dilate(img, kernel) if k > 0 else cv2.erode(img, kernel)
        if img.max() < 0.5:
            img = glyph.astype(np.float32) / 255.0
    c = CANVAS / 2
    angle = rng.normal(0, 6)
    shear = rng.uniform(-0.35, 0.25)
    sx, sy = rng.uniform(0.6, 1.3), rng.uniform(0.85, 1.15)
    rot = cv2.getRotationMatrix2D((c, c), angle, 1.0)
    aff = np.array([[sx, shear, 0], [0, sy, 0]], np.float64)
    aff[:, 2] = c - aff[:, :2] @ np.array([c, c])
    m = np.vstack([rot, [0, 0, 1]]) @ np.vstack([aff, [0, 0, 1]])
    src = np.array([[0, 0], [CANVAS, 0], [CANVAS, CANVAS], [0, CANVAS]], np.float32)
    dst = src + rng.normal(0, 0.04 * CANVAS, (4, 2)).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst) @ m
    img = cv2.warpPerspective(img, m, (CANVAS, CANVAS), flags=cv2.INTER_LINEAR)
    if rng.random() < 0.6:  # elastic distortion
        alpha, sigma = rng.uniform(4, 14), rng.uniform(7, 12)
        dx = cv2.GaussianBlur(rng.uniform(-1, 1, (CANVAS, CANVAS)).astype(np.float32), (0, 0), sigma)
        dy = cv2.GaussianBlur(rng.uniform(-1, 1, (CANVAS, CANVAS)).astype(np.float32), (0, 0), sigma)
        norm = max(float(np.abs(dx).max()), float(np.abs(dy).max()), 1e-6)
        ys, xs = np.mgrid[0:CANVAS, 0:CANVAS].astype(np.float32)
        img = cv2.remap(img, xs + alpha * dx / norm, ys + alpha * dy / norm, cv2.INTER_LINEAR)
    img += rng.normal(0, rng.uniform(0.0, 0.25), img.shape).astype(np.float32)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(1.0, 3.0))
    mask = (img > rng.uniform(0.3, 0.65)).astype(np.uint8) * 255
    if rng.random() < 0.15:  # a bite out of a stroke (glare, a pen skip)
        ys, xs = np.nonzero(mask)
        if len(xs):
            i = int(rng.integers(len(xs)))
            cv2.circle(mask, (int(xs[i]), int(ys[i])), int(rng.integers(2, 7)), 0, -1)
    if rng.random() < 0.15:  # a speck touching the glyph's box
        ys, xs = np.nonzero(mask)
        if len(xs):
            i = int(rng.integers(len(xs)))
            cv2.circle(mask, (int(xs[i] + rng.integers(-12, 13)), int(ys[i] + rng.integers(-12, 13))),
                       int(rng.integers(1, 4)), 255, -1)
    return mask


def render_set(per_class: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(X (N, SIZE, SIZE) uint8 normalised glyphs, y (N,) int64) with per_class glyphs of each digit:
    40 % TrueType faces, 25 % Hershey fonts, 35 % handwriting-style strokes."""
    rng = np.random.default_rng(seed)
    fonts = _Fonts(font_files())
    xs, ys = [], []
    for digit in range(10):
        for _ in range(per_class):
            r = rng.random()
            if r < 0.40 and fonts.fonts:
                base = fonts.render(int(rng.integers(len(fonts.fonts))), digit)
            elif r < 0.65:
                base = _hershey(digit, HERSHEY[int(rng.integers(len(HERSHEY)))], bool(rng.random() < 0.4), rng)
            else:
                base = _hand(digit, rng)
            mask = augment(base, rng)
            if not mask.any():
                mask = base
            xs.append(normalise(mask))
            ys.append(digit)
    return np.array(xs, np.uint8), np.array(ys, np.int64)


def _net():
    import torch.nn as nn
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * (SIZE // 8) ** 2, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 10))


def train(per_class: int, epochs: int, seed: int, out: Path) -> dict:
    """Render, train, export ``out/digit_cnn.onnx`` and write ``out/digit_cnn.json``; returns the manifest."""
    import torch
    torch.manual_seed(seed)
    torch.set_num_threads(1)  # deterministic, and no thread waits on a busy machine
    start = time.time()
    x, y = render_set(per_class, seed)
    xv, yv = render_set(max(50, per_class // 10), seed + 1)
    rendered = time.time() - start
    net = _net()
    opt = torch.optim.Adam(net.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=epochs * (len(x) // 128 + 1))
    xt = torch.from_numpy(x).float().unsqueeze(1) / 255.0
    yt = torch.from_numpy(y)
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        net.train()
        perm = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for i in range(0, len(xt), 128):
            idx = perm[i:i + 128]
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(net(xt[idx]), yt[idx], label_smoothing=0.05)
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch + 1}/{epochs} loss {total / len(xt):.4f}", flush=True)
    net.eval()
    with torch.no_grad():
        pred = net(torch.from_numpy(xv).float().unsqueeze(1) / 255.0).argmax(1).numpy()
    val_acc = float((pred == yv).mean())
    out.mkdir(parents=True, exist_ok=True)
    onnx_path = out / "digit_cnn.onnx"
    dummy = torch.zeros(1, 1, SIZE, SIZE)
    torch.onnx.export(net, dummy, str(onnx_path), input_names=["glyph"], output_names=["logits"],
                      dynamic_axes={"glyph": {0: "n"}, "logits": {0: "n"}}, opset_version=13, dynamo=False)
    manifest = {"model": onnx_path.name, "input": f"n x 1 x {SIZE} x {SIZE} float32, ink 1 on 0, "
                "vision.cards.digits.normalise of a binary glyph / 255", "output": "n x 10 logits, digits 0-9",
                "seed": seed, "per_class": per_class, "epochs": epochs, "size": SIZE,
                "fonts": [Path(p).name for p in font_files()], "hershey_fonts": len(HERSHEY),
                "held_out_fonts": list(HELD_OUT), "validation_renders": int(len(yv)),
                "validation_accuracy": round(val_acc, 4), "train_seconds": round(time.time() - start, 1),
                "render_seconds": round(rendered, 1), "bytes": onnx_path.stat().st_size,
                "sha256": hashlib.sha256(onnx_path.read_bytes()).hexdigest(),
                "command": f"python -m vision.training.card_digit_train --per-class {per_class} --epochs {epochs} "
                           f"--seed {seed}", "torch": torch.__version__}
    (out / "digit_cnn.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="train the card digit network (torch) and export it to ONNX")
    parser.add_argument("--per-class", type=int, default=4000)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "assets" / "cards")
    args = parser.parse_args(argv)
    print(json.dumps(train(args.per_class, args.epochs, args.seed, args.out), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
