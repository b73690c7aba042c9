"""Measure the board reader against labels: per-square accuracy, yard counts, pawn precision and recall.

Label format (one frame; see ``tests/fixtures/ludo_board/labels.json``): ``{"squares": {"<track index>":
"<colour>" or [colours]}, "yards": {colour: count or null when not visible}, "homes": {colour: [k, ...]},
"clockwise": [colours]}``. An observation is compared with :func:`compare`; :func:`summarise` adds up
many comparisons.
"""

from __future__ import annotations

from vision.board_ludo import BoardObservation


def _label_squares(label: dict) -> dict[int, tuple[str, ...]]:
    out = {}
    for k, v in label.get("squares", {}).items():
        out[int(k)] = tuple(sorted([v] if isinstance(v, str) else v))
    return out


def compare(obs: BoardObservation, label: dict, track_length: int) -> dict:
    """Counts for one frame.

    Returns ``{"found": 0/1, "orientation": 0/1 (printed colour order right), "squares": places compared
    (every track square and every home square), "squares_right": those read right (same colours or both
    empty), "pawns": labelled pawns on squares, "pawns_found": of them read on the right square in the
    right colour, "pawns_read": pawns read on squares, "yards": yard counts compared (visible ones),
    "yards_right": counts read exactly}``.
    """
    truth = _label_squares(label)
    got = {k: tuple(sorted(v)) for k, v in obs.squares.items()}
    right = sum(1 for i in range(track_length) if truth.get(i, ()) == got.get(i, ()))
    homes_truth = {c: set(v) for c, v in label.get("homes", {}).items()}
    home_places = right_homes = 0
    for colour, occupied in obs.homes.items():
        n = max([*occupied, *homes_truth.get(colour, ()), 4]) + 1
        for k in range(n):
            home_places += 1
            right_homes += (k in occupied) == (k in homes_truth.get(colour, set()))
    pawns = sum(len(v) for v in truth.values())
    pawns_found = sum(len(set(v) & set(got.get(i, ()))) for i, v in truth.items())
    pawns_read = sum(len(v) for v in got.values())
    yards = yards_right = 0
    for colour, count in label.get("yards", {}).items():
        if count is None:
            continue
        yards += 1
        yards_right += int(obs.yards.get(colour) == count)
    return {
        "found": int(obs.found),
        "orientation": int(obs.found and list(obs.clockwise) == list(label.get("clockwise", obs.clockwise))),
        "squares": track_length + home_places,
        "squares_right": right + right_homes,
        "pawns": pawns, "pawns_found": pawns_found, "pawns_read": pawns_read,
        "yards": yards, "yards_right": yards_right,
    }


def summarise(results: list[dict]) -> dict:
    """Totals and rates over many :func:`compare` results (rates 0-1, rounded to 4 places)."""
    tot = {k: sum(r[k] for r in results) for k in results[0]} if results else {}
    if not tot:
        return {}

    def rate(a: str, b: str) -> float:
        return round(tot[a] / tot[b], 4) if tot[b] else 1.0

    return {
        "frames": len(results),
        "found_rate": round(tot["found"] / len(results), 4),
        "orientation_rate": round(tot["orientation"] / len(results), 4),
        "square_accuracy": rate("squares_right", "squares"),
        "pawn_recall": rate("pawns_found", "pawns"),
        "pawn_precision": rate("pawns_found", "pawns_read"),
        "yard_count_accuracy": rate("yards_right", "yards"),
        **tot,
    }
