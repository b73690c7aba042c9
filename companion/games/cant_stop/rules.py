"""Can't Stop (Sid Sackson): the pure rules engine.

Every rule cites ``../shared/rules/cant-stop.md``. Vocabulary: a **column** is one of the eleven tracks
2..12 (A.2); a **runner** is one of the shared neutral pieces the active player moves this turn; a
**marker** is a player's own piece saved at the end of a turn; to **bank** is to stop and save (A.5.5);
to **bust** is to roll with no usable total (A.5.3); a column is **claimed** when a player banks with
a runner on its top space (A.7).

Heights are counted in spaces from the bottom: 1 is the first space, a column's height is its top
space, 0 means "not on the column".

Turn flow as states::

    FIRST_PLAYER (chance: who starts, A.3)
    ROLL (chance: four dice) -> CHOOSE (player: a pairing) -> DECIDE (player: roll again or bank)
         \\-> bust: next player's ROLL                         |-> ROLL          |-> next player's ROLL / OVER
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from math import factorial
from typing import Any, Union

from companion.errors import IllegalMove, VariantError
from companion.games import schema
from companion.games.base import CHANCE, TERMINAL, Decoders, Outcome, decode_action, encode_action, whole
from companion.games.cant_stop.config import COLUMNS, CantStopConfig
from companion.games.cant_stop.config import column_index as _index
from companion.i18n import N_

MAX_PLAYERS = 4  # A.1: four colours in the box


# ----------------------------------------------------------------------------------------------------
# Actions


@dataclass(frozen=True)
class StartWith:
    """Chance (A.3): the seat that starts, as decided at the table (roll-off, youngest, or chosen)."""

    seat: int


@dataclass(frozen=True)
class Roll:
    """Chance (A.5.1): the four dice rolled, each 1-6, in the order read."""

    dice: tuple[int, int, int, int]


@dataclass(frozen=True)
class Choose:
    """A pairing choice (A.5.2, A.6): the totals actually used, in the order applied.

    ``(6, 8)`` moves runners in columns 6 and 8; ``(7, 7)`` moves one runner twice; ``(6,)`` uses one total.
    """

    totals: tuple[int, ...]


@dataclass(frozen=True)
class RollAgain:
    """Decide (A.5.4): roll all four dice again."""


@dataclass(frozen=True)
class Bank:
    """Decide (A.5.5): stop, save the runners as markers, claim topped columns."""


Action = Union[StartWith, Roll, Choose, RollAgain, Bank]


_ENCODERS: dict[type, tuple[str, Callable[[Any], dict] | None]] = {
    StartWith: ("start", lambda a: {"seat": a.seat}),
    Roll: ("roll", lambda a: {"dice": list(a.dice)}),
    Choose: ("choose", lambda a: {"totals": list(a.totals)}),
    RollAgain: ("roll_again", None),
    Bank: ("bank", None),
}


def action_to_dict(action: Action) -> dict:
    """JSON form of an action: ``{"type": "roll", "dice": [3, 4, 3, 4]}`` and the like."""
    return encode_action(action, _ENCODERS, "Can't Stop")


_DECODERS: Decoders = {
    "start": (("seat",), lambda d: StartWith(whole(d["seat"], 0, 3))),
    "roll": (("dice",), lambda d: Roll(tuple(whole(x, 1, 6) for x in d["dice"]))),  # type: ignore[arg-type]
    "choose": (("totals",), lambda d: Choose(tuple(whole(t, 2, 12) for t in d["totals"]))),
    "roll_again": ((), lambda d: RollAgain()),
    "bank": ((), lambda d: Bank()),
}


def action_from_dict(data: Mapping) -> Action:
    """Inverse of :func:`action_to_dict`; raises ``ValueError`` on an unknown type or bad fields."""
    return decode_action(data, _DECODERS, "Can't Stop")


# ----------------------------------------------------------------------------------------------------
# Pairings


def pairings(dice: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The three ways to split four dice into two pairs (A.5.2), as (total, total); duplicates collapse."""
    d1, d2, d3, d4 = dice
    seen: list[tuple[int, int]] = []
    for pair in ((d1 + d2, d3 + d4), (d1 + d3, d2 + d4), (d1 + d4, d2 + d3)):
        key = tuple(sorted(pair))
        if key not in seen:
            seen.append(key)  # type: ignore[arg-type]
    return tuple(seen)


@lru_cache(maxsize=None)
def roll_distribution() -> tuple[tuple[tuple[int, int, int, int], Fraction], ...]:
    """The 126 distinct sorted rolls of four dice with their exact probabilities (sum 1)."""
    result = []
    for roll in itertools.combinations_with_replacement(range(1, 7), 4):
        ways = factorial(4)
        for value in set(roll):
            ways //= factorial(roll.count(value))
        result.append((roll, Fraction(ways, 1296)))
    return tuple(result)


@lru_cache(maxsize=None)
def _roll_outcomes() -> tuple[tuple["Roll", Fraction], ...]:
    """:func:`roll_distribution` as chance outcomes (one tuple, built once)."""
    return tuple((Roll(r), p) for r, p in roll_distribution())


# ----------------------------------------------------------------------------------------------------
# State


class Phase(enum.Enum):
    """Where the game stands (see the module docstring)."""

    FIRST_PLAYER = "first_player"
    ROLL = "roll"
    CHOOSE = "choose"
    DECIDE = "decide"
    OVER = "over"


@dataclass(frozen=True)
class CantStopState:
    """One immutable position of a Can't Stop game.

    markers[seat][column - 2]: height of that seat's marker (0 = none). claimed[column - 2]: the seat
    that claimed it, or -1. runners[column - 2]: height of the active player's runner this turn (0 =
    none). dice: the last roll (empty before the first). turn: 1-based count of turns begun.
    last_bust: the previous turn ended in a bust (for the screen; A.5.3).
    """

    config: CantStopConfig
    num_players: int
    phase: Phase = Phase.FIRST_PLAYER
    active: int = -1
    markers: tuple[tuple[int, ...], ...] = ()
    claimed: tuple[int, ...] = (-1,) * 11
    runners: tuple[int, ...] = (0,) * 11
    dice: tuple[int, ...] = ()
    turn: int = 0
    winner: int | None = None
    last_bust: bool = False

    # -- construction -------------------------------------------------------------------------------

    @classmethod
    def new(cls, num_players: int, config: CantStopConfig | None = None) -> "CantStopState":
        """The initial state: empty board, the starting player still to be decided.

        num_players: 1 (solo, turns counted until ``columns_to_win`` columns are claimed) to 4 (A.1).
        Raises :class:`VariantError` for another count.
        """
        if not 1 <= num_players <= MAX_PLAYERS:
            raise VariantError(f"Can't Stop takes 1 to {MAX_PLAYERS} players, not {num_players} (cant-stop.md A.1)")
        return cls(config=config or CantStopConfig(), num_players=num_players,
                   markers=tuple((0,) * 11 for _ in range(num_players)))

    # -- queries --------------------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` when dice or the first player must be supplied, or :data:`TERMINAL`."""
        if self.phase in (Phase.FIRST_PLAYER, Phase.ROLL):
            return CHANCE
        if self.phase is Phase.OVER:
            return TERMINAL
        return self.active

    def height(self, column: int) -> int:
        return self.config.height(column)

    def marker(self, seat: int, column: int) -> int:
        """Height of ``seat``'s marker in ``column`` (0 = none)."""
        return self.markers[seat][_index(column)]

    def runner(self, column: int) -> int:
        """Height of the runner in ``column`` this turn (0 = none)."""
        return self.runners[_index(column)]

    def owner(self, column: int) -> int | None:
        """The seat that claimed ``column``, or None while it is open."""
        seat = self.claimed[_index(column)]
        return None if seat < 0 else seat

    def runner_map(self) -> dict[int, int]:
        """{column: runner height} for the runners on the board."""
        return {c: h for c, h in zip(COLUMNS, self.runners) if h}

    def marker_map(self, seat: int) -> dict[int, int]:
        """{column: marker height} of one seat."""
        return {c: h for c, h in zip(COLUMNS, self.markers[seat]) if h}

    def claimed_map(self) -> dict[int, int]:
        """{column: seat} of claimed columns."""
        return {c: s for c, s in zip(COLUMNS, self.claimed) if s >= 0}

    def columns_claimed(self, seat: int) -> int:
        return sum(1 for s in self.claimed if s == seat)

    def free_runners(self) -> int:
        return self.config.num_runners - sum(1 for h in self.runners if h)

    def progress(self, column: int) -> int:
        """Where the active player stands in ``column`` now: the runner, else the marker (0 = nowhere)."""
        return self.runner(column) or (self.marker(self.active, column) if self.active >= 0 else 0)

    def usable(self, total: int, runners: tuple[int, ...] | None = None) -> bool:
        """Whether ``total`` can be used with ``runners`` (default: the current ones), per A.6.

        Usable when the column is not claimed and either its runner is below the top, or it has no
        runner, a runner is still off the board and the entry space exists.
        """
        runners = self.runners if runners is None else runners
        i = _index(total)
        if self.claimed[i] >= 0:
            return False
        top = self.config.column_heights[i]
        if runners[i]:
            return runners[i] < top
        placed = sum(1 for h in runners if h)
        return placed < self.config.num_runners and self.markers[self.active][i] < top

    def _step(self, runners: tuple[int, ...], total: int) -> tuple[int, ...]:
        """Move (or enter and place) the runner of ``total`` one space up (A.6: entry above own marker)."""
        i = _index(total)
        start = runners[i] or self.markers[self.active][i]
        return runners[:i] + (start + 1,) + runners[i + 1:]

    def _apply_totals(self, totals: Iterable[int]) -> tuple[int, ...]:
        runners = self.runners
        for total in totals:
            runners = self._step(runners, total)
        return runners

    def choices_for(self, dice: tuple[int, ...]) -> tuple[Choose, ...]:
        """Every legal pairing choice for ``dice`` (A.6), each distinct in where the runners end up.

        Empty when the roll busts. Under ``must_maximize_runners`` only the choices that move the most
        runners (distinct columns) remain (A.6 CONFIG: "prefer the split that places more runners").
        """
        options: list[Choose] = []
        outcomes: set[tuple[int, ...]] = set()

        def add(totals: tuple[int, ...]) -> None:
            result = self._apply_totals(totals)
            if result not in outcomes:
                outcomes.add(result)
                options.append(Choose(totals))

        for a, b in pairings(dice):
            if a == b:
                # A.6: the same runner is used twice; a step past the top is lost (A.8).
                if self.usable(a):
                    after = self._step(self.runners, a)
                    add((a, a) if self.usable(a, after) else (a,))
                continue
            use_a, use_b = self.usable(a), self.usable(b)
            if use_a and use_b:
                if self.usable(b, self._step(self.runners, a)):
                    add((a, b))  # A.6: both usable together must both be used
                else:
                    add((a,))  # A.6: competing for the last runner: the player picks one
                    add((b,))
            elif use_a:
                add((a,))
            elif use_b:
                add((b,))
        if self.config.pairing_rule == "must_maximize_runners" and options:
            most = max(len(set(o.totals)) for o in options)
            options = [o for o in options if len(set(o.totals)) == most]
        return tuple(options)

    def choice_result(self, choice: Choose) -> dict[int, int]:
        """{column: runner height} after ``choice`` (every runner, moved or not)."""
        runners = self._apply_totals(choice.totals)
        return {c: h for c, h in zip(COLUMNS, runners) if h}

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions allowed now. At the ROLL chance node these are the 126 sorted rolls; :meth:`apply`
        also accepts any order of the same dice (the order read by the camera)."""
        if self.phase is Phase.FIRST_PLAYER:
            return tuple(StartWith(s) for s in range(self.num_players))
        if self.phase is Phase.ROLL:
            return tuple(Roll(r) for r, _ in roll_distribution())
        if self.phase is Phase.CHOOSE:
            return self.choices_for(self.dice)
        if self.phase is Phase.DECIDE:
            return (RollAgain(), Bank())
        return ()

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        """Outcomes with exact probabilities at a chance node; empty elsewhere.

        The first player is equally likely to be any seat (A.3: a fair roll-off); rolls are the 126
        sorted multisets of four dice with their probabilities.
        """
        if self.phase is Phase.FIRST_PLAYER:
            return tuple((StartWith(s), Fraction(1, self.num_players)) for s in range(self.num_players))
        if self.phase is Phase.ROLL:
            return _roll_outcomes()
        return ()

    def would_win_by_banking(self) -> bool:
        """True when banking now would claim enough columns to win (A.4)."""
        if self.active < 0:
            return False
        tops = sum(1 for i, h in enumerate(self.runners) if h and h >= self.config.column_heights[i])
        return self.columns_claimed(self.active) + tops >= self.config.columns_to_win

    def outcome(self) -> Outcome | None:
        """None while the game runs; else the winner, placings (by columns claimed) and scores."""
        if self.phase is not Phase.OVER:
            return None
        scores = tuple(self.columns_claimed(s) for s in range(self.num_players))
        placings = tuple(sorted(range(self.num_players), key=lambda s: (s != self.winner, -scores[s], s)))
        return Outcome(self.winner, placings, scores)

    # -- transitions ----------------------------------------------------------------------------------

    def apply(self, action: Action) -> "CantStopState":
        """The state after ``action``. Raises :class:`IllegalMove` naming the rule when it is not legal."""
        if self.phase is Phase.OVER:
            raise IllegalMove(N_("the game is over"), "cant-stop.md A.4")
        if isinstance(action, StartWith):
            if self.phase is not Phase.FIRST_PLAYER:
                raise IllegalMove(N_("the first player is already decided"), "cant-stop.md A.3")
            if not isinstance(action.seat, int) or not 0 <= action.seat < self.num_players:
                raise IllegalMove(f"no seat {action.seat}", "cant-stop.md A.3")
            return replace(self, phase=Phase.ROLL, active=action.seat, turn=1)
        if isinstance(action, Roll):
            if self.phase is not Phase.ROLL:
                raise IllegalMove(N_("the dice are not to be rolled now"), "cant-stop.md A.5")
            if len(action.dice) != 4 or not all(isinstance(d, int) and 1 <= d <= 6 for d in action.dice):
                raise IllegalMove(f"a roll is four dice of 1-6, not {action.dice}", "cant-stop.md A.2")
            if not self.choices_for(action.dice):
                return self._end_turn(bust=True, dice=tuple(action.dice))
            return replace(self, phase=Phase.CHOOSE, dice=tuple(action.dice), last_bust=False)
        if isinstance(action, Choose):
            if self.phase is not Phase.CHOOSE:
                raise IllegalMove(N_("there is no roll to pair now"), "cant-stop.md A.5")
            legal = {tuple(sorted(o.totals)): o for o in self.choices_for(self.dice)}
            if tuple(sorted(action.totals)) not in legal:
                raise IllegalMove(f"totals {action.totals} are not a legal use of the roll {self.dice}",
                                  "cant-stop.md A.6")
            action = legal[tuple(sorted(action.totals))]  # the order of the totals does not matter
            after = replace(self, phase=Phase.DECIDE, runners=self._apply_totals(action.totals))
            if self.config.auto_stop_on_win and after.would_win_by_banking():
                return after._bank()  # A.8 CONFIG auto_stop_on_win
            return after
        if isinstance(action, (RollAgain, Bank)):
            if self.phase is not Phase.DECIDE:
                raise IllegalMove(N_("roll again or bank only after a successful roll"), "cant-stop.md A.5.4")
            return replace(self, phase=Phase.ROLL) if isinstance(action, RollAgain) else self._bank()
        raise IllegalMove(f"not a Can't Stop action: {action!r}", "cant-stop.md A.5")

    def _bank(self) -> "CantStopState":
        """A.5.5 and A.7: runners become markers; topped columns are claimed and cleared of others."""
        markers = [list(m) for m in self.markers]
        claimed = list(self.claimed)
        for i, height in enumerate(self.runners):
            if not height:
                continue
            markers[self.active][i] = height
            if height >= self.config.column_heights[i]:
                claimed[i] = self.active
                for seat in range(self.num_players):
                    if seat != self.active:
                        markers[seat][i] = 0  # A.7: other players' markers are removed
        banked = replace(self, markers=tuple(tuple(m) for m in markers), claimed=tuple(claimed))
        if banked.columns_claimed(self.active) >= self.config.columns_to_win:
            return replace(banked, phase=Phase.OVER, runners=(0,) * 11, winner=self.active, last_bust=False)
        return banked._end_turn(bust=False, dice=self.dice)

    def _end_turn(self, bust: bool, dice: tuple[int, ...]) -> "CantStopState":
        """A.5.3 / A.5.5: runners leave the board, play passes clockwise."""
        return replace(self, phase=Phase.ROLL, runners=(0,) * 11, dice=dice, last_bust=bust,
                       active=(self.active + 1) % self.num_players, turn=self.turn + 1)

    # -- JSON -----------------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """A JSON-ready dict; :meth:`from_dict` inverts it exactly."""
        return {"game": "cant-stop", "config": self.config.to_dict(), "num_players": self.num_players,
                "phase": self.phase.value, "active": self.active,
                "markers": [list(m) for m in self.markers], "claimed": list(self.claimed),
                "runners": list(self.runners), "dice": list(self.dice), "turn": self.turn,
                "winner": self.winner, "last_bust": self.last_bust}

    @classmethod
    def from_dict(cls, data: Mapping) -> "CantStopState":
        """Rebuild a state from :meth:`to_dict`; raises ``ValueError`` on a malformed dict."""
        try:
            config_data = dict(data["config"])
            config_data["column_heights"] = tuple(config_data["column_heights"])
            return cls(config=CantStopConfig(**config_data), num_players=int(data["num_players"]),
                       phase=Phase(data["phase"]), active=int(data["active"]),
                       markers=tuple(tuple(int(h) for h in m) for m in data["markers"]),
                       claimed=tuple(int(s) for s in data["claimed"]),
                       runners=tuple(int(h) for h in data["runners"]),
                       dice=tuple(int(d) for d in data["dice"]), turn=int(data["turn"]),
                       winner=data["winner"], last_bust=bool(data["last_bust"]))
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a Can't Stop state: {error}") from None


@dataclass(frozen=True)
class CantStopGame:
    """The static rules of one Can't Stop game: player count and variant (A.9)."""

    num_players: int
    config: CantStopConfig = field(default_factory=CantStopConfig)

    def new_initial_state(self) -> CantStopState:
        return CantStopState.new(self.num_players, self.config)


# ----------------------------------------------------------------------------------------------------
# Positions in the command-line contract (ARCHITECTURE.md; `companion cant-stop moves`)


def state_from_position(position: Mapping) -> CantStopState:
    """A CHOOSE-phase state from a position file of the ``cant-stop moves`` contract.

    ``{"players": ["A", "B"], "active": "A", "markers": {"A": {"7": 4}, "B": {}}, "claimed": {"12": "B"},
    "runners": {"7": 6}, "dice": [3, 4, 3, 4]}`` with heights in spaces from the bottom (0 to the column's
    top), default variant (or ``"variant": {KEY: VALUE}``). Every value is checked before the engine sees
    it (:mod:`companion.games.schema`): 1-4 distinct names, columns ``"2"``-``"12"``, whole-number heights
    in their column, a runner above the active player's marker and not in a claimed column, four dice
    1-6 (no ``3.5``, no ``true``). Raises ``ValueError`` naming the key and what is wrong.
    """
    position = schema.obj(position)
    players = schema.items(schema.need(position, "players"), '"players"', 1, MAX_PLAYERS, "distinct names")
    if not all(isinstance(name, str) for name in players) or len(set(players)) != len(players):
        raise schema.PositionError(f'"players" must be a list of 1-{MAX_PLAYERS} distinct names, '
                                   f"not {schema.show(players)}")
    seat = {name: i for i, name in enumerate(players)}

    def player(name: Any, key: str) -> int:
        if not isinstance(name, str) or name not in seat:
            raise schema.PositionError(f"{key}: unknown player {schema.show(name)}; the players are "
                                       f"{schema.show(players)}")
        return seat[name]

    active = player(schema.need(position, "active"), '"active"')
    config = CantStopConfig.from_variant(schema.mapping(position.get("variant", {}), '"variant"', "variant settings"))
    state = CantStopState.new(len(players), config)

    def column(key: str, where: str) -> int:
        if key not in _COLUMN_KEYS:
            raise schema.PositionError(f'{where}: columns are "2" to "12", not {schema.show(key)}')
        return _index(int(key))

    def height(value: Any, i: int, where: str) -> int:
        return schema.whole(value, f"{where} (column {i + 2})", 0, config.column_heights[i])

    markers = [[0] * 11 for _ in players]
    for name, columns in schema.mapping(position.get("markers", {}), '"markers"', "players' markers").items():
        where, owner = f'"markers" of {schema.show(name)}', player(name, '"markers"')
        for key, value in schema.mapping(columns, where, "columns and heights").items():
            i = column(key, where)
            markers[owner][i] = height(value, i, where)
    claimed = [-1] * 11
    for key, name in schema.mapping(position.get("claimed", {}), '"claimed"', "columns and players").items():
        claimed[column(key, '"claimed"')] = player(name, f'"claimed" column {key}')
    runners = [0] * 11
    for key, value in schema.mapping(position.get("runners", {}), '"runners"', "columns and heights").items():
        i = column(key, '"runners"')
        runners[i] = height(value, i, '"runners"')
        if runners[i] and runners[i] <= markers[active][i]:
            raise schema.PositionError(f'"runners": the runner in column {key} at {runners[i]} must stand above '
                                       f"the marker of {players[active]} there ({markers[active][i]})")
        if runners[i] and claimed[i] != -1:
            raise schema.PositionError(f'"runners": column {key} is claimed; no runner stands there')
    dice = schema.need(position, "dice")
    if (not isinstance(dice, list) or len(dice) != 4
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
        raise schema.PositionError(f'"dice" must be a list of 4 whole numbers 1-6, not {schema.show(dice)}')
    if sum(1 for h in runners if h) > config.num_runners:
        raise schema.PositionError(f"more than {config.num_runners} runners on the board")
    return replace(state, phase=Phase.CHOOSE, active=active, turn=1,
                   markers=tuple(tuple(m) for m in markers), claimed=tuple(claimed),
                   runners=tuple(runners), dice=tuple(dice))


_COLUMN_KEYS = frozenset(str(c) for c in COLUMNS)
