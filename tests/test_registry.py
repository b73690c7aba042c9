"""The contract of every registered game (companion.registry): its modules in every layer, its line in
`companion games --json`, and the one play loop: each game lights its LEDs, recovers a damaged store and
takes the variant of its own config section."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.app import devices as play_devices
from companion.app import loop as play_loop
from companion.app.play import play
from companion.cli import main
from companion.config import load_config
from companion.paths import AppPaths
from companion.registry import GAMES, LAYERS, READS, game
from companion.store import Store
from hardware import StatusPattern
from vision.camera import FrameSource

NAMES = [entry.name for entry in GAMES]

CONTRACT = {
    "games": ("GAME", "CONFIG", "VARIANTS"),
    "hints": ("advise", "prepare", "NODES"),
    "agents": ("AGENTS", "BENCH_OPPONENTS", "simulate", "chance"),
    "session": ("SESSION", "replay_state", "press_for", "describe", "describe_event", "story"),
    "stats": ("summarise",),
    "readers": ("make_reader",),
    "screens": ("build_view", "final_line", "HOW_TO_PLAY"),
    "display": ("draw",),
    "demos": ("BY_HAND_VARIANT", "CAMERA_DEMO", "TABLE_VARIANT", "Table"),
    "bench": ("fuzz_engine", "crash_workload"),
    "cli": ("add_commands",),
}


def test_the_contract_covers_every_layer():
    assert set(CONTRACT) == set(LAYERS)


@pytest.mark.parametrize("name", NAMES)
def test_every_layer_has_the_games_module_with_its_names(name):
    entry = game(name)
    for layer, needed in CONTRACT.items():
        module = entry.module(layer)
        assert module.__name__ == f"companion.{layer}.{entry.key}"
        missing = [n for n in needed if not hasattr(module, n)]
        assert not missing, f"companion.{layer}.{entry.key} lacks {missing}"


@pytest.mark.parametrize("name", NAMES)
def test_the_rules_make_a_first_state_for_every_player_count(name):
    entry = game(name)
    rules = entry.module("games")
    low, high = entry.players
    for count in range(low, high + 1):
        state = rules.GAME(count, entry.config()).new_initial_state()
        assert state.num_players == count
    agents = entry.module("agents")
    assert {"random", "advisor"} <= set(agents.AGENTS)
    assert set(agents.BENCH_OPPONENTS) <= set(agents.AGENTS) and low <= len(agents.BENCH_OPPONENTS) + 1 <= high


@pytest.mark.parametrize("name", NAMES)
def test_simulate_plays_its_agents(name):
    low = game(name).players[0]
    result = game(name).module("agents").simulate(["advisor"] + ["random"] * (low - 1), 2, 1)
    assert result["games"] == 2 and sum(result["wins_by_seat"]) <= 2


def test_the_contracts_four_games_are_registered():
    assert NAMES[:4] == ["cant-stop", "ludo", "schotten-totten", "donkey-race"]  # ARCHITECTURE.md's GAME names


def test_games_json_is_the_registry(capsys):
    assert main(["games", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed == [entry.to_dict() for entry in GAMES]
    for item, entry in zip(listed, GAMES):
        assert set(item) == {"name", "title", "players", "variants", "reads"}
        assert item["players"] == {"min": entry.players[0], "max": entry.players[1]}
        assert item["reads"] and set(item["reads"]) <= set(READS)
        assert list(item["variants"]) == [key.name for key in entry.variants]
        for spec in item["variants"].values():
            assert set(spec) == {"default", "choices", "type", "range"}
            assert spec["type"] in ("int", "str", "bool", "ints", "deck")
            assert spec["choices"] is None or spec["default"] in spec["choices"] or spec["default"] is None
    by_name = {item["name"]: item for item in listed}
    assert by_name["cant-stop"]["title"] == "Can't Stop" and by_name["cant-stop"]["reads"] == ["dice"]
    assert by_name["ludo"]["reads"] == ["dice", "board"]


def _other_setting(entry) -> tuple[str, object]:
    """A variant key and a legal value other than its default: the first key with another choice, else the
    first number key whose range holds another value."""
    for key in entry.variants:
        if key.choices and len(key.choices) > 1:
            return key.name, next(c for c in key.choices if c != key.default)
    for key in entry.variants:
        if key.type == "int" and key.range and key.range[0] < key.range[1]:
            low, high = key.range
            return key.name, low if key.default != low else high
    pytest.skip(f"{entry.name} has no variant key to set")


def _toml(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else json.dumps(value)


class _BlankCamera(FrameSource):
    """A camera that sees an empty grey table (every game can be started without a real one)."""

    name = "blank"

    def read(self):
        return np.full((480, 640, 3), 128, np.uint8)

    def close(self):
        pass


@pytest.mark.parametrize("name", NAMES)
def test_every_game_lights_its_leds_recovers_a_damaged_store_and_takes_its_config_section(
        name, tmp_path, monkeypatch, factory):
    entry = game(name)
    key, value = _other_setting(entry)
    config_file = tmp_path / "config.toml"
    config_file.write_text(f"[{entry.key}]\n{key} = {_toml(value)}\n", encoding="utf-8")
    config = load_config(config_file)
    assert config.variant(name) == {key: value}
    paths = AppPaths.from_dirs(tmp_path / "state", tmp_path / "config")
    paths.state_dir.mkdir(parents=True)
    paths.store_file.write_bytes(b"this is not an SQLite file, it was damaged by a power cut" * 20)
    script = tmp_path / "start.script"
    script.write_text("confirm\nconfirm\nquit\n", encoding="utf-8")  # past the notice of the store moved aside,
    # start (or deal), then quit when asked again
    monkeypatch.setattr(play_devices, "make_pin_factory", lambda: factory)
    seen = []

    def recording_show_leds(leds, session):
        play_loop_show_leds(leds, session)
        seen.append((session.active_seat, leds.turn, leds.pattern))

    play_loop_show_leds = play_loop.show_leds
    monkeypatch.setattr(play_loop, "show_leds", recording_show_leds)
    low, high = entry.players
    players = ["Ada", "Ben", "Cy", "Di", "Ed", "Flo"][:min(max(low, 2), high)]
    result = play(entry, paths=paths, config=config, input_spec=f"script:{script}+gpio", camera=_BlankCamera(),
                  players=players, headless=True, seed=3, max_ticks=12)
    assert result.winner is None  # the script quit (or the ticks ran out): the game is saved, not over
    assert all(turn == seat for seat, turn, _ in seen)  # the LED of the seat to act, none between turns
    assert any(seat is not None for seat, _, _ in seen)  # and a seat's turn came
    assert all(pattern is not StatusPattern.OFF for _, _, pattern in seen)  # the status LED says what it waits for
    kept = [p for p in paths.state_dir.iterdir() if p.name.startswith(paths.store_file.name + ".unusable-")]
    assert kept, "the damaged store was not moved aside"
    assert any(p.read_bytes().startswith(b"this is not an SQLite file") for p in kept)
    with Store(paths.store_file) as store:
        saved = store.game(result.game_id)
        assert saved.game == name and list(saved.players) == players
        assert dict(saved.variant) == {key: value}  # the [game] section's setting, stored with the game
