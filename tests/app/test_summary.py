"""The after-game summary: its pages, its buttons and its words (companion.app.summary,
companion.screens.summary, companion.display.summary)."""

import pygame

from companion.app.summary import SummarySession
from companion.commands import Command
from companion.display import summary as summary_display
from companion.screens import summary as summary_screen
from companion.stats import Course, GameSummary, Tally

SUMMARY = GameSummary("cant-stop", ("Ada", "Ben"), (1, 0), (1, 3), ("column", "columns"),
                      Course("columns climbed", "turn", ((0.0, 0.5, 1.0), (0.5, 2.0, 3.0))),
                      (Tally(0, "busts", 4, 1.5, 20), Tally(1, "busts", 1, 1.2, 18)))


def test_next_pages_undo_goes_back_confirm_leaves():
    session = SummarySession(SUMMARY, 7)
    assert (session.page, session.finished, session.wants_frame, session.active_seat) == (0, False, False, None)
    session.on_command(Command.parse("next"))
    assert session.page == 1
    session.on_command(Command.parse("next"))
    session.on_command(Command.parse("next"))
    assert session.page == 0  # round again
    session.on_command(Command.parse("undo"))
    assert session.page == 2
    session.on_command(Command.parse("confirm"))
    assert session.finished and session.mode.value == "summary"


def test_the_pages_word_placings_scores_and_luck():
    session = SummarySession(SUMMARY, 7)
    view = summary_screen.build_view(session)
    assert session.pages == 3 and view.title == "Can't Stop: after the game" and view.chart is None
    assert view.lines == ("1st Ben: 3 columns", "2nd Ada: 1 column")
    assert view.prompt == "Page 1 of 3"
    assert ("CONFIRM", "leave") in view.keys
    session.on_command(Command.parse("next"))
    assert summary_screen.build_view(session).lines == ("Ada went bust 4 times where the odds expected 1.5: unlucky",
                                                        "Ben went bust 1 time where the odds expected 1.2")


def test_a_players_lines_stay_on_one_page():
    four = GameSummary("ludo", ("Ada", "Ben", "Cy", "Di"), (0, 1, 2, 3), (4, 3, 1, 0), ("pawn home", "pawns home"),
                       Course("pawns home", "turn", ((0.0,),) * 4, 4.0),
                       tuple(t for s in range(4) for t in (Tally(s, "sixes", 5, 5.0, 30), Tally(s, "captures", s))))
    every = summary_screen.pages(four)
    assert len(every) == 4 and every[-1] is None  # results, two pages of luck, the course
    assert all(len(page) <= summary_screen.LINES_PER_PAGE for page in every[:-1])
    assert [line.split()[0] for line in every[1] + every[2]] == ["Ada", "Ada", "Ben", "Ben", "Cy", "Cy", "Di", "Di"]


def test_sixes_and_captures_in_words():
    assert summary_screen.tally_text("Cy", Tally(2, "sixes", 9, 4.0, 24)) == (
        "Cy rolled 9 sixes in 24 rolls where a fair die gives 4.0: lucky")
    assert summary_screen.tally_text("Cy", Tally(2, "sixes", 1, 4.0, 24)).endswith(": unlucky")
    assert summary_screen.tally_text("Cy", Tally(2, "captures", 1)) == "Cy captured 1 pawn"
    # #51: 12 sixes in 79 rolls (13.2 expected, 3.3 the spread) is what fair dice give, no bad luck
    assert summary_screen.tally_text("Ada", Tally(0, "sixes", 12, 79 / 6, 79)) == (
        "Ada rolled 12 sixes in 79 rolls where a fair die gives 13.2")
    assert summary_screen.tally_text("Ada", Tally(0, "sixes", 7, 79 / 6, 79)).endswith(": unlucky")  # 1.9 spreads


def test_the_course_page_is_a_chart_drawn_at_both_sizes():
    session = SummarySession(SUMMARY, 7)
    session.on_command(Command.parse("undo"))  # the last page: the course
    view = summary_screen.build_view(session)
    assert view.chart is not None and view.chart.series == SUMMARY.course.series
    assert view.chart.names == ("Ada", "Ben") and view.chart.x_label == "turn"
    for size in ((800, 480), (1280, 720)):
        for page in (0, 1, 2):
            session.page = page
            surface = pygame.Surface(size)
            summary_display.draw(surface, summary_screen.build_view(session))
            assert len({surface.get_at((x, y))[:3] for x in range(0, size[0], 8) for y in range(0, size[1], 8)}) > 3


def test_the_last_page_offers_confirm_to_leave():
    """Issue 37: the last page no longer says "NEXT for the next page"; its first key chip is CONFIRM."""
    session = SummarySession(SUMMARY, 7)
    screen = summary_screen
    view = screen.build_view(session)
    assert view.prompt == "Page 1 of 3"
    assert view.keys == (("NEXT", "next page"), ("UNDO", "page back"), ("CONFIRM", "leave"))
    session.on_command(Command.parse("undo"))  # the last page: the course
    view = screen.build_view(session)
    assert view.chart is not None and view.prompt == "Page 3 of 3" and view.keys[0][0] == "CONFIRM"
    assert view.keys == (("CONFIRM", "leave"), ("UNDO", "page back"), ("NEXT", "first page"))
    assert summary_screen.page_keys(0, 1) == (("CONFIRM", "leave"),)
