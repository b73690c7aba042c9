"""The one translation function for every text a player reads.

All player-facing strings go through :func:`_` (gettext). English is the source language; catalogues
for German, Portuguese, Dutch and Russian will live in ``assets/locale/<lang>/LC_MESSAGES/companion.mo``
and are picked by the ``LANGUAGE``/``LANG`` environment, or by :func:`set_language`.
"""

from __future__ import annotations

import gettext
from importlib import resources

DOMAIN = "companion"

_translation: gettext.NullTranslations = gettext.NullTranslations()


def _locale_dir() -> str:
    return str(resources.files("assets") / "locale")


def set_language(language: str | None = None) -> None:
    """Switch the catalogue; ``None`` follows the environment, unknown languages fall back to English."""
    global _translation
    languages = [language] if language else None
    _translation = gettext.translation(DOMAIN, _locale_dir(), languages=languages, fallback=True)


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


def ngettext(singular: str, plural: str, n: int) -> str:
    """Plural-aware translation of a message about ``n`` things."""
    return _translation.ngettext(singular, plural, n)


set_language()
