"""From board occupancy to moves: the recogniser, its index, the orientation check."""
