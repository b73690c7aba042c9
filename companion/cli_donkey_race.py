"""Subcommands of donkey-race (filled in by that game's issue)."""


def add_commands(subparsers) -> None:
    """Register this game's subcommands; none yet."""
