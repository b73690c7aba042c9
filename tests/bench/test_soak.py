"""`companion bench soak`: the session loop over many frames keeps its memory and open files."""

from __future__ import annotations

import json

from companion.bench import run_soak
from companion.bench.soak import open_files, rss_mb
from companion.cli import main


def test_a_soak_runs_the_frames_and_keeps_memory_and_files(tmp_path):
    figures = run_soak(200, fast=True, state_dir=tmp_path)
    assert figures["frames"] == 200 and figures["games"] >= 1  # the demo game may end and a new one start
    assert figures["files_end"] == figures["files_start"] > 0
    assert figures["rss_start_mb"] > 10 and abs(figures["rss_growth_mb"]) < 10
    assert (tmp_path / "companion.sqlite3").exists()


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
