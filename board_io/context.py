"""What hardware backends are built with besides the configuration: :class:`BackendContext`.

Every backend's ``from_config(config, context)`` takes one; :mod:`board_io.registry` builds the
backends with it. It stands on its own floor so that a backend names it without importing the
registry that imports the backends.

Example:
    >>> from board_io.clock import VirtualClock
    >>> from board_io.geometry import dark_squares
    >>> with BackendContext(dark_squares(8), VirtualClock(), buttons=("left",)) as context:
    ...     context.shared_resource("link", lambda: "one link") is context.shared["link"]
    True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self, TypeVar

from board_io.clock import Clock
from board_io.geometry import Layout
from board_io.types import Square

__all__ = ["BackendContext"]

T = TypeVar("T")


@dataclass
class BackendContext:
    """What backends are built with besides the config: the board layout, the clock, the
    occupancy a simulated board starts with, the names the application gives the board's
    buttons, and resources shared between backends (one serial link for sensors, LEDs and
    buttons; one simulated board). Closing the context closes the shared resources, newest
    first.

    ``buttons``: the button names, in the order of a serial board's ids (id 0 first). The
    ``gpio`` backend reads ``buttons.<name>_pin`` of each (:func:`board_io.schema.button_pin`),
    a simulated board has them all; a press is reported by its name.
    """

    layout: Layout
    clock: Clock
    initial: frozenset[Square] = frozenset()
    buttons: tuple[str, ...] = ()
    shared: dict[str, Any] = field(default_factory=dict)

    def shared_resource(self, key: str, factory: Callable[[], T]) -> T:
        """Return the resource stored under ``key``, creating it with ``factory`` once."""
        if key not in self.shared:
            self.shared[key] = factory()
        resource: T = self.shared[key]
        return resource

    def close(self) -> None:
        """Close every shared resource that has a ``close()``. Idempotent."""
        while self.shared:
            _, resource = self.shared.popitem()
            close = getattr(resource, "close", None)
            if callable(close):
                close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
