"""The one translation function for every text a player reads, and numbers written the way each language
writes them.

All player-facing strings go through :func:`_` (gettext) or :func:`ngettext` for counts; tables of texts
are marked with :func:`N_` / :func:`Nn_` and translated where they are shown. English is the source
language; the catalogues are ``assets/locale/<code>/LC_MESSAGES/companion.po`` (compiled to ``.mo``
beside them; docs/CLI.md, Translations, gives the commands). :data:`LANGUAGES` lists the languages the
box speaks; :func:`language_code` maps what a flag, the config or the environment says onto one of them.
Which one is used is decided in ``companion.app.language`` (flag, menu choice, config, environment).

Numbers, lists and times: :func:`percent`, :func:`decimal`, :func:`number`, :func:`listing`, :func:`moment` and
:func:`ordinal` follow the current language (Babel's CLDR formats; ordinals by the small rules of :data:`_ORDINALS`).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, timezone
from importlib import resources

from babel.dates import format_datetime
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from companion.errors import UserError

DOMAIN = "companion"

LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "pt_BR": "Português (Brasil)",
                             "ru": "Русский"}
"""The languages the box speaks: code -> the language's name in itself (for the language screen)."""

ENGLISH = "en"

_translation: gettext.NullTranslations = gettext.NullTranslations()
_current = ENGLISH


def _locale_dir() -> str:
    return str(resources.files("assets") / "locale")


def language_code(text: str) -> str | None:
    """The code of :data:`LANGUAGES` that ``text`` names (``de``, ``de_DE.UTF-8``, ``pt``, ``pt-PT``,
    ``ru_RU``, ``English``...), or None when it names none of them. ``pt`` and every Portuguese variant
    give ``pt_BR``; ``C`` and ``POSIX`` give English."""
    value = text.strip().split(".")[0].split("@")[0].replace("-", "_")
    if not value:
        return None
    if value in ("C", "POSIX"):
        return ENGLISH
    for code, name in LANGUAGES.items():
        if value.lower() in (code.lower(), name.lower()):
            return code
    base = value.split("_")[0].lower()
    if base == "pt":
        return "pt_BR"
    return base if base in LANGUAGES else None


def environment_language(env: Mapping[str, str] = os.environ) -> str:
    """The language the environment asks for: the first known one of ``LANGUAGE`` (a ``:`` list), else
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; English when none is known (quietly: a Pi's ``C.UTF-8`` or a
    language we lack is no error)."""
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in (env.get(key) or "").split(":"):
            code = language_code(part)
            if code is not None:
                return code
        if env.get(key) and key != "LANGUAGE":
            return ENGLISH  # the first set locale variable decides, as gettext does
    return ENGLISH


def checked_language(text: str, where: str) -> str:
    """The code ``text`` names; :class:`UserError` naming ``where`` (a flag, a config key) and the
    languages for one the box does not speak."""
    code = language_code(text)
    if code is None:
        known = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
        raise UserError(f"{where}: the box does not speak {text!r}; choose one of {known}")
    return code


_LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ALPHABETS = {"en": _LATIN, "de": _LATIN + "ÄÖÜß", "nl": _LATIN + "ËÏ", "pt_BR": _LATIN + "ÁÂÃÀÇÉÊÍÓÔÕÚ",
             "ru": "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"}
"""The letters the menu's name picker offers per language (capitals; later letters go in small)."""


def alphabet(code: str) -> str:
    """The letters of language ``code`` (of :data:`LANGUAGES`) for spelling a name; Latin for others."""
    return ALPHABETS.get(code, _LATIN)


def set_language(language: str | None = None) -> str:
    """Switch the catalogue to ``language`` (a code or name, see :func:`language_code`; None: the
    environment's) and return the code used. An unknown language means English."""
    global _translation, _current
    code = (language_code(language) if language else None) or (environment_language() if language is None
                                                                 else ENGLISH)
    _current = code
    _translation = (gettext.NullTranslations() if code == ENGLISH else
                    gettext.translation(DOMAIN, _locale_dir(), languages=[code], fallback=True))
    return code


def current_language() -> str:
    """The code of the language in use."""
    return _current


def every_translation(message: str) -> frozenset[str]:
    """``message`` in every language the box speaks (English included): for recognising a text the box
    wrote in whatever language it spoke then, e.g. a default seat name ("Player 2", "Spieler 2")."""
    found = {message}
    for code in LANGUAGES:
        if code != ENGLISH:
            found.add(gettext.translation(DOMAIN, _locale_dir(), languages=[code], fallback=True).gettext(message))
    return frozenset(found)


@contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Speak ``language`` (a code or name, as :func:`set_language`; None: the one in use) inside the
    ``with`` block, then the language before it again; yields the code used. For text meant for another
    reader than the screen's, e.g. the console's lines of ``companion demo`` while its screens speak the
    menu's language."""
    before = _current
    try:
        yield set_language(language or before)
    finally:
        set_language(before)


def _(message: str) -> str:
    """Translate ``message`` into the current language (English when no catalogue matches)."""
    return _translation.gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues without translating it here (gettext's ``N_``): a table of
    texts (button names, variant labels) is built once, and whoever shows one calls :func:`_` on it."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for the catalogues without translating it (``N_`` for
    :func:`ngettext`); show it with ``ngettext(*pair, n)``."""
    return singular, plural


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` as meant in ``context`` (gettext's ``pgettext``): for short texts whose English
    says too little for a translator, e.g. a formation's abbreviation ``pgettext("formation tag", "CR")``."""
    return _translation.pgettext(context, message)


def Np_(context: str, message: str) -> tuple[str, str]:
    """Mark a (context, message) pair for the catalogues without translating it (``N_`` for
    :func:`pgettext`); show it with ``pgettext(*pair)``."""
    return context, message


def ngettext(singular: str, plural: str, n: int) -> str:
    """Plural-aware translation of a message about ``n`` things (Russian has three forms)."""
    return _translation.ngettext(singular, plural, n)


def sentence(text: str) -> str:
    """``text`` with its first letter upper-case, for a reason that starts lower-case (a rules engine's
    ``IllegalMove`` reason) shown on its own as a sentence."""
    return text[:1].upper() + text[1:]


def _locale() -> str:
    return "pt_BR" if _current == "pt_BR" else _current


def percent(fraction: float) -> str:
    """``fraction`` (0.08) as a whole percentage the current language's way ("8%", "8 %")."""
    return format_percent(fraction, locale=_locale())  # CLDR's own pattern: whole percent, the language's spacing


def decimal(value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals the current language's way ("1.4", "1,4")."""
    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    return format_decimal(value, format=pattern, locale=_locale())


def listing(items) -> str:
    """``items`` (strings) joined the current language's way: "6, 8 and 11" (English without the serial
    comma, as the box's English texts write it), "6, 8 und 11", "6 и 8"; one item alone; "" for none."""
    items = [str(item) for item in items]
    return format_list(items, locale="en_GB" if _current == ENGLISH else _locale()) if items else ""


def number(value: int) -> str:
    """A whole number with the current language's grouping ("1,240", "1.240", "1 240")."""
    return format_decimal(value, format="#,##0", locale=_locale())


def moment(iso: str) -> str:
    """A stored time (ISO 8601, UTC as the store keeps it) in the local time zone, written short the current
    language's way ("12/1/26, 9:40 PM", "01.12.26, 21:40"); the text itself when it is no time."""
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return format_datetime(when.astimezone(), "short", locale=_locale())


_ORDINALS = {"en": None, "de": "{n}.", "nl": "{n}e", "pt_BR": "{n}º", "ru": "{n}."}
"""How each language writes a place in a list of placings: German "1.", Dutch "1e", Portuguese "1º",
Russian "1." (a numbered list; "1-е место" would need the noun)."""


def ordinal(n: int) -> str:
    """The place ``n`` (1 = first) as the current language writes it ("1st", "1.", "1e", "1º", "1.")."""
    pattern = _ORDINALS.get(_current)
    if pattern is not None:
        return pattern.format(n=n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


set_language()
