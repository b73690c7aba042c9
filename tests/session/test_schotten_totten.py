"""Schotten Totten session, card-reading adapter, display and a scripted game through ``companion play``."""

import random
from types import SimpleNamespace

import pygame
import pytest

from companion.agents.schotten_totten import advisor_agent, greedy_agent
from companion.cli import main
from companion.commands import Button, Command
from companion.display.schotten_totten import CARD_COLOURS
from companion.display.schotten_totten import render as render_to_surface
from companion.games import CHANCE
from companion.games.schotten_totten import (Card, Claim, Draw, Phase, Play, SchottenTottenConfig,
    SchottenTottenState, StartWith)
from companion.readers.schotten_totten import reading_from_observation
from companion.screens.schotten_totten import build_view
from companion.session import SchottenTottenReading as TableReading
from companion.session import SeenCard
from companion.session.schotten_totten import Mode, SchottenTottenSession, card_from_number, new_card
from companion.store import Store
from tests.opencv import figures_of_opencv5
from tests.paths import FIXTURES

GAME = "schotten-totten"

FIXTURES = FIXTURES / "schotten_totten"


def cmd(text: str) -> Command:
    return Command.parse(text)


def make_session(tmp_path, match_length=1, stable_frames=2, seed=1) -> SchottenTottenSession:
    store = Store(tmp_path / "store.sqlite3")
    game_id = store.new_game(GAME, ["Ada", "Ben"], {"match_length": match_length})
    return SchottenTottenSession(store, game_id, ["Ada", "Ben"], SchottenTottenConfig(match_length=match_length),
                                 stable_frames=stable_frames, rng=random.Random(seed))


def script_for(seed: int, starter: int) -> tuple[list[str], SchottenTottenState]:
    """Script commands replaying a seeded greedy-vs-advisor game started by ``starter``."""
    rng = random.Random(seed)
    state = SchottenTottenState.new()
    lines = ["confirm"]
    agents = [greedy_agent, advisor_agent]
    while state.phase is not Phase.OVER:
        if state.current_player == CHANCE:
            action = StartWith(starter) if state.phase is Phase.START else Draw(rng.choice(state.unknown_cards()))
        else:
            action = agents[state.active](state.observation(state.active), rng)
            if isinstance(action, Play):
                lines += [f"set {action.stone + 1} {action.card.colour + 1}{action.card.value}", "confirm"]
            elif isinstance(action, Claim):
                lines.append(f"choose {action.stone + 1}")
            else:
                lines.append("pass")
        state = state.apply(action)
    return lines, state


def test_card_numbers_for_hand_entry():
    assert card_from_number(15) == Card(0, 5) and card_from_number(69) == Card(5, 9)
    assert card_from_number(410) == Card(3, 10)
    with pytest.raises(ValueError):
        card_from_number(75)
    with pytest.raises(ValueError):
        card_from_number(110, max_value=9)


def test_session_plays_claims_refuses_with_reason_and_undoes(tmp_path):
    session = make_session(tmp_path)
    starter = session.start_seat
    session.on_command(cmd("confirm"))
    assert session.mode is Mode.WATCH and session.state.active == starter
    assert len(session.state.hands[starter]) == 6 and session.state.hands[starter][0] is None  # table-side
    session.on_command(cmd("set 1 17"))
    assert session.mode is Mode.CHECK
    session.on_command(cmd("confirm"))  # R7 at stone 1, then the automatic draw
    assert session.state.stones[0].cards[starter] == (Card(0, 7),) and session.state.active == 1 - starter
    session.on_command(cmd("choose 1"))  # the other player asks about stone 1: refused with the reason
    assert "3 own cards" in session.message and session.attention
    session.on_command(cmd("undo"))
    assert session.state.active == starter and session.state.stones[0].cards[starter] == ()
    assert session.proposal == (Card(0, 7), 0) and not session.placing  # the play taken back, to be corrected
    session.on_command(cmd("set 1 99"))
    assert session.attention and session.proposal == (Card(0, 7), 0)


def test_claim_refused_by_proof_shows_a_beating_completion(tmp_path):
    session = make_session(tmp_path)
    a = session.start_seat
    session.on_command(cmd("confirm"))
    plays = [(a, "set 1 11"), (1 - a, "set 1 52"), (a, "set 1 21"), (1 - a, "set 1 53"), (a, "set 1 31")]
    for _, line in plays:
        session.on_command(cmd(line))
        session.on_command(cmd("confirm"))
    # a: R1 O1 Y1 (three of a kind 3); b: B2 B3 may still become a colour run: no claim step
    assert session.mode is Mode.WATCH and session.state.active == 1 - a
    session.on_command(cmd("undo"))
    session.on_command(cmd("set 1 31"))
    session.on_command(cmd("confirm"))
    verdict = session.state.claim_verdict(0, a)
    assert verdict.reason == "proof" and verdict.beating[:2] == (Card(4, 2), Card(4, 3))


def test_claim_step_confirm_and_pass(tmp_path):
    session = make_session(tmp_path)
    a = session.start_seat
    session.on_command(cmd("confirm"))
    for line in ["set 2 17", "set 2 51", "set 2 18", "set 3 52", "set 2 19"]:
        session.on_command(cmd(line))
        session.on_command(cmd("confirm"))
    assert session.mode is Mode.CLAIM and build_view(session).stones[1].claimable
    assert "can be claimed" in build_view(session).stones[1].reason
    session.on_command(cmd("confirm"))
    assert session.state.stones[1].owner == a and session.mode is Mode.WATCH


def test_camera_reading_needs_a_stable_new_card(tmp_path):
    session = make_session(tmp_path, stable_frames=2)
    a = session.start_seat
    session.on_command(cmd("confirm"))
    reading = TableReading((SeenCard(4, a, Card(2, 6)),))
    assert new_card(session.state, reading) == (Card(2, 6), 4)
    assert new_card(session.state, TableReading((SeenCard(4, 1 - a, Card(2, 6)),))) is None  # wrong side
    session.on_frame(None, reading)
    assert session.mode is Mode.WATCH
    session.on_frame(None, reading)
    assert session.mode is Mode.CHECK
    session.on_command(cmd("confirm"))
    assert session.state.stones[4].cards[a] == (Card(2, 6),)


def test_a_reading_that_disagrees_with_the_played_cards_is_not_offered(tmp_path):
    """Issue 25: a new card is offered only when every card already played is seen where it lies; a
    played card missed, read as another card or seen at another stone makes the reading disagree with
    the game, so the box proposes nothing (the players enter the card by hand)."""
    session = make_session(tmp_path, stable_frames=1)
    a = session.start_seat
    session.on_command(cmd("confirm"))
    first = SeenCard(4, a, Card(2, 6))
    session.on_frame(None, TableReading((first,)))
    session.on_command(cmd("confirm"))
    assert session.state.stones[4].cards[a] == (Card(2, 6),)
    b = 1 - a
    played = Card(0, 3)
    assert new_card(session.state, TableReading((first, SeenCard(2, b, played)))) == (played, 2)
    assert new_card(session.state, TableReading((SeenCard(2, b, played),))) is None  # the 6 missed
    misread = SeenCard(4, a, Card(2, 5))
    assert new_card(session.state, TableReading((misread, SeenCard(2, b, played)))) is None  # read as a 5
    moved = SeenCard(5, a, Card(2, 6))
    assert new_card(session.state, TableReading((moved, SeenCard(2, b, played)))) is None  # at another stone


def test_reader_observation_adapter():
    card = SimpleNamespace(code="B7", stone=3, side="b", flagged=False)
    unread = SimpleNamespace(code=None, stone=2, side="a", flagged=False)
    loose = SimpleNamespace(code="R1", stone=None, side=None, flagged=False)
    reading = reading_from_observation(SimpleNamespace(cards=(card, unread, loose), problem=None))
    assert reading.cards == (SeenCard(3, 1, Card(4, 7)), SeenCard(2, 0, None, True))


def test_match_of_two_games_and_resume(tmp_path):
    session = make_session(tmp_path, match_length=2)
    starter = session.start_seat
    lines, end = script_for(4, starter)
    for line in lines:
        session.on_command(cmd(line))
    assert session.state.phase is Phase.OVER and session.state.winner == end.winner
    first_points = session.match_points
    assert first_points[end.winner] == 5 and first_points[1 - end.winner] == end.stones_of(1 - end.winner)
    session.on_command(cmd("confirm"))  # next game; the winner is proposed to start (C.8)
    assert session.mode is Mode.START and session.start_seat == end.winner and session.match_points == first_points
    session.on_command(cmd("confirm"))
    resumed = SchottenTottenSession(session.store, session.game_id, ["Ada", "Ben"],
                                    SchottenTottenConfig(match_length=2))
    assert resumed.state == session.state and resumed.match_points == first_points


def test_display_draws_cards_stones_and_reasons(tmp_path):
    session = make_session(tmp_path)
    session.on_command(cmd("confirm"))
    session.on_command(cmd("set 1 17"))
    view = build_view(session)
    assert view.stones[0].proposed == "R7"
    surface = render_to_surface(view)
    assert surface.get_size() == (800, 480)
    session.on_command(cmd("confirm"))
    surface = render_to_surface(build_view(session))
    a = 1 - session.state.active
    # the R7 card lies in the first column, above the stones for seat 0 (side a), below for seat 1
    column = [surface.get_at((44, y))[:3] for y in range(80, 440)]
    assert CARD_COLOURS["R"] in column
    hits = [y for y, c in zip(range(80, 440), column, strict=False) if c == CARD_COLOURS["R"]]
    assert (max(hits) < 240) if a == 0 else (min(hits) > 240)
    pygame.image.save(surface, str(tmp_path / "screen.png"))


def test_scripted_game_runs_through_companion_play(app_env, tmp_path):
    starter = random.Random(1).randrange(2)  # the session's proposal with --seed 1
    lines, end = script_for(4, starter)
    script = tmp_path / "game.script"
    script.write_text("\n".join(lines + ["confirm"]) + "\n")
    shots = tmp_path / "shots"
    status = main(["play", "schotten-totten", "--headless", "--camera", "none", "--input", f"script:{script}",
                   "--players", "Ada,Ben", "--seed", "1", "--variant", "match_length=1", "--screenshots", str(shots)])
    assert status == 0
    store = Store(app_env / "state" / "companion.sqlite3")
    game = store.finished_games(GAME)[0]
    assert game.result["winner"] == ["Ada", "Ben"][end.winner]
    assert game.result["points"][["Ada", "Ben"][end.winner]] == 5
    assert len(list(shots.glob("*-claim.png"))) >= 1 and len(list(shots.glob("*-over.png"))) == 1


def test_bundled_script_fixture_is_a_whole_game(app_env):
    status = main(["play", "schotten-totten", "--headless", "--camera", "none", "--input",
                   f"script:{FIXTURES / 'game.script'}", "--players", "Ada,Ben", "--seed", "1",
                   "--variant", "match_length=1"])
    assert status == 0
    assert Store(app_env / "state" / "companion.sqlite3").finished_games(GAME)[0].result["winner"] == "Ada"


def test_buttons_used_are_known():
    assert {Button.SET, Button.CHOOSE, Button.PASS, Button.CONFIRM, Button.NEXT, Button.UNDO} <= set(Button)


@figures_of_opencv5
def test_cards_read_by_the_camera_from_a_photo_folder(app_env, tmp_path):
    """Rendered reference-deck photos (vision.cards.render): each new card is proposed by the reader and
    confirmed with one button press."""
    import cv2
    import numpy as np

    from vision.cards.render import render_st_scene

    starter = random.Random(1).randrange(2)
    side = {starter: "a" if starter == 0 else "b", 1 - starter: "b" if starter == 0 else "a"}
    plays = [(starter, 2, ("red", 5)), (1 - starter, 6, ("blue", 7)), (starter, 2, ("red", 6))]
    photos = tmp_path / "photos"
    photos.mkdir()
    columns: dict = {}
    for k, (seat, stone, card) in enumerate(plays):
        columns.setdefault((stone, side[seat]), []).append(card)
        frame, _, _ = render_st_scene(np.random.default_rng(k), {key: list(v) for key, v in columns.items()},
                                      noise=False, shadow=False)
        cv2.imwrite(str(photos / f"{k:02d}.png"), frame)
    script = tmp_path / "camera.script"
    script.write_text("confirm\nconfirm\nconfirm\nconfirm\nquit\n")
    status = main(["play", "schotten-totten", "--headless", "--camera", f"folder:{photos}", "--input",
                   f"script:{script}", "--players", "Ada,Ben", "--seed", "1"])
    assert status == 0
    store = Store(app_env / "state" / "companion.sqlite3")
    game_id = store.latest_unfinished(GAME)
    played = [e.payload for e in store.events(game_id) if e.payload["type"] == "play"]
    assert played == [{"type": "play", "card": "R5", "stone": 2}, {"type": "play", "card": "B7", "stone": 6},
                      {"type": "play", "card": "R6", "stone": 2}]


def test_a_card_is_entered_and_corrected_with_the_buttons_alone(tmp_path):
    from companion.games.schotten_totten import Card

    with Store(tmp_path / "st.sqlite3") as store:
        session = SchottenTottenSession(store, store.new_game(GAME, ["Ada", "Ben"], {}), ["Ada", "Ben"],
                                        rng=random.Random(1))
        session.on_command(Command(Button.CONFIRM))  # the proposed player starts; the deal follows
        assert session.mode is Mode.WATCH
        seat = session.state.active
        name = session.players[seat]
        session.on_command(Command(Button.BANK))  # by hand: the stone first, at stone 1; an empty side: R5
        assert session.mode is Mode.CHECK and session.placing and session.proposal == (Card(0, 5), 0)
        view = build_view(session)
        assert view.prompt == f"{name}: play at stone 1?"
        assert dict(view.keys) == {"CONFIRM": "this stone", "NEXT": "next stone", "PASS": "previous stone",
                                   "UNDO": "cancel"}  # NEXT the next stone, as at a claim (issue 51)
        session.on_command(Command(Button.PASS))  # back round the row: stone 9
        assert session.proposal == (Card(0, 5), 8)
        session.on_command(Command(Button.NEXT))
        session.on_command(Command(Button.NEXT))
        assert session.proposal == (Card(0, 5), 1)
        session.on_command(Command(Button.CONFIRM))  # this stone: now the card
        view = build_view(session)
        assert not session.placing and view.prompt == f"{name} plays R5 at stone 2?"
        assert dict(view.keys) == {"CONFIRM": "play", "BANK": "+1", "PASS": "-1", "NEXT": "colour",
                                   "UNDO": "stone"}
        for button in (Button.PASS, Button.PASS, Button.NEXT, Button.BANK):  # R5 -> R4 -> R3 -> O3 -> O4
            session.on_command(Command(button))
        assert session.proposal == (Card(1, 4), 1)
        session.on_command(Command(Button.UNDO))  # back to the stone: the card changed stays
        session.on_command(Command(Button.NEXT))
        assert session.placing and session.proposal == (Card(1, 4), 2)
        session.on_command(Command(Button.CONFIRM))
        session.on_command(Command(Button.CONFIRM))
        assert session.state.stones[2].cards[seat] == (Card(1, 4),)
        session.on_command(Command(Button.BANK))  # Ben: R5 at stone 1
        session.on_command(Command(Button.CONFIRM))
        for button in (Button.NEXT, Button.PASS):  # O5, then down past O4 (on the table) to O3
            session.on_command(Command(button))
        assert session.proposal == (Card(1, 3), 0)
        taken = set(session.state.table_cards())
        for _ in range(30):
            session.on_command(Command(Button.BANK))
            session.on_command(Command(Button.NEXT))
            assert session.proposal[0] not in taken
        session.on_command(Command(Button.UNDO))
        session.on_command(Command(Button.UNDO))
        assert session.mode is Mode.WATCH and session.proposal is None


def test_with_no_camera_the_entry_opens_by_itself_and_the_card_follows_the_stone(tmp_path):
    from companion.games.schotten_totten import Card

    session = make_session(tmp_path)
    session.on_camera_problem("No camera")
    a = session.start_seat
    session.on_command(cmd("confirm"))
    assert session.mode is Mode.CHECK and session.placing and session.proposal == (Card(0, 5), 0)
    for line in ("set 2 17", "confirm", "set 1 52", "confirm"):  # Ada R7 at stone 2; Ben B2 at stone 1
        session.on_command(cmd(line))
    assert session.state.active == a and session.proposal == (Card(0, 5), 0)  # Ada: stone 1, R5
    session.on_command(cmd("next"))  # stone 2, where Ada has R7: the next card of her run, R8
    assert session.proposal == (Card(0, 8), 1)
    for line in ("confirm", "confirm", "set 1 53", "confirm", "next", "confirm", "confirm"):  # R8; B3; R9
        session.on_command(cmd(line))
    assert session.state.stones[1].cards[a] == (Card(0, 7), Card(0, 8), Card(0, 9))
    assert session.mode is Mode.CLAIM  # a colour run 24 cannot be beaten: Ada claims
    session.on_command(cmd("confirm"))
    assert session.state.stones[1].owner == a
    assert session.state.active == 1 - a and session.proposal == (likely(session, 0), 0)
    assert session.proposal == (Card(4, 4), 0)  # beside B2 B3 on stone 1: B4, the next of Ben's run
    session.on_command(cmd("undo"))  # with no camera, UNDO at the stone takes back the last action: the claim
    assert session.mode is Mode.CLAIM and session.state.stones[1].owner is None
    session.on_command(cmd("undo"))  # and Ada's play: it opens again at its card, to be corrected
    assert session.proposal == (Card(0, 9), 1) and not session.placing
    session.on_command(cmd("pass"))
    assert session.proposal == (Card(0, 6), 1)  # down past R8 and R7 on the table


def likely(session, stone):
    from companion.session.schotten_totten import likely_card

    return likely_card(session.state, stone, session.state.active)


def test_a_card_read_at_the_wrong_stone_is_corrected_with_the_same_presses(tmp_path):
    from companion.games.schotten_totten import Card
    from companion.session.schotten_totten import press_for

    session = make_session(tmp_path, stable_frames=1)
    a = session.start_seat
    session.on_command(cmd("confirm"))
    session.on_frame(None, TableReading((SeenCard(4, a, Card(2, 6)),)))  # Y6 at stone 5; it was Y7 at stone 6
    assert session.mode is Mode.CHECK and session.proposal == (Card(2, 6), 4) and not session.placing
    presses = [c.button.value for c in press_for(session, Play(Card(2, 7), 5))]
    assert presses == ["undo", "next", "confirm", "bank", "confirm"]
    assert session.state.stones[5].cards[a] == (Card(2, 7),)


def test_a_refused_pass_reads_as_a_sentence_and_goes_with_the_next_press(tmp_path):
    session = make_session(tmp_path)
    session.on_command(cmd("confirm"))  # the proposed starter; the deal follows
    assert session.mode is Mode.WATCH
    session.on_command(cmd("pass"))  # a full hand can always be played (C.4)
    assert session.refused and session.message == "You can play a card, so you may not pass"
    session.on_command(cmd("bank"))  # a card entered by hand
    assert session.mode is Mode.CHECK and session.message == ""


def _claiming(stones: dict, config_game="schotten-totten", **changes):
    """A CLAIM-phase state of seat a (Ada) from a position file's stones ``{index: {...}}``."""
    import dataclasses

    from companion.games.schotten_totten import state_from_position

    raw = [stones.get(i, {"a": [], "b": []}) for i in range(9)]
    state = state_from_position({"variant": config_game, "stones": raw})
    return dataclasses.replace(state, phase=Phase.CLAIM, **changes)


def test_a_claim_is_said_with_the_formation_or_the_proof_that_decided_it():
    """C.5: the stronger formation, or equal ones with the side completed first; C.6: the proof that the
    other side can no longer beat it; C.7 and C.8: how the game was won and which game of the match."""
    from companion.session.schotten_totten import describe

    players = ["Ada", "Ben"]
    stones = {0: {"a": ["R7", "R8", "R9"], "b": ["B2", "O3", "G4"]},
              2: {"a": ["G7", "G8", "G9"], "b": ["B9"]},
              5: {"a": ["O7", "O8", "O9"], "b": [], "owner": "a"}}
    state = _claiming(stones)
    assert describe(players, state, Claim(0), state.apply(Claim(0))) == (
        "Ada claims stone 1: colour run (sum 24) beats run (sum 9)")
    assert describe(players, state, Claim(2), state.apply(Claim(2))) == (
        "Ada claims stone 3: Ben can no longer beat colour run (sum 24) there")
    tied = _claiming({0: {"a": ["R1", "R2", "B5"], "b": ["B1", "O2", "G5"], "first_complete": "a"}})
    assert describe(players, tied, Claim(0), tied.apply(Claim(0))) == (
        "Ada claims stone 1: sum 8 against sum 8, completed first")
    stones[3] = {"a": ["P7", "P8", "P9"], "b": [], "owner": "a"}
    stones[4] = {"a": ["B6", "B7", "B8"], "b": [], "owner": "a"}
    state = _claiming(stones)
    won = state.apply(Claim(2))  # stones 3, 4 and 5 side by side (C.7)
    assert won.phase is Phase.OVER and won.ended == "breakthrough"
    assert describe(players, state, Claim(2), won) == (
        "Ada claims stone 3: Ben can no longer beat colour run (sum 24) there; Ada wins game 1 of 3 with 3 stones "
        "side by side")
    assert describe(players, state, Claim(2), won, game=3, points=(10, 3)) == (
        "Ada claims stone 3: Ben can no longer beat colour run (sum 24) there; Ada wins game 3 of 3 with 3 stones "
        "side by side; Ada wins the match, 10 to 3 points")


def test_undo_says_what_it_took_back(tmp_path):
    session = make_session(tmp_path)
    session.on_command(cmd("confirm"))
    name = session.players[session.state.active]
    session.on_command(cmd("set 3 15"))
    session.on_command(cmd("confirm"))
    assert session.message == f"{name} plays R5 at stone 3"
    session.on_command(cmd("undo"))
    assert session.message == f"Taken back: {name} plays R5 at stone 3"


def test_the_alert_names_the_threatened_stones_in_words_with_the_right_number():
    """Issue 37: "Ben may claim stones 5 and 6 next turn", "(stone 7)", not "(stones 7)"."""
    from companion.i18n import set_language
    from companion.screens.schotten_totten import alert_text

    assert alert_text("Ben", (4, 5), False) == "Ben may claim stones 5 and 6 next turn"
    assert alert_text("Ben", (6,), True) == "Warning: Ben may win next turn (stone 7)"
    assert alert_text("Ben", (0, 1, 2), True) == "Warning: Ben may win next turn (stones 1, 2 and 3)"
    assert alert_text("Ben", (), False) == ""
    set_language("de")
    try:
        assert alert_text("Ben", (4, 5), False) == "Ben kann im nächsten Zug die Steine 5 und 6 beanspruchen"
    finally:
        set_language("en")


def test_each_button_keeps_one_meaning_through_the_game(tmp_path):
    """Issue 51: BANK chose the next stone when a card was placed but NEXT when claiming, PASS went back a
    stone there but ended the claims here. Now NEXT is the next stone, colour or player, PASS one back (or a
    pass), BANK +1 or done, over a whole game entered with the buttons."""
    from companion.app.by_hand import script_path

    meanings: dict[str, set[str]] = {}
    session = make_session(tmp_path)
    session.on_camera_problem("No camera")
    for line in script_path(GAME).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or session.finished:
            continue
        for button, what in build_view(session).keys:
            meanings.setdefault(button, set()).add(what)
        session.on_command(cmd(line.strip()))
    assert meanings["NEXT"] <= {"other player", "next stone", "colour"}
    assert meanings["PASS"] <= {"previous stone", "-1", "pass"}
    assert meanings["BANK"] <= {"+1", "done", "enter by hand"} and "done" in meanings["BANK"]


def test_a_claimed_stone_shows_only_the_formation_that_won_it(tmp_path):
    """The final board (#51): an open stone tags each complete side; a claimed one only its owner's."""
    from companion.games.schotten_totten import formation_key
    from companion.screens.schotten_totten import formation_tag

    session = make_session(tmp_path)
    for line in script_for(4, session.start_seat)[0]:
        session.on_command(cmd(line))
    state, view = session.state, build_view(session)
    assert state.phase is Phase.OVER
    both = 0
    for stone, shown in zip(state.stones, view.stones, strict=True):
        tags = [formation_tag(formation_key(side), GAME) if len(side) == 3 else "" for side in stone.cards]
        if stone.owner is None:
            assert shown.labels == tuple(tags)
        else:
            assert shown.labels[stone.owner] == tags[stone.owner] != "" and shown.labels[1 - stone.owner] == ""
            both += all(tags)
    assert both >= 1  # the game has claimed stones whose both sides are complete: one tag dropped
