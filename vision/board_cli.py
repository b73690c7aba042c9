"""``companion board read IMAGE --game ludo --json`` (filled in by the Ludo issue)."""


def add_commands(subparsers) -> None:
    """Register the board reader's subcommands; none yet."""
