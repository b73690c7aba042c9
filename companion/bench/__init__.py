"""Benchmarks (figures printed, not tests): power cuts (:mod:`.crash`), fuzzed rules (:mod:`.fuzz`), a
long evening (:mod:`.soak`), the advisors' speed (:mod:`.advisor`, every game), Schotten Totten's
claims (:mod:`.claims`), the board reader on whole games (:mod:`.board_games`) and the Can't Stop value
table's fit (:mod:`.cant_stop_tables`). Each game plugs in through ``companion.bench.<game>``
(``fuzz_engine``, ``crash_workload``), found through ``companion.registry``.
"""

from companion.bench.crash import Workload, random_commands, run_crash_bench
from companion.bench.fuzz import FuzzEngine, FuzzReport, run_fuzz
from companion.bench.soak import run_soak

__all__ = ["run_crash_bench", "run_fuzz", "run_soak", "FuzzEngine", "FuzzReport", "Workload", "random_commands"]
