"""Robustness benches and helpers (issue 9): power cuts (``crash``), fuzzed rules (``fuzz``), long
evenings (``soak``), and the event trace the crash bench reads (``trace``)."""
