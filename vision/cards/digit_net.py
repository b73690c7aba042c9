"""Run time of the card digit network: a small convolutional network (3 conv + 2 dense layers, about
150 k weights) that reads one digit 0-9 from a binary ink glyph, in any font or hand, run with OpenCV's
``cv2.dnn`` from ``assets/cards/digit_cnn.onnx`` (no torch at run time).

The model is trained at development time by vision.training.card_digit_train (torch, fixed seed, digits rendered
from TrueType and Hershey fonts and handwriting-style strokes, heavy augmentation); its manifest
``assets/cards/digit_cnn.json`` holds the command, seed, fonts and the sha256 of the ONNX file.

Public API: :func:`available`, :func:`probabilities` (normalised glyphs -> (n, 10) probabilities).
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

SIZE = 32
"""Side in pixels of the normalised glyphs (``vision.cards.digits.normalise``) the network and the HOG
features read."""


MODEL, MANIFEST = "digit_cnn.onnx", "digit_cnn.json"


def _assets_dir() -> Path:
    return Path(str(importlib.resources.files("assets") / "cards"))


@lru_cache(maxsize=2)
def load(folder: str | None = None):
    """The cv2.dnn network, or None when the model or its manifest is missing, unreadable, made for
    another glyph size, or does not match the manifest's sha256."""
    path = Path(folder) if folder else _assets_dir()
    try:
        manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
        data = (path / MODEL).read_bytes()
    except (OSError, ValueError):
        return None
    if manifest.get("size") != SIZE or hashlib.sha256(data).hexdigest() != manifest.get("sha256"):
        return None
    try:
        return cv2.dnn.readNetFromONNX(np.frombuffer(data, np.uint8))
    except cv2.error:
        return None


def available() -> bool:
    """True when the shipped network loads (else readers fall back to vision.cards.digits' k-NN)."""
    return load() is not None


def probabilities(glyphs: np.ndarray) -> np.ndarray:
    """Softmax probabilities (n, 10) float32 of digits 0-9 for normalised glyphs (n, SIZE, SIZE) uint8
    (vision.cards.digits.normalise: ink 255 on 0). Raises RuntimeError when the model is not available."""
    net = load()
    if net is None:
        raise RuntimeError("card digit network not available (assets/cards/digit_cnn.onnx)")
    x = np.asarray(glyphs, np.float32).reshape(-1, 1, SIZE, SIZE) / 255.0
    net.setInput(x)
    logits = net.forward().reshape(len(x), 10).astype(np.float64)
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
