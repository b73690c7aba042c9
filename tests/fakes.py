"""Stand-ins for what a development machine does not have: a Pi camera (picamera2's ``Picamera2``)."""

import numpy as np

CM3_CONTROLS = {  # what a Camera Module 3 (imx708) advertises: (min, max, default)
    "AeEnable": (False, True, True), "AwbEnable": (False, True, True), "ExposureTime": (26, 112015443, 20000),
    "AnalogueGain": (1.12, 16.0, 1.0), "ColourGains": (0.0, 32.0, None), "AfMode": (0, 2, 0),
    "LensPosition": (0.0, 15.0, 1.0),
}
V2_CONTROLS = {k: v for k, v in CM3_CONTROLS.items() if k not in ("AfMode", "LensPosition")}


class FakePicamera2:
    controls = CM3_CONTROLS
    metadata = [{"ExposureTime": 30000 - 1000 * i, "AnalogueGain": 2.0 + 0.1 * i, "ColourGains": (1.8, 1.5)}
                for i in range(10)]
    instances = []

    def __init__(self):
        self.camera_controls = self.controls
        self.camera_properties = {"Model": "imx708"}
        self.events = []
        self._metadata = iter(self.metadata)
        FakePicamera2.instances.append(self)

    def create_preview_configuration(self, main):  # picamera2 returns a plain dict
        return {"main": dict(main), "buffer_count": 6, "controls": {}}

    def configure(self, config):
        self.camera_config = config
        self.events.append("configure")

    def start(self):
        self.events.append("start")

    def capture_metadata(self):
        return next(self._metadata)

    def capture_array(self, name):
        width, height = self.camera_config["main"]["size"]
        array = np.zeros((height, width, 3), np.uint8)
        array[..., 0], array[..., 2] = 10, 200  # RGB888 arrives as B, G, R: blue 10, red 200
        return array

    def stop(self):
        self.events.append("stop")

    def close(self):
        self.events.append("close")
