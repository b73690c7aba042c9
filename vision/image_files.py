"""Loading the photos named on a ``read`` command line (dice, board, cards) the same way."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np


def load_image(name: str | Path, command: str) -> np.ndarray | None:
    """The BGR uint8 image in file ``name``, or None after printing ``"<command>: <name>: <why>"`` on
    stderr (``no such file`` or ``not a readable image``), so a command reads the other files on."""
    path = Path(name)
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
    if frame is None:
        why = "no such file" if not path.exists() else "not a readable image"
        print(f"{command}: {name}: {why}", file=sys.stderr)
    return frame
