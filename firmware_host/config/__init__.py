"""The configuration: one schema (``schema``, composing board_io's declarations with the
service's), loading and validation (``loader``), the store URL check (``urls``), editing
(``edit``), and what is rendered from the schema: the example file (``example``) and the docs
table (``docs``)."""

from firmware_host.config.loader import Config, ConfigError, redact_url

__all__ = ["Config", "ConfigError", "redact_url"]
