"""Whether this machine is a Raspberry Pi: the device tree's model string, as the kernel gives it."""

from __future__ import annotations

from pathlib import Path

MODEL_FILE = Path("/proc/device-tree/model")
"""The board's model ("Raspberry Pi 4 Model B Rev 1.5\\0") on machines booted from a device tree;
absent on a PC."""


def is_raspberry_pi(model_file: Path = MODEL_FILE) -> bool:
    """True when ``model_file`` names a Raspberry Pi. False when it is absent or unreadable (a PC, a
    container without /proc/device-tree) or names another board. Off the Pi the mock pins and the
    missing Pi camera are what is expected, so they are logged quietly; on the Pi they are warnings."""
    try:
        model = model_file.read_bytes()
    except OSError:
        return False
    return model.startswith(b"Raspberry Pi")
