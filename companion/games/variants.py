"""Variant settings as data: every CONFIG switch of a rules file as one :class:`VariantKey`.

Each game's config class lists its keys in ``VARIANTS``; from that one table come the parsing of
``--variant KEY=VALUE`` and of a config file's ``[game]`` section (:func:`parse_variant`), the range
and choice checks of the config class (:func:`check_variant`), ``companion games --json`` and the
switches the menu offers. Values arrive as command-line strings or as JSON/TOML values.

Types (``VariantKey.type``): ``int``, ``str``, ``bool``, ``ints`` (a list of whole numbers: ``"1,6"``,
``[1, 6]`` or ``6``) and ``deck`` (the donkey race's ``"1-13x8"``; the key gives its own ``parse``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import VariantError

TYPES = ("int", "str", "bool", "ints", "deck")


def parse_bool(raw: object) -> bool:
    """A switch's truth value: a bool, or ``1/true/yes/on`` and ``0/false/no/off`` in any case.

    Raises ``ValueError`` for anything else (:func:`parse_variant` turns it into a :class:`VariantError`).
    """
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(raw)


def parse_ints(raw: object) -> tuple[int, ...]:
    """``"1,6"``, ``[1, 6]``, ``(1, 6)`` or ``6`` -> ``(1, 6)``; ``""`` or ``[]`` -> ``()``.
    Raises ``ValueError`` for an item that is not a whole number."""
    if isinstance(raw, str):
        items: Iterable[Any] = [part for part in raw.strip("{}[]() ").split(",") if part.strip()]
    elif isinstance(raw, (list, tuple)):
        items = raw
    else:
        items = [raw]
    values = []
    for item in items:
        if isinstance(item, bool) or (isinstance(item, float) and not item.is_integer()):
            raise ValueError(item)
        values.append(int(item))
    return tuple(values)


@dataclass(frozen=True)
class VariantKey:
    """One variant setting.

    name: the key as ``--variant`` and the config file write it. type: one of :data:`TYPES`.
    default: the rules file's DEFAULT (JSON-ready; None when it follows another key, e.g. Ludo's
    board-dependent house rules). choices: the allowed values of a ``str`` or ``bool`` key, else None.
    range: ``(lowest, highest)`` of an ``int`` key or of each item of an ``ints`` key, else None.
    rule: the rules file section that defines it (``"cant-stop.md A.4"``). parse: the parser of a
    ``deck`` key (text or JSON value -> value; raises ``ValueError``). menu: the values the menu's
    switch steps through, the default first (empty: not offered in the menu). label: the switch's
    name on the screen, in English, marked with :func:`N_` and translated where it is shown.
    menu_labels: how the menu names each of ``menu``'s values (same order; marked with :func:`N_`);
    empty: the value itself (numbers; ``bool`` keys say on/off).
    """

    name: str
    type: str
    default: Any
    choices: tuple[Any, ...] | None = None
    range: tuple[int, int] | None = None
    rule: str = ""
    parse: Callable[[Any], Any] | None = None
    menu: tuple[Any, ...] = ()
    label: str = ""
    menu_labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"variant key {self.name}: type {self.type!r} is not one of {', '.join(TYPES)}")
        if self.type == "bool" and self.choices is None:
            object.__setattr__(self, "choices", (False, True))
        if self.menu_labels and len(self.menu_labels) != len(self.menu):
            raise ValueError(f"variant key {self.name}: one menu label a menu value")

    def menu_label(self, value: Any) -> str | None:
        """The untranslated menu name of ``value``, or None when the value names itself."""
        return self.menu_labels[self.menu.index(value)] if self.menu_labels and value in self.menu else None

    def convert(self, raw: object) -> Any:
        """``raw`` (a command-line string or a JSON/TOML value) as this key's type; ``ValueError`` when
        it is not one (the range and the choices are checked by :func:`check_variant`)."""
        if self.type == "bool":
            return parse_bool(raw)
        if self.type == "int":
            if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
                raise ValueError(raw)
            return int(raw)  # type: ignore[call-overload]
        if self.type == "ints":
            return parse_ints(raw)
        if self.type == "deck":
            assert self.parse is not None, self.name
            return self.parse(raw)
        if isinstance(raw, (dict, list)):
            raise ValueError(raw)
        return str(raw)

    def problem(self, value: Any) -> str | None:
        """Why ``value`` (already converted) is not allowed, or None; None values (follow another key)
        are allowed."""
        if value is None:
            return None
        if self.choices is not None and value not in self.choices:
            shown = ", ".join(str(c) for c in self.choices)
            return f"{self.name} must be one of {shown}, not {_show(value)}"
        if self.range is not None:
            low, high = self.range
            items = value if self.type == "ints" else (value,)
            if not all(low <= v <= high for v in items):
                return f"{self.name} must be {low}-{high}, not {_show(value)}"
        return None

    def to_dict(self) -> dict:
        """The key's entry in ``companion games --json``: ``{"default", "choices", "type", "range"}``."""
        return {"default": _json(self.default), "choices": None if self.choices is None else list(self.choices),
                "type": self.type, "range": None if self.range is None else list(self.range)}


def parse_variant(game: str, keys: Iterable[VariantKey], settings: Mapping[str, object] | None,
                  aliases: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The settings converted to their keys' types: ``{name: value}`` for the keys given.

    game: the game's title for messages. aliases: other names of keys (Schotten Totten's ``variant``
    for ``game``). Raises :class:`VariantError` naming the game and the key for an unknown key or a
    value of the wrong type (ranges and choices are checked when the config is built).
    """
    by_name = {key.name: key for key in keys}
    values: dict[str, Any] = {}
    for name, raw in (settings or {}).items():
        name = (aliases or {}).get(name, name)
        if name not in by_name:
            raise VariantError(f"unknown {game} variant key {name!r}; known: {', '.join(sorted(by_name))}")
        try:
            values[name] = by_name[name].convert(raw)
        except (TypeError, ValueError):
            raise VariantError(f"bad value {raw!r} for {game} variant key {name!r}") from None
    return values


def check_variant(keys: Iterable[VariantKey], config: object) -> None:
    """Raise :class:`VariantError` for the first field of ``config`` (a config dataclass with a field per
    key) outside its key's range or choices."""
    for key in keys:
        problem = key.problem(getattr(config, key.name))
        if problem:
            raise VariantError(problem)


def _show(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def _json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value
