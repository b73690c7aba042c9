"""The dice models (die detector, face classifiers; see README.md), loaded by vision.dice.detect and vision.dice.model."""
