"""``companion board read|eval|print|demo --game cant-stop``: the Can't Stop board reader from the command line.

The reader (``vision/board/cant_stop``) is measured here; the session reads the board where the game's
``board_layout`` is set (``companion/readers/cant_stop.py``), and ``board demo`` shows it checking a game.

- ``board read --game cant-stop IMAGE... [--variant board_layout=companion|mountain|diamond]
  [--variant marker_colours=red,blue,...] [--json] [--debug-out DIR]``: one line (or JSON object) an image:
  ``{"file", "layout", "found", "how", "problem", "markers": {colour: {column: space}}, "runners":
  {column: space}, "homography", "ms"}``.
- ``board eval --game cant-stop [--renders N] [--seed S] [--json]``: :func:`vision.board.cant_stop.eval.evaluate`
  over every layout: ``{"positions", "exact", "refused", "false_accepts", ...}``.
- ``board print --game cant-stop FILE [--layout companion] [--paper a4|a3]`` writes the printable board
  (``.png`` or ``.pdf``); ``--stickers`` writes the sheet of the four corner stickers for a published board.
- ``board demo --game cant-stop [--layout L] [--seed S] [--json]``: a short game whose board is
  photographed after each bank and bust (:mod:`companion.demos.cant_stop_board`); a line a step, exit 0
  when the session caught every piece left wrong and agreed with every board put right, else 1.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from companion.cli.images import read_each_image
from companion.errors import UserError, VariantError
from companion.games.cant_stop import CantStopConfig
from companion.games.cant_stop.config import DEFAULT_MARKER_COLOURS
from vision.board.cant_stop import (LAYOUTS, CantStopBoardReading, CantStopLayout, layout_named,
                                    read_cant_stop_board)
from vision.board.cant_stop.layouts import STICKER_IDS
from vision.board.aruco import marker_image
from vision.board.cant_stop.printed import PAPERS_MM, write_print

EVAL_KEYS = ("positions", "exact", "refused", "false_accepts", "refused_low_tilt", "with_clutter",
             "clutter_false_accepts", "ms_median")


def reader_settings(variant: dict[str, str]) -> tuple[CantStopLayout, tuple[str, ...]]:
    """(layout, marker colours) from ``--variant`` settings ``board_layout`` (default ``companion``) and
    ``marker_colours`` (checked as the game's own variant: :class:`CantStopConfig`). Raises
    :class:`UserError` naming the setting for an unknown layout or colour."""
    try:
        layout = layout_named(variant.get("board_layout", "companion"))
    except ValueError as error:
        raise UserError(f"--variant board_layout: {error}") from None
    try:
        given = variant.get("marker_colours", DEFAULT_MARKER_COLOURS)
        colours = CantStopConfig.from_variant({"marker_colours": given})
    except VariantError as error:
        raise UserError(f"--variant marker_colours: {error}") from None
    return layout, colours.seat_colours


def _line(name: str, reading: CantStopBoardReading) -> str:
    if not reading.found:
        return f"{name}: board not found ({reading.problem})  [{reading.ms:.1f} ms]"
    markers = " ".join(f"{c}:" + ",".join(f"{col}/{k}" for col, k in sorted(m.items()))
                       for c, m in reading.markers.items() if m) or "-"
    runners = ",".join(f"{col}/{k}" for col, k in sorted(reading.runners.items())) or "-"
    problem = f" | no reading: {reading.problem}" if reading.problem else ""
    return f"{name}: markers {markers} | runners {runners}{problem}  [{reading.how}, {reading.ms:.1f} ms]"


def _overlay(frame: np.ndarray, reading: CantStopBoardReading, layout) -> np.ndarray:
    out = frame.copy()
    hom = None if reading.homography is None else np.array(reading.homography)
    if hom is None:
        return out
    for column, k, centre in layout.spaces():
        p = cv2.perspectiveTransform(np.array([[centre]], np.float64), hom)[0, 0]
        cv2.circle(out, (int(p[0]), int(p[1])), 3, (0, 255, 0), -1)
    return out


def run_read(args: argparse.Namespace, variant: dict[str, str]) -> int:
    """``board read --game cant-stop``; returns 0, or 1 when a file did not load."""
    layout, colours = reader_settings(variant)
    cv2.setNumThreads(1)
    return read_each_image(args, "companion board read", lambda frame: read_cant_stop_board(frame, layout, colours),
                           _line, lambda name, r: {"file": name, **r.to_dict()},
                           lambda frame, r: _overlay(frame, r, layout))


def run_eval(args: argparse.Namespace) -> int:
    """``board eval --game cant-stop``: the measure over every layout."""
    from vision.board.cant_stop.eval import evaluate  # renders: loaded only when measured
    cv2.setNumThreads(1)
    result = evaluate(args.renders, args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    for key in EVAL_KEYS:
        print(f"  {key:<22} {result.get(key)}")
    for name, counts in result["layouts"].items():
        print(f"  {name:<22} " + " ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


def run_print(args: argparse.Namespace) -> int:
    """``board print --game cant-stop FILE``: the board or the sticker sheet; one line saying what was written."""
    path = Path(args.file)
    if args.game != "cant-stop":
        raise UserError(f"board print: only --game cant-stop has a printable board, not {args.game}")
    try:
        if args.stickers:
            if path.suffix.lower() != ".png":
                raise UserError(f"board print --stickers: {path}: the sheet is written as .png")
            sheet = np.hstack([marker_image(k, 600) for k in STICKER_IDS])
            if not cv2.imwrite(str(path), sheet):
                raise OSError("could not be written")
            print(f"{path}: the four corner stickers (ids {', '.join(map(str, STICKER_IDS))}): print each black "
                  f"square 1.2 board pitches wide and lay them beside the board's corners, clockwise from the top left")
            return 0
        pitch = write_print(path, layout_named(args.layout), args.paper)
    except ValueError as error:
        raise UserError(f"board print: {error}") from None
    except OSError as error:
        raise UserError(f"board print: {path}: {error.strerror or error}; choose a folder you can write") from None
    print(f"{path}: the {args.layout} board for {args.paper.upper()}, a pitch of {pitch:.1f} mm "
          f"(markers up to about {0.6 * pitch:.0f} mm wide); print at 100 %")
    return 0


def add_print_command(sub) -> None:
    """Register ``board print`` on the ``board`` group's subparsers."""
    pr = sub.add_parser("print", help="write a printable Can't Stop board (PNG or PDF) or its corner stickers")
    pr.add_argument("file", metavar="FILE", help="where to write it: .png or .pdf (--stickers: .png)")
    pr.add_argument("--game", default="cant-stop", help="the game whose board it is (cant-stop)")
    pr.add_argument("--layout", default="companion", choices=tuple(LAYOUTS),
                    help="the board's layout (default companion)")
    pr.add_argument("--paper", default="a4", choices=tuple(PAPERS_MM), help="paper size (default a4)")
    pr.add_argument("--stickers", action="store_true", help="the four corner stickers instead of the board")
    pr.set_defaults(handler=run_print)


def run_demo(args: argparse.Namespace) -> int:
    """``board demo --game cant-stop``: the steps, one line each (or one JSON object); 0 when all went as
    expected."""
    from companion.demos.cant_stop_board import board_demo  # renders: loaded only for the demo
    if args.game != "cant-stop":
        raise UserError(f"board demo: only --game cant-stop has a board demo, not {args.game}")
    cv2.setNumThreads(1)
    steps = board_demo(args.seed, args.layout)
    if args.json:
        print(json.dumps({"layout": args.layout, "seed": args.seed, "ok": all(s.ok for s in steps),
                          "steps": [{"told": s.told, "agree": s.agree, "said": s.said, "ok": s.ok}
                                    for s in steps]}))
    else:
        for k, step in enumerate(steps, start=1):
            said = "agrees" if not step.said else f"caught: {step.said}"
            outcome = said if step.ok else f"WRONG: {step.said or 'agrees'}"
            print(f"{k}. {step.told}: {outcome}")
    return 0 if all(s.ok for s in steps) else 1


def add_demo_command(sub) -> None:
    """Register ``board demo`` on the ``board`` group's subparsers."""
    demo = sub.add_parser("demo", help="a Can't Stop game whose board the camera checks after each bank and "
                                       "bust")
    demo.add_argument("--game", default="cant-stop", help="the game whose board is checked (cant-stop)")
    demo.add_argument("--layout", default="companion", choices=tuple(LAYOUTS), help="the board (default companion)")
    demo.add_argument("--seed", type=int, default=1, help="the camera and light of the table (default 1)")
    demo.add_argument("--json", action="store_true", help="print one JSON object")
    demo.set_defaults(handler=run_demo)
