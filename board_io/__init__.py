"""draughtsboard: board_io package."""
