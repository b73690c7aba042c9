"""Pygame screens: what the box shows (board, photo of the roll, options, hint, prompt, scores)."""
