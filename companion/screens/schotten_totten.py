"""What the Schotten Totten screen shows: frozen view values, built from a session by :func:`build_view`
and drawn by ``companion.display.schotten_totten``.

All strings are already translated. Seat 0 is side ``a`` (drawn above the stones), seat 1 side ``b``.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Button
from companion.games.schotten_totten import Phase, formation_key
from companion.hints.schotten_totten import formation_label, public_alerts, verdict_text
from companion.i18n import N_, _
from companion.screens.common import Keys, key_legend, name_to_act
from companion.session.schotten_totten import Mode, SchottenTottenSession


@dataclass(frozen=True)
class StoneView:
    """One stone. cards[seat]: card codes in the order played (``"R5"``). labels[seat]: the formation
    name and sum of a complete side (``"colour run 18"``), else ``""``. owner: the seat that claimed it,
    or None. claimable: the player to act may claim it now (C.6). threatened: the other player may
    claim it next turn. selected: the stone the claim selection is on. proposed: the code of a card
    read (or entered) but not yet confirmed here, on side ``proposed_seat``. reason: why the selected
    stone can (not) be claimed."""

    cards: tuple[tuple[str, ...], tuple[str, ...]]
    labels: tuple[str, str] = ("", "")
    owner: int | None = None
    claimable: bool = False
    threatened: bool = False
    selected: bool = False
    proposed: str = ""
    proposed_seat: int | None = None
    reason: str = ""


@dataclass(frozen=True)
class StView:
    """The whole screen. players: the two names. active: the seat to act (None when over). points: match
    points per seat (C.8). game_number / match_length: "game 2 of 3". stones_held: stones claimed per
    seat in this game. keys: (button, what it does) pairs. winner: the game's winning seat once over.
    match_winner: the match winner's name once the match is over. alert: a public alert line."""

    title: str
    players: tuple[str, ...]
    active: int | None
    stones: tuple[StoneView, ...]
    prompt: str
    message: str = ""
    alert: str = ""
    points: tuple[int, int] = (0, 0)
    game_number: int = 1
    match_length: int = 1
    stones_held: tuple[int, int] = (0, 0)
    keys: tuple[tuple[str, str], ...] = ()
    winner: int | None = None
    match_winner: str | None = None
    status: str = ""
    refused: bool = False


def build_view(session: SchottenTottenSession, wins: dict[str, int] | None = None) -> StView:
    """The screen of ``session`` for the current moment (all strings translated); ``wins`` is not shown
    in this game (the match score is)."""
    state, mode = session.state, session.mode
    game = session.config.game
    active = session.active_seat
    claimable = set(state.claimable_stones(state.active)) if state.active >= 0 and mode is not Mode.OVER else set()
    alerts = public_alerts(state) if state.active >= 0 and mode not in (Mode.OVER, Mode.START) else None
    stones = []
    for i, stone in enumerate(state.stones):
        labels = tuple(formation_label(formation_key(side), game, short=True) if len(side) == 3 else ""
                       for side in stone.cards)
        reason = ""
        if mode is Mode.CLAIM and i == session.selected:
            reason = verdict_text(state.claim_verdict(i, state.active), game)
        proposed = session.proposal[0].code if session.proposal and session.proposal[1] == i else ""
        stones.append(StoneView(
            cards=(tuple(c.code for c in stone.cards[0]), tuple(c.code for c in stone.cards[1])),
            labels=(labels[0], labels[1]), owner=stone.owner, claimable=i in claimable,
            threatened=bool(alerts and i in alerts.threatened), selected=mode is Mode.CLAIM and i == session.selected,
            proposed=proposed, proposed_seat=state.active if proposed else None, reason=reason))
    alert = ""
    if alerts is not None:
        other = session.players[1 - alerts.active]
        if alerts.win_threat:
            alert = _("Warning: {name} may win next turn (stones {s})").format(
                name=other, s=", ".join(str(i + 1) for i in alerts.threatened))
        elif alerts.threatened:
            alert = _("{name} may claim stone {s} next turn").format(
                name=other, s=", ".join(str(i + 1) for i in alerts.threatened))
    return StView(
        title=_("Battle Line") if game == "battle-line" else _("Schotten Totten"),
        players=tuple(session.players), active=active, stones=tuple(stones), prompt=_prompt(session),
        message=session.message, alert=alert, points=session.match_points, game_number=min(
            session.games_played + (0 if state.phase is Phase.OVER else 1), session.config.match_length),
        match_length=session.config.match_length, stones_held=(state.stones_of(0), state.stones_of(1)),
        keys=_keys(session), winner=state.winner if state.phase is Phase.OVER else None,
        match_winner=session.winner_name, status=session.camera_problem, refused=session.refused)


def _prompt(session: SchottenTottenSession) -> str:
    mode, state = session.mode, session.state
    name = name_to_act(session)
    if mode is Mode.START:
        return _("{name} starts? CONFIRM to deal, NEXT for the other player").format(
            name=session.players[session.start_seat])
    if mode is Mode.WATCH:
        if not state.can_play(state.active):
            return _("{name} cannot play a card: PASS").format(name=name)
        if session.camera_problem:
            return _("{name}: BANK to enter the card you play").format(name=name)
        return _("{name}: play a card on your side of a stone (or BANK to enter it)").format(name=name)
    if mode is Mode.CHECK:
        assert session.proposal is not None
        card, stone = session.proposal
        return _("{name} plays {card} at stone {n}? CONFIRM, or correct it").format(name=name, card=card.code,
                                                                                   n=stone + 1)
    if mode is Mode.CLAIM:
        return _("{name}: claim stone {n}? CONFIRM, NEXT stone, PASS when done").format(
            name=name, n=session.selected + 1)
    outcome = state.outcome()
    assert outcome is not None
    if state.winner is None:
        head = _("Draw: no one can play or claim")
    else:
        how = {"breakthrough": _("3 adjacent stones"), "envelopment": _("5 stones"),
               "stall": _("more stones")}.get(state.ended, "")
        head = _("{name} wins the game ({how})").format(name=session.players[state.winner], how=how)
    if session.match_over:
        return head + ". " + _("Match over: CONFIRM to finish")
    return head + ". " + _("CONFIRM for the next game")


_KEYS: dict[Mode, Keys] = {
    Mode.START: ((Button.CONFIRM, N_("deal")), (Button.NEXT, N_("other player"))),
    Mode.WATCH: ((Button.BANK, N_("enter a card")), (Button.PASS, N_("pass")), (Button.UNDO, N_("undo"))),
    Mode.CHECK: ((Button.CONFIRM, N_("play")), (Button.BANK, N_("value +1")), (Button.PASS, N_("colour")),
                 (Button.NEXT, N_("stone")), (Button.UNDO, N_("cancel"))),
    Mode.CLAIM: ((Button.CONFIRM, N_("claim")), (Button.NEXT, N_("next stone")), (Button.PASS, N_("done")),
                 (Button.UNDO, N_("undo"))),
}


def _keys(session: SchottenTottenSession) -> tuple[tuple[str, str], ...]:
    if session.mode is Mode.OVER:
        return key_legend(((Button.CONFIRM, N_("finish") if session.match_over else N_("next game")),))
    return key_legend(_KEYS[session.mode])


def final_line(session: SchottenTottenSession) -> str:
    """The line ``companion play`` prints when the match ends: who won it ("" while it runs)."""
    return _("{name} wins the match.").format(name=session.winner_name) if session.winner_name else ""
