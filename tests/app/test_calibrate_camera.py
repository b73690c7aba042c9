"""companion calibrate camera: settings stored atomically in the state directory; clear error off the Pi."""

import json
import os
import sys
from types import SimpleNamespace

import pytest

from companion.app.calibrate import calibrate_camera_command
from companion.cli import main
from companion.errors import UserError
from companion.files import write_json_atomic
from tests.fakes import FakePicamera2
from vision.camera import Picamera2Source
from vision.camera.pi import load_settings


def test_off_the_pi_the_message_says_picamera2_is_absent(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path))
    assert main(["calibrate", "camera"]) == 2
    assert "picamera2 is not installed" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_calibration_is_stored_and_read_back_by_the_source(tmp_path, capsys):
    args = SimpleNamespace(distance=0.8, settle_frames=3, json=True)
    assert calibrate_camera_command(args, env={"COMPANION_STATE_DIR": str(tmp_path / "state")},
                                    picamera2_class=FakePicamera2) == 0
    out = json.loads(capsys.readouterr().out)
    path = tmp_path / "state" / "camera_picamera2.json"
    assert out["file"] == str(path) and out["exposure_time"] == 28000 and out["lens_position"] == 1.25
    assert sorted(p.name for p in path.parent.iterdir()) == ["camera_picamera2.json"]  # no temp file left
    settings = load_settings(path)
    with Picamera2Source(settings_file=path, picamera2_class=FakePicamera2):
        controls = FakePicamera2.instances[-1].camera_config["controls"]
    assert controls == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 28000,
                        "AnalogueGain": settings.analogue_gain, "ColourGains": (1.8, 1.5), "AfMode": 0,
                        "LensPosition": 1.25}


def test_atomic_write_keeps_the_old_file_when_replacing_fails(tmp_path, monkeypatch):
    path = tmp_path / "settings.json"
    write_json_atomic(path, {"a": 1})
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    with pytest.raises(OSError, match="No space"):
        write_json_atomic(path, {"a": 2})
    assert json.loads(path.read_text()) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_usererror_is_raised_directly(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(UserError, match="needs the Pi camera"):
        calibrate_camera_command(SimpleNamespace(distance=0.6, settle_frames=1, json=False),
                                 env={"COMPANION_STATE_DIR": str(tmp_path)})
