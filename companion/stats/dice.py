"""Are the table's dice fair? Every die the box read, counted by face, and Pearson's chi-square test.

A roll event (``{"type": "roll", "dice": [...]}`` in Can't Stop, ``{"type": "roll", "value": v}`` in
Ludo) holds the values the players confirmed and its ``source``: ``camera`` (read by the camera,
corrected or not) or ``hand`` (entered with the buttons). By default only camera rolls count (the
physical dice); rolls stored without a source (before it was recorded) count as entered by hand.

The test: Pearson's chi-square of the face counts against a fair six-sided die (5 degrees of freedom),
its p-value from ``scipy.stats.chi2``. It is only reported as a finding when every face's expected count
is at least 5 (Cochran's rule for the chi-square approximation: at least :data:`MIN_DICE` dice);
below that the verdict says it cannot tell yet. A die is called biased when p < :data:`ALPHA`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


from companion.i18n import _, decimal, ngettext, number

FACES = 6
MIN_DICE = 5 * FACES
"""Fewest dice for a verdict: an expected count of 5 per face (Cochran 1954)."""
ALPHA = 0.01
"""Significance level of a "biased" verdict (1 %: one fair box in a hundred would be told otherwise)."""


@dataclass(frozen=True)
class DiceRoll:
    """One roll: the values confirmed (1-6 each), its source (``camera``, ``hand``) and who rolled."""

    values: tuple[int, ...]
    source: str
    seat: int | None = None


def rolls_of(events: Iterable) -> list[DiceRoll]:
    """The roll events of one game's log (store events, in order) as :class:`DiceRoll` values."""
    rolls = []
    for event in events:
        payload = event.payload
        if not isinstance(payload, dict) or payload.get("type") != "roll":
            continue
        values = payload["dice"] if "dice" in payload else [payload["value"]]
        rolls.append(DiceRoll(tuple(int(v) for v in values), str(payload.get("source") or "hand")))
    return rolls


def face_counts(rolls: Iterable[DiceRoll], *, hand: bool = False) -> list[int]:
    """How many dice showed each face 1-6 (index 0 = ones) over ``rolls``; ``hand`` adds the rolls
    entered by hand to the camera's."""
    faces = [0] * FACES
    for roll in rolls:
        if roll.source == "camera" or hand:
            for value in roll.values:
                if 1 <= value <= FACES:
                    faces[value - 1] += 1
    return faces


@dataclass(frozen=True)
class Fairness:
    """The test of ``faces`` (counts of 1..6): ``chi2`` (Pearson's statistic), ``p_value`` (0-1; 1.0 for
    no dice), ``enough`` (at least :data:`MIN_DICE` dice), ``biased`` (enough and p < :data:`ALPHA`)."""

    faces: tuple[int, ...]
    chi2: float
    p_value: float

    @property
    def dice(self) -> int:
        return sum(self.faces)

    @property
    def enough(self) -> bool:
        return self.dice >= MIN_DICE

    @property
    def biased(self) -> bool:
        return self.enough and self.p_value < ALPHA

    def strangest_face(self) -> tuple[int, bool]:
        """The face (1-6) furthest from its expected count, and whether it came up more often."""
        expected = self.dice / FACES
        face = max(range(FACES), key=lambda i: abs(self.faces[i] - expected))
        return face + 1, self.faces[face] > expected

    def verdict(self) -> str:
        """The finding in plain words (translated), only as strong as the sample allows."""
        n = self.dice
        if not self.enough:
            return ngettext("Too few dice to tell yet: {n} die read, a verdict needs {need}",
                            "Too few dice to tell yet: {n} dice read, a verdict needs {need}", n).format(
                n=n, need=MIN_DICE)
        if self.biased:
            face, more = self.strangest_face()
            text = (_("{face} comes up more often than a fair die would: p = {p}") if more else
                    _("{face} comes up less often than a fair die would: p = {p}"))
            return text.format(face=face, p=_p_text(self.p_value))
        return ngettext("No sign of a biased die after {n} roll", "No sign of a biased die after {n} rolls",
                        n).format(n=number(n))

    def to_dict(self) -> dict:
        return {"faces": list(self.faces), "chi2": round(self.chi2, 4), "p_value": self.p_value,
                "verdict": self.verdict()}


def fairness(faces: Iterable[int]) -> Fairness:
    """Pearson's chi-square test of the six face counts against a fair die (module docstring).
    Raises ValueError unless there are six counts, none negative."""
    counts = tuple(int(c) for c in faces)
    if len(counts) != FACES or min(counts) < 0:
        raise ValueError(f"six face counts, none negative, not {counts}")
    n = sum(counts)
    if n == 0:
        return Fairness(counts, 0.0, 1.0)
    expected = n / FACES
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    # Imported here: scipy.stats takes about a second to import (more on a Pi), and the box would pay
    # it at every start for a figure shown only on the menu's dice screen and by `stats`.
    from scipy.stats import chi2 as chi_square

    return Fairness(counts, statistic, float(chi_square.sf(statistic, FACES - 1)))


def _p_text(p: float) -> str:
    return "< " + decimal(0.001, 3) if p < 0.001 else decimal(p, 3)
