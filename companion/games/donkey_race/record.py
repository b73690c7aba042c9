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

from collections.abc import Iterable

from companion.errors import IllegalMove
from companion.games.donkey_race.actions import Draw, FirstLeader, Pass, Play, Reshuffle
from companion.games.donkey_race.config import DONKEY, JOKER, UNKNOWN, DonkeyRaceConfig
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



def check_record(record: dict) -> dict:
    """Replay one record (module docstring); returns the report dict without ``file``.

    Raises ``ValueError`` for a malformed record (unknown player, bad variant, wrong shapes).
    """
    try:
        players = [str(p) for p in record["players"]]
        seat = {name: i for i, name in enumerate(players)}
        config = DonkeyRaceConfig.from_variant(record.get("variant", {}))
        state = DonkeyRaceState.new(len(players), config, hidden=True)
        first = FirstLeader(seat[record["leader"]], bool(record.get("donkey", False)))
        rounds = list(record.get("rounds", []))
    except KeyError as error:
        raise ValueError(f"record lacks {error} or names an unknown player") from None

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
