"""The board's remote: the web app's commands, read from Redis into the session's event queue
(:mod:`~firmware_host.remote.reader`), and the settings the players chose there, kept across a
restart (:mod:`~firmware_host.remote.saved`). Both are wired by
:func:`firmware_host.app.service.build_service`."""
