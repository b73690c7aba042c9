"""Speed benchmark of the dice reader: ``python -m vision.training.bench_dice [DIR...] [--json] [--repeat N]
[--reader classical|hybrid|learned]``.

Reads every image of each set (a folder with ``labels.csv``, default: every set in
``../shared/data/dice/``, else the bundled ``assets/dice_photos``) with OpenCV on one thread
(``cv2.setNumThreads(1)``) and prints per set: images, median and 95th-percentile wall time (ms), and the
same for CPU time of this process (``time.process_time``; on a machine shared with other work the wall
time includes waiting for a core, the CPU time does not; numpy's BLAS may run threads of its own, so the
CPU time can exceed the wall time). Images are decoded before timing; each is read
``--repeat`` times (default 1) and its fastest time kept. ``--reader`` times another reader than the
product's ``"learned"`` (:data:`vision.training.dice_readers.READERS`). Targets (issue 3): median <= 25 ms and
p95 <= 60 ms wall per photo of up to 1280 px. Exit status 0; 2 when no set is found.

Example ``--json`` line: ``{"set": "pi_cam_tray", "images": 10, "median_ms": 21.3, "p95_ms": 30.1,
"median_cpu_ms": 20.9, "p95_cpu_ms": 29.8}``.
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.bench_dice", description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", metavar="DIR", help="labelled sets (default: ../shared/data/dice/*, else assets/dice_photos)")
    parser.add_argument("--json", action="store_true", help="one JSON object a line per set")
    parser.add_argument("--repeat", type=int, default=1, help="reads per image, the fastest kept (default 1)")
    parser.add_argument("--reader", choices=READERS, default="learned",
                        help="reader to time (default: the product's, learned)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    sets = [Path(d) for d in args.dirs] or default_sets()
    if not sets:
        print("no dice sets found", file=sys.stderr)
        return 2
    warm_up(args.reader)
    for set_dir in sets:
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
