"""draughtsboard: firmware_host package."""
