"""What the after-game summary shows: placings and scores, each player's luck in plain words, and the
game's course as a chart (``companion.stats``), page by page. Pure: frozen views with translated text;
``companion.display.summary`` draws them.

Pages: 0 the results (placings, scores, luck and captures), 1 the course. NEXT pages on, UNDO back,
CONFIRM leaves (``companion.app.summary``).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Button
from companion.i18n import N_, _, ngettext
from companion.registry import game_title
from companion.screens.common import key_legend
from companion.stats import GameSummary, Tally

PAGES = 2


@dataclass(frozen=True)
class ChartView:
    """A line chart: ``series[seat]`` values after each step, drawn in the seat's palette style; the
    axes' labels; ``high``: the top of the value axis (the largest value when None); ``names`` label the
    lines."""

    title: str
    x_label: str
    y_label: str
    series: tuple[tuple[float, ...], ...]
    names: tuple[str, ...]
    high: float | None = None


@dataclass(frozen=True)
class SummaryView:
    """One page of the summary: ``title``, ``lines`` (results and luck, page 0), ``chart`` (page 1),
    ``prompt``, ``message`` (always ""), ``keys`` and the page number."""

    title: str
    page: int
    pages: int
    lines: tuple[str, ...]
    chart: ChartView | None
    prompt: str
    message: str
    keys: tuple[tuple[str, str], ...]


def build_view(session, wins: dict[str, int] | None = None) -> SummaryView:
    """The page ``session.page`` of ``session.summary`` (a :class:`companion.stats.GameSummary`)."""
    summary: GameSummary = session.summary
    page = session.page
    title = _("{game}: after the game").format(game=game_title(summary.game))
    prompt = _("Page {page} of {pages}: NEXT for the next page, CONFIRM to leave").format(page=page + 1,
                                                                                         pages=PAGES)
    keys = key_legend(((Button.NEXT, N_("next page")), (Button.UNDO, N_("page back")), (Button.CONFIRM, N_("leave"))))
    if page == 0:
        return SummaryView(title, page, PAGES, result_lines(summary), None, prompt, "", keys)
    return SummaryView(title, page, PAGES, (), course_chart(summary), prompt, "", keys)


def final_line(session) -> str:
    """The summary adds no line to ``companion play``'s output."""
    return ""


def result_lines(summary: GameSummary) -> tuple[str, ...]:
    """Placings with scores, then each player's tallies in plain words."""
    lines = []

    def score(seat: int) -> str:
        n = summary.scores[seat]
        return f"{n} {ngettext(*summary.score, n)}"

    if summary.placings:
        for place, seat in enumerate(summary.placings, start=1):
            lines.append(_("{place}. {name}: {score}").format(place=place, name=summary.players[seat], score=score(seat)))
    else:
        lines.append(_("The game is not over yet."))
        for seat, name in enumerate(summary.players):
            lines.append(_("{name}: {score}").format(name=name, score=score(seat)))
    for tally in summary.tallies:
        lines.append(tally_text(summary.players[tally.seat], tally))
    return tuple(lines)


def tally_text(name: str, tally: Tally) -> str:
    """One tally in plain words (translated), e.g. "Ada went bust 3 times where the odds expected 2.1:
    unlucky"."""
    n = tally.count
    if tally.kind == "busts":
        text = ngettext("{name} went bust {n} time where the odds expected {e}",
                        "{name} went bust {n} times where the odds expected {e}", n)
        return text.format(name=name, n=n, e=f"{tally.expected:.1f}") + _luck(n, tally.expected, fewer_is_lucky=True)
    if tally.kind == "sixes":
        text = ngettext("{name} rolled {n} six in {rolls} rolls where a fair die gives {e}",
                        "{name} rolled {n} sixes in {rolls} rolls where a fair die gives {e}", n)
        return (text.format(name=name, n=n, rolls=tally.out_of, e=f"{tally.expected:.1f}")
                + _luck(n, tally.expected, fewer_is_lucky=False))
    if tally.kind == "captures":
        return ngettext("{name} captured {n} pawn", "{name} captured {n} pawns", n).format(name=name, n=n)
    return f"{name}: {tally.kind} {n}"


def _luck(count: int, expected: float | None, fewer_is_lucky: bool) -> str:
    """": lucky", ": unlucky" or "" (within one of the expectation: as the odds said)."""
    if expected is None or abs(count - expected) < 1.0:
        return ""
    lucky = (count < expected) == fewer_is_lucky
    return ": " + (_("lucky") if lucky else _("unlucky"))


def course_chart(summary: GameSummary) -> ChartView:
    """The course of the game as a chart view."""
    course = summary.course
    return ChartView(_("The course of the game"), _(course.step), _(course.what), course.series, summary.players,
                     course.high)
