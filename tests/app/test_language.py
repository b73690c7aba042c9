"""Which language the box speaks (companion.app.language): the flag, then the menu's choice, then the
config, then the environment."""

import pytest

from companion import i18n
from companion.app.language import CHOICE_FILE, choose_language, store_choice, stored_choice
from companion.config import config_from_dict
from companion.errors import ConfigError, UserError


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


def test_the_order_flag_menu_config_environment(tmp_path):
    config = config_from_dict({"display": {"language": "nl"}})
    env = {"LANG": "ru_RU.UTF-8"}
    assert choose_language(None, tmp_path, config_from_dict({}), env) == "ru"
    assert choose_language(None, tmp_path, config, env) == "nl"
    store_choice(tmp_path, "pt_BR")
    assert (tmp_path / CHOICE_FILE).read_text(encoding="utf-8").strip() == '{\n  "language": "pt_BR"\n}'
    assert choose_language(None, tmp_path, config, env) == "pt_BR"
    assert choose_language("de", tmp_path, config, env) == "de" and i18n.current_language() == "de"


def test_a_bad_flag_or_config_is_named_a_bad_choice_file_is_ignored(tmp_path, caplog):
    with pytest.raises(UserError, match="--language: the box does not speak 'xx'"):
        choose_language("xx", tmp_path, config_from_dict({}))
    with pytest.raises(ConfigError, match="language"):
        config_from_dict({"display": {"language": "klingon"}})
    (tmp_path / CHOICE_FILE).write_text("not json", encoding="utf-8")
    assert stored_choice(tmp_path) is None and "cannot read the language chosen" in caplog.text
    (tmp_path / CHOICE_FILE).write_text('{"language": "fr"}', encoding="utf-8")
    assert stored_choice(tmp_path) is None
    assert choose_language(None, tmp_path, config_from_dict({}), {"LANG": "C.UTF-8"}) == "en"


def test_the_menus_choice_switches_now_and_is_kept(tmp_path):
    from companion.app.menu_store import StoreMenuData
    from companion.store import Store

    with Store(tmp_path / "s.sqlite3") as store:
        assert StoreMenuData(store, tmp_path).choose_language("ru") == ""
    assert i18n.current_language() == "ru" and stored_choice(tmp_path) == "ru"
    assert i18n._("Scoreboard") != "Scoreboard"  # the Russian catalogue is in use
    i18n.set_language("en")
    assert choose_language(None, tmp_path, config_from_dict({}), {"LANG": "de_DE.UTF-8"}) == "ru"
