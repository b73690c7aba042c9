"""Colour appearance of a card deck for the corner reader (vision.cards.corner): hue/saturation histograms
of a card's visible top strip, the nearest calibrated colour, and colour balance by the table round the
cards.

Public API: :func:`strip_histogram`, :func:`nearest_colour`, :func:`table_colour`, :func:`balance_gains`,
:func:`balanced`.
"""

from __future__ import annotations

import cv2
import numpy as np

HUE_BINS, SAT_EDGES = 18, (40, 90, 150, 256)  # OpenCV hue 0-180 in HUE_BINS bins; saturation bands
MIN_SAT = SAT_EDGES[0]  # pixels less saturated than this count as unsaturated (white, grey, black)


def strip_histogram(strip_bgr: np.ndarray) -> np.ndarray:
    """Hue/saturation histogram (HUE_BINS x 3 saturated bins + 1 unsaturated bin, float32, sums to 1) of a
    white-balanced BGR region; very dark pixels (value < 40) are left out."""
    hsv = cv2.cvtColor(strip_bgr, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.int32)
    hsv = hsv[hsv[:, 2] >= 40]
    hist = np.zeros(HUE_BINS * (len(SAT_EDGES) - 1) + 1, np.float32)
    if len(hsv) == 0:
        hist[-1] = 1.0
        return hist
    sat = hsv[:, 1]
    band = np.searchsorted(np.array(SAT_EDGES[1:]), sat, side="right")
    hue = np.minimum(hsv[:, 0] * HUE_BINS // 180, HUE_BINS - 1)
    coloured = sat >= MIN_SAT
    hist[:-1] = np.bincount(band[coloured] * HUE_BINS + hue[coloured], minlength=len(hist) - 1)
    hist[-1] = float((~coloured).sum())
    # a hue bin's neighbours share a little (a cast or print shift moves hues by a bin)
    body = hist[:-1].reshape(len(SAT_EDGES) - 1, HUE_BINS)
    body = 0.6 * body + 0.2 * np.roll(body, 1, axis=1) + 0.2 * np.roll(body, -1, axis=1)
    hist[:-1] = body.ravel()
    return hist / hist.sum()


def _bhattacharyya(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.sqrt(max(0.0, 1.0 - float(np.sqrt(a * b).sum()))))


def _strong(hist: np.ndarray) -> np.ndarray | None:
    """The strongly saturated part of a histogram (saturation >= SAT_EDGES[1]: a border, a print colour,
    which a bright light's clipping shifts less than a pale face), renormalised; None when under 5 %."""
    part = hist[HUE_BINS:-1]
    total = float(part.sum())
    return part / total if total >= 0.05 else None


def nearest_colour(hist: np.ndarray, colours: dict) -> tuple[str | None, float]:
    """(colour, distance) of the calibrated histogram nearest to ``hist``; (None, 1.0) without colours."""
    best, best_d = None, 1.0
    strong = _strong(hist)
    for colour, ref in colours.items():
        ref = np.asarray(ref, np.float32)
        d = _bhattacharyya(hist, ref)
        if strong is not None and (ref_strong := _strong(ref)) is not None:
            d = 0.5 * (d + _bhattacharyya(strong, ref_strong))
        if d < best_d:
            best, best_d = colour, d
    return best, best_d


def table_colour(frame_bgr: np.ndarray, outlines: list[np.ndarray]) -> np.ndarray:
    """Median BGR (3,) float32 of the frame outside the given outlines (the table round the cards)."""
    step = 4
    small = frame_bgr[::step, ::step]
    mask = np.full(small.shape[:2], 255, np.uint8)
    for quad in outlines:
        cv2.fillPoly(mask, [(np.asarray(quad) / step).round().astype(np.int32)], 0)
    pixels = small[mask > 0]
    if len(pixels) < 100:
        pixels = small.reshape(-1, 3)
    return np.median(pixels, axis=0).astype(np.float32)


def balance_gains(frame_bgr: np.ndarray, outlines: list[np.ndarray], table_bgr) -> np.ndarray:
    """Per-channel gains (3,) float32 that give this frame's table (outside ``outlines``) the colour
    ``table_bgr`` (B, G, R) it had at calibration (a change of the light's colour or brightness cancels)."""
    table = table_colour(frame_bgr, outlines)
    return (np.array(table_bgr, np.float32) / np.maximum(table, 5.0)).astype(np.float32)


def balanced(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``image`` (BGR uint8) times per-channel ``gains``, clipped to uint8."""
    return np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8)
