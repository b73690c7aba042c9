"""At the product's 800 x 480 screen (and at 1280 x 720) every text a player reads is at least the floor
size, whole, inside the screen and clear of every other text, on every game screen, 2-4 players, the
menus, How to play, the summary and History, in every language the box speaks.

Real views: Can't Stop sessions on positions whose advisor hints are the longest met in random play
(threat notes: "...; column 6 is nearly lost: the opponent claims it next turn with 58%") with up to six
options, plus the longest hint the advisor's templates can make; Ludo and donkey race sessions walked
through random games; Schotten Totten's two players; every screen of each game's by-hand script. Every
line of text drawn is recorded by the text log (``companion.display.text.TextLog``) and checked by
``companion.display.checks.problems``; each name must be drawn whole and the hint's words all drawn in
order. Set COMPANION_SHOTS=DIR to keep the screenshots.
"""

import os
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.display import fonts, text
from companion.display.checks import problems
from companion.games import CHANCE, TERMINAL
from companion.i18n import LANGUAGES, _, ngettext, percent, set_language
from companion.screens.cant_stop import build_view as cant_stop_view
from companion.screens.donkey_race import build_view as donkey_race_view
from companion.screens.ludo import build_view as ludo_view
from companion.screens.schotten_totten import build_view as schotten_totten_view
from companion.store import Store

SIZE = (800, 480)
NAMES = ("Bartholomäus", "Wilhelmina W", "Konstantinos", "Maximilianne")  # MAX_NAME_LENGTH each


@pytest.fixture(params=list(LANGUAGES), autouse=True)
def language(request):
    """Every test of this module in every language."""
    set_language(request.param)
    yield request.param
    set_language("en")


def worst_cant_stop_hint() -> str:
    """The longest line the Can't Stop advisor's templates make, in the current language (every number
    at its widest): ``Pair 10+12: win chance 100% (100% otherwise); next roll busts 100%; column 12 is
    nearly lost: the opponent claims it next turn with 100%``."""
    whole = percent(1.0)
    head = _("Pair {first}+{second}").format(first=10, second=12)
    return (_("{choice}: win chance {win} ({other} otherwise); next roll busts {risk}").format(
        choice=head, win=whole, other=whole, risk=whole)
        + _("; column {column} is nearly lost: the opponent claims it next turn with {chance}").format(
            column=12, chance=whole))


def hint_line(hint: str) -> str:
    return _("Hint: ") + hint

POSITIONS = (  # `cant-stop moves` positions (CHOOSE) with long real hints, found by random play
    {"players": list(NAMES[:2]), "active": "Wilhelmina W", "dice": [2, 4, 5, 6],
     "markers": {"Bartholomäus": {"3": 2, "7": 5, "8": 4}}, "runners": {"3": 1, "12": 1}},  # six options
    {"players": list(NAMES[:2]), "active": "Bartholomäus", "dice": [2, 5, 6, 6],
     "markers": {"Bartholomäus": {"4": 7, "6": 7, "8": 2, "9": 1, "12": 2},
                 "Wilhelmina W": {"2": 1, "8": 9, "9": 5, "10": 7, "11": 2, "12": 1}},
     "claimed": {"4": "Bartholomäus", "10": "Wilhelmina W"}},
    {"players": list(NAMES[:3]), "active": "Bartholomäus", "dice": [1, 3, 5, 6],
     "markers": {"Bartholomäus": {"5": 3, "6": 5, "7": 4, "8": 6, "11": 1},
                 "Wilhelmina W": {"4": 3, "6": 9, "7": 3, "8": 8, "9": 1, "10": 3, "12": 2},
                 "Konstantinos": {"2": 3, "4": 4, "5": 2, "6": 7, "7": 6, "8": 9, "10": 1, "11": 4}},
     "runners": {"7": 5, "10": 1}, "claimed": {"2": "Konstantinos"}},
    {"players": list(NAMES), "active": "Wilhelmina W", "dice": [1, 2, 5, 6],
     "markers": {"Bartholomäus": {"5": 1, "6": 9, "7": 7, "8": 4, "9": 2, "11": 1, "12": 3},
                 "Wilhelmina W": {"2": 1, "5": 2, "7": 1, "9": 4, "10": 1},
                 "Konstantinos": {"2": 1, "3": 1, "4": 7, "6": 6, "7": 4, "10": 2},
                 "Maximilianne": {"5": 4, "7": 2, "8": 5, "9": 1}},
     "runners": {"9": 5, "10": 2}, "claimed": {"4": "Konstantinos", "12": "Bartholomäus"}},
)


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield
    pygame.display.quit()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("COMPANION_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def logged(render) -> list[dict]:
    """The text log of what ``render()`` draws (one frame)."""
    entries: list[dict] = []
    previous = text.start_log(text.TextLog(entries.append))
    try:
        text.begin_frame("test")
        render()
    finally:
        text.start_log(previous)
    return entries


def drawn_lines(monkeypatch, render) -> list[dict]:
    """The text log of ``render()`` (``monkeypatch`` is unused: kept so the callers read alike)."""
    return logged(render)


def words(line: str) -> str:
    return " ".join(line.split())


def assert_readable(entries: list[dict], names, hint: str, where: str, size: tuple[int, int] = SIZE) -> None:
    """Every text passes the checks (floor, whole, inside, no overlap); each name drawn whole; the hint
    (when given) drawn in full, in order."""
    found = problems(entries, size)
    assert not found, f"{where}: {found[:5]}"
    lines = [entry["text"] for entry in entries]
    for name in names:
        assert any(name in line for line in lines), f"{where}: {name} not drawn whole"
    if hint:
        assert words(hint) in words(" ".join(lines)), f"{where}: hint not drawn in full"


def save(surface: pygame.Surface, folder: Path, name: str) -> None:
    pygame.image.save(surface, str(folder / f"{name}.png"))


# --- Can't Stop --------------------------------------------------------------------------------------------

def _photo() -> np.ndarray:
    img = np.full((300, 400, 3), (90, 110, 100), np.uint8)
    for x0, y0 in ((60, 40), (130, 50), (70, 120), (200, 150)):
        img[y0:y0 + 40, x0:x0 + 40] = 245
    return img


def _cant_stop_views(tmp_path):
    """(where, view) for each position with 2, 3 and 4 players: CHOOSE with its real hint, the DECIDE that
    the hint's choice leads to, and CHOOSE with the longest possible hint."""
    from companion.games.cant_stop import Phase, state_from_position
    from companion.session.cant_stop import CantStopSession

    with Store(tmp_path / "fit.sqlite3") as store:
        for k, position in enumerate(POSITIONS):
            for n in range(len(position["players"]), 5):
                players = list(NAMES[:n])
                session = CantStopSession(store, store.new_game("cant-stop", players, {}), players,
                                          rng=random.Random(1))
                session.state = state_from_position({**position, "players": players})
                view = cant_stop_view(session)
                yield f"position {k}, {n} players, choose", replace(view, frame_bgr=_photo())
                yield f"position {k}, {n} players, longest hint", replace(view, frame_bgr=_photo(),
                                                                          hint=worst_cant_stop_hint())
                session.state = session.state.apply(session.hint().action)
                if session.state.phase is Phase.DECIDE:
                    yield f"position {k}, {n} players, decide", replace(cant_stop_view(session), frame_bgr=_photo())


def test_cant_stop_hints_and_names_are_never_cut(tmp_path, monkeypatch, shots):
    from companion.display.cant_stop import render as render_to_surface
    from companion.display.cant_stop import screen_layout
    from companion.display.chrome import chrome_layout
    from companion.display.cant_stop_hint import hint_placement

    seen = set()
    for where, view in _cant_stop_views(tmp_path):
        lines = drawn_lines(monkeypatch, lambda view=view: save(render_to_surface(view, SIZE), shots,
                                                                  "cant-stop " + where))
        assert_readable(lines, [p.name for p in view.chrome.seats], hint_line(view.hint) if view.hint else "", where)
        layout = screen_layout(view, SIZE)
        placed = hint_placement(view, layout)
        assert placed is not None and not placed.cut, where
        assert placed.size in (layout.normal, layout.small), where
        assert fonts.font(placed.size).get_linesize() * len(placed.lines) <= placed.body.height, where
        frame = chrome_layout(view.chrome, SIZE)
        if placed.in_band:  # under board and panel: in the notice band's space (no notice), else in the body
            band = layout.hint_band
            assert layout.side.bottom <= band.top and layout.board.bottom <= band.top, where
            assert band == frame.notice and not view.chrome.notice or band.bottom <= layout.body.bottom, where
        rows = len({chip.cell.y for chip in frame.chips})
        seen.add((len(view.chrome.seats), placed.in_band, rows))
    assert {(2, True, 1), (2, False, 1), (4, True, 2)} <= seen  # both places of the hint, both strip layouts


def test_four_long_names_take_two_strip_rows_and_two_fit_one():
    from companion.display.chrome import chrome_layout
    from companion.screens.common import Chrome, SeatChip

    def chrome(n, wins=0):
        return Chrome("Can't Stop", tuple(SeatChip(name, i, "columns 0/3", wins) for i, name in enumerate(NAMES[:n])),
                      0, "Roll the dice")

    rows = [len({chip.cell.y for chip in chrome_layout(chrome(n), SIZE).chips}) for n in (2, 3, 4)]
    assert rows[0] == 1 and rows[1] <= 2 and rows[2] == 2  # three of the longest names may take two rows
    two, four = chrome_layout(chrome(2), SIZE), chrome_layout(chrome(4, wins=12), SIZE)
    cells = four.chips
    assert [c.index for c in cells] == [0, 1, 2, 3]
    assert cells[0].cell.y == cells[1].cell.y < cells[2].cell.y == cells[3].cell.y  # two players a row
    assert cells[0].cell.x == cells[2].cell.x and cells[1].cell.x == cells[3].cell.x  # in columns
    assert all(c.name.width >= text.width_of(NAMES[c.index], four.type.normal, bold=True) for c in cells)
    assert four.strip.height > two.strip.height and four.body.height < two.body.height


def test_a_short_hint_stays_in_the_panel_and_the_layout_is_unchanged():
    from companion.display.cant_stop import screen_layout
    from companion.display.chrome import chrome_layout
    from companion.display.cant_stop_hint import hint_placement
    from companion.display.cant_stop_layout import ScreenLayout
    from companion.screens.cant_stop import CantStopBoardView, ScreenView
    from companion.screens.common import Chrome, SeatChip

    chrome = Chrome("Can't Stop", (SeatChip("Ada", 0), SeatChip("Ben", 1)), 0, "Roll again or bank?")
    view = ScreenView(chrome, CantStopBoardView({7: 13}, {}, {}, {}), bust_probability=0.1,
                      hint=_("Bank: this wins the game"))
    layout = screen_layout(view, SIZE)
    assert layout == ScreenLayout.for_body(SIZE, chrome_layout(chrome, SIZE).body)
    placed = hint_placement(view, layout)
    assert not placed.in_band and " ".join(placed.lines) == hint_line(_("Bank: this wins the game"))
    assert placed.size == layout.normal and layout.side.contains(placed.region)


# --- Ludo, donkey race, Schotten Totten ---------------------------------------------------------------------

def walk(session, seed: int, steps: int):
    """Random legal play from the session's state, the session following; yields at each decision."""
    rng = random.Random(seed)
    state = session.state
    for _ in range(steps):
        if state.current_player == TERMINAL:
            return
        if state.current_player == CHANCE:
            actions, chances = zip(*state.chance_outcomes(), strict=True)
            state = state.apply(rng.choices(actions, [float(p) for p in chances])[0])
            continue
        session.state = state
        yield state
        state = state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ludo_hints_and_names_are_never_cut(n, tmp_path, monkeypatch, shots):
    from companion.display.ludo import render
    from companion.session.ludo import LudoSession

    players = list(NAMES[:n])
    with Store(tmp_path / "ludo.sqlite3") as store:
        session = LudoSession(store, store.new_game("ludo", players, {}), players, rng=random.Random(n))
        views = [ludo_view(session) for _state in walk(session, n, 160)]
    hinted = [v for v in views if v.hint]
    assert hinted
    crowded = max(hinted, key=lambda v: (len(v.moves), len(v.hint)))
    for k, view in enumerate({id(v): v for v in [crowded, *hinted[:: max(1, len(hinted) // 6)]]}.values()):
        lines = drawn_lines(monkeypatch, lambda view=view: save(render(view, SIZE), shots, f"ludo {n}p {k}"))
        assert_readable(lines, players, hint_line(view.hint), f"ludo {n} players: {view.hint}")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_donkey_race_hints_and_names_are_never_cut(n, tmp_path, monkeypatch, shots):
    from companion.display.donkey_race import render as render_donkey_race
    from companion.session.donkey_race import DonkeyRaceSession

    players = list(NAMES[:n])
    with Store(tmp_path / "donkey.sqlite3") as store:
        session = DonkeyRaceSession(store, store.new_game("donkey-race", players, {}), players)
        views = [donkey_race_view(session) for _state in walk(session, n, 200)]
    hinted = sorted((v for v in views if v.hint), key=lambda v: len(v.hint))
    assert hinted
    longest = replace(hinted[-1], hint=hinted[-1].hint + " " + hinted[0].hint)  # longer than any one reason
    for k, view in enumerate((hinted[0], hinted[-1], longest)):
        lines = drawn_lines(monkeypatch, lambda view=view: save(render_donkey_race(view, SIZE), shots,
                                                                  f"donkey-race {n}p {k}"))
        assert_readable(lines, players, hint_line(view.hint), f"donkey race {n} players: {view.hint}")


def test_schotten_totten_names_are_never_cut(tmp_path, monkeypatch, shots):
    from companion.display.schotten_totten import render as render_to_surface
    from companion.session.schotten_totten import SchottenTottenSession

    players = list(NAMES[:2])
    with Store(tmp_path / "st.sqlite3") as store:
        session = SchottenTottenSession(store, store.new_game("schotten-totten", players, {}), players,
                                        rng=random.Random(1))
        view = schotten_totten_view(session)
    from companion.screens.common import with_chrome
    from companion.screens.schotten_totten import seat_standing

    seats = tuple(replace(chip, score=seat_standing(12 - 2 * k, 5 - k)) for k, chip in enumerate(view.chrome.seats))
    for k, shown in enumerate((view, with_chrome(view, seats=seats))):
        lines = drawn_lines(monkeypatch, lambda shown=shown: save(render_to_surface(shown, SIZE), shots,
                                                                    f"schotten-totten {k}"))
        assert_readable(lines, players, "", "schotten totten")


# --- any hint up to the advisors' length, any two to four short names ----------------------------------------

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789%+();:,.", min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(hint_words=st.lists(WORD, min_size=1, max_size=40), n=st.integers(2, 4), options=st.integers(0, 6),
       names=st.lists(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz 1234", min_size=1,
                              max_size=10).map(str.strip).filter(bool), min_size=4, max_size=4, unique=True))
def test_any_hint_up_to_150_characters_and_any_short_names_fit(hint_words, n, options, names):
    from companion.display.cant_stop import screen_layout
    from companion.display.chrome import chrome_layout
    from companion.display.cant_stop_hint import hint_placement
    from companion.screens.cant_stop import CantStopBoardView, OptionView, ScreenView
    from companion.screens.common import Chrome, SeatChip

    hint = " ".join(hint_words)[:150].strip() or "x"
    chrome = Chrome("Can't Stop", tuple(SeatChip(name, i, "columns 0/3", 0) for i, name in enumerate(names[:n])), 0,
                    "Choose a pairing")
    view = ScreenView(chrome, CantStopBoardView({7: 13}, {}, {}, {}), frame_bgr=_photo(),
                      options=tuple(OptionView(f"{k + 2}", f"bust 26% \u00b7 {k + 2} to 1/11") for k in range(options)),
                      bust_probability=None if options else 0.3, hint=hint)
    layout = screen_layout(view, SIZE)
    placed = hint_placement(view, layout)
    assert not placed.cut and words(" ".join(placed.lines)) == words(hint_line(hint))
    assert placed.size >= layout.small
    assert all(fonts.font(placed.size).size(line)[0] <= placed.body.width for line in placed.lines)
    frame = chrome_layout(chrome, SIZE)
    for chip in frame.chips:
        assert text.width_of(names[chip.index], frame.type.normal, bold=True) <= chip.name.width


# --- the menus, the summary and the rules pages, at both sizes ----------------------------------------------


def _menu_views():
    """(where, view) of every menu screen the buttons reach, with the longest names and content."""
    from companion.app.menu_model import FinishedGame, MenuModel, SavedGame, pick_sequence
    from companion.commands import Button, Command
    from companion.registry import GAMES

    class Data:
        def saved_games(self):
            return [SavedGame(3, "donkey-race", tuple(NAMES), "2026-12-01T21:40:00")]

        def unreadable(self):
            return 12  # the line naming the games left out is drawn, and fits

        def known_names(self):
            return list(NAMES)

        def scoreboard_lines(self):
            return [_("{game}: {name}, {wins} of {games} won").format(game=_("Schotten Totten"), name=NAMES[3], wins=12,
                                                                     games=30)]

        def delete_game(self, game_id):
            pass

        def finished_games(self):
            return [FinishedGame(9, "schotten-totten", tuple(NAMES[:2]), "2026-12-01T21:40:00", NAMES[1])]

        def dice(self):
            return {"faces": [40, 41, 39, 44, 38, 42],
                    "verdict": ngettext("No sign of a biased die after {n} roll", "No sign of a biased die after {n} rolls",
                                        244).format(n=244)}

        def choose_language(self, code):
            return ""  # the language of the test stays

        def save_prints(self, game, variant):
            return _("Board saved for A4 and A3 printing in {folder}").format(folder="/media/pi/KINGSTON-32G")

    available = {entry.name: True for entry in GAMES}
    model = MenuModel(Data(), available)
    yield "main", model.view()
    main_labels = [item.label for item in model.view().items]
    for label in main_labels[:-1]:
        model = MenuModel(Data(), available)
        for command in pick_sequence(model, label):
            model.handle(command)
        yield f"main > {label}", model.view()
        model.handle(Command(Button.CONFIRM))  # one screen deeper where there is one
        yield f"main > {label} > first", model.view()
    model = MenuModel(Data(), available)
    for command in pick_sequence(model, main_labels[-1]):
        model.handle(command)
    yield "shut down", model.view()
    from companion.app.menu_model import Screen
    from companion.registry import MAX_NAME_LENGTH, menu_switches

    for entry in GAMES:  # every game's switches at every value, after the longest names
        model = MenuModel(Data(), available)
        model.handle(Command(Button.CONFIRM))
        for command in pick_sequence(model, entry.title()):
            model.handle(command)
        if model.screen is Screen.PLAYER_COUNT:
            model.handle(Command(Button.CONFIRM))
        yield f"{entry.name} names", model.view()
        while model.screen is Screen.PLAYER_NAME:
            for command in pick_sequence(model, model.view().items[-2].label):  # the last listed name
                model.handle(command)
        for k, key in enumerate(menu_switches(entry.name), start=1):
            for _value in key.menu:
                model.handle(Command(Button.CHOOSE, (k + 1,)))
                yield f"{entry.name} switch {key.name}", model.view()
                if model.view().items[-1].label == _("Save the board to print"):
                    model.handle(Command(Button.CHOOSE, (len(model.view().items),)))
                    yield f"{entry.name} board saved", model.view()
    model = MenuModel(Data(), available)
    for command in (Command(Button.CONFIRM), Command(Button.CONFIRM), Command(Button.CONFIRM)):
        model.handle(command)
    for command in pick_sequence(model, model.view().items[-1].label):  # spell a name
        model.handle(command)
    for _k in range(MAX_NAME_LENGTH):
        model.handle(Command(Button.CHOOSE, (len(model.view().items) - 1,)))  # the alphabet's last letter
    yield "spell a name", model.view()


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_menus_summary_and_rules_are_never_cut(size, monkeypatch, shots, language):
    from companion.app.rules import RulesSession
    from companion.app.summary import SummarySession
    from companion.display import menu as menu_display
    from companion.display import rules as rules_display
    from companion.display import summary as summary_display
    from companion.registry import names
    from companion.screens import rules as rules_screen
    from companion.screens import summary as summary_screen
    from companion.stats import Course, GameSummary, Tally

    def check(where, draw, view):
        surface = pygame.Surface(size)
        lines = drawn_lines(monkeypatch, lambda: draw(surface, view))
        assert_readable(lines, [], "", f"{language} {size} {where}", size)
        save(surface, shots, f"{language} {size[0]} {where}".replace(">", "-").replace("/", "-"))

    for where, view in _menu_views():
        check(f"menu {where}", menu_display.draw, view)
    for game in names():
        session = RulesSession(game)
        for page in range(session.pages):
            session.page = page
            check(f"rules {game} {page}", rules_display.draw, rules_screen.build_view(session))
    summary = GameSummary("ludo", tuple(NAMES), (2, 0, 3, 1), (4, 3, 2, 0), ("pawn home", "pawns home"),
                          Course("pawns home", "turn", ((0.0, 1.0, 2.0, 4.0),) * 4, 4.0),
                          tuple(t for s in range(4) for t in (Tally(s, "sixes", 18, 16.5, 99), Tally(s, "captures", 11))))
    session = SummarySession(summary, 1)
    for page in range(session.pages):
        session.page = page
        check(f"summary {page}", summary_display.draw, summary_screen.build_view(session))


# --- every prompt of a whole game entered with the buttons, with the longest names ---------------------------

@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("name", ["cant-stop", "ludo", "schotten-totten", "donkey-race"])
def test_every_prompt_of_a_game_by_hand_fits_with_the_longest_names(name, size, tmp_path, monkeypatch, shots):
    # The by-hand demo's presses (assets/demo/GAME-by-hand.script) replayed into a session whose players
    # have names MAX_NAME_LENGTH long: each new kind of screen (mode, keys) and each mode's longest
    # prompt and message is drawn and checked.
    from companion.app.by_hand import by_hand_variant, script_path
    from companion.commands import Button, Command
    from companion.registry import game
    from companion.session.base import NO_CAMERA

    entry = game(name)
    players = list(NAMES[:2])
    presses = [line.strip() for line in script_path(name).read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.startswith("#")]
    variant = by_hand_variant(name)
    screens, display = entry.module("screens"), entry.module("display")
    chosen: dict[tuple, object] = {}
    with Store(tmp_path / "s.sqlite3") as store:
        session = entry.module("session").SESSION(store, store.new_game(name, players, variant), players,
                                                  entry.config(variant), rng=random.Random(1))
        session.on_camera_problem(_(NO_CAMERA))
        for press in presses:
            if session.finished:
                break
            view = screens.build_view(session)
            mode = session.mode
            chosen.setdefault((mode, tuple(view.keys)), view)
            for field in ("prompt", "message"):
                key = (mode, field)
                if len(getattr(view, field, "") or "") > len(getattr(chosen.get(key), field, "") or ""):
                    chosen[key] = view
            session.on_command(Command(Button(press)))
        while not session.finished:  # the winner's screen: CONFIRM until the session ends
            session.on_command(Command(Button.CONFIRM))
        assert len(chosen) >= 4
        for k, view in enumerate(chosen.values()):
            lines = drawn_lines(monkeypatch, lambda view=view: save(display.render(view, size), shots,
                                                                      f"{name} by hand {size[0]} {k}"))
            assert_readable(lines, players, "", f"{name} by hand at {size}: {view.prompt!r}", size)
        # History's replay of the same game: its first and last steps and the steps with the longest stories
        from companion.app.replay import ReplaySession, _screen

        replay = ReplaySession(store, entry, store.finished_games(game=name)[0].id)
        longest = sorted(range(len(replay.stops)), key=lambda k: len(replay.stops[k].text))[-3:]
        for at in sorted({0, replay.last, *longest}):
            replay._go(at)
            view = _screen(entry).build_view(replay)
            lines = drawn_lines(monkeypatch, lambda view=view: save(display.render(view, size), shots,
                                                                      f"{name} replay {size[0]} {at}"))
            assert_readable(lines, players, replay.stops[at].text, f"{name} replay at {size}, step {at}", size)


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_notice_screens_fit(size, monkeypatch, shots, language):
    from companion.app.notices import NoticeSession
    from companion.display import notice as notice_display
    from companion.screens import notice as notice_screen
    from companion.screens.notice import Notice

    session = NoticeSession(list(Notice))
    for k, kind in enumerate(Notice):
        session.index = k
        view = notice_screen.build_view(session)
        surface = pygame.Surface(size)
        lines = drawn_lines(monkeypatch, lambda view=view, surface=surface: notice_display.draw(surface, view))
        assert_readable(lines, [], " ".join(view.paragraphs), f"{language} {size} notice {kind.value}", size)
        save(surface, shots, f"{language} {size[0]} notice {kind.value}")


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("name", ["cant-stop", "ludo", "schotten-totten", "donkey-race"])
def test_the_board_keeps_its_place_and_size_through_a_game(name, size, tmp_path, language):
    """Issue 51: the notice band has its own space, so a notice appearing, wrapping or going never moves
    or resizes the board (Ludo's board went 310 -> 260 -> 235 px, the donkey race's lanes three ways,
    Can't Stop's mountain shrank for a notice or a long hint; its side panel may change, not the board)."""
    from companion.app.by_hand import by_hand_variant, script_path
    from companion.commands import Button, Command
    from companion.display.chrome import chrome_layout
    from companion.registry import game
    from companion.session.base import NO_CAMERA

    entry = game(name)
    players = list(NAMES[:2])
    presses = [line.strip() for line in script_path(name).read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.startswith("#")]
    variant = by_hand_variant(name)
    screens = entry.module("screens")
    if name == "schotten-totten":
        from companion.display.schotten_totten import fitted
    else:
        def fitted(view, size):
            return view, True
    bodies: dict[tuple, str] = {}
    notices = set()
    with Store(tmp_path / "s.sqlite3") as store:
        session = entry.module("session").SESSION(store, store.new_game(name, players, variant), players,
                                                  entry.config(variant), rng=random.Random(1))
        session.on_camera_problem(_(NO_CAMERA))
        for press in [*presses, *["confirm"] * 3]:
            view = fitted(screens.build_view(session), size)[0]
            if name == "cant-stop":
                from companion.display.cant_stop import screen_layout

                bodies.setdefault(tuple(screen_layout(view, size).board), view.prompt)
            else:
                bodies.setdefault(tuple(chrome_layout(view.chrome, size).body), view.prompt)
            notices.add(len(view.chrome.notice) > 0)
            if session.finished:
                break
            session.on_command(Command(Button(press)))
    assert notices == {True, False}  # screens with a notice and without
    assert len(bodies) == 1, bodies


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_play_being_entered_is_always_on_the_donkey_race_screen(size, language, monkeypatch, tmp_path):
    """A new user (#51): leading 3 × 13 in Russian, the line of the play entered went off the panel
    unnoticed (the panel dropped what did not fit). It stays whole on every screen of the by-hand game
    and of each leader stepping to three cards and down round the values; what beats the play and the
    piles' counts give way first."""
    from companion.app.by_hand import by_hand_variant, script_path
    from companion.commands import Button, Command
    from companion.display.donkey_race import render
    from companion.registry import game
    from companion.screens.donkey_race import build_view
    from companion.session.base import NO_CAMERA

    entry = game("donkey-race")
    players = list(NAMES[:2])
    presses = [line.strip() for line in script_path(entry.name).read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.startswith("#")]
    variant = by_hand_variant(entry.name)
    checked = 0
    with Store(tmp_path / "s.sqlite3") as store:
        session = entry.module("session").SESSION(store, store.new_game(entry.name, players, variant), players,
                                                  entry.config(variant), rng=random.Random(1))
        session.on_camera_problem(_(NO_CAMERA))
        for press in presses:
            if session.finished:
                break
            leading = session.count_button() is Button.NEXT and session._entry is not None
            steps = [Button.NEXT, Button.NEXT, Button.PASS, Button.PASS, Button.PASS] if leading else []
            for step in [None, *steps]:  # the entry only: no step is recorded
                if step is not None:
                    session.on_command(Command(step))
                view = build_view(session)
                if view.proposal:
                    lines = drawn_lines(monkeypatch, lambda view=view: render(view, size))
                    assert words(view.proposal) in words(" ".join(e["text"] for e in lines)), view.proposal
                    checked += 1
            if steps:  # the entry as the script expects it: open at the lowest play again
                session._entry = None
                session._open_by_hand()
            session.on_command(Command(Button(press)))
    assert checked > 20
