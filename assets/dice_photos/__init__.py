"""Real dice photos (BSD-3-Clause, see LICENSE) for the demo, the auto camera and the tests."""
