"""Speed benchmark of the dice reader: ``python -m vision.training.bench_dice [DIR...] [--json] [--repeat N]
[--reader learned|classical|hybrid] [--against TREE]``.

Reads every image of each set (a folder with ``labels.csv``, default: every set in
``../shared/data/dice/``, else the bundled ``assets/dice_photos``) with OpenCV on one thread
(``cv2.setNumThreads(1)``) and prints per set: images, median and 95th-percentile wall time (ms), and the
same for CPU time of this process (``time.process_time``; on a machine shared with other work the wall
time includes waiting for a core, the CPU time does not; numpy's BLAS may run threads of its own, so the
CPU time can exceed the wall time). Images are decoded before timing; each is read
``--repeat`` times (default 1) and its fastest time kept. ``--reader`` times another reader than the
product's ``"learned"`` (:data:`vision.training.dice_readers.READERS`). Targets (issue 3): median <= 25 ms and
p95 <= 60 ms wall per photo of up to 1280 px. ``--against TREE`` times the box's reader and the reader of
another checkout (``git worktree add /tmp/old COMMIT``) in the same run, photo by photo alternately, each
read ``--repeat`` times (at least once) and its fastest kept, and prints both and the ratio of the totals
(issue 38's "at most 0.6 times the time of today's reader"). Exit status 0; 2 when no set is found or TREE
is no checkout.

Example ``--json`` line: ``{"set": "pi_cam_tray", "images": 10, "median_ms": 21.3, "p95_ms": 30.1,
"median_cpu_ms": 20.9, "p95_cpu_ms": 29.8}``; with ``--against``: ``{"set", "images", "median_ms", "p95_ms",
"against_median_ms", "against_p95_ms", "ratio"}``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.dice.eval import load_set
from vision.training.dice_readers import READERS, reader_for, warm_up

SHARED_DICE = Path(__file__).resolve().parents[3] / "shared" / "data" / "dice"


def default_sets() -> list[Path]:
    """Every set in ../shared/data/dice, else the bundled photos."""
    if SHARED_DICE.is_dir():
        sets = sorted(p for p in SHARED_DICE.iterdir() if (p / "labels.csv").is_file())
        if sets:
            return sets
    from vision.camera import bundled_photos_dir

    return [Path(bundled_photos_dir())]


def bench_set(set_dir: Path, repeat: int = 1, reader: str = "learned") -> dict:
    """Time the reader ``reader`` (:data:`vision.training.dice_readers.READERS`) on every image of one set;
    returns the figures (ms, rounded to 0.1)."""
    read = reader_for(reader)
    images, _ = load_set(set_dir)
    walls, cpus = [], []
    for item in images:
        frame = cv2.imread(str(set_dir / item.file), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        best_wall = best_cpu = float("inf")
        for _ in range(max(1, repeat)):
            c0, w0 = time.process_time(), time.perf_counter()
            read(frame)
            best_wall = min(best_wall, (time.perf_counter() - w0) * 1000)
            best_cpu = min(best_cpu, (time.process_time() - c0) * 1000)
        walls.append(best_wall)
        cpus.append(best_cpu)

    def pct(values, q):
        return round(float(np.percentile(values, q)), 1) if values else None

    return {"set": set_dir.name, "images": len(walls), "median_ms": pct(walls, 50), "p95_ms": pct(walls, 95),
            "median_cpu_ms": pct(cpus, 50), "p95_cpu_ms": pct(cpus, 95)}


def reader_of_tree(tree: Path):
    """``read_dice`` of another checkout's ``vision`` package (``tree``: a git worktree of an older commit,
    ``git worktree add /tmp/old <commit>``), imported beside this one under the name ``against_vision``
    (a copy with its own imports renamed), its models read from that tree's ``assets``. Raises
    FileNotFoundError when ``tree/vision/dice/reader.py`` is absent."""
    import importlib
    import re
    import shutil
    import tempfile

    source = Path(tree) / "vision"
    if not (source / "dice" / "reader.py").is_file():
        raise FileNotFoundError(f"{tree}: no vision/dice/reader.py (give a checkout of the project)")
    folder = Path(tempfile.mkdtemp(prefix="bench_dice_"))
    shutil.copytree(source, folder / "against_vision", ignore=shutil.ignore_patterns("__pycache__", "training"))
    for py in (folder / "against_vision").rglob("*.py"):
        text = re.sub(r"(?m)^(\s*)(from|import) vision\b", r"\1\2 against_vision", py.read_text(encoding="utf-8"))
        py.write_text(text.replace('resources.files("assets")', f"Path({str(Path(tree) / 'assets')!r})"),
                      encoding="utf-8")
    sys.path.insert(0, str(folder))
    module = importlib.import_module("against_vision.dice.reader")
    module.warm_up()
    return module.read_dice


def bench_against(set_dir: Path, other, repeat: int = 3) -> dict:
    """This tree's reader and ``other`` (a frame -> DiceObservation function, :func:`reader_of_tree`) on
    every image of one set, alternately photo by photo in one run (the order swapped every photo), each
    read ``repeat`` times and its fastest kept: medians, 95th percentiles (ms) and the ratio of the totals
    (this / other)."""
    images, _ = load_set(set_dir)
    times: dict[str, list[float]] = {"this": [], "other": []}
    readers = [("this", reader_for("learned")), ("other", other)]
    for k, item in enumerate(images):
        frame = cv2.imread(str(set_dir / item.file), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        for name, read in readers if k % 2 == 0 else readers[::-1]:
            best = float("inf")
            for _ in range(max(1, repeat)):
                w0 = time.perf_counter()
                read(frame)
                best = min(best, (time.perf_counter() - w0) * 1000)
            times[name].append(best)
    this, other_ms = np.array(times["this"]), np.array(times["other"])
    return {"set": set_dir.name, "images": len(this),
            "median_ms": round(float(np.median(this)), 1), "p95_ms": round(float(np.percentile(this, 95)), 1),
            "against_median_ms": round(float(np.median(other_ms)), 1),
            "against_p95_ms": round(float(np.percentile(other_ms, 95)), 1),
            "ratio": round(float(this.sum() / other_ms.sum()), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.bench_dice", description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", metavar="DIR", help="labelled sets (default: ../shared/data/dice/*, else assets/dice_photos)")
    parser.add_argument("--json", action="store_true", help="one JSON object a line per set")
    parser.add_argument("--repeat", type=int, default=1, help="reads per image, the fastest kept (default 1)")
    parser.add_argument("--reader", choices=READERS, default="learned",
                        help="reader to time (default: the product's, learned)")
    parser.add_argument("--against", metavar="TREE", type=Path,
                        help="also time the reader of another checkout (a git worktree of an older commit) in the "
                             "same run, photo by photo alternately; prints both and the ratio")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    sets = [Path(d) for d in args.dirs] or default_sets()
    if not sets:
        print("no dice sets found", file=sys.stderr)
        return 2
    warm_up(args.reader)
    other = None
    if args.against is not None:
        try:
            other = reader_of_tree(args.against)
        except FileNotFoundError as error:
            print(f"--against: {error}", file=sys.stderr)
            return 2
    for set_dir in sets:
        if other is not None:
            result = bench_against(set_dir, other, max(args.repeat, 1))
            print(json.dumps(result) if args.json else
                  f"{result['set']:<14} {result['images']:>4} images  this: median {result['median_ms']} ms, p95 "
                  f"{result['p95_ms']} ms  {args.against}: median {result['against_median_ms']} ms, p95 "
                  f"{result['against_p95_ms']} ms  ratio of totals {result['ratio']}", flush=True)
            continue
        result = bench_set(set_dir, args.repeat, args.reader)
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            print(f"{result['set']:<14} {result['images']:>4} images  wall median {result['median_ms']} ms, "
                  f"p95 {result['p95_ms']} ms  cpu median {result['median_cpu_ms']} ms, "
                  f"p95 {result['p95_cpu_ms']} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
