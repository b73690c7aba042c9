"""vision.camera.pi with a fake Picamera2 class: stream config, locked controls, fixed focus, BGR."""

import json

import pytest

from companion.errors import CameraError
from tests.fakes import CM3_CONTROLS, V2_CONTROLS, FakePicamera2
from vision.camera import Picamera2Source
from vision.camera.pi import (AF_MODE_MANUAL, CameraSettings, calibrate, configuration_kwargs, focus_controls,
    load_settings, stream_controls)


class FixedFocusCamera(FakePicamera2):
    controls = V2_CONTROLS


def test_locked_settings_give_manual_exposure_white_balance_and_focus():
    settings = CameraSettings(exposure_time=25000, analogue_gain=2.5, colour_gains=(1.9, 1.4), lens_position=1.6)
    kwargs = configuration_kwargs(settings, CM3_CONTROLS)
    assert kwargs == {"main": {"size": (1024, 768), "format": "RGB888"}, "buffer_count": 4,
                      "controls": {"AeEnable": False, "AwbEnable": False, "ExposureTime": 25000, "AnalogueGain": 2.5,
                                   "ColourGains": (1.9, 1.4), "AfMode": AF_MODE_MANUAL, "LensPosition": 1.6}}
    assert stream_controls(settings, V2_CONTROLS) == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 25000,
                                                      "AnalogueGain": 2.5, "ColourGains": (1.9, 1.4)}


def test_uncalibrated_runs_automatic_exposure_but_focus_stays_fixed():
    controls = stream_controls(CameraSettings(), CM3_CONTROLS)
    assert controls == {"AeEnable": True, "AwbEnable": True, "AfMode": AF_MODE_MANUAL,
                        "LensPosition": pytest.approx(1 / 0.6)}
    assert focus_controls(CM3_CONTROLS, 40.0 / 2) == {"AfMode": 0, "LensPosition": 15.0}  # clamped to the lens
    assert focus_controls(V2_CONTROLS, 1.6) == {} and focus_controls(CM3_CONTROLS, None) == {}


def test_settings_round_trip_and_validation(tmp_path):
    settings = CameraSettings(size=(640, 480), exposure_time=12000, analogue_gain=1.5, colour_gains=(2.0, 1.25),
                              lens_position=None, sensor="imx219", created="2026-01-01T00:00:00+00:00")
    path = tmp_path / "camera.json"
    path.write_text(json.dumps(settings.to_dict()))
    assert load_settings(path) == settings and settings.locked
    assert load_settings(tmp_path / "absent.json") is None
    path.write_text('{"version": 1, "size": [640]}')
    with pytest.raises(CameraError, match="not valid camera settings"):
        load_settings(path)
    with pytest.raises(ValueError, match="analogue_gain"):
        CameraSettings(analogue_gain=0.5)
    with pytest.raises(ValueError, match="fmt"):
        CameraSettings(fmt="YUV420")


def test_source_reads_the_settings_file_and_hands_over_bgr(tmp_path):
    path = tmp_path / "camera.json"
    path.write_text(json.dumps(CameraSettings(size=(320, 240), exposure_time=20000, analogue_gain=2.0,
                                              colour_gains=(1.5, 1.5), lens_position=2.0).to_dict()))
    with Picamera2Source(settings_file=path, picamera2_class=FakePicamera2) as source:
        camera = FakePicamera2.instances[-1]
        assert camera.camera_config["main"] == {"size": (320, 240), "format": "RGB888"}
        assert camera.camera_config["buffer_count"] == 4
        assert camera.camera_config["controls"]["AeEnable"] is False
        assert camera.camera_config["controls"]["LensPosition"] == 2.0
        frame = source.read()
        assert frame.shape == (240, 320, 3) and tuple(frame[0, 0]) == (10, 0, 200)  # B, G, R
        assert source.name == "picamera:320x240"
    assert camera.events == ["configure", "start", "stop", "close"]


def test_source_without_calibration_warns_and_uses_defaults(tmp_path, caplog):
    with Picamera2Source(settings_file=tmp_path / "none.json", picamera2_class=FixedFocusCamera) as source:
        assert source.controls == {"AeEnable": True, "AwbEnable": True}
        assert source.read().shape == (768, 1024, 3)
    assert "camera not calibrated" in caplog.text


def test_calibrate_keeps_the_settled_values_and_fixes_focus():
    settings = calibrate(distance_m=0.5, settle_frames=5, picamera2_class=FakePicamera2, created="t")
    assert (settings.exposure_time, settings.analogue_gain, settings.colour_gains) == (26000, 2.4, (1.8, 1.5))
    assert settings.lens_position == 2.0 and settings.sensor == "imx708" and settings.locked
    camera = FakePicamera2.instances[-1]
    assert camera.camera_config["controls"] == {"AeEnable": True, "AwbEnable": True, "AfMode": 0, "LensPosition": 2.0}
    assert camera.events[-2:] == ["stop", "close"]
    fixed = calibrate(distance_m=0.5, settle_frames=1, picamera2_class=FixedFocusCamera)
    assert fixed.lens_position is None


def test_calibrate_refuses_metadata_without_exposure():
    class NoMetadata(FakePicamera2):
        metadata = [{"ExposureTime": 1000}]

    with pytest.raises(CameraError, match="lacks AnalogueGain, ColourGains"):
        calibrate(settle_frames=1, picamera2_class=NoMetadata)


def test_camera_settings_that_are_not_text_are_named(tmp_path):
    from vision.camera.pi import load_settings

    path = tmp_path / "camera.json"
    path.write_bytes(b"\xd0\xff\xfe\x00")
    with pytest.raises(CameraError, match="not camera settings \\(not UTF-8 text\\)") as caught:
        load_settings(path)
    assert str(path) in str(caught.value)
