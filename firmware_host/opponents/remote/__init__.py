"""A remote opponent: a friend's wooden board across the hall or the country (docs/remote.md).

``run --opponent remote:BOARD`` (``remote.opponent``): this board's player plays the side
``game.human_side``; the other side is played by hand on the board ``BOARD``. Each board
writes its own player's moves to a stream of its own in a Redis both reach
(:mod:`~firmware_host.opponents.remote.entries`), and reads the other's; a move that arrives
is this board's opponent's reply, lit on the LEDs for the hand to carry out, with the time its
mover's board says it has left (:mod:`~firmware_host.opponents.remote.duel`).
"""
