"""Following another game on this board: its moves on the LEDs, the hand carrying each out.

``draughtsboard run --follow SOURCE`` (``follow.source``): the source is a board of the hall
(its id: the same store) or a PDN broadcast's URL (the hall's own ``/broadcast.pdn``, another
club's, a lidraughts relay's source, a DGT-style multi-game file; ``#N`` its Nth game).
:mod:`~firmware_host.follow.address` reads what was written, :mod:`~firmware_host.follow.game`
reads the followed game from its source, :mod:`~firmware_host.follow.follower` turns it into
the session's events: each move as the engine's reply of a ``follow`` session, shown on the LEDs
and carried out by the hand; a board that joins late is guided through every move played so far,
one at a time, up to the position now (docs/follow.md).
"""
