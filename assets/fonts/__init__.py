"""Fonts shipped with the package (DejaVu Sans; licence in LICENSE-DejaVu.txt)."""
