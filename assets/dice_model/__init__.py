"""The learned die-face classifier (face32.onnx, see README.md), loaded by vision.dice_model."""
