"""The Schotten Totten advisor counts set bits with np.bitwise_count (numpy 2) or, on numpy 1.24 (Debian
Bookworm's apt, the box's lowest), byte by byte: both count alike."""

import numpy as np

from companion.hints.schotten_totten.eval import _popcount_bytes


def test_byte_popcount_matches_pythons():
    rng = np.random.default_rng(7)
    values = rng.integers(0, 2**63, size=500, dtype=np.uint64) | np.uint64(1 << 63)
    values[:3] = [0, 1, (1 << 64) - 1]
    expected = [bin(int(v)).count("1") for v in values]
    assert _popcount_bytes(values).tolist() == expected
    assert _popcount_bytes(values[5:]).tolist() == expected[5:]  # a view that does not start at 0
    if hasattr(np, "bitwise_count"):
        assert np.bitwise_count(values).tolist() == expected
