"""Checks of the position and record files the command line reads (``cant-stop moves``, ``ludo moves``,
``schotten-totten claims``, ``donkey-race check``): each value's type and range, before an engine sees it.

Every check returns the value and raises :class:`PositionError` (a ``ValueError``) whose message names
the key, what it takes and what it holds (``"dice" must be a list of 4 whole numbers 1-6, not [3.5, 2, 3,
4]``). JSON's ``true``/``false`` are not numbers here and ``3.5`` is not a whole number (Python would take
both as ints: ``int(3.5)``, ``True == 1``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["PositionError", "show", "obj", "need", "whole", "text", "flag", "items", "mapping"]


class PositionError(ValueError):
    """A position or record file's value of the wrong type or out of its range; the message names it."""


def show(value: Any, limit: int = 40) -> str:
    """``value`` as JSON, cut to about ``limit`` characters, for messages."""
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        shown = repr(value)
    return shown if len(shown) <= limit else shown[:limit - 3] + "..."


def obj(value: Any, what: str = "a position") -> Mapping:
    """``value`` when it is a JSON object; else PositionError ("a position is a JSON object {...}, not ...")."""
    if not isinstance(value, Mapping):
        raise PositionError(f"{what} is a JSON object {{...}}, not {_kind(value)}")
    return value


def need(position: Mapping, key: str, what: str = "a position") -> Any:
    """``position[key]``; PositionError ("a position needs 'key'") when it is missing."""
    if key not in position:
        raise PositionError(f"{what} needs {key!r}")
    return position[key]


def whole(value: Any, key: str, low: int, high: int) -> int:
    """``value`` when it is a whole number from ``low`` to ``high`` (not a boolean, not 3.5)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PositionError(f"{key} must be a whole number {low}-{high}, not {show(value)}")
    return value


def text(value: Any, key: str) -> str:
    """``value`` when it is a string."""
    if not isinstance(value, str):
        raise PositionError(f"{key} must be a string, not {show(value)}")
    return value


def flag(value: Any, key: str) -> bool:
    """``value`` when it is ``true`` or ``false``."""
    if not isinstance(value, bool):
        raise PositionError(f"{key} must be true or false, not {show(value)}")
    return value


def items(value: Any, key: str, low: int = 0, high: int | None = None, what: str = "values") -> list:
    """``value`` when it is a list of ``low`` to ``high`` items (``what`` names them in the message)."""
    count = f"{low}" if high == low else f"{low} or more" if high is None else f"{low}-{high}"
    if not isinstance(value, list) or len(value) < low or (high is not None and len(value) > high):
        raise PositionError(f"{key} must be a list of {count} {what}, not {show(value)}")
    return value


def mapping(value: Any, key: str, what: str = "keys and values") -> Mapping:
    """``value`` when it is a JSON object (``what`` says what it maps, for the message)."""
    if not isinstance(value, Mapping):
        raise PositionError(f"{key} must be a JSON object of {what}, not {show(value)}")
    return value


def _kind(value: Any) -> str:
    kinds = {type(None): "null", bool: "true/false", int: "a number", float: "a number", str: "a string",
             list: "a list"}
    return kinds.get(type(value), type(value).__name__)
