"""The command line that made a model, for its manifest: ``python -m PROG`` and every flag not at its default."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

__all__ = ["command_line"]


def command_line(parser: argparse.ArgumentParser, args: argparse.Namespace, *, always: Iterable[str] = (),
                 leave_out: Iterable[str] = ()) -> str:
    """``parser.prog`` and each option of ``parser`` whose value in ``args`` differs from its default, in
    the parser's order (a ``store_true`` flag alone, others as ``--flag VALUE``).

    always: option names (``dest``) written even at their default; leave_out: ones never written (an
    output folder, a resume checkpoint: where, not how). Reads ``parser._actions``, argparse's list of
    its arguments (no public accessor exists).
    """
    always, leave_out = set(always), set(leave_out)
    parts = [parser.prog]
    for action in parser._actions:
        if not action.option_strings or action.dest in leave_out or isinstance(action, argparse._HelpAction):
            continue
        value = getattr(args, action.dest, action.default)
        if value == action.default and action.dest not in always:
            continue
        flag = max(action.option_strings, key=len)
        if isinstance(action, argparse._StoreTrueAction):
            parts.append(flag)
        else:
            parts.append(f"{flag} {value}")
    return " ".join(parts)
