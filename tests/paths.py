"""Where the tests find things: the repository, the bundled fixtures, and ``../shared/data`` (development
and CI machines only; tests that need it use the ``shared_data`` fixture, which skips without it)."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
FIXTURES = TESTS / "fixtures"
SHARED_DATA = REPO.parent / "shared" / "data"
