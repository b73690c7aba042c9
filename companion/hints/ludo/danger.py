"""Capture danger for the Ludo advisor: the chance that an own pawn is hit before its seat moves again.

Used by :mod:`companion.hints.ludo.advisor`. Rules: ``ludo.md`` B.4 (a six gives a bonus roll, a third six in a
row is forfeit), B.5 (capture by landing on the square; entering captures on the entering colour's start
square), B.7 (safe squares, ``capture_on_opponent_start``, blocks, ``entry_rolls``).

Model of one opponent's next turn (it is assumed to capture whenever it can, as a careful player would):

- a first roll ``r`` (1-5) hits when one of its pawns stands exactly ``r`` squares behind the square along
  its own path, or, on its own start square, when ``r`` is an entry roll and a pawn waits in its yard;
- a first six hits the same way, and otherwise buys a bonus roll (B.4.4) that hits when a pawn stands
  ``r2`` behind after the six was used: the pawns that did not move, a pawn 7-12 behind moved 6 closer,
  or a pawn just entered on its start square (a six entry, B.4.3); a second six on the bonus roll counts
  only as a direct hit (the third roll's chain is left out: under 1/216).

The opponents' chances combine as independent events: ``1 - prod(1 - p)``. Opponent pawns do not
move between the opponents' turns in this model (one round of look-ahead only).
"""

from __future__ import annotations

from companion.games.ludo import YARD

Pawns = tuple[tuple[int, ...], ...]


def turn_hit_chance(behind: frozenset[int] | set[int], entry_hits: tuple[int, ...], entry_then: int) -> float:
    """Chance (0-1) that one opponent can land on the square during its next turn.

    behind: distances (1-12) along the opponent's path from its pawns to the square. entry_hits: the
    entry rolls that put a pawn on the square itself (the square is the opponent's start square and a pawn
    waits in its yard), else ``()``. entry_then: the distance (1-6) of the square from the opponent's start
    square when a pawn waits in its yard and 6 is an entry roll (enter with a six, then hit with the bonus
    roll), else 0.

    >>> round(turn_hit_chance({4}, (), 0), 4)  # 4 (1/6) or 6 then 4 (1/36)
    0.1944
    """
    first = set(d for d in behind if d <= 6)
    first.update(entry_hits)
    p = sum(1 for r in range(1, 6) if r in first) / 6.0
    if 6 in first:
        return p + 1 / 6
    second = set(first)
    second.update(d - 6 for d in behind if 6 < d <= 12)
    if entry_then:
        second.add(entry_then)
    p2 = sum(1 for r in range(1, 7) if r in second) / 6.0
    return p + p2 / 6


def exposed_square(state, seat: int, rel: int, occ: dict[int, dict[int, int]]) -> int | None:
    """The absolute track index of ``seat``'s pawn at ``rel`` when it can be captured there, else None:
    off the track (yard, home: B.5), on a protected square (B.7) or on an own block (B.7)."""
    geo = state.geometry
    if not 0 <= rel < geo.track_positions:
        return None
    a = (state.start_offset(seat) + rel) % geo.track_length
    if state.is_protected(seat, a):
        return None
    if state.config.own_stacking == "block" and occ.get(a, {}).get(seat, 0) >= 2:
        return None
    return a


def hit_chance(state, pawns: Pawns, seat: int, rel: int, occ: dict[int, dict[int, int]]) -> float:
    """Chance (0-1) that ``seat``'s pawn at relative ``rel`` is captured before ``seat`` moves again.

    pawns: every seat's relative positions (``state.pawns`` or a position after a move); occ: the absolute
    occupancy of ``pawns`` (absolute track index -> {seat: count}). 0 off the track (yard, home: B.5 private
    home), on a protected square (safe square, own start with ``capture_on_opponent_start = false``, B.7) and
    on an own block (B.7 ``own_stacking = block``).
    """
    a = exposed_square(state, seat, rel, occ)
    if a is None:
        return 0.0
    geo, cfg = state.geometry, state.config
    tp, n = geo.track_positions, geo.track_length
    six_entry = 6 in cfg.entry_rolls
    miss = 1.0
    for other, opp in enumerate(pawns):
        if other == seat or other in state.placings:
            continue
        ro = (a - state.start_offset(other)) % n
        if ro >= tp:
            continue  # the opponent turns into its home before this square (B.2)
        behind = {ro - q for q in opp if 0 <= q < ro and ro - q <= 12}
        waiting = YARD in opp
        entry_hits = cfg.entry_rolls if (ro == 0 and waiting) else ()
        entry_then = ro if (waiting and six_entry and 1 <= ro <= 6) else 0
        if not behind and not entry_hits and not entry_then:
            continue
        miss *= 1.0 - turn_hit_chance(behind, entry_hits, entry_then)
    return 1.0 - miss


def threat_count(state, pawns: Pawns, seat: int, rel: int, occ: dict[int, dict[int, int]],
                 far: float = 1 / 36) -> float:
    """The additive danger score of ``seat``'s pawn at ``rel`` (0-1): 1/6 for every opponent pawn 1-6
    squares behind it, ``far`` for every one 7-12 behind, and the chance of an entry roll when the square
    is an opponent's start square and that opponent has a pawn in its yard (B.5); summed, capped at 1.

    Unlike :func:`hit_chance` it counts two threats of one opponent twice, so it weighs a crowd of
    pawns behind more heavily; 0 on the same squares as :func:`hit_chance` (off the track, protected, a
    block).
    """
    a = exposed_square(state, seat, rel, occ)
    if a is None:
        return 0.0
    geo, cfg = state.geometry, state.config
    tp, n = geo.track_positions, geo.track_length
    chance = 0.0
    entry = len(cfg.entry_rolls) / 6.0
    for other, opp in enumerate(pawns):
        if other == seat or other in state.placings:
            continue
        ro = (a - state.start_offset(other)) % n
        if ro >= tp:
            continue
        if ro == 0 and YARD in opp:
            chance += entry
        for q in opp:
            if 0 <= q < ro:
                d = ro - q
                if d <= 6:
                    chance += 1 / 6
                elif d <= 12:
                    chance += far
    return min(1.0, chance)
