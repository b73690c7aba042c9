"""The tests; they mirror the tree (tests/games/ludo/ for companion/games/ludo/, tests/vision/dice/ for vision/dice/, ...)."""
