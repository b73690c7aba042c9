"""Camera sources and OpenCV readers (dice first). Frames are BGR ``uint8`` arrays named ``frame_bgr``."""
