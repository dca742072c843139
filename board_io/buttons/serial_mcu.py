"""The ``serial`` button backend: BUTTON messages from a microcontroller on a serial link.

Button ids are the microcontroller's (``0 .. buttons-1`` from its HELLO); ``names`` maps them
to the application's button names. Built from the configuration, id ``i`` is the ``i``-th of
the context's button names (``BackendContext.buttons``, in the protocol's order). A press is
reported on the button going down; releases are ignored.

Example:
    >>> buttons = SerialButtons(link, clock=MonotonicClock())   # doctest: +SKIP
    >>> buttons.when_pressed = queue.put                        # doctest: +SKIP
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from board_io.buttons.base import Buttons
from board_io.clock import Clock
from board_io.errors import ConfigError
from board_io.options import ConfigSource
from board_io.serial import messages as msg
from board_io.serial.link import SerialLink, shared_link

if TYPE_CHECKING:
    from board_io.context import BackendContext

__all__ = ["SerialButtons", "default_names"]

log = logging.getLogger(__name__)


def default_names(count: int, names: Sequence[str]) -> dict[int, str]:
    """Return the id -> name map of a board with ``count`` buttons: id ``i`` is ``names[i]``
    (ids beyond the names have none).

    Example:
        >>> default_names(2, ("left", "right", "centre"))
        {0: 'left', 1: 'right'}
    """
    return dict(enumerate(names[:count]))


class SerialButtons(Buttons):
    """A view of a :class:`SerialLink` as a set of buttons.

    Raises:
        ConfigError: ``names`` uses an id the microcontroller does not have, or a name twice.
    """

    def __init__(self, link: SerialLink, *, clock: Clock,
                 names: Mapping[int, str] | None = None, owns_link: bool = False) -> None:
        count = link.hello.buttons
        mapping = dict(names) if names is not None else {}
        bad = sorted(i for i in mapping if not 0 <= i < count)
        if bad:
            raise ConfigError("buttons.names", f"button ids {bad} do not exist; the "
                              f"microcontroller has {count} buttons (ids 0..{count - 1})")
        if len(set(mapping.values())) != len(mapping):
            raise ConfigError("buttons.names", "a button function is given to two ids")
        super().__init__(mapping.values(), clock=clock)
        self.link = link
        self.names = mapping
        self._owns_link = owns_link
        link.add_listener(self._message)

    @classmethod
    def from_config(cls, config: ConfigSource, context: BackendContext) -> SerialButtons:
        """Build on the board's shared link; id ``i`` is the context's ``i``-th button name.

        Raises:
            ConfigError, BoardIOError, LinkTimeout: as :func:`shared_link`.
        """
        link = shared_link(config, context)
        return cls(link, clock=context.clock,
                   names=default_names(link.hello.buttons, context.buttons))

    def _message(self, message: msg.Message) -> None:
        if not isinstance(message, msg.ButtonChange) or not message.pressed or self.closed:
            return
        name = self.names.get(message.button)
        if name is None:
            log.debug("button %d has no function", message.button)
            return
        self._pressed(name)

    def _close(self) -> None:
        self.link.remove_listener(self._message)
        if self._owns_link:
            self.link.close()
