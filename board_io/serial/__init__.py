"""The serial microcontroller protocol in three layers: framing, messages, link.

``framing`` (COBS + CRC-16, pure), ``messages`` (typed, strictly checked) and ``link`` (a port
URL, pyserial's reader thread, writes under a lock, reconnects). The sensor, LED and button
backends named ``serial`` are views on one :class:`board_io.serial.link.SerialLink`.
The protocol is documented in ``docs/serial-protocol.md``.
"""
