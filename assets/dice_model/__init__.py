"""The dice models (die detector, face classifiers; see README.md), loaded by vision.dice_detect and vision.dice_model."""
