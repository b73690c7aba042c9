"""companion.paths: where state and config live (STYLE.md 2.5)."""

import re
from pathlib import Path

import platformdirs
import pytest

from companion import paths


def test_overrides_win_over_systemd(tmp_path):
    env = {
        "COMPANION_STATE_DIR": str(tmp_path / "s"),
        "COMPANION_CONFIG_DIR": str(tmp_path / "c"),
        "STATE_DIRECTORY": "/var/lib/companion",
        "CONFIGURATION_DIRECTORY": "/etc/companion",
    }
    p = paths.resolve(env)
    assert p.state_dir == tmp_path / "s"
    assert p.config_dir == tmp_path / "c"
    assert p.store_file == tmp_path / "s" / "companion.sqlite3"
    assert p.config_file == tmp_path / "c" / "config.toml"


def test_systemd_directories():
    env = {"STATE_DIRECTORY": "/var/lib/companion:/var/lib/other", "CONFIGURATION_DIRECTORY": "/etc/companion"}
    p = paths.resolve(env)
    assert p.state_dir == Path("/var/lib/companion")
    assert p.config_file == Path("/etc/companion/config.toml")


def test_platformdirs_fallback_and_empty_values_count_as_unset():
    p = paths.resolve({"STATE_DIRECTORY": "", "COMPANION_CONFIG_DIR": ""})
    assert p.state_dir == Path(platformdirs.user_state_dir("tabletop-companion")).absolute()
    assert p.config_dir == Path(platformdirs.user_config_dir("tabletop-companion")).absolute()


def test_resolve_touches_nothing(tmp_path):
    paths.resolve({"COMPANION_STATE_DIR": str(tmp_path / "new")})
    assert not (tmp_path / "new").exists()


def test_ensure_state_dir_creates_parents(tmp_path):
    p = paths.resolve({"COMPANION_STATE_DIR": str(tmp_path / "a" / "b")})
    assert paths.ensure_state_dir(p) == tmp_path / "a" / "b"
    assert (tmp_path / "a" / "b").is_dir()
    assert paths.ensure_state_dir(p) == tmp_path / "a" / "b"  # idempotent


def test_ensure_state_dir_names_the_path(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    p = paths.resolve({"COMPANION_STATE_DIR": str(blocker / "state")})
    with pytest.raises(paths.StateDirError, match=re.escape(str(blocker / "state"))):
        paths.ensure_state_dir(p)
    p = paths.resolve({"COMPANION_STATE_DIR": str(blocker)})
    with pytest.raises(paths.StateDirError, match="COMPANION_STATE_DIR"):
        paths.ensure_state_dir(p)


def installed_box(root, config=True):
    """A box installed under ``root`` as systemd/install.sh lays it out: /var/lib/companion, /etc/companion."""
    (root / "var" / "lib" / "companion").mkdir(parents=True)
    (root / "etc" / "companion").mkdir(parents=True)
    if config:
        (root / "etc" / "companion" / "config.toml").write_text("")
    return {"COMPANION_SYSTEM_ROOT": str(root)}


def test_the_tests_never_see_a_box_installed_here():
    state, config = paths.system_dirs()
    assert not state.exists() and not config.exists()
    assert state.parts[-3:] == ("var", "lib", "companion") and config.parts[-2:] == ("etc", "companion")


def test_the_installed_box_comes_before_the_user_folders(tmp_path):
    env = installed_box(tmp_path)
    p = paths.resolve(env)
    assert p.state_dir == tmp_path / "var" / "lib" / "companion"
    assert p.config_file == tmp_path / "etc" / "companion" / "config.toml"
    # systemd's variables and the overrides still win
    p = paths.resolve({**env, "STATE_DIRECTORY": str(tmp_path / "s"), "COMPANION_CONFIG_DIR": str(tmp_path / "c")})
    assert (p.state_dir, p.config_dir) == (tmp_path / "s", tmp_path / "c")


def test_an_installed_box_without_its_config_file_keeps_the_user_config(tmp_path):
    p = paths.resolve(installed_box(tmp_path, config=False))
    assert p.state_dir == tmp_path / "var" / "lib" / "companion"
    assert p.config_dir == Path(platformdirs.user_config_dir("tabletop-companion")).absolute()


def test_an_installed_box_this_user_cannot_use_is_said_once(tmp_path, monkeypatch, caplog):
    env = installed_box(tmp_path)
    monkeypatch.setattr(paths, "_said", set())
    real_access = paths.os.access
    monkeypatch.setattr(paths.os, "access", lambda path, mode: False if "companion" in str(path) else real_access(path, mode))
    p = paths.resolve(env)
    paths.resolve(env)
    assert p.state_dir == Path(platformdirs.user_state_dir("tabletop-companion")).absolute()
    assert p.config_dir == Path(platformdirs.user_config_dir("tabletop-companion")).absolute()
    said = [r.getMessage() for r in caplog.records if r.name == "companion.paths"]
    assert len(said) == 2  # the state and the config, once each
    assert "not writable by this user" in said[0] and "sudo -u companion" in said[0]
    assert "not readable by this user" in said[1]
