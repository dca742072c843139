"""The game session: the state machine, the game it keeps, timers, touch-move."""
