"""The dice models (die detector, face classifiers; see README.md), loaded by vision.dice.networks and vision.dice.params."""
