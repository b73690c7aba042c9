"""The dice reader's settings: :class:`DiceParams`, loaded once from ``assets/dice_model/params.json``.

Every number the reader decides with is here, not in its modules: the file gives each value and a line on
where it came from (which set, which round); the model card is ``assets/dice_model/README.md``, the
history of the tuning round by round is in git (``git show b509d2c:assets/dice_model/README.md``). A
test or a training tool that wants other settings builds them with :func:`dataclasses.replace` on
:func:`shipped_params`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path

from vision.errors import FileFormatError, MissingFileError

PARAMS_FILE = "params.json"
FORMAT = 1


@dataclass(frozen=True)
class DiceParams:
    """The reader's settings (see ``assets/dice_model/params.json`` for the source of each).

    Sizes in pixels are noted ``px``; fractions of a box's side, scores, beliefs (P(die) * P(value)),
    confidences and probabilities are in 0-1.
    """

    work_max_side: int  # px, long side of the work image
    zoom_below: float  # px of the work image: a frame whose dice are smaller is read again at its own scale (0: never)
    zoom_max_side: int  # px: the largest work image's long side (zoomed)
    oversized: float  # die side / frame long side flagged among two dice or more
    oversized_taught: float  # times the largest side of the players' confirmed dice (learned)
    crop_size: int  # px, the classifiers' crop
    crop_margin: float  # crop side / box side
    detect_levels: tuple[int, ...]  # px, the detector's input long sides
    coarse_min_side: float  # px of the coarse level's input
    detect_min: float  # score
    dup_centre: float  # fraction of the smaller side
    twin_score: float
    twin_size: float
    pip_ratio: float
    report_score: float
    rescue_gate: float
    sure_score: float
    no_die: float
    unsure_score: float
    no_pips_belief: float
    no_pips_no_die: float
    no_die_sure: float
    crowded: int  # sure detections
    object_ring: float
    object_level: float
    object_min_dist: float  # Lab units
    pip_base: float
    doubt_die: float
    flag_below: float
    agree_belief: float
    agree_pips: float
    pip_veto: float
    cluster_doubt: float
    cluster_member: float
    cluster_faces: float
    big_box: float  # times the frame's die side
    small_box: float  # times the frame's die side
    edge_tolerance: float
    recheck_below: float
    check_margin: float
    second_opinion: float
    pips_clean: float
    pips_skip_belief: float
    empty_changed: float
    mask_inset: float
    mask_radius: float
    die_below: float
    cocked_at: float
    learn_near: float  # cosine similarity of face features
    learn_k: int  # kept examples
    learn_temperature: float

    @property
    def capped(self) -> float:
        """The confidence a die gets when a check caps it: just under :attr:`flag_below` (flagged)."""
        return self.flag_below * 0.98


LIMITS = {"work_max_side": (64, 4096), "zoom_below": (0.0, 1000.0), "zoom_max_side": (64, 8192),
          "crop_size": (8, 256), "crowded": (1, 1000), "detect_levels": (32, 4096),
          "crop_margin": (1.0, 4.0), "coarse_min_side": (0.0, 1000.0), "object_min_dist": (0.0, 442.0),
          "big_box": (1.0, 100.0), "oversized_taught": (1.0, 10.0), "mask_inset": (0.0, 0.5), "mask_radius": (0.0, 0.5),
          "learn_near": (-1.0, 1.0), "learn_k": (1, 50), "learn_temperature": (0.001, 1.0)}
"""Accepted range (inclusive) of a setting; every other one is a score, probability, belief or fraction in
0-1. A value outside its range is a broken settings file, not a setting to try."""


def load_params(path: str | Path) -> DiceParams:
    """The settings in ``path`` (the format of ``assets/dice_model/params.json``: ``{"format": 1,
    "settings": {name: {"value": v, "why": "..."}}}``). Raises MissingFileError when the file is absent,
    FileFormatError naming the file and the key when it is not that JSON or a setting is missing,
    unknown, not a number of its kind (a whole number where the field is an ``int``; ``detect_levels`` a list of
    two) or outside its range (:data:`LIMITS`, else 0-1)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MissingFileError(f"{path}: the dice reader's settings are missing (reinstall the box)") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise FileFormatError(f"{path}: not the dice reader's settings ({e})") from None
    settings = data.get("settings") if isinstance(data, dict) else None
    if not isinstance(settings, dict) or data.get("format") != FORMAT:
        raise FileFormatError(f"{path}: not the dice reader's settings of format {FORMAT}")
    names = {f.name: f for f in fields(DiceParams)}
    unknown = sorted(set(settings) - set(names))
    missing = sorted(set(names) - set(settings))
    if unknown or missing:
        key = (unknown or missing)[0]
        raise FileFormatError(f"{path}: setting {key!r} is {'unknown' if unknown else 'missing'}")
    values = {}
    for name, entry in settings.items():
        value = entry.get("value") if isinstance(entry, dict) else None
        kind = names[name].type
        lo, hi = LIMITS.get(name, (0.0, 1.0))
        if kind.startswith("tuple"):
            ok = isinstance(value, list) and len(value) == 2 and all(_whole(v) for v in value)
            what = "a list of two whole numbers"
        elif kind == "int":
            ok, what = _whole(value), "a whole number"
        else:
            ok, what = _number(value), "a number"
        if not ok:
            raise FileFormatError(f"{path}: setting {name!r} has no \"value\" that is {what}")
        if not all(lo <= v <= hi for v in (value if isinstance(value, list) else [value])):
            raise FileFormatError(f"{path}: setting {name!r} is {value}, outside {lo:g}-{hi:g}")
        values[name] = tuple(value) if isinstance(value, list) else value
    return DiceParams(**values)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
