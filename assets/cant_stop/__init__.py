"""Can't Stop advisor tables (value.json), made by ``python -m companion.hints.cant_stop_tables --write``."""
