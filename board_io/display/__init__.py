"""Displays of text on the board: a clock face a player can read (docs/hardware.md).

A display shows the two halves of text it is given, one of them marked, and a banner across
(:class:`~board_io.display.base.Face`); what the text says (times, a pause) is the service's.
Backends: ``none``, ``sim`` (keeps what it was given), ``max7219`` (an 8-digit 7-segment
module), ``ssd1306`` and ``sh1106`` (128x64 OLEDs); chosen by ``clock.display``.
"""
