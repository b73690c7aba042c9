"""What the Schotten Totten screen shows, as plain frozen data (the session builds it, the display draws it).

All strings are already translated. Seat 0 is side ``a`` (drawn above the stones), seat 1 side ``b``.
"""

from __future__ import annotations

from dataclasses import dataclass


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
