"""Can't Stop advisor tables (value.json), made by ``python -m companion.bench.cant_stop_tables --write``."""
