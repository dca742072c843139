"""Interactive tools: demo, calibrate, selftest, the terminal board."""
