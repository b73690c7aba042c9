"""Ludo board geometry (ludo52.json, mensch40.json) read by companion.games.ludo.board."""
