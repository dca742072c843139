"""What the players see and read: the LED language and the sentences."""
