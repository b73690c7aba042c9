"""A donkey race game record replayed with the hands unknown (``companion donkey-race check``).

:func:`check_record` replays a game record (table-side: hands unknown, donkey-race.md D.3-D.6) and reports the
first play that breaks a rule. A record is JSON::

    {"players": ["Ada", "Ben", "Cleo"], "variant": {"track_length": "20"}, "leader": "Ada",
     "donkey": true, "rounds": [[["Ada", [7, 7]], ["Ben", "pass"], ["Cleo", [9, 9]]], ...]}

``leader``: who leads the first round; ``donkey``: whether that player showed the donkey card (D.3.3).
Each round lists the actions in order: a list of card values (the donkey as its value, a joker as
100) or ``"pass"``. Between rounds everyone draws back (D.4.6) and the discards are reshuffled when
needed (D.4.7). The report (``check --json`` prints one a line, with ``file``)::

    {"file": str, "ok": bool, "error": str|null, "rule": str|null, "round": int, "points": {name: int},
     "positions": {name: int}, "next": name|null, "over": bool, "winners": [name, ...]}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.errors import IllegalMove
from companion.games import schema
from companion.games.donkey_race.actions import Draw, FirstLeader, Pass, Play, Reshuffle
from companion.games.donkey_race.config import DONKEY, JOKER, MAX_PLAYERS, MIN_PLAYERS, UNKNOWN, DonkeyRaceConfig
from companion.games.donkey_race.rules import DonkeyRaceState, Phase
from companion.i18n import N_

JOKER_ENTRY = 100
"""The number that stands for a joker in a hand-entered play (``dice 100 9``) or a record."""


def codes_from_entry(values: Iterable[int], config: DonkeyRaceConfig) -> tuple[int, ...]:
    """Card codes of a play entered by hand or in a record (card values): :data:`JOKER_ENTRY` is a joker;
    the donkey's value is the donkey card when the deck has no number card of that value (D.5)."""
    numbers = {v for v, _ in config.deck}
    codes = []
    for value in values:
        if value == JOKER_ENTRY:
            codes.append(JOKER)
        elif config.donkey and value == config.donkey_value and value not in numbers:
            codes.append(DONKEY)
        else:
            codes.append(int(value))
    return tuple(sorted(codes))



def _checked(record: object) -> tuple[list[str], str, bool, list, Mapping]:
    """(players, leader, donkey, rounds, variant) of a record whose every value has its type and range
    (:mod:`companion.games.schema`); raises ``ValueError`` naming the key otherwise."""
    record = schema.obj(record, "a record")
    players = schema.items(schema.need(record, "players", "a record"), '"players"', MIN_PLAYERS, MAX_PLAYERS,
                           "distinct names")
    if not all(isinstance(name, str) for name in players) or len(set(players)) != len(players):
        raise schema.PositionError(f'"players" must be a list of {MIN_PLAYERS}-{MAX_PLAYERS} distinct names, '
                                   f"not {schema.show(players)}")

    def player(name: object, key: str) -> str:
        if not isinstance(name, str) or name not in players:
            raise schema.PositionError(f"{key}: unknown player {schema.show(name)}; the players are "
                                       f"{schema.show(players)}")
        return name

    leader = player(schema.need(record, "leader", "a record"), '"leader"')
    donkey = schema.flag(record.get("donkey", False), '"donkey"')
    variant = schema.mapping(record.get("variant", {}), '"variant"', "variant settings")
    rounds = schema.items(record.get("rounds", []), '"rounds"', what="rounds")
    for r, actions in enumerate(rounds, 1):
        for a, action in enumerate(schema.items(actions, f'"rounds" round {r}', what="actions"), 1):
            where = f'"rounds" round {r} action {a}'
            if not isinstance(action, list) or len(action) != 2:
                raise schema.PositionError(f'{where} must be [NAME, "pass"] or [NAME, [VALUE, ...]], '
                                           f"not {schema.show(action)}")
            player(action[0], where)
            cards = action[1]
            if cards != "pass":
                schema.items(cards, where, 0, None, "card values")
                for value in cards:
                    schema.whole(value, f"{where} card", 0, JOKER_ENTRY)
    return players, leader, donkey, rounds, variant


def check_record(record: dict) -> dict:
    """Replay one record (module docstring); returns the report dict without ``file``.

    Raises ``ValueError`` for a malformed record (unknown player, bad variant, wrong shapes), every value
    checked before the engine sees it: ``donkey`` is true or false, card values whole numbers 0-100.
    """
    players, leader, donkey, rounds, variant = _checked(record)
    seat = {name: i for i, name in enumerate(players)}
    config = DonkeyRaceConfig.from_variant(variant)
    state = DonkeyRaceState.new(len(players), config, hidden=True)
    first = FirstLeader(seat[leader], donkey)

    def settle(state: DonkeyRaceState) -> DonkeyRaceState:
        while state.phase in (Phase.DRAW, Phase.RESHUFFLE):
            state = state.apply(Draw(UNKNOWN) if state.phase is Phase.DRAW else Reshuffle())
        return state

    error = rule = None
    played_rounds = 0
    try:
        state = settle(state).apply(first)
        state = settle(state)
        for round_actions in rounds:
            played_rounds += 1
            for name, cards in round_actions:
                if state.phase is Phase.OVER:
                    raise IllegalMove(N_("the game is already over"), "donkey-race.md D.6")
                if seat[name] != state.active:
                    raise IllegalMove(f"{name} acts out of turn; {players[state.active]} is to act",
                                      "donkey-race.md D.4.2")
                action = Pass() if cards == "pass" else Play(codes_from_entry(cards, config))
                state = state.apply(action)
            if state.phase is Phase.PLAY and state.plays:
                raise IllegalMove(f"round {played_rounds} is not finished", "donkey-race.md D.4")
            state = settle(state)
    except IllegalMove as illegal:
        error, rule = str(illegal), illegal.rule
    except KeyError as unknown:
        raise ValueError(f"unknown player {unknown}") from None
    over = state.phase is Phase.OVER
    return {"ok": error is None, "error": error, "rule": rule, "round": played_rounds,
            "points": dict(zip(players, state.points)), "positions": dict(zip(players, state.positions)),
            "next": players[state.active] if state.phase is Phase.PLAY else None, "over": over,
            "winners": [players[s] for s in state.winners]}
