"""What the after-game summary shows: placings and scores, each player's luck in plain words, and the
game's course as a chart (``companion.stats``), page by page. Pure: frozen views with translated text;
``companion.display.summary`` draws them.

Pages: the results (placings and scores), each player's luck and captures (at most
:data:`LINES_PER_PAGE` lines a page, a player's lines kept together), then the course. NEXT pages on,
UNDO back, CONFIRM leaves (``companion.app.summary``); :func:`page_prompt` and :func:`page_keys` say so
page by page, the last page offering CONFIRM.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.commands import Button
from companion.i18n import N_, _, decimal, ngettext, ordinal
from companion.registry import game_title
from companion.screens.common import key_legend
from companion.screens.palette import LUDO_COLOURS
from companion.stats import GameSummary, Tally

LINES_PER_PAGE = 5
"""Lines on one page of text: each may wrap onto two at 800x480 and still fit."""


@dataclass(frozen=True)
class ChartView:
    """A line chart: ``series[seat]`` values after each step, drawn in the seat's palette style; the
    axes' labels; ``high``: the top of the value axis (the largest value when None); ``names`` label the
    lines; ``colours``: each line's RGB where the players have colours of their own (Ludo), else ()."""

    title: str
    x_label: str
    y_label: str
    series: tuple[tuple[float, ...], ...]
    names: tuple[str, ...]
    high: float | None = None
    colours: tuple[tuple[int, int, int], ...] = ()


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


def pages(summary: GameSummary) -> list[tuple[str, ...] | None]:
    """The summary's pages in order: each a tuple of lines, the course chart's page as None (the last)."""
    out: list[tuple[str, ...] | None] = [tuple(result_lines(summary))]
    page: list[str] = []
    for seat, name in enumerate(summary.players):
        lines = [tally_text(name, tally) for tally in summary.tallies_of(seat)]
        if page and len(page) + len(lines) > LINES_PER_PAGE:
            out.append(tuple(page))
            page = []
        page += lines
    if page:
        out.append(tuple(page))
    return out + [None]


def build_view(session, wins: dict[str, int] | None = None) -> SummaryView:
    """The page ``session.page`` of ``session.summary`` (a :class:`companion.stats.GameSummary`)."""
    summary: GameSummary = session.summary
    every = pages(summary)
    page = min(session.page, len(every) - 1)
    title = _("{game}: after the game").format(game=game_title(summary.game))
    prompt, keys = page_prompt(page, len(every)), page_keys(page, len(every))
    lines = every[page]
    if lines is None:
        return SummaryView(title, page, len(every), (), course_chart(summary), prompt, "", keys)
    return SummaryView(title, page, len(every), lines, None, prompt, "", keys)


def page_prompt(page: int, pages: int) -> str:
    """The prompt of page ``page`` (0-based) of ``pages`` (translated), the same on every page so the
    header keeps its size (the last page's shorter prompt was drawn larger): "Page 2 of 3"; the key chips
    say what NEXT, UNDO and CONFIRM do there."""
    return _("Page {page} of {pages}").format(page=page + 1, pages=pages)


def page_keys(page: int, pages: int) -> tuple[tuple[str, str], ...]:
    """The key chips of page ``page`` of ``pages`` (translated): CONFIRM to leave first on the last page,
    the other pages' presses only where there is another page."""
    if pages <= 1:
        return key_legend(((Button.CONFIRM, N_("leave")),))
    if page >= pages - 1:
        return key_legend(((Button.CONFIRM, N_("leave")), (Button.UNDO, N_("page back")),
                           (Button.NEXT, N_("first page"))))
    return key_legend(((Button.NEXT, N_("next page")), (Button.UNDO, N_("page back")), (Button.CONFIRM, N_("leave"))))


def final_line(session) -> str:
    """The summary adds no line to ``companion play``'s output."""
    return ""


def result_lines(summary: GameSummary) -> tuple[str, ...]:
    """Placings with scores (or, while unfinished, each player's score)."""
    lines = []

    def score(seat: int) -> str:
        n = summary.scores[seat]
        return f"{n} {ngettext(*summary.score, n)}"

    if summary.placings:
        for place, seat in enumerate(summary.placings, start=1):
            lines.append(_("{place} {name}: {score}").format(place=ordinal(place), name=summary.players[seat],
                                                            score=score(seat)))
    else:
        lines.append(_("The game is not over yet."))
        for seat, name in enumerate(summary.players):
            lines.append(_("{name}: {score}").format(name=name, score=score(seat)))
    return tuple(lines)


def tally_text(name: str, tally: Tally) -> str:
    """One tally in plain words (translated), e.g. "Ada went bust 3 times where the odds expected 2.1:
    unlucky"."""
    n = tally.count
    if tally.kind == "busts":
        text = ngettext("{name} went bust {n} time where the odds expected {e}",
                        "{name} went bust {n} times where the odds expected {e}", n)
        return text.format(name=name, n=n, e=decimal(tally.expected)) + _luck(tally, fewer_is_lucky=True)
    if tally.kind == "sixes":
        text = ngettext("{name} rolled {n} six in {rolls} rolls where a fair die gives {e}",
                        "{name} rolled {n} sixes in {rolls} rolls where a fair die gives {e}", n)
        return (text.format(name=name, n=n, rolls=tally.out_of, e=decimal(tally.expected))
                + _luck(tally, fewer_is_lucky=False))
    if tally.kind == "captures":
        return ngettext("{name} captured {n} pawn", "{name} captured {n} pawns", n).format(name=name, n=n)
    return f"{name}: {tally.kind} {n}"


LUCK_SPREAD = 1.5
"""How many standard deviations from what fair dice give a count must lie to be called lucky or unlucky:
about one game in seven lies that far either way by chance alone (12 sixes in 79 rolls, 13.2 expected,
is no bad luck)."""


def _luck(tally: Tally, fewer_is_lucky: bool) -> str:
    """": lucky", ": unlucky" or "" (as the odds said): the count against its expectation, in standard
    deviations of a binomial count over ``out_of`` chances (the expectation's own, a Poisson count's,
    where the chances are not known), and never for a difference under one."""
    count, expected = tally.count, tally.expected
    if expected is None:
        return ""
    if tally.out_of:
        p = min(1.0, expected / tally.out_of)
        spread = math.sqrt(tally.out_of * p * (1 - p))
    else:
        spread = math.sqrt(expected)
    if abs(count - expected) < max(1.0, LUCK_SPREAD * spread):
        return ""
    lucky = (count < expected) == fewer_is_lucky
    return ": " + (_("lucky") if lucky else _("unlucky"))


def course_chart(summary: GameSummary) -> ChartView:
    """The course of the game as a chart view."""
    course = summary.course
    colours = tuple(LUDO_COLOURS[name] for name in summary.colours if name in LUDO_COLOURS)
    return ChartView(_("The course of the game"), _(course.step), _(course.what), course.series, summary.players,
                     course.high, colours if len(colours) == len(summary.players) else ())
