"""The lowest library versions pyproject.toml declares are Debian Bookworm's apt ones, which the box runs on
(systemd/install.sh: a venv over apt's stack; `systemd/check-install.sh --tests` runs the tests on it)."""

import re
import tomllib

from tests.paths import REPO

BOOKWORM = {"numpy": "1.24.2", "opencv-python-headless": "4.6.0", "pygame": "2.1.2", "gpiozero": "1.6.2",
            "scipy": "1.10.1", "babel": "2.10.3", "platformdirs": "2.6", "imagesize": "1.4.1"}
"""apt-cache policy in a Bookworm root: python3-numpy 1:1.24.2-1+deb12u1, python3-opencv 4.6.0+dfsg-12,
python3-pygame 2.1.2+dfsg-5+b1, python3-gpiozero 1.6.2-1+b1, python3-scipy 1.10.1-2, python3-babel 2.10.3-1,
python3-platformdirs 2.6.0-1, python3-imagesize 1.4.1-1."""


def test_every_dependency_comes_from_apt_on_the_box():
    """install.sh installs with --no-deps: each dependency must be one of its apt packages."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    script = (REPO / "systemd" / "install.sh").read_text()
    apt = script[script.index("APT_PACKAGES=("):script.index(")", script.index("APT_PACKAGES=("))].split()
    for requirement in project["dependencies"]:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement).group()
        package = "python3-opencv" if name.startswith("opencv") else f"python3-{name.lower()}"
        assert package in apt, f"{name}: add {package} to install.sh's APT_PACKAGES"


def test_declared_minimums_are_bookworms_apt_versions():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    minimums = {}
    for requirement in project["dependencies"]:
        name, low = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)", requirement).groups()
        minimums[name] = low
    assert minimums == BOOKWORM
    assert project["requires-python"] == ">=3.11"  # Bookworm's python3 is 3.11.2
