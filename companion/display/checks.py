"""What the text log (``companion.display.text.TextLog``, ``--text-log FILE``) must show of every screen:
the checks of ARCHITECTURE.md "The screen", shared by the tests and ``companion bench texts``.

A log entry is ``{"frame", "mode", "text", "px", "rect": [x, y, w, h], "cut"}``. On a screen of ``size``:
no text under the floor (``text.floor_px(size)``: 18 px at 800 x 480), none cut, every box inside the
screen, and no two boxes of one frame overlapping.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from companion.display import text


def _overlap(a: list[int], b: list[int]) -> bool:
    """Whether two boxes [x, y, w, h] share an area (touching edges do not)."""
    return min(a[0] + a[2], b[0] + b[2]) > max(a[0], b[0]) and min(a[1] + a[3], b[1] + b[3]) > max(a[1], b[1])


def problems(entries: Iterable[dict], size: tuple[int, int]) -> list[str]:
    """One line for each entry that breaks a check on a ``size`` screen (module docstring); [] when all
    hold. Each line names the frame, the mode and the text."""
    floor = text.floor_px(size)
    found = []
    frames: dict[int, list[dict]] = defaultdict(list)
    for entry in entries:
        where = f"frame {entry['frame']} ({entry['mode']}) {entry['text']!r}"
        x, y, w, h = entry["rect"]
        if entry["px"] < floor:
            found.append(f"{where}: {entry['px']} px, under the floor of {floor} px")
        if entry["cut"]:
            found.append(f"{where}: cut")
        if x < 0 or y < 0 or x + w > size[0] or y + h > size[1]:
            found.append(f"{where}: outside the {size[0]}x{size[1]} screen at {entry['rect']}")
        frames[entry["frame"]].append(entry)
    for frame in frames.values():
        for i, first in enumerate(frame):
            for second in frame[i + 1:]:
                if _overlap(first["rect"], second["rect"]):
                    found.append(f"frame {first['frame']} ({first['mode']}): {first['text']!r} at {first['rect']} "
                                 f"overlaps {second['text']!r} at {second['rect']}")
    return found
