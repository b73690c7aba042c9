"""What the after-game statistics of every game are made of: a game's course, its counts, its summary.

Pure values, no I/O: each game's module (``companion.stats.<game>.summarise``) replays a saved game's
event log through the session's own replay (``replay_state(..., step=...)``) and fills a
:class:`GameSummary`; the screens word it (``companion.screens.summary``) and the display draws it.
Labels are marked for translation (``N_``) and translated by whoever shows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Course:
    """A game's course as one line a seat: ``series[seat][k]`` is that seat's value after step ``k``.

    what: the value's name (untranslated, e.g. "progress"), step: the step's name ("turn", "round"),
    high: the value's largest possible value (the chart's top; None: the largest value seen).
    """

    what: str
    step: str
    series: tuple[tuple[float, ...], ...]
    high: float | None = None

    @property
    def steps(self) -> int:
        """How many steps the longest line has."""
        return max((len(s) for s in self.series), default=0)


@dataclass(frozen=True)
class Tally:
    """One seat's count of something that happened: ``kind`` is ``busts`` (Can't Stop, A.5.3),
    ``sixes`` (Ludo) or ``captures`` (Ludo, B.5); ``expected`` what fair dice would have given on
    average (None where chance plays no part, e.g. captures) and ``out_of`` the chances it had (rolls)."""

    seat: int
    kind: str
    count: int
    expected: float | None = None
    out_of: int | None = None

    def to_dict(self) -> dict:
        return {"kind": self.kind, "count": self.count, "expected": self.expected, "out_of": self.out_of}


@dataclass(frozen=True)
class GameSummary:
    """One game's summary: players (names, seat order), ``placings`` (seats, first to last; empty while
    unfinished), ``scores[seat]`` with ``score`` naming one and many of them (untranslated, e.g.
    ("column", "columns")), its course, each seat's tallies (luck where the game has chance), and
    ``turns``: the turns played, each one in which the player to act did something (a roll, a move, a
    card, a claim or a pass), counted over a whole match; rounds in the donkey race (the course's
    ``step`` names the unit). ``colours``: each seat's colour on the table where the game gives its
    players colours of their own (Ludo's pawns: ``"red"``, ``"yellow"``...), else ``()`` (the palette's)."""

    game: str
    players: tuple[str, ...]
    placings: tuple[int, ...]
    scores: tuple[int, ...]
    score: tuple[str, str]
    course: Course
    tallies: tuple[Tally, ...] = field(default=())
    turns: int = 0
    colours: tuple[str, ...] = ()

    @property
    def finished(self) -> bool:
        return bool(self.placings)

    def tallies_of(self, seat: int) -> tuple[Tally, ...]:
        return tuple(t for t in self.tallies if t.seat == seat)
