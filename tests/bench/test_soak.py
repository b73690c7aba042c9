"""`companion bench soak`: the session loop over many frames keeps its memory and open files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from companion.bench import run_soak
from companion.bench.soak import open_files, rss_mb
from companion.cli import main


def test_a_soak_runs_the_frames_and_keeps_memory_and_files(tmp_path):
    figures = run_soak(200, fast=True, state_dir=tmp_path)
    assert figures["frames"] == 200 and figures["games"] >= 1  # the demo game may end and a new one start
    assert figures["files_end"] == figures["files_start"] > 0
    assert figures["rss_start_mb"] > 10 and len(figures["games_rss_mb"]) == figures["games"]
    assert figures["rss_peak_mb"] >= max(figures["rss_warm_mb"], *figures["games_rss_mb"])
    assert (tmp_path / "companion.sqlite3").exists()


# A short evening in a process of its own (its peak is its own): the bundled photos' dice kept as 10 rolls
# each (560 dice, read and confirmed as the demo's players do), then three games that each learn from all
# that is kept and read with it. Before issue 52 the reader ran the learning as one batch of 4,480 crops:
# the peak was 855 MB and every game grew the process by ~34 MB (cv2.dnn keeps its largest batch's buffers).
SHORT_EVENING = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    import cv2
    from companion.bench import run_soak
    from vision.dice import examples_in, shipped_reader
    from vision.dice.teach import examples_from_roll

    state, photos = Path(sys.argv[1]), sorted(Path(sys.argv[2]).glob("*.jpg"))
    reader, store = shipped_reader(), examples_in(state)
    for photo in photos:
        frame = cv2.imread(str(photo))
        seen = reader.read(frame)
        kept = examples_from_roll(reader, frame, seen, [d.value for d in seen.dice], photo.stem)
        for k in range(10):
            store.add([type(e)(e.crop, e.read, e.flagged, e.value, f"{photo.stem}-{k}") for e in kept])
    print(json.dumps(run_soak(10 ** 6, fast=True, state_dir=state, games=3, frames_a_game=60)))
""")


def test_games_that_learn_the_dice_keep_their_memory(tmp_path):
    from companion.app.demo import photos_dir
    from vision.dice import load_learned, shipped_reader

    photos = photos_dir()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-c", SHORT_EVENING, str(tmp_path), str(photos)], capture_output=True,
                          text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["games"] == 3 and figures["kept_dice"] > 560  # the games kept rolls of their own: each learned
    learned, why = load_learned(tmp_path, shipped_reader().networks.heads_id)
    assert why == "" and learned.report["dice"] > 560  # the last game learned from all kept, and read with it
    after = figures["games_rss_mb"]
    assert len(after) == 3 and after[-1] - after[0] < 10  # issue 52's budget: 68 MB before
    assert figures["rss_peak_mb"] - after[0] < 60  # the learning's peak: 183 MB above before


def test_without_fast_the_loop_keeps_the_configured_frame_rate(tmp_path):
    figures = run_soak(3, state_dir=tmp_path)  # [session] fps = 10 by default: at least 0.2 s between 3 ticks
    assert figures["frames"] == 3 and figures["seconds"] >= 0.2


def test_the_process_figures_are_read_from_proc():
    before = open_files()
    with open(__file__, encoding="utf-8"):
        assert open_files() == before + 1
    assert rss_mb() > 1


def test_the_command_prints_json_and_rejects_bad_counts(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    assert main(["bench", "soak", "--frames", "20", "--fast", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert {"frames", "rss_start_mb", "rss_end_mb", "files_start", "files_end"} <= set(figures)
    assert main(["bench", "soak", "--frames", "0"]) == 2
    assert "--frames must be at least 1" in capsys.readouterr().err


def test_bench_crash_rejects_a_game_it_does_not_cover(capsys):
    assert main(["bench", "crash", "--game", "chess", "--trials", "1"]) == 2
    assert "unknown game 'chess'; games: cant-stop, ludo, schotten-totten, donkey-race" in capsys.readouterr().err
