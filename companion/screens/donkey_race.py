"""What the donkey race screen shows: frozen view values, and :func:`build_view` from a session.

:func:`build_view` assembles the :class:`DonkeyRaceView` that :mod:`companion.display.donkey_race`
draws: the lanes, the round's plays by sector, who acts and what beats the current play ("2 cards
higher than 7, or PASS", donkey-race.md D.4-D.5), the proposed play, the draw and discard counts, and
the reminders for the table: deal, draw back to 3, reshuffle the discards (D.3, D.4.6-7), which
physical token moves how far (D.4.5). Every string is already translated; the drawing code only lays
them out. Seats index the palette (colour, token shape) as in every game.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Button
from companion.games.donkey_race import DONKEY, JOKER, Phase, set_value
from companion.hints.donkey_race import card_label
from companion.i18n import N_, _, ngettext, pgettext, sentence
from companion.screens.common import (BUTTON_NAMES, HOLD_FOR_RULES, Chrome, ChromeFields, Keys, SeatChip, Tone,
    key_legend)
from companion.screens.palette import PLAYER_COLOUR_NAMES, PLAYER_SHAPES, SHAPE_NAMES
from companion.session.base import without_camera
from companion.session.donkey_race import LEAP, DonkeyRaceSession, Mode, describe_set


@dataclass(frozen=True)
class LaneView:
    """One player's lane: ``position`` spaces from Start (0) to Finish (``track_length``; more when a
    token overshoots), ``points``, games won before (``wins``) and cards in hand (``hand``)."""

    name: str
    seat: int
    position: int
    points: int
    wins: int
    hand: int


@dataclass(frozen=True)
class SectorView:
    """One player's sector this round: ``label`` lists the sets played ("7 | 9", "passed", "" when not
    yet acted); ``highest`` marks the round's highest play so far."""

    seat: int
    label: str
    highest: bool = False


@dataclass(frozen=True)
class DonkeyRaceView(ChromeFields):
    """The whole donkey race screen: the shared frame (``chrome``: header with the round, player strip
    with points and cards in hand, key chips, notice band) and the body.

    lanes and sectors: one per seat. to_beat: "2 cards higher than 7, or PASS". proposal: the play
    CONFIRM would make. leaps: what a long press does to a play entered by hand ("hold BANK: +4 · hold
    PASS: -4"; :data:`companion.session.donkey_race.LEAP`), "" otherwise. deck / discard: card counts.
    reminders: what to do at the table (draw, reshuffle, which token moves how far). hint: the advisor's
    line. winners: seats that won once the game is over.
    """

    chrome: Chrome
    lanes: tuple[LaneView, ...]
    track_length: int
    sectors: tuple[SectorView, ...]
    to_beat: str = ""
    proposal: str = ""
    leaps: str = ""
    round_no: int = 1
    deck: int = 0
    discard: int = 0
    reminders: tuple[str, ...] = ()
    hint: str = ""
    winners: tuple[int, ...] = ()


def leaps(session: DonkeyRaceSession) -> str:
    """The long presses of a play entered by hand, in the buttons' names: "hold BANK: +4", and for the
    leader, whose PASS steps down, " · hold PASS: -4"; "" when no play is being entered by hand."""
    cards, source = session.proposed_play() if session.mode is Mode.PLAY else ((), "")
    if source != "hand" or not cards:
        return ""
    said = [_("hold {button}: {leap}").format(button=_(BUTTON_NAMES[Button.BANK]), leap=f"+{LEAP}")]
    if session.down_button() is Button.PASS:
        said.append(_("hold {button}: {leap}").format(button=_(BUTTON_NAMES[Button.PASS]), leap=f"\u2212{LEAP}"))
    return sentence(" \u00b7 ".join(said))


def to_beat(session: DonkeyRaceSession) -> str:
    """What beats the current play: "2 cards higher than 7, or PASS", or what to lead (D.4-D.5)."""
    state = session.state
    if state.phase is not Phase.PLAY:
        return ""
    if state.donkey_round:
        return _("Donkey round: play exactly 1 card, any value")
    if state.count == 0:
        most = min(state.config.hand_size, len(state.hands[state.active]))
        text = ngettext("Lead 1 card", "Lead 1 to {n} cards of one value", most).format(n=most)
        return text + (_(", or PASS") if state.config.leader_may_pass else "")
    word = _("as high as or higher than") if state.config.allow_equal_raise else _("higher than")
    highest = next((cards for seat, cards in reversed(state.plays) if cards), ())
    value = card_label(DONKEY) if highest == (DONKEY,) else state.high_value  # "higher than the donkey", not 0
    return ngettext("{n} card {word} {value}, or PASS", "{n} cards {word} {value}, or PASS", state.count).format(
        n=state.count, word=word, value=value)


def reminders(session: DonkeyRaceSession) -> tuple[str, ...]:
    """Lines telling the table what to do physically now (deal, discard, draw, reshuffle, move)."""
    state, mode = session.state, session.mode
    size = session.config.hand_size
    if mode is Mode.DEAL:
        return (_("Shuffle the deck and deal {n} cards to each player").format(n=size),
                _("Put the rest face down in the centre"))
    if mode is Mode.FIRST:
        if without_camera(session):
            return (_("Whoever holds the donkey card leads: NEXT picks that player, BANK marks that they hold it"),
                    _("Nobody? The youngest leads (NEXT to choose)"))
        return (_("Whoever holds the donkey card shows it in their sector, then takes it back: they lead"),
                _("Nobody? The youngest leads (NEXT to choose)"))
    if mode is Mode.REFILL and not state.last_round:  # D.5 start_marker_only
        return (_("The donkey card only chose the first leader: set it aside"),
                _("{name} draws a card in its place").format(name=session.players[state.draw_queue[0]]))
    lines = list(_moves(session))
    if mode is Mode.REFILL:
        draw = _("everyone draws back to {n} cards").format(n=size) if session.config.refill_mode == "up_to_hand_size" \
            else _("everyone draws {n} new cards").format(n=size)
        taker = state.last_round.get("taken_by", -1)
        if taker >= 0:  # D.5 kramer_round
            lines.append(_("{name} takes the round's cards into hand; {draw}").format(
                name=session.players[taker], draw=draw))
        else:
            lines.append(_("Put the played cards on the discard pile; {draw}").format(draw=draw))
        if len(state.draw_queue) > len(state.deck):
            lines.append(_("The draw pile runs out: then shuffle the discards into a new one"))
    elif mode is Mode.RESHUFFLE:
        lines.append(_("The draw pile is empty: shuffle the discard pile, it becomes the draw pile"))
    return tuple(lines)


def _moves(session: DonkeyRaceSession) -> tuple[str, ...]:
    """Which physical token moves how far after the last round (D.4.5)."""
    summary = session.state.last_round
    if not summary or session.mode not in (Mode.REFILL, Mode.RESHUFFLE, Mode.OVER):
        return ()
    lines = []
    for seat, gain in enumerate(summary["gains"]):
        token = _("{colour} {shape}").format(colour=pgettext(*PLAYER_COLOUR_NAMES[seat]), shape=_(SHAPE_NAMES[PLAYER_SHAPES[seat]]))
        if gain:
            lines.append(ngettext("{name} +{n}: move the {token} {n} space (to {pos})",
                                  "{name} +{n}: move the {token} {n} spaces (to {pos})", gain).format(
                name=session.players[seat], n=gain, token=token, pos=session.state.positions[seat]))
        else:
            lines.append(_("{name} 0: the {token} stays").format(name=session.players[seat], token=token))
    return tuple(lines)


def hint(session: DonkeyRaceSession) -> str:
    """The advisor's line for the seat to act (public information only: the hand is unknown), worked out
    once per state by the session (:meth:`DonkeyRaceSession.hint`)."""
    hint = session.hint() if session.mode is Mode.PLAY else None
    return hint.reason if hint is not None else ""


def build_view(session: DonkeyRaceSession, wins: dict[str, int] | None = None) -> DonkeyRaceView:
    """The screen for the current moment (all strings translated)."""
    state, mode = session.state, session.mode
    wins = wins or {}
    lanes = tuple(LaneView(name, seat, state.positions[seat], state.points[seat], wins.get(name, 0),
                           len(state.hands[seat])) for seat, name in enumerate(session.players))
    plays = state.plays if mode is Mode.PLAY else tuple((s, tuple(c)) for s, c in
                                                        state.last_round.get("plays", ()))
    sectors = []
    for seat in range(len(session.players)):
        mine = [cards for s, cards in plays if s == seat]
        # a pass as what happened ("passed"), not the button's name (German "PASSEN" read as an order)
        label = " | ".join(describe_set(c) if c else pgettext("donkey race play", "passed") for c in mine)
        highest = (state.high_seat if mode is Mode.PLAY else state.last_round.get("highest", -1)) == seat
        sectors.append(SectorView(seat, label, highest and bool(mine)))
    proposal = ""
    if mode is Mode.PLAY:
        cards, source = session.proposed_play()
        if cards:
            proposal = (_("Your entry: {cards}") if source == "hand" else _("Seen: {cards}")).format(
                cards=describe_set(cards))
            try:
                value = set_value(cards, session.config, state.donkey_round)
                if JOKER in cards:  # a number card says its value itself, the donkey card is always 0 (D.5)
                    proposal += " " + _("(value {v})").format(v=value)
            except ValueError:
                proposal += " " + _("(not one value)")
            if source == "camera" and session._reading is not None and session._reading.flagged:
                proposal += " " + _("check the cards!")
    winners = state.winners if mode is Mode.OVER else ()
    round_no = (state.last_round.get("round", 1) if mode in (Mode.REFILL, Mode.RESHUFFLE, Mode.OVER)
                else max(1, state.round_no))
    seats = tuple(SeatChip(lane.name, lane.seat, _("{points} · {cards}").format(
        points=ngettext("{p} point", "{p} points", lane.points).format(p=lane.points),
        cards=ngettext("{c} card", "{c} cards", lane.hand).format(c=lane.hand)), lane.wins) for lane in lanes)
    notice, tone = session.message, Tone.REFUSED if session.refused else Tone.EVENT
    if not notice and (session.out_of_turn() or session.camera_problem) and not without_camera(session):
        notice, tone = session.out_of_turn() or session.camera_problem, Tone.WARNING
    if winners:  # how it was won, as History's replay tells it
        names = ", ".join(session.players[s] for s in winners)
        notice = session.ending or (_("{name} wins!").format(name=names) if len(winners) == 1 else
                                    _("Shared win: {names}").format(names=names))
        tone = Tone.WIN
    chrome = Chrome(_("Donkey race"), seats, session.active_seat, _prompt(session), _keys(session), notice, tone,
                    _("Round {n}").format(n=round_no), winners[0] if len(winners) == 1 else None, band_space=True)
    return DonkeyRaceView(
        chrome=chrome, lanes=lanes, track_length=session.config.track_length, sectors=tuple(sectors),
        to_beat=to_beat(session), proposal=proposal, leaps=leaps(session), round_no=round_no, deck=len(state.deck),
        discard=len(state.discard), reminders=reminders(session), hint=hint(session), winners=winners)


def _prompt(session: DonkeyRaceSession) -> str:
    mode, state = session.mode, session.state
    if mode is Mode.DEAL:
        return _("Deal {n} cards each").format(n=session.config.hand_size)
    if mode is Mode.FIRST:
        name = session.players[session._first_seat]
        if session._first_donkey:
            return _("{name} shows the donkey card and leads?").format(name=name)
        return _("{name} leads?").format(name=name)
    if mode is Mode.PLAY:  # no PASS named here: the keys name it where it is allowed (never the leader, D.4.1)
        name = session.players[state.active]
        if session.proposed_play()[1] == "hand" or without_camera(session):
            return _("{name}: enter your cards").format(name=name)
        if session.camera_problem:
            return _("{name}: enter your cards by hand ({problem})").format(name=name, problem=session.camera_problem)
        return _("{name}: lay your cards").format(name=name)
    if mode is Mode.REFILL and not state.last_round:  # D.5 start_marker_only: before round 1
        return _("Set the donkey card aside and draw a card for it")
    if mode is Mode.REFILL:
        return _("Round {n} over: move the tokens and draw").format(n=state.last_round.get("round", 0))
    if mode is Mode.RESHUFFLE:
        return _("Shuffle the discards into a new draw pile")
    if state.winners and len(state.winners) == 1:
        return _("{name} wins!").format(name=session.players[state.winners[0]])
    return _("Shared win: {names}").format(names=", ".join(session.players[s] for s in state.winners))


_KEYS: dict[Mode, Keys] = {
    Mode.FIRST: ((Button.CONFIRM, N_("accept")), (Button.NEXT, N_("other player")), (Button.BANK, N_("holds the donkey")),
                 (Button.UNDO, N_("undo"))),
    Mode.OVER: ((Button.CONFIRM, N_("end")),),
    Mode.DEAL: ((Button.CONFIRM, N_("done")), HOLD_FOR_RULES),
}
_OTHER_KEYS: Keys = ((Button.CONFIRM, N_("done")), (Button.UNDO, N_("undo")))
"""Dealing, refilling and reshuffling: the players do it, then confirm."""


def _play_keys(session: DonkeyRaceSession) -> Keys:
    """A play's keys: CONFIRM while there is a play to make (entered, or new cards seen); BANK steps the
    value of a play entered by hand up (or starts one), :meth:`DonkeyRaceSession.down_button` down (the
    leader's PASS, a follower's NEXT); the leader's NEXT its number of cards (D.4.1); PASS "pass" only
    where passing is allowed (:meth:`DonkeyRaceSession.may_pass`);
    UNDO cancels an entry (a camera to go back to) or takes back the last step."""
    cards, source = session.proposed_play()
    entering = source == "hand" and bool(cards)
    keys: list[tuple[Button, str]] = [(Button.CONFIRM, N_("play"))] if cards else []
    down = session.down_button()
    if entering:
        keys.append((Button.BANK, N_("+1")))
        if session.count_button() is Button.NEXT:
            keys.append((Button.NEXT, N_("number of cards")))
        if down is not None:
            keys.append((down, N_("-1")))
    else:
        keys.append((Button.BANK, N_("by hand")))
    if session.may_pass():
        keys.append((Button.PASS, N_("pass")))
    keys.append((Button.UNDO, N_("cancel") if entering and not without_camera(session) else N_("undo")))
    return tuple(keys)


def _keys(session: DonkeyRaceSession) -> tuple[tuple[str, str], ...]:
    if session.mode is Mode.PLAY:
        return key_legend(_play_keys(session))
    if session.mode is Mode.FIRST and not session.config.donkey:
        return key_legend(k for k in _KEYS[Mode.FIRST] if k[0] is not Button.BANK)
    return key_legend(_KEYS.get(session.mode, _OTHER_KEYS))


def final_line(session: DonkeyRaceSession) -> str:
    """The line ``companion play`` prints when the race ends: the winner, or the players who share the
    win (D.6); "" while it runs."""
    if session.winner_name:
        return _("{name} wins.").format(name=session.winner_name)
    if session.finished and session.state.winners:
        return _("Shared win: {names}").format(names=", ".join(session.players[s] for s in session.state.winners))
    return ""


HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    (N_("The goal"),
     N_("Each player has a token on a race track. The player with the most points when a token reaches "
        "the finish wins the race.")),
    (N_("A round"),
     N_("The leader plays one to three cards of one value. Each other player in turn plays as many "
        "cards of a higher value, or passes. With two players they take turns until one passes or plays "
        "what nothing can beat.")),
    (N_("Points"),
     N_("The highest play gets 2 points and 2 spaces, every other player who played gets 1, and a "
        "player who only passed gets nothing. Then everyone draws back to three cards.")),
    (N_("The donkey card"),
     N_("The player holding the donkey card leads the first round. The highest player leads the next "
        "round. When the draw pile is empty, the played cards are shuffled into a new one.")),
    (N_("The screen"),
     N_("Each lane shows a player's token on the track and its space; at the bottom, each player's "
        "points, cards in hand and ★ games won. Under the lanes: what to do at the table, such as which "
        "token moves how far.")),
    (N_("Entering cards"),
     N_("With no camera your cards start at the lowest play allowed. BANK counts the value up (hold it: 4 "
        "at once), CONFIRM plays. When you lead, PASS counts down (hold it: 4) and NEXT changes how many; "
        "else NEXT counts down and PASS passes. UNDO takes back a step.")),
)
"""How to play the donkey race on the box: its pages, (heading, text), marked for translation, written from
``../shared/rules/donkey-race.md`` in our own words with the box's default rules (``companion.screens.rules``
shows them, with the keyboard's page last)."""
