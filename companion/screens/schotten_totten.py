"""What the Schotten Totten screen shows: frozen view values, built from a session by :func:`build_view`
and drawn by ``companion.display.schotten_totten``.

All strings are already translated. Seat 0 is side ``a`` (drawn above the stones), seat 1 side ``b``.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Button
from companion.games.schotten_totten import Phase, formation_key, formation_name
from companion.games.schotten_totten.cards import COLOUR_LETTERS
from companion.hints.schotten_totten import verdict_text
from companion.i18n import N_, Np_, _, listing, ngettext, pgettext
from companion.screens.common import HOLD_FOR_RULES, Chrome, ChromeFields, Keys, SeatChip, Tone, key_legend, name_to_act
from companion.session.base import without_camera
from companion.session.schotten_totten import Mode, SchottenTottenSession

FORMATION_TAGS: dict[str, dict[int, tuple[str, str]]] = {
    "schotten-totten": {5: Np_("formation tag: colour run", "CR"), 4: Np_("formation tag: three of a kind", "3K"),
                        3: Np_("formation tag: colour", "CL"), 2: Np_("formation tag: run", "RN"),
                        1: Np_("formation tag: sum", "\u03a3")},
    "battle-line": {5: Np_("formation tag: wedge", "W"), 4: Np_("formation tag: phalanx", "PH"),
                    3: Np_("formation tag: battalion order", "BO"), 2: Np_("formation tag: skirmish line", "SL"),
                    1: Np_("formation tag: host", "H")},
}
"""A complete side's formation as written under a stone, where only a few letters fit (C.5 table): a tag
and the sum ("CR 24"); the legend gives each tag's name (:func:`formation_legend`). No tag is a card's
colour letter alone (R, O, Y, G, B, P: "R 9" beside the card R9 would read as a card); Σ is the sum."""


def formation_tag(key: tuple[int, int], game: str) -> str:
    """``"CR 24"`` for the formation key ``(5, 24)`` of ``game``: its translated tag and its sum, joined by a
    thin space (the tag must fit beside the stone in a ninth of the screen's width)."""
    return f"{pgettext(*FORMATION_TAGS[game][key[0]])}\u2009{key[1]}"


def formation_legend(game: str) -> str:
    """Every tag of ``game`` with its formation's name, strongest first ("CR colour run · 3K three of a
    kind · ...")."""
    return " \u00b7 ".join(_("{tag} {name}").format(tag=pgettext(*FORMATION_TAGS[game][rank]),
                                                    name=_(formation_name(rank, game))) for rank in range(5, 0, -1))


CARD_COLOUR_WORDS = (Np_("card colour", "red"), Np_("card colour", "orange"), Np_("card colour", "yellow"),
                     Np_("card colour", "green"), Np_("card colour", "blue"), Np_("card colour", "purple"))
"""The colours' names, in the order of ``companion.games.schotten_totten.cards.COLOUR_LETTERS``."""


def colour_legend() -> str:
    """Each card colour's letter with its name ("R red · O orange · ..."; German "Ge gelb · Gr grün"): the
    letters a card shows beside its colour (``Card.name``), for players who tell colours apart poorly; a
    letter and its name are joined by no-break spaces, so a wrapped legend never parts them."""
    return " \u00b7 ".join(_("{tag} {name}").format(tag=pgettext(*COLOUR_LETTERS[k]), name=pgettext(*word))
                           .replace(" ", "\u00a0") for k, word in enumerate(CARD_COLOUR_WORDS))


@dataclass(frozen=True)
class StoneView:
    """One stone. cards[seat]: card codes in the order played (``"R5"``). labels[seat]: the formation
    tag and sum of a complete side (``"CR 18"``, :func:`formation_tag`), else ``""``; once the stone is
    claimed, only its owner's, the formation that won it (two tags a stone crowd the final board).
    owner: the seat that claimed it, or None. claimable: the player to act may claim it now (C.6). threatened: the
    other player may claim it next turn. selected: the stone the claim selection is on. proposed: the
    code of a card read (or entered) but not yet confirmed here, on side ``proposed_seat``. reason: at
    the claim step, for a stone the player to act has completed, whether it can be claimed and why
    (not), in plain words (C.5, C.6)."""

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
class StView(ChromeFields):
    """The whole screen: the shared frame (``chrome``: header with the game of the match, player strip
    with match points and stones, key chips, notice band) and the body. stones: the nine stones. alert:
    a public alert line ("Ben may claim stone 4 next turn"). claiming: the claim step is on (each stone
    the player completed says whether it can be claimed). legend: the formation tags' legend. colours:
    the card colours' letters (:func:`colour_legend`), under it where the info box has room. winner:
    the game's winning seat once over. match_winner: the match winner's name once the match is over.
    points: match points per seat (C.8)."""

    chrome: Chrome
    stones: tuple[StoneView, ...]
    alert: str = ""
    claiming: bool = False
    legend: str = ""
    colours: str = ""
    winner: int | None = None
    match_winner: str | None = None
    points: tuple[int, int] = (0, 0)


def build_view(session: SchottenTottenSession, wins: dict[str, int] | None = None) -> StView:
    """The screen of ``session`` for the current moment (all strings translated); ``wins`` is not shown
    in this game (the match score is)."""
    state, mode = session.state, session.mode
    game = session.config.game
    active = session.active_seat
    claimable = set(state.claimable_stones(state.active)) if state.active >= 0 and mode is not Mode.OVER else set()
    alerts = session.hint()  # the alerts, once per state
    stones = []
    for i, stone in enumerate(state.stones):
        labels = tuple(formation_tag(formation_key(side), game) if len(side) == 3 and stone.owner in (None, seat)
                       else "" for seat, side in enumerate(stone.cards))
        reason = ""
        if mode is Mode.CLAIM and stone.owner is None and len(stone.cards[state.active]) == 3:
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
        alert = alert_text(other, alerts.winning if alerts.win_threat else alerts.threatened, alerts.win_threat)
    points, held = session.match_points, (state.stones_of(0), state.stones_of(1))
    seats = tuple(SeatChip(name, seat, seat_standing(points[seat], held[seat])) for seat, name in
                  enumerate(session.players))
    game_number = min(session.games_played + (0 if state.phase is Phase.OVER else 1), session.config.match_length)
    notice, tone = session.message, Tone.EVENT
    if session.refused:
        tone = Tone.REFUSED
    elif session.camera_problem and not notice and not without_camera(session):
        notice, tone = session.camera_problem, Tone.WARNING
    winner = state.winner if state.phase is Phase.OVER else None
    if session.winner_name is not None and session.config.match_length > 1:
        a, b = points
        notice, tone = _("{name} wins the match {a}-{b}: 5 points a game won, 1 point a stone held in a game "
                         "lost").format(name=session.winner_name, a=a, b=b), Tone.WIN
        winner = session.players.index(session.winner_name)
    elif session.match_over and state.phase is Phase.OVER and session.config.match_length > 1:
        notice, tone = _("Match drawn {a}-{b}").format(a=points[0], b=points[1]), Tone.WIN
    elif winner is not None:  # how it was won, as History's replay tells it
        notice, tone = session.ending or _("{name} wins the game").format(name=session.players[winner]), Tone.WIN
    chrome = Chrome(_("Battle Line") if game == "battle-line" else _("Schotten Totten"), seats, active,
                    _prompt(session), _keys(session), notice, tone,
                    _("Game {n} of {total}").format(n=game_number, total=session.config.match_length)
                    if session.config.match_length > 1 else "", winner, band_space=True)
    return StView(chrome=chrome, stones=tuple(stones), alert=alert, claiming=mode is Mode.CLAIM,
                  legend=formation_legend(game), colours=colour_legend(),
                  winner=state.winner if state.phase is Phase.OVER else None,
                  match_winner=session.winner_name, points=points)


def alert_text(name: str, threatened: tuple[int, ...], win_threat: bool) -> str:
    """The public alert: the stones (0-based indices) ``name`` may claim next turn, "Ben may claim stones 5
    and 6 next turn", or "Warning: Ben may win next turn (stone 7)" when a claim there would win (C.7);
    "" when none is threatened."""
    if not threatened:
        return ""
    stones, n = listing(i + 1 for i in threatened), len(threatened)
    if win_threat:
        return ngettext("Warning: {name} may win next turn (stone {s})",
                        "Warning: {name} may win next turn (stones {s})", n).format(name=name, s=stones)
    return ngettext("{name} may claim stone {s} next turn", "{name} may claim stones {s} next turn", n).format(
        name=name, s=stones)


def seat_standing(points: int, stones: int) -> str:
    """A player's standing in the strip: "1 point · 2 stones" (match points, C.8, and stones held in this
    game, counted with ``ngettext``)."""
    return _("{points} · {stones}").format(
        points=ngettext("{n} point", "{n} points", points).format(n=points),
        stones=ngettext("{n} stone", "{n} stones", stones).format(n=stones))


def _prompt(session: SchottenTottenSession) -> str:
    mode, state = session.mode, session.state
    name = name_to_act(session)
    if mode is Mode.START:
        return _("{name} starts?").format(name=session.players[session.start_seat])
    if mode is Mode.WATCH:
        if not state.can_play(state.active):
            return _("{name} cannot play a card").format(name=name)
        if session.camera_problem:
            return _("{name}: enter your card by hand ({problem})").format(name=name, problem=session.camera_problem)
        return _("{name}: play a card on your side of a stone").format(name=name)
    if mode is Mode.CHECK:
        assert session.proposal is not None
        card, stone = session.proposal
        if session.placing:
            return _("{name}: play at stone {n}?").format(name=name, n=stone + 1)
        return _("{name} plays {card} at stone {n}?").format(name=name, card=card.name, n=stone + 1)
    if mode is Mode.CLAIM:
        return _("{name}: claim stone {n}?").format(name=name, n=session.selected + 1)
    outcome = state.outcome()
    assert outcome is not None
    if state.winner is None:
        head = _("Draw: no one can play or claim")
    else:
        how = {"breakthrough": _("3 adjacent stones"), "envelopment": _("5 stones"),
               "stall": _("more stones")}.get(state.ended, "")
        head = _("{name} wins the game ({how})").format(name=session.players[state.winner], how=how)
    if session.match_over:  # the band says who won and how: the prompt says only what it is, on one line
        if session.config.match_length > 1:
            return _("Match over")
        return _("Game over") if state.winner is not None else head  # one game: no match to speak of
    return head


_KEYS: dict[Mode, Keys] = {
    Mode.START: ((Button.CONFIRM, N_("deal")), (Button.NEXT, N_("other player")), HOLD_FOR_RULES),
    Mode.WATCH: ((Button.BANK, N_("enter by hand")), (Button.UNDO, N_("undo"))),
    Mode.CLAIM: ((Button.CONFIRM, N_("claim")), (Button.NEXT, N_("next stone")),
                 (Button.PASS, N_("previous stone")), (Button.BANK, N_("done")), (Button.UNDO, N_("undo"))),
}

_STONE_KEYS: Keys = ((Button.CONFIRM, N_("this stone")), (Button.NEXT, N_("next stone")),
                     (Button.PASS, N_("previous stone")))
"""The card played, its first step: which stone (``placing``); UNDO follows (:func:`_keys`)."""

_CARD_KEYS: Keys = ((Button.CONFIRM, N_("play")), (Button.BANK, N_("+1")), (Button.PASS, N_("-1")),
                    (Button.NEXT, N_("colour")), (Button.UNDO, N_("stone")))
"""The card played, its second step (or a card read): its value and colour; UNDO goes back to its stone."""


def _keys(session: SchottenTottenSession) -> tuple[tuple[str, str], ...]:
    """What each button does now: the two steps of a card played (its stone, then its card; one scheme
    for a card read and one entered by hand), PASS to pass only for a player who cannot play (C.4),
    NEXT and PASS at the claim step only with more than one stone to choose. One meaning a button through
    the game: NEXT the next stone, colour or player, PASS one back or a pass, BANK +1 or done, CONFIRM
    yes, UNDO back."""
    mode, state = session.mode, session.state
    if mode is Mode.OVER:
        return key_legend(((Button.CONFIRM, N_("finish") if session.match_over else N_("next game")),))
    if mode is Mode.CHECK and session.placing:
        undo = N_("undo") if without_camera(session) else N_("cancel")
        return key_legend(_STONE_KEYS + ((Button.UNDO, undo),))
    if mode is Mode.CHECK:
        return key_legend(_CARD_KEYS)
    if mode is Mode.WATCH and not state.can_play(state.active):
        return key_legend(((Button.PASS, N_("pass")), (Button.UNDO, N_("undo"))))
    if mode is Mode.CLAIM and len(session.claim_options()) < 2:
        return key_legend(tuple(k for k in _KEYS[mode] if k[0] not in (Button.NEXT, Button.PASS)))
    return key_legend(_KEYS[mode])


def final_line(session: SchottenTottenSession) -> str:
    """The line ``companion play`` prints when the match ends: who won it ("" while it runs)."""
    return _("{name} wins the match.").format(name=session.winner_name) if session.winner_name else ""


HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    (N_("The goal"),
     N_("Nine stones lie between the two players. Claim five stones, or three stones side by side, "
        "to win the game. A match is several games; the points add up.")),
    (N_("Your turn"),
     N_("Play one card on your side of a stone, then draw a card. Each side of a stone holds three "
        "cards, and they form a formation.")),
    (N_("Formations"),
     N_("From strongest to weakest: a colour run (three in a row, one colour), three of a kind, one "
        "colour, a run, any three cards. Between equal formations the higher sum wins; with equal sums, "
        "the one completed first.")),
    (N_("Claiming a stone"),
     N_("Claim a stone when your formation beats theirs, or when the cards on the table prove that "
        "theirs can no longer beat yours. The box checks every claim from the cards it sees.")),
    (N_("The screen"),
     N_("Beside each stone: the formation tag and sum of each complete side; once claimed, of the "
        "side that won it. A white ring: a stone you may claim; a yellow ring: one the other player may "
        "claim next turn.")),
    (N_("Formation tags"),
     N_("CR colour run, 3K three of a kind, CL colour, RN run, \u03a3 sum; in Battle Line W wedge, PH "
        "phalanx, BO battalion order, SL skirmish line, H host. When you claim, NEXT goes through "
        "your complete stones and says why each can or cannot be claimed.")),
    (N_("Entering a card"),
     N_("First its stone: NEXT the next stone, PASS the one before, CONFIRM keeps it. The card offered "
        "changes with the stone: the one likeliest to go with your cards there. With no camera this opens "
        "by itself and UNDO takes back the last step.")),
    (N_("Choosing the card"),
     N_("Then the card: BANK +1, PASS -1, NEXT the next colour, only cards not on the table. CONFIRM "
        "plays it, UNDO goes back to its stone. A card the camera read is corrected the same way.")),
)
"""How to play Schotten Totten on the box: its pages, (heading, text), marked for translation, written from
``../shared/rules/schotten-totten.md`` in our own words with the box's default rules (``companion.screens.rules``
shows them, with the keyboard's page last)."""
