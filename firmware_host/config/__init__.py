"""The configuration: one schema, loading and validation, editing, the example file."""

from firmware_host.config.loader import Config, ConfigError, redact_url

__all__ = ["Config", "ConfigError", "redact_url"]
