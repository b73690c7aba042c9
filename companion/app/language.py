"""Which language the box speaks, and the players' choice of it kept in the state directory.

Precedence (docs/CLI.md, Languages): the ``--language`` flag (``play``, ``menu``, ``demo``), then the
choice made on the menu's language screen (``STATE_DIR/language.json``: the config file is read-only to
the service on the Pi), then ``[display] language`` in the config, then the environment (``LANGUAGE``,
``LC_ALL``, ``LC_MESSAGES``, ``LANG``). A language the box does not speak is an error when a flag or the
config names it; in the environment (``C.UTF-8``, a language we lack) it quietly means English.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path

from companion.config import Config
from companion.files import write_json_atomic
from companion.i18n import checked_language, environment_language, language_code, set_language

log = logging.getLogger(__name__)

CHOICE_FILE = "language.json"
"""The menu's choice in the state directory: ``{"language": "de"}``."""


def stored_choice(state_dir: Path) -> str | None:
    """The language chosen on the menu, or None (no choice, or a file that cannot be read: logged)."""
    path = Path(state_dir) / CHOICE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError) as error:
        log.warning("%s: cannot read the language chosen on the menu (%s); it is ignored", path, error)
        return None
    code = language_code(str(data.get("language", ""))) if isinstance(data, dict) else None
    if code is None:
        log.warning("%s: no language the box speaks (%r); it is ignored", path, data)
    return code


def store_choice(state_dir: Path, code: str) -> Path:
    """Keep ``code`` (one of ``companion.i18n.LANGUAGES``) as the menu's choice, atomically."""
    Path(state_dir).mkdir(parents=True, exist_ok=True)
    return write_json_atomic(Path(state_dir) / CHOICE_FILE, {"language": code})


def choose_language(flag: str | None, state_dir: Path | None, config: Config,
                    env: Mapping[str, str] = os.environ) -> str:
    """Decide the language by the module's precedence, switch to it and return its code. Raises
    ``UserError`` for a ``--language`` or ``[display] language`` the box does not speak."""
    if flag:
        code = checked_language(flag, "--language")
    elif state_dir is not None and (chosen := stored_choice(state_dir)) is not None:
        code = chosen
    elif config.display.language:
        code = checked_language(config.display.language, "config [display] language")
    else:
        code = environment_language(env)
    return set_language(code)
