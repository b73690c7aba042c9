"""Pygame only: the window (:class:`Display`), text that always fits, the widgets, and one drawing module
per game (``companion.display.<game>.draw(surface, view)``, found through ``companion.registry``) and
the menu's (:mod:`.menu`)."""

from companion.display.window import Display, Draw, render_surface

__all__ = ["Display", "Draw", "render_surface"]
