"""Languages (companion.i18n): names onto codes, the environment, numbers the way each language writes
them."""

import pytest

from companion import i18n
from companion.errors import UserError


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("text, code", [("de", "de"), ("de_DE.UTF-8", "de"), ("DE", "de"), ("Deutsch", "de"),
                                        ("pt", "pt_BR"), ("pt-PT", "pt_BR"), ("pt_BR.UTF-8", "pt_BR"),
                                        ("nl_BE", "nl"), ("ru_RU.UTF-8", "ru"), ("Русский", "ru"),
                                        ("en_GB", "en"), ("C", "en"), ("POSIX", "en"), ("C.UTF-8", "en"),
                                        ("fr_FR", None), ("", None), ("klingon", None)])
def test_language_codes(text, code):
    assert i18n.language_code(text) == code


def test_the_environment_falls_back_to_english_quietly():
    assert i18n.environment_language({"LANG": "nl_NL.UTF-8"}) == "nl"
    assert i18n.environment_language({"LANGUAGE": "fr:ru", "LANG": "de_DE.UTF-8"}) == "ru"
    assert i18n.environment_language({"LANGUAGE": "fr", "LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.environment_language({"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.environment_language({"LANG": "C.UTF-8"}) == "en" and i18n.environment_language({}) == "en"


def test_an_unknown_language_named_by_a_flag_is_an_error():
    with pytest.raises(UserError, match="--language: the box does not speak 'fr'; choose one of en"):
        i18n.checked_language("fr", "--language")
    assert i18n.checked_language("pt", "--language") == "pt_BR"


@pytest.mark.parametrize("code, percent, decimal, number, place", [
    ("en", "8%", "1.4", "1,240", "2nd"), ("de", "8\xa0%", "1,4", "1.240", "2."), ("nl", "8%", "1,4", "1.240", "2e"),
    ("pt_BR", "8%", "1,4", "1.240", "2º"), ("ru", "8\xa0%", "1,4", "1\xa0240", "2.")])
def test_numbers_follow_the_language(code, percent, decimal, number, place):
    assert i18n.set_language(code) == code
    assert (i18n.percent(0.0802), i18n.decimal(1.39), i18n.number(1240), i18n.ordinal(2)) == (
        percent, decimal, number, place)


def test_english_ordinals():
    i18n.set_language("en")
    assert [i18n.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]


def test_stored_times_are_written_the_languages_short_way(monkeypatch):
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        i18n.set_language("en")
        # CLDR 42 (Babel 2.12) put a narrow no-break space before PM; Bookworm's Babel 2.10 a plain one
        assert i18n.moment("2026-12-01T21:40:00+00:00").replace("\u202f", " ") == "12/1/26, 9:40 PM"
        i18n.set_language("de")
        assert i18n.moment("2026-12-01T21:40:00+00:00") == "01.12.26, 21:40"
        assert i18n.moment("not a time") == "not a time"
    finally:
        monkeypatch.undo()
        time.tzset()
