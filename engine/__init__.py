"""draughtsboard: engine package."""
