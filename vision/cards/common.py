"""What the Schotten Totten and donkey race card readers share: the flag threshold, the frame check and
the debug overlay (their observations are ``vision.observation.CardsObservation``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.observation import CardsObservation

# Flag a card read with less confidence than this (the players confirm it on the screen).
FLAG_BELOW = 0.5


def draw_overlay(frame_bgr: np.ndarray, observation: CardsObservation, path: Path,
                 extra_points: list[tuple[float, float]] = ()) -> Path:
    """Write a PNG of the frame with each card's outline and code (red when flagged); returns the path."""
    out = frame_bgr.copy()
    scale = max(1, round(max(out.shape[:2]) / 800))
    for x, y in extra_points:
        cv2.circle(out, (int(x), int(y)), 6 * scale, (255, 0, 255), 2 * scale)
    for card in observation.cards:
        colour = (0, 0, 255) if card.flagged else (0, 200, 0)
        pts = np.array(card.corners, np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, colour, 2 * scale)
        cv2.circle(out, tuple(int(v) for v in card.corners[0]), 4 * scale, (255, 0, 0), -1)
        label = card.code or "?"
        if card.stone is not None:
            label += f" {card.stone}{card.side}"
        x0, y0 = card.box[:2]
        cv2.putText(out, label, (x0, max(12, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, colour, 2 * scale)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), out)
    return path


__all__ = ["draw_overlay", "FLAG_BELOW"]
