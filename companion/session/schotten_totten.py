"""The Schotten Totten / Battle Line session: card readings and button presses in, engine actions and
screens out, over a match of several games (schotten-totten.md C.8).

The box sees only the table (ARCHITECTURE.md, hidden information): its state is table-side, every
drawn card is ``Draw(None)`` and applied by the session itself (the player draws at the table), and a
played card must be one not yet seen. Modes:

- ``START``: the proposed starting player (game 1: drawn at random; later games: the previous
  winner, the Battle Line rule of C.8); ``next`` another player, ``confirm`` accepts (the deal follows).
- ``WATCH``: waiting for the active player's card. From the camera, a reading with exactly one card
  not yet on the table, at the active side of an open stone, stable over ``stable_frames`` frames,
  is proposed (``CHECK``). With the buttons: ``bank`` proposes a card to enter by hand (the first
  card not yet seen, at the first stone with room). Scripts may also ``set STONE CARD`` (STONE 1-9;
  CARD the colour digit 1-6 for R O Y G B P followed by the value: ``15`` is R5, ``410`` is G10).
  ``pass`` when no card can be played (C.4); ``choose N`` asks whether stone N can be claimed now.
- ``CHECK``: the proposed card, read or entered, corrected with the buttons: ``bank`` its value up,
  ``pass`` its colour on, ``next`` the next stone with room (only cards not yet on the table are
  offered); ``confirm`` plays it, ``undo`` drops it (read again).
- ``CLAIM``: stones the player may claim (C.6); ``next`` selects a stone with 3 of the player's
  cards, ``confirm`` claims it (refused with the reason: for a proof, a completion of the opponent's
  side that would beat it), ``choose N`` claims stone N, ``pass`` ends the claims.
- ``OVER``: the game's result and the match score; ``confirm`` starts the next game of the match, or
  ends the session after ``match_length`` games.

Every accepted action is appended to the store's event log before the state changes; the match is the
replay of the log (``{"type": "next_game"}`` separates games), so a restart resumes it and ``undo``
drops the last player action (with the automatic draws that followed it).
"""

from __future__ import annotations

import enum
import logging
import random
from dataclasses import dataclass

from companion.commands import Button, Command
from companion.errors import CorruptLog, IllegalMove
from companion.games.schotten_totten import (COLOURS, NUM_STONES, Action, Card, Claim, Draw, EndClaims, Pass, Phase,
    Play, SchottenTottenConfig, SchottenTottenState, StartWith, action_from_dict, action_to_dict)
from companion.hints.schotten_totten import verdict_text
from companion.i18n import _, sentence
from companion.session.base import Presses, Waiting, seat_to_act
from companion.session.log import Step
from companion.session.readings import SchottenTottenReading
from companion.session.stable import Stable

log = logging.getLogger(__name__)


class Mode(enum.Enum):
    """What the session waits for (see the module docstring)."""

    START = "start"
    WATCH = "watch"
    CHECK = "check"
    CLAIM = "claim"
    OVER = "over"


@dataclass(frozen=True)
class Match:
    """The replayed match: finished games' match points per seat (C.8) and winners, the running game."""

    points: tuple[int, int]
    winners: tuple[int | None, ...]
    state: SchottenTottenState


def replay_match(events, config: SchottenTottenConfig, step: Step | None = None) -> Match:
    """Replay the logged events into a :class:`Match` (``step``: see :data:`companion.session.log.Step`; at
    a ``next_game`` event ``after`` is the next game's first state); raises :class:`CorruptLog` when one
    does not apply."""
    state = SchottenTottenState.new(config)
    points = [0, 0]
    winners: list[int | None] = []
    for event in events:
        before = state
        try:
            if event.payload.get("type") == "next_game":
                outcome = state.outcome()
                if outcome is None:
                    raise ValueError("next game before the game ended")
                points = [points[s] + outcome.scores[s] for s in (0, 1)]
                winners.append(outcome.winner)
                state = SchottenTottenState.new(config)
            else:
                state = state.apply(action_from_dict(event.payload, config.max_value))
        except (IllegalMove, ValueError) as error:
            raise CorruptLog(f"event {event.seq} of the saved match does not apply: {error}") from None
        if step is not None:
            step(event, before, state)
    return Match((points[0], points[1]), tuple(winners), state)


def replay_state(events, players: int, config: SchottenTottenConfig, step: Step | None = None) -> SchottenTottenState:
    """The state of the match's running game after ``events`` (``players`` is always 2, C.1; ``step`` as
    :func:`replay_match`); raises :class:`CorruptLog` when one does not apply."""
    return replay_match(events, config, step).state

def new_card(state: SchottenTottenState, reading: SchottenTottenReading) -> tuple[Card, int] | None:
    """The play the reading shows: exactly one readable, unflagged card not yet on the table, at the
    active seat's side of a stone where it may play (C.4), and every card already played seen where it
    lies (a card missed, read as another or moved makes the reading disagree with the game: it is not
    offered, schotten-totten.md C.2-C.4); else None."""
    table = set(state.table_cards())
    new = [c for c in reading.cards if c.card is None or c.card not in table]
    if len(new) != 1 or new[0].flagged:
        return None
    read_at = {(c.stone, c.seat, c.card) for c in reading.cards}
    if any((index, seat, card) not in read_at for index, stone in enumerate(state.stones)
           for seat, cards in enumerate(stone.cards) for card in cards):
        return None
    seen = new[0]
    if seen.card is None or seen.seat != state.active or not state.stones[seen.stone].has_room(seen.seat):
        return None
    return seen.card, seen.stone


def card_from_number(number: int, max_value: int = 10) -> Card:
    """Hand entry code (scripts, keyboard): the colour digit 1-6 (R O Y G B P) then the value, e.g.
    15 -> R5, 410 -> G10. Raises :class:`IllegalMove` for another number."""
    text = str(number)
    if len(text) < 2 or not "1" <= text[0] <= "6" or not 1 <= int(text[1:]) <= max_value:
        raise IllegalMove(_("card {n}: a colour digit 1-6 (R O Y G B P) then a value 1-{v}, like 15 for R5").format(
            n=number, v=max_value), "input")
    return Card(int(text[0]) - 1, int(text[1:]))


class SchottenTottenSession:
    """One Schotten Totten / Battle Line match at the table, backed by an event log in ``store``.

    players: two names, seat 0 (side ``a``) then seat 1 (side ``b``). stable_frames: frames a card
    reading must hold (>= 1). rng: draws the proposed first player of the first game.
    Raises :class:`CorruptLog` when the stored events do not replay.
    """

    def __init__(self, store, game_id: int, players: list[str], config: SchottenTottenConfig | None = None,
                 stable_frames: int = 3, rng: random.Random | None = None):
        if len(players) != 2:
            raise ValueError(f"Schotten Totten is for two players, not {len(players)} (C.1)")
        self.store = store
        self.game_id = game_id
        self.players = list(players)
        self.config = config or SchottenTottenConfig()
        self.stable_frames = stable_frames
        self.rng = rng or random.Random()
        self.match = replay_match(store.events(game_id), self.config)
        self.message = ""
        self.finished = False
        self._refused = False
        self.proposal: tuple[Card, int] | None = None
        self._stable = Stable(stable_frames)
        self._reading: SchottenTottenReading | None = None
        self.camera_problem = ""
        self.selected = 0
        self.start_seat = self._proposed_starter()
        self._enter_mode()

    @property
    def state(self) -> SchottenTottenState:
        return self.match.state

    # -- what the loop asks -----------------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        phase = self.state.phase
        if phase is Phase.START:
            return Mode.START
        if phase is Phase.OVER:
            return Mode.OVER
        if phase is Phase.CLAIM:
            return Mode.CLAIM
        return Mode.CHECK if self.proposal else Mode.WATCH

    @property
    def games_played(self) -> int:
        """Finished games of the match, the running one included once it is over."""
        return len(self.match.winners) + (1 if self.state.phase is Phase.OVER else 0)

    @property
    def match_points(self) -> tuple[int, int]:
        """Match points per seat (C.8), the running game included once it is over."""
        outcome = self.state.outcome()
        if outcome is None:
            return self.match.points
        return (self.match.points[0] + outcome.scores[0], self.match.points[1] + outcome.scores[1])

    @property
    def match_over(self) -> bool:
        return self.state.phase is Phase.OVER and self.games_played >= self.config.match_length

    @property
    def winner_name(self) -> str | None:
        """The match winner's name once the match is over (None while running or for a tie)."""
        if not self.match_over:
            return None
        a, b = self.match_points
        return None if a == b else self.players[0 if a > b else 1]

    @property
    def active_seat(self) -> int | None:
        """The seat to act (during START: the proposed first player), None once the game is over."""
        return seat_to_act(self.state, self.start_seat, self.mode is Mode.START)

    @property
    def refused(self) -> bool:
        """True when the last command was refused (its reason is the message)."""
        return self._refused

    @property
    def attention(self) -> bool:
        return self._refused

    @property
    def waiting(self) -> Waiting:
        if self.finished:
            return Waiting.NOTHING
        if self.mode is Mode.WATCH and not self.camera_problem:
            return Waiting.CAMERA
        return Waiting.PLAYERS

    @property
    def wants_frame(self) -> bool:
        return self.mode is Mode.WATCH

    # -- inputs ----------------------------------------------------------------------------------------

    def on_frame(self, frame_bgr, reading: SchottenTottenReading) -> None:
        """One frame and its card reading (``companion.readers.schotten_totten`` makes it)."""
        self.camera_problem = reading.problem or ""
        self._reading = reading
        if self.mode is not Mode.WATCH:
            return
        candidate = None if reading.problem else new_card(self.state, reading)  # a problem refuses it whole
        if self._stable.feed(candidate) and candidate is not None:
            self.proposal = candidate
            self._stable.reset()

    def on_camera_problem(self, reason: str) -> None:
        self.camera_problem = reason

    def on_command(self, command: Command) -> None:
        """Apply one player command; an illegal one only sets :attr:`message` (with the reason, which
        the next command clears)."""
        if self._refused:
            self.message = ""
        self._refused = False
        button = command.button
        try:
            if button is Button.UNDO and self.mode is not Mode.CHECK:
                self.undo()
            elif self.mode is Mode.START:
                self._on_start(command)
            elif self.mode in (Mode.WATCH, Mode.CHECK):
                self._on_play(command)
            elif self.mode is Mode.CLAIM:
                self._on_claim(command)
            else:
                self._on_over(command)
        except IllegalMove as error:
            self.message = sentence(_(error.reason))  # the rule's section stays in the log
            log.info("refused: %s", error)
            self._refused = True

    def _on_start(self, command: Command) -> None:
        if command.button is Button.NEXT:
            self.start_seat = 1 - self.start_seat
        elif command.button is Button.CONFIRM:
            self._accept(StartWith(self.start_seat))

    def _on_play(self, command: Command) -> None:
        button, args = command.button, command.args
        if button is Button.SET and len(args) == 2:
            stone = self._stone(args[0])
            self.proposal = (card_from_number(args[1], self.config.max_value), stone)
        elif button is Button.CONFIRM and self.proposal is not None:
            card, stone = self.proposal
            self.proposal = None
            self._accept(Play(card, stone))
        elif button is Button.UNDO and self.proposal is not None:
            self.proposal = None
            self._stable.reset()
        elif button is Button.BANK:
            self.proposal = self._stepped(value=True) if self.proposal else self._first_draft()
        elif button is Button.PASS and self.proposal is not None:
            self.proposal = self._stepped(value=False)
        elif button is Button.NEXT and self.proposal is not None:
            self.proposal = (self.proposal[0], self._next_stone(self.proposal[1]))
        elif button is Button.PASS:
            self._accept(Pass())
        elif button is Button.CHOOSE and args:
            verdict = self.state.claim_verdict(self._stone(args[0]), self.state.active)
            if verdict.claimable:
                self.message = _("Stone {n} can be claimed after your play").format(n=args[0])  # C.4
                return
            raise IllegalMove(_("Stone {n}: {why}").format(n=args[0], why=verdict_text(verdict, self.config.game)),
                              verdict.rule)

    def _open_stones(self) -> list[int]:
        seat = self.state.active
        return [i for i, stone in enumerate(self.state.stones) if stone.has_room(seat)]

    def _next_stone(self, stone: int) -> int:
        """The next stone with room for the active player after ``stone`` (round the nine)."""
        stones = self._open_stones()
        later = [i for i in stones if i > stone]
        return (later or stones or [stone])[0]

    def _first_draft(self) -> tuple[Card, int] | None:
        """A card to correct into the one played: the first not yet seen, at the first stone with room."""
        stones = self._open_stones()
        if not stones:
            raise IllegalMove(_("No stone has room for your card: PASS"), "schotten-totten.md C.4")
        seen = set(self.state.table_cards())
        card = next(c for c in self.config.deck if c not in seen)
        return card, stones[0]

    def _stepped(self, value: bool) -> tuple[Card, int]:
        """The proposal with its value one up (``value``) or its colour one on, skipping cards on the table."""
        assert self.proposal is not None
        card, stone = self.proposal
        return stepped_card(card, set(self.state.table_cards()), value, self.config.max_value), stone

    def _claim_options(self) -> list[int]:
        seat = self.state.active
        return [i for i, s in enumerate(self.state.stones) if s.owner is None and len(s.cards[seat]) == 3]

    def _on_claim(self, command: Command) -> None:
        button, args = command.button, command.args
        options = self._claim_options()
        if button is Button.NEXT and options:
            later = [i for i in options if i > self.selected]
            self.selected = later[0] if later else options[0]
        elif button is Button.CONFIRM:
            self._claim(self.selected)
        elif button is Button.CHOOSE and args:
            self._claim(self._stone(args[0]))
        elif button is Button.PASS:
            self._accept(EndClaims())

    def _claim(self, stone: int) -> None:
        verdict = self.state.claim_verdict(stone, self.state.active)
        if not verdict.claimable:
            raise IllegalMove(_("Stone {n} cannot be claimed: {why}").format(
                n=stone + 1, why=verdict_text(verdict, self.config.game)), verdict.rule)
        self._accept(Claim(stone))

    def _on_over(self, command: Command) -> None:
        if command.button not in (Button.CONFIRM, Button.MENU, Button.QUIT):
            return
        if self.match_over or command.button is not Button.CONFIRM:
            self.finished = True
            return
        self.store.append_event(self.game_id, "action", {"type": "next_game"})
        self.match = replay_match(self.store.events(self.game_id), self.config)
        self.start_seat = self._proposed_starter()
        self.message = _("Game {n} of {total}").format(n=len(self.match.winners) + 1, total=self.config.match_length)
        self._enter_mode()

    @staticmethod
    def _stone(one_based: int) -> int:
        if not 1 <= one_based <= NUM_STONES:
            raise IllegalMove(_("stones are 1 to 9, not {n}").format(n=one_based), "schotten-totten.md C.2")
        return one_based - 1

    # -- accepting and undoing ---------------------------------------------------------------------------

    def _accept(self, action: Action) -> None:
        before = self.state
        after = before.apply(action)  # raises IllegalMove before anything is stored
        self.store.append_event(self.game_id, "action", action_to_dict(action))
        self.match = Match(self.match.points, self.match.winners, after)
        self.message = self._describe(before, action, after)
        self._automatic()
        self._enter_mode()

    def _automatic(self) -> None:
        """Apply the draws the box cannot see (the deal and each turn's draw: ``Draw(None)``, C.3/C.4)."""
        while self.state.phase in (Phase.DEAL, Phase.DRAW):
            action = Draw(None)
            self.store.append_event(self.game_id, "action", action_to_dict(action))
            self.match = Match(self.match.points, self.match.winners, self.state.apply(action))

    def undo(self) -> None:
        """Drop the last player action (with the automatic draws after it) and replay."""
        if self.match_over:
            self.message = _("The match is over and saved; it cannot be undone")
            return
        dropped = None
        while True:
            event = self.store.drop_last_event(self.game_id)
            if event is None or event.payload.get("type") != "draw":
                dropped = event
                break
        self.match = replay_match(self.store.events(self.game_id), self.config)
        self.proposal = None
        self.message = _("Undone") if dropped is not None else _("Nothing to undo")
        self._enter_mode()

    def _enter_mode(self) -> None:
        self._stable.reset()
        if self.state.phase is Phase.CLAIM:
            claims = self.state.claimable_stones(self.state.active)
            self.selected = claims[0] if claims else 0
        if self.state.phase is Phase.OVER and self.match_over:
            self._record_result()

    def _record_result(self) -> None:
        if self.store.game(self.game_id).finished:
            return
        a, b = self.match_points
        winner = None if a == b else (0 if a > b else 1)
        self.store.finish_game(self.game_id, {
            "winner": None if winner is None else self.players[winner],
            "points": {self.players[0]: a, self.players[1]: b},
            "games": [None if w is None else self.players[w] for w in self.match.winners + (self.state.winner,)]})

    def _proposed_starter(self) -> int:
        if self.match.winners and self.match.winners[-1] is not None:
            return self.match.winners[-1]  # C.8 (Battle Line): the winner of a game starts the next
        return self.rng.randrange(2)

    def _describe(self, before: SchottenTottenState, action: Action, after: SchottenTottenState) -> str:
        name = self.players[before.active] if before.active >= 0 else ""
        if isinstance(action, StartWith):
            return _("{name} starts").format(name=self.players[action.seat])
        if isinstance(action, Play):
            return _("{name} plays {card} at stone {n}").format(name=name, card=action.card.code, n=action.stone + 1)
        if isinstance(action, Pass):
            return _("{name} cannot play and passes").format(name=name)
        if isinstance(action, Claim):
            if after.phase is Phase.OVER:
                return _("{name} claims stone {n} and wins the game").format(name=name, n=action.stone + 1)
            return _("{name} claims stone {n}").format(name=name, n=action.stone + 1)
        return ""

    # -- view --------------------------------------------------------------------------------------------


def stepped_card(card: Card, seen: set[Card], value: bool, top: int) -> Card:
    """``card`` with its value one up (BANK, 1 after ``top``) or its colour one on (PASS), skipping the
    cards in ``seen`` (those on the table); ``card`` itself when every step is seen."""
    colour, number = card.colour, card.value
    for _step in range(len(COLOURS) * top):
        if value:
            number = number % top + 1
        else:
            colour = (colour + 1) % len(COLOURS)
        candidate = Card(colour, number)
        if candidate not in seen:
            return candidate
    return card


def _card_presses(start: Card, target: Card, seen: set[Card], top: int) -> list[Button]:
    """The fewest BANK/PASS presses that step ``start`` to ``target`` (breadth first over the cards)."""
    paths: dict[Card, list[Button]] = {start: []}
    frontier = [start]
    while frontier and target not in paths:
        following = []
        for card in frontier:
            for button in (Button.PASS, Button.BANK):
                step = stepped_card(card, seen, button is Button.BANK, top)
                if step not in paths:
                    paths[step] = paths[card] + [button]
                    following.append(step)
        frontier = following
    if target not in paths:
        raise ValueError(f"no presses step {start} to {target}")
    return paths[target]


SESSION = SchottenTottenSession
"""The session class of this game (``companion.registry``)."""


def press_for(session: SchottenTottenSession, action: Action) -> list[Command]:
    """The button presses (CONFIRM, BANK, PASS, NEXT only) that make ``session`` take ``action``, applied
    to it as they are made (by-hand demo scripts): a card drafted with BANK, its colour with PASS, its
    value with BANK, its stone with NEXT, then CONFIRM twice (propose, play); a claim's stone picked with
    NEXT and CONFIRM; PASS ends the claims or passes. Draws need no press. Raises ``ValueError`` when the
    presses do not get there."""
    presses = Presses(session)
    press = presses.press

    if isinstance(action, StartWith):
        presses.start_with(action.seat)
    elif isinstance(action, Play):
        press(Button.BANK)
        seen = set(session.state.table_cards())
        for button in _card_presses(session.proposal[0], action.card, seen, session.config.max_value):
            press(button)
        while session.proposal[1] != action.stone and len(presses) < 260:
            press(Button.NEXT)
        press(Button.CONFIRM)
    elif isinstance(action, Claim):
        while session.selected != action.stone and len(presses) < NUM_STONES:
            press(Button.NEXT)
        press(Button.CONFIRM)
    elif isinstance(action, (EndClaims, Pass)):
        press(Button.PASS)
    elif not isinstance(action, Draw):
        raise ValueError(f"no presses make {action!r}")
    return presses.made(action)
