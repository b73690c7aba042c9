"""Data shipped with the package (photos, fonts, demo scripts, locales), found via importlib.resources."""
