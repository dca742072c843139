"""When the serial link is up, lost, re-greeted or restored: a pure state machine, no I/O.

:class:`Recovery` is told what happens on the port (opened, a valid frame, a HELLO, a port
error, the time passing) and answers with what the link must do (:class:`Do`: open the port,
close it, send PING, re-send CONFIG and the last LEDS) and which events to post
(:class:`~board_io.events.LinkLost` / :class:`~board_io.events.LinkRestored`). The rules:

* After the port opens the host sends PING (with CONFIG and the last LEDS) and re-sends PING
  with a growing delay (``ping_backoff``) **until a HELLO arrives, whatever else arrives**:
  SCANs from a microcontroller that missed the PING keep the link alive but do not make it up.
* No valid frame for ``link_timeout`` (or a port error) closes the port; it is reopened at
  once, then every ``reconnect_interval`` while that fails.
* ``LinkLost`` is posted once when a link that was up goes down, ``LinkRestored`` once when
  the next HELLO arrives, however many reopen attempts lie between them. Only the loss is a
  warning; the attempts in between are DEBUG lines, and the restore says how many there were.
* A HELLO while the link is up and no PING is waiting for its answer is a microcontroller
  that restarted (watchdog, brown-out, reset behind a USB-serial chip whose port stayed
  open): it lost CONFIG and the LEDs, so both are re-sent; its next SCAN re-syncs the board.
  This is not a loss: no event. (A HELLO soon after a PING may be a late answer to it: CONFIG
  and the LEDs are re-sent all the same, but it is not counted or logged as a restart —
  unless its seq is 0, the first frame of a reset microcontroller, which always counts.)

Example:
    >>> r = Recovery(link_timeout=3.0, reconnect_interval=1.0, name="ttyACM0")
    >>> r.opened(0.0)
    [<Do.PING: 'ping'>, <Do.RESEND: 'resend'>]
    >>> r.tick(0.3)                     # no HELLO yet: PING again
    [<Do.PING: 'ping'>]
    >>> r.hello(0.4), r.state
    ([], <LinkState.UP: 'up'>)
    >>> r.tick(3.5)                     # silence
    [<Do.CLOSE: 'close'>, LinkLost(at=3.5), <Do.OPEN: 'open'>]
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from board_io.events import LinkLost, LinkRestored

__all__ = ["PING_BACKOFF", "Action", "Do", "LinkState", "Recovery", "RecoveryStats"]

log = logging.getLogger("board_io.serial.link")

# Seconds between PINGs while waiting for HELLO; the last delay repeats.
PING_BACKOFF = (0.25, 0.5, 1.0, 2.0)


class LinkState(Enum):
    """Where the link stands."""

    DOWN = "down"  # port closed; reopened at ``next_attempt``
    HANDSHAKE = "handshake"  # port open, PING sent, no HELLO yet
    UP = "up"  # HELLO seen on this port


class Do(Enum):
    """What :class:`Recovery` asks the link to do."""

    OPEN = "open"  # open the port (then call ``opened`` or ``open_failed``)
    CLOSE = "close"  # close the port
    PING = "ping"  # send PING
    RESEND = "resend"  # send CONFIG and the last LEDS frame


Action: TypeAlias = Do | LinkLost | LinkRestored


@dataclass(slots=True)
class RecoveryStats:
    """Counters of the link's life (part of ``SerialLink.stats()``)."""

    losses: int = 0  # LinkLost posted
    reconnects: int = 0  # LinkRestored posted
    mcu_restarts: int = 0  # unsolicited HELLOs
    pings: int = 0
    open_attempts: int = 0  # reopen attempts while lost


class Recovery:
    """The link's state machine; every method takes the time and returns actions, in order.

    ``ping_backoff``: delays before each further PING while no HELLO has come (the last one
    repeats). ``name`` only appears in log lines.
    """

    def __init__(self, *, link_timeout: float, reconnect_interval: float, name: str,
                 ping_backoff: Sequence[float] = PING_BACKOFF) -> None:
        if not ping_backoff or min(ping_backoff) <= 0:
            raise ValueError(f"ping_backoff must be positive delays, got {ping_backoff!r}")
        self.link_timeout = link_timeout
        self.reconnect_interval = reconnect_interval
        self.name = name
        self.stats = RecoveryStats()
        self._backoff = tuple(ping_backoff)
        self.state = LinkState.DOWN
        self.lost = False  # LinkLost posted, LinkRestored not yet
        self._was_up = False  # HELLO seen at least once (before that a loss is not posted)
        self._last_frame = 0.0
        self._next_attempt = 0.0
        self._next_ping = 0.0
        self._last_ping = 0.0
        self._pings_waiting = 0  # PINGs sent on this port whose HELLO has not come
        self._ping_step = 0
        self._lost_at = 0.0
        self._attempts = 0  # reopen attempts since the loss

    # -- inputs ----------------------------------------------------------------------------

    def opened(self, now: float) -> list[Action]:
        """The port is open: greet (PING, then CONFIG and the last LEDS)."""
        self.state = LinkState.HANDSHAKE
        self._last_frame = now
        self._pings_waiting = 0
        self._ping_step = 0
        return [self._ping(now), Do.RESEND]

    def open_failed(self, now: float, error: str) -> list[Action]:
        """Opening the port failed: try again in ``reconnect_interval``."""
        self.state = LinkState.DOWN
        self._next_attempt = now + self.reconnect_interval
        log.debug("reopening %s failed: %s", self.name, error)
        return []

    def frame(self, now: float) -> None:
        """A valid frame arrived (any type)."""
        self._last_frame = now

    def hello(self, now: float, restarted: bool = False) -> list[Action]:
        """A valid HELLO of the right version arrived (``restarted``: its seq is 0, the first
        frame of a microcontroller since its reset)."""
        self._last_frame = now
        if self.state is LinkState.HANDSHAKE:
            self.state = LinkState.UP
            self._was_up = True
            if not self.lost:
                return []
            self.lost = False
            self.stats.reconnects += 1
            log.warning("serial link %s restored after %.1f s (%d reopen attempt%s)", self.name,
                        now - self._lost_at, self._attempts, "" if self._attempts == 1 else "s")
            return [LinkRestored(at=now)]
        if self.state is not LinkState.UP:
            return []  # DOWN: a stale reader's frame
        # Another HELLO: re-sending CONFIG and the LEDs is harmless, missing a reset is not.
        # A seq of 0 is a reset even soon after a PING: a late answer to it comes from firmware
        # whose seq has moved on.
        if not restarted and self._pings_waiting > 0 and now - self._last_ping <= self.link_timeout:
            self._pings_waiting -= 1  # most likely the late answer to one of our PINGs
            log.debug("another HELLO from %s soon after a PING: re-sending CONFIG and LEDs",
                      self.name)
            return [Do.RESEND]
        if not restarted:
            self._pings_waiting = 0
        self.stats.mcu_restarts += 1
        log.warning("microcontroller on %s restarted (HELLO without PING, %d so far): "
                    "re-sending CONFIG and LEDs", self.name, self.stats.mcu_restarts)
        return [Do.RESEND]

    def ping_sent(self, now: float) -> None:
        """Someone else sent a PING (``SerialLink.send``): its HELLO is no restart."""
        self._pings_waiting += 1
        self._last_ping = now

    def port_failed(self, now: float, reason: str) -> list[Action]:
        """The port reported an error or was closed under us."""
        if self.state is LinkState.DOWN:
            return []
        return self._drop(now, reason)

    def tick(self, now: float) -> list[Action]:
        """Time passes: detect a silence, re-PING, reopen."""
        if self.state is not LinkState.DOWN and now - self._last_frame > self.link_timeout:
            return self._drop(now, f"no frame for {self.link_timeout:g} s")
        if self.state is LinkState.HANDSHAKE and now >= self._next_ping:
            return [self._ping(now)]
        if self.state is LinkState.DOWN and now >= self._next_attempt:
            self._next_attempt = now + self.reconnect_interval
            if self.lost:
                self._attempts += 1
                self.stats.open_attempts += 1
            return [Do.OPEN]
        return []

    # -- helpers ---------------------------------------------------------------------------

    def _ping(self, now: float) -> Do:
        self._pings_waiting += 1
        self.stats.pings += 1
        self._last_ping = now
        delay = self._backoff[min(self._ping_step, len(self._backoff) - 1)]
        self._ping_step += 1
        self._next_ping = now + delay
        if self._ping_step > 1:
            log.debug("no HELLO from %s yet: PING again (next in %g s)", self.name, delay)
        return Do.PING

    def _drop(self, now: float, reason: str) -> list[Action]:
        self.state = LinkState.DOWN
        self._next_attempt = now
        actions: list[Action] = [Do.CLOSE]
        if self.lost or not self._was_up:
            log.debug("serial link %s still down: %s", self.name, reason)
        else:
            self.lost = True
            self._lost_at = now
            self._attempts = 0
            self.stats.losses += 1
            log.warning("serial link %s lost: %s", self.name, reason)
            actions.append(LinkLost(at=now))
        return actions + self.tick(now)
