"""The Hub protocol (Scan's): messages, the engine process, client and server."""
