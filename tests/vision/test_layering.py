"""Vision is the layer below the app: it imports nothing of companion (issue 38). Its errors are its own
(``vision.errors``), the texts players read are worded and translated in companion, and a board's
geometry is handed to it. ``vision/training`` (development only, not in the wheel) may use the app."""

from __future__ import annotations

import ast
import subprocess
import sys

from tests.paths import REPO

VISION = REPO / "vision"


def _imported(tree: ast.AST) -> set[str]:
    """Every module an ``import`` or ``from ... import`` names, anywhere in the file (inside functions too)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_no_module_of_vision_imports_companion():
    offending = {}
    for path in sorted(VISION.rglob("*.py")):
        if "training" in path.relative_to(VISION).parts:
            continue
        found = sorted(n for n in _imported(ast.parse(path.read_text(encoding="utf-8"))) if n.split(".")[0] == "companion")
        if found:
            offending[str(path.relative_to(REPO))] = found
    assert not offending, f"vision imports companion: {offending}"


def test_importing_the_readers_loads_no_companion_module():
    code = ("import sys, vision.dice, vision.board, vision.cards, vision.camera, vision.errors, vision.files; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'companion'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_the_app_catches_what_vision_raises():
    from companion import errors
    from vision import errors as vision_errors

    for name in ("CameraError", "NoCameraFound", "FrameError", "CalibrationError"):
        assert getattr(errors, name) is getattr(vision_errors, name)
    assert issubclass(vision_errors.VisionError, errors.USER_ERRORS)
    assert issubclass(errors.ConfigError, errors.USER_ERRORS)
