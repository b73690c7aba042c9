"""``companion board read`` and ``companion board eval``: the Ludo board reader on image files.

``companion board read IMAGE... --game ludo [--variant board=ludo52|mensch40|dga56] [--json] [--debug-out DIR]``
    Reads each image (:func:`vision.board.recognise.read_known_board`). ``--variant`` takes ``key=value``
    pairs (repeatable, or comma-separated); the reader uses ``board`` (ludo.md B.2b, B.2c; without it the
    board recognised in the photo, :mod:`vision.board.recognise`) and ignores the rules switches. A
    reading is refused (``problem``) when the photo contradicts the board named, or a colour does not show
    exactly four pawns (``finished``: those not seen). With ``--json`` prints one JSON object a
    line per image::

        {"file": "f.jpg", "board": "dga56", "found": true,
         "squares": {"5": "red", "12": ["blue", "green"]},
         "yards": {"red": 2, "blue": 3, "yellow": 0, "green": 2}, "covered_yards": ["yellow"],
         "homes": {"red": [], "blue": [4], "yellow": [], "green": []},
         "confidence": 0.83, "clockwise": ["red", "blue", "yellow", "green"],
         "pawns": [{"place": ["track", 5], "colour": "red", "confidence": 0.97, "pixel": [305.2, 211.0]}, ...],
         "homography": [[...], [...], [...]], "ms": 152.3}

    - ``squares``: ABSOLUTE track index (0 = red's start square, counting clockwise, ludo.md B.2) -> the
      colour of the pawn on it, or a list of colours when pawns of several colours share it. Empty
      squares are left out.
    - ``yards``: colour -> number of its pawns seen in its yard (0-4).
    - ``covered_yards``: colours whose yard is covered (a hand over it): their count above is 0 and
      means nothing; ask the players to clear the view.
    - ``homes``: colour -> its occupied home squares, 0-based (0 = the first after the track, i.e.
      relative position ``track_positions + k``: 51.. on ludo52, 40.. on mensch40).
    - ``found``: whether the board was found (else the three maps are empty and ``problem`` says why).
    - ``confidence``: 0-1, the board fit times the least sure pawn. ``clockwise``: the colours as printed
      clockwise from red (the real board prints blue after red, the geometries green).
    - ``pawns``: each pawn read: place (``["track", i]``, ``["home", colour, k]``, ``["yard", colour, k]``),
      colour, confidence, frame pixel of the place. ``homography``: grid ``(col, row, 1)`` -> frame pixels.
    - ``ms``: the reader's wall time in milliseconds. ``problem`` (only when set): why nothing was read.

    Without ``--json`` prints one readable line per image. ``--debug-out DIR`` writes ``DIR/<stem>.png``:
    the frame with every place of the fitted grid, the pawns read (colour ring and confidence), the
    yard counts and index 0 marked. A missing or unreadable file prints an error on stderr; the other
    images are still read and the command exits with status 1.

``companion board eval [--renders N] [--seed S] [--board NAME] [--real DIR --labels FILE] [--games G
[--moves M] [--die-on-board RATE]] [--json]``
    Measures the reader (:mod:`vision.board.eval`): N random renders per board (default 20, seed 1;
    all three boards unless ``--board``), and the labelled real frames when ``--real`` is given. Prints
    found / orientation rates, per-square accuracy, pawn recall / precision, yard-count accuracy, timing.
    ``--games G``: also G generated games of up to M moves per game board (ludo52, mensch40;
    :mod:`companion.bench.board_games`): the share of frames whose whole board is read exactly as the session
    needs it (``games_<board>``: photos, exact, exact_rate, median_ms, max_ms, first_wrong).
    ``--die-on-board RATE`` (with ``--games``): the games' rolls land on the board at RATE (the board
    read past the die), and the session's die readings on G games of four players whose rolls land on
    the board at RATE (``dice_<board>``: ``beside`` and ``on_board``, each rolls, read, asked,
    false_accepts).
"""

from __future__ import annotations

import argparse
import json

import cv2
import numpy as np

from companion.cli import cant_stop_board
from companion.cli.cant_stop_board import add_demo_command, add_print_command
from companion.cli.common import add_reader_commands, in_range
from companion.cli.images import read_each_image
from companion.errors import UserError
from companion.games.ludo import BOARD_NAMES, load_board, load_boards
from companion.registry import names
from vision.board import BoardObservation, layout_for
from vision.board.eval import evaluate_labelled, evaluate_renders
from vision.board.recognise import read_known_board

BOARDS = BOARD_NAMES
BOARD_GAMES = (*names(reads="board"), "cant-stop")
"""The games whose boards ``board read`` and ``board eval`` take: Ludo's, read in play, and Can't Stop's,
measured here before its session reads it (issue 50)."""
DRAW_BGR = {"red": (0, 0, 255), "green": (0, 170, 0), "yellow": (0, 215, 255), "blue": (255, 120, 0)}
EVAL_KEYS = ("frames", "found_rate", "orientation_rate", "square_accuracy", "pawn_recall", "pawn_precision",
             "yard_count_accuracy", "median_ms", "max_ms")
GAME_BOARDS = BOARD_NAMES  # every board plays on generated frames
GAME_KEYS = ("games", "photos", "exact", "exact_rate", "median_ms", "max_ms")
DIE_KEYS = ("games", "beside", "on_board")


def add_commands(subparsers) -> None:
    """Register ``board read`` and ``board eval`` on the ``companion`` command's subparsers."""
    sub, read = add_reader_commands(subparsers, "board", "read game boards in photos, measure the reader",
                                    "read the pawns on a board in image files", run_read)
    read.add_argument("--game", default="ludo", choices=BOARD_GAMES, help="the game whose board it is")
    read.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                      help="variant settings; Ludo's reader uses board=ludo52|mensch40|dga56, Can't Stop's "
                           "board_layout=companion|mountain|diamond and marker_colours=red+blue+...")

    ev = sub.add_parser("eval", help="measure the board reader on renders and labelled photos")
    ev.add_argument("--game", default="ludo", choices=BOARD_GAMES, help="the game whose board reader to measure")
    ev.add_argument("--renders", type=int, default=20,
                    help="random renders per board (default 20; Can't Stop: in all, the layouts in turn)")
    ev.add_argument("--seed", type=int, default=1, help="seed of the renders (default 1)")
    ev.add_argument("--board", choices=BOARDS, help="only this board's renders")
    ev.add_argument("--real", metavar="DIR", help="folder of labelled photos")
    ev.add_argument("--labels", metavar="FILE", help="labels JSON of the photos in --real")
    ev.add_argument("--games", type=int, default=0,
                    help="also read the true-board frames of this many generated games per game board (default 0)")
    ev.add_argument("--moves", type=int, default=20, help="moves per generated game (default 20)")
    ev.add_argument("--die-on-board", type=float, default=None, metavar="RATE",
                    help="with --games: also the session's die readings on games (four players) whose rolls "
                         "land on the board at this rate (0-1)")
    ev.add_argument("--json", action="store_true", help="print one JSON object")
    ev.set_defaults(handler=run_eval)
    add_print_command(sub)
    add_demo_command(sub)


def parse_variant(items: list[str]) -> dict[str, str]:
    """``["board=mensch40", "a=1,b=2"]`` -> ``{"board": "mensch40", "a": "1", "b": "2"}``.

    Raises :class:`UserError` for an item without ``=`` or an unknown board.
    """
    out: dict[str, str] = {}
    for item in items:
        for part in filter(None, (p.strip() for p in item.split(","))):
            key, sep, value = part.partition("=")
            if not sep or not key.strip():
                raise UserError(f"--variant setting {part!r} is not KEY=VALUE")
            out[key.strip()] = value.strip()
    board = out.get("board", BOARDS[0])
    if board not in BOARDS:
        raise UserError(f"--variant: unknown board {board!r}; choose one of {', '.join(BOARDS)}")
    return out


def observation_json(file: str, obs: BoardObservation) -> dict:
    """The JSON object ``board read --json`` prints for one image."""
    return {"file": file, **obs.to_dict()}


def draw_overlay(frame_bgr: np.ndarray, obs: BoardObservation, geometry) -> np.ndarray:
    """A copy of the frame with the fitted grid's places, the pawns read and the yard counts."""
    out = frame_bgr.copy()
    scale = max(0.35, max(out.shape[:2]) / 1800)
    thick = max(1, round(max(out.shape[:2]) / 700))
    if obs.problem or not obs.found:
        cv2.putText(out, obs.problem or "board not found", (8, 24), cv2.FONT_HERSHEY_SIMPLEX, scale * 1.5,
                    (0, 0, 255), thick, cv2.LINE_AA)
        return out
    hom = obs.homography_array()
    layout = layout_for(geometry)
    pts = [(c, r) for r, c in geometry.track]
    pts += [(c, r) for col in layout.clockwise for r, c in geometry.colours[col].home_column]
    pts += [(c, r) for col in layout.clockwise for r, c in layout.yard_spots[col]]
    img = cv2.perspectiveTransform(np.array(pts, np.float64).reshape(-1, 1, 2), hom).reshape(-1, 2)
    for x, y in img:
        cv2.circle(out, (int(round(x)), int(round(y))), 2, (255, 0, 255), -1)
    r0, c0 = geometry.track[0]
    x0, y0 = cv2.perspectiveTransform(np.array([[[c0, r0]]], np.float64), hom)[0, 0]
    cv2.putText(out, "0", (int(x0) + 3, int(y0) - 3), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick)
    ring = max(4, int(round(0.35 * _cell_pixels(hom, geometry.grid_size))))
    for pawn in obs.pawns:
        x, y = int(round(pawn.pixel[0])), int(round(pawn.pixel[1]))
        cv2.circle(out, (x, y), ring, DRAW_BGR[pawn.colour], thick + 1, cv2.LINE_AA)
        cv2.putText(out, f"{pawn.confidence:.2f}", (x + ring, y), cv2.FONT_HERSHEY_SIMPLEX, scale * 0.8,
                    DRAW_BGR[pawn.colour], thick, cv2.LINE_AA)
    text = "yards " + " ".join(f"{c[0]}{'?' if c in obs.covered_yards else n}" for c, n in obs.yards.items()) + f"  conf {obs.confidence:.2f}"
    cv2.putText(out, text, (8, 24), cv2.FONT_HERSHEY_SIMPLEX, scale * 1.3, (255, 255, 255), thick + 2, cv2.LINE_AA)
    cv2.putText(out, text, (8, 24), cv2.FONT_HERSHEY_SIMPLEX, scale * 1.3, (0, 0, 0), thick, cv2.LINE_AA)
    return out


def _cell_pixels(hom: np.ndarray, n: int) -> float:
    pts = np.array([[[0, 0]], [[n - 1, 0]]], np.float64)
    a, b = cv2.perspectiveTransform(pts, hom).reshape(-1, 2)
    return float(np.linalg.norm(a - b)) / (n - 1)


def run_read(args: argparse.Namespace) -> int:
    if args.game == "cant-stop":
        return cant_stop_board.run_read(args, parse_variant(args.variant))
    named = parse_variant(args.variant).get("board")
    boards = load_boards()
    cv2.setNumThreads(1)

    def overlay(frame, obs):
        return draw_overlay(frame, obs, boards[obs.board]) if obs.board else draw_overlay(frame, obs, None)

    return read_each_image(args, "companion board read", lambda frame: read_known_board(frame, boards, named), _line,
                           observation_json, overlay)


def _line(name: str, obs: BoardObservation) -> str:
    if not obs.found:
        return f"{name}: board not found ({obs.problem})  [{obs.ms:.1f} ms]"
    squares = " ".join(f"{i}:{'+'.join(c)}" for i, c in sorted(obs.squares.items())) or "-"
    yards = " ".join(f"{c}={'?' if c in obs.covered_yards else n}" for c, n in obs.yards.items())
    homes = " ".join(f"{c}={list(v)}" for c, v in obs.homes.items() if v) or "-"
    return f"{name}: squares {squares} | yards {yards} | homes {homes}  [conf {obs.confidence:.2f}, {obs.ms:.1f} ms]"


def run_eval(args: argparse.Namespace) -> int:
    in_range(args.renders, "--renders", 0, 100_000)
    if args.game == "cant-stop":
        if args.real or args.games or args.board or args.die_on_board is not None:
            raise UserError("board eval --game cant-stop takes --renders, --seed and --json only")
        return cant_stop_board.run_eval(args)
    in_range(args.games, "--games", 0, 100_000)
    if bool(args.real) != bool(args.labels):
        raise UserError("--real and --labels go together")
    if args.die_on_board is not None and not 0.0 <= args.die_on_board <= 1.0:
        raise UserError(f"--die-on-board is a share of the rolls, 0 to 1, not {args.die_on_board}")
    cv2.setNumThreads(1)
    # Here, not at the top: `board read` does not load the benchmarks (and the app and SciPy they import).
    from companion.bench.board_games import evaluate_die, evaluate_games

    result: dict = {}
    if args.renders:
        for name in (args.board,) if args.board else BOARDS:
            result[f"renders_{name}"] = evaluate_renders(load_board(name), args.renders, args.seed, load_boards())
    if args.real:
        result["real"] = evaluate_labelled(args.real, args.labels, load_boards())
    if args.games:
        for name in (args.board,) if args.board in GAME_BOARDS else () if args.board else GAME_BOARDS:
            result[f"games_{name}"] = evaluate_games(name, args.games, args.moves, args.seed,
                                                     die_on_board=args.die_on_board or 0.0)
            if args.die_on_board is not None:
                result[f"dice_{name}"] = evaluate_die(name, args.games, args.moves, args.seed,
                                                      die_on_board=args.die_on_board)
    if args.json:
        print(json.dumps(result))
        return 0
    for key, res in result.items():
        print(f"{key} ({res.get('board')})")
        keys = GAME_KEYS if key.startswith("games_") else DIE_KEYS if key.startswith("dice_") else EVAL_KEYS
        for k in keys:
            print(f"  {k:<20} {res.get(k)}")
    return 0
