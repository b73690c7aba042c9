"""GPIO buttons and LEDs through gpiozero (mock pin factory off the Pi). Callbacks only queue Commands."""
