"""Test-wide setup: Pygame draws without a screen, and paths to the shared real data when present."""

import os
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from tests.paths import SHARED_DATA

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# Never the box installed on the machine that runs the tests (/var/lib/companion, /etc/companion): the
# system directories of companion.paths are looked for under a root that does not exist (children too).
os.environ["COMPANION_SYSTEM_ROOT"] = str(Path(__file__).resolve().parent / "fixtures" / "no-system-root")


@pytest.fixture
def shared_data() -> Path:
    """``../shared/data`` beside the repository; skips when it is absent (a user's clone has none)."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is absent (it exists on development and CI machines only)")
    return SHARED_DATA


@pytest.fixture
def app_env(tmp_path, monkeypatch):
    """Point the app's state and config at a temporary folder."""
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path


@pytest.fixture
def factory():
    """A gpiozero mock pin factory (simulated pins, off the Pi); its pins are released after the test."""
    factory = MockFactory()
    yield factory
    factory.reset()
