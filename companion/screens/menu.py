"""What the menu screen shows: frozen view values built by the menu (``companion.app.menu_model``) and
drawn by ``companion.display.menu``. All strings are already translated."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MenuItem:
    """One line of a menu: its ``label``; ``enabled`` False greys it out (CONFIRM then only says why)."""

    label: str
    enabled: bool = True


@dataclass(frozen=True)
class BarsView:
    """A bar chart on a menu screen: ``values`` labelled ``labels``, the value axis named ``what``, and a
    ``reference`` level drawn across (e.g. what a fair die gives each face), or None."""

    values: tuple[int, ...]
    labels: tuple[str, ...]
    what: str
    reference: float | None = None


@dataclass(frozen=True)
class MenuView:
    """What the screen shows: ``title``, the ``items`` with the highlighted index ``selected``,
    ``lines`` of plain text above them (scoreboard, a saved game's players), a ``message`` (empty or a
    short note, in the notice band), the key chips ``keys`` ((button name, what it does) pairs), and a
    ``chart`` drawn between the lines and the items."""

    title: str
    items: tuple[MenuItem, ...]
    selected: int
    lines: tuple[str, ...] = ()
    message: str = ""
    keys: tuple[tuple[str, str], ...] = ()
    chart: BarsView | None = None

    @property
    def prompt(self) -> str:
        """The menus have no prompt line: the title says where the players are."""
        return ""
