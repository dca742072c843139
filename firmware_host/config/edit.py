"""Rewrite keys of the ``[board]`` table in a TOML configuration file, keeping everything else.

The standard library reads TOML but does not write it, and a configuration file carries the
user's comments: so the edit is line-based. The file is split into statements by the real
parser (a multi-line array is one statement), only the statement that sets the key is replaced,
and the result is checked by loading it as a configuration before it atomically replaces the
file (:func:`write_board_options`). Used by ``draughtsboard calibrate --write``.

Example:
    >>> text = "[board]\\nsensors = 'sim'\\ncell_map = [3, 1, 2]  # by hand\\n"
    >>> print(set_board_option(text, "cell_map", []), end="")
    [board]
    sensors = 'sim'
    cell_map = []  # by hand
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path

from firmware_host.config.loader import Config, ConfigError

_TABLE_HEADER = re.compile(r"\s*\[")


def check_writable(path: Path) -> None:
    """Fail early, before the user places a single piece, if ``path`` cannot be rewritten.

    Raises:
        ConfigError: the file or its directory is not writable.
    """
    real = path.resolve()
    if not os.access(real, os.W_OK):
        raise ConfigError(f"{path}: cannot write the configuration file (permissions? try sudo)")
    if not os.access(real.parent, os.W_OK | os.X_OK):
        raise ConfigError(f"{path}: cannot write in {real.parent} (needed to replace the file "
                          "safely)")


def render_value(value: object) -> str:
    """Render a config value as TOML: strings, booleans, integers and lists of integers
    (long lists wrapped, ten to a line).

    Example:
        >>> render_value("rotate180"), render_value([1, 2]), render_value(True)
        ('"rotate180"', '[1, 2]', 'true')

    Raises:
        TypeError: another type.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                       for v in value):
        if len(value) <= 10:
            return "[" + ", ".join(map(str, value)) + "]"
        rows = [", ".join(map(str, value[i:i + 10])) + "," for i in range(0, len(value), 10)]
        return "[\n" + "".join(f"    {row}\n" for row in rows) + "]"
    raise TypeError(f"cannot write {value!r} to the configuration")


def _parses(text: str) -> dict[str, object] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def _statements(lines: list[str]) -> list[tuple[int, int]]:
    """Split the lines into TOML statements, ``(first, end)`` line spans: a multi-line array
    or string is one statement. The real parser decides where each one ends."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        end = i + 1
        if stripped and not stripped.startswith("#"):
            while _parses("".join(lines[i:end])) is None and end < len(lines):
                end += 1
        spans.append((i, end))
        i = end
    return spans


def _board_section(lines: list[str], spans: list[tuple[int, int]]
                   ) -> tuple[int, int, list[tuple[int, int]]] | None:
    """The ``[board]`` header's line, the section's end line, and its statements."""
    header: int | None = None
    body: list[tuple[int, int]] = []
    for first, end in spans:
        is_table = bool(_TABLE_HEADER.match(lines[first]))
        if header is None:
            if is_table and _parses(lines[first]) == {"board": {}} and \
                    not lines[first].lstrip().startswith("[["):
                header = first
        elif is_table:
            return header, first, body
        else:
            body.append((first, end))
    return None if header is None else (header, len(lines), body)


def _trailing_comment(statement: str) -> str:
    """The comment after a statement's value on its last line, if any (kept on rewrite)."""
    stripped = statement.rstrip("\r\n")
    for i, char in enumerate(stripped):
        if char == "#" and _parses(stripped[:i]) == _parses(stripped):
            return "  " + stripped[i:].rstrip()
    return ""


def set_board_option(text: str, key: str, value: object) -> str:
    """Return ``text`` (a TOML file) with ``key`` of its ``[board]`` table set to ``value``.

    Only that statement changes (its indentation and trailing comment are kept); a missing key
    is added after the section's last statement; a missing section is added at the end.

    Example:
        >>> text = "# mine\\n[board]\\nsensors = 'sim'  # for now\\n\\n[log]\\nlevel = 'info'\\n"
        >>> print(set_board_option(text, "sensors", "serial"), end="")
        # mine
        [board]
        sensors = "serial"  # for now
        <BLANKLINE>
        [log]
        level = 'info'
    """
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += newline
    rendered = f"{key} = {render_value(value)}".replace("\n", newline)
    section = _board_section(lines, _statements(lines))
    if section is None:
        gap = [newline] if lines and lines[-1].strip() else []
        return "".join(lines + gap + [f"[board]{newline}", rendered + newline])
    header, _end, body = section
    for first, end in body:
        parsed = _parses("".join(lines[first:end]))
        if parsed is not None and key in parsed:
            indent = lines[first][:len(lines[first]) - len(lines[first].lstrip())]
            comment = _trailing_comment(lines[end - 1]) if end - first == 1 else ""
            lines[first:end] = [indent + rendered + comment + newline]
            return "".join(lines)
    statements = [span for span in body if _parses("".join(lines[span[0]:span[1]]))]
    at = statements[-1][1] if statements else header + 1
    lines[at:at] = [rendered + newline]
    return "".join(lines)


def write_board_options(path: Path, entries: Mapping[str, object], *,
                        verify: Callable[[Config], None] | None = None) -> None:
    """Set ``[board]`` keys in the TOML file at ``path``, keeping every other line.

    The new text is checked (it must load as a valid configuration with exactly these values,
    and pass ``verify``) before it replaces the file atomically (temporary file, fsync,
    rename); on any failure the file is left as it was.

    Raises:
        ConfigError: the file is not UTF-8, the result would be invalid, or the file changed
            meanwhile.
        OSError: the file cannot be read or written.
    """
    real = path.resolve()
    original = real.read_bytes()
    try:
        text = original.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    for key, value in entries.items():
        text = set_board_option(text, key, value)
    fd, tmp_name = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(text.encode("utf-8"))
            file.flush()
            os.fsync(file.fileno())
        _copy_owner_and_mode(real, tmp)
        _check_written(path, tmp, entries, verify)
        if real.read_bytes() != original:
            raise ConfigError(f"{path}: the file changed while calibrating; not overwritten")
        os.replace(tmp, real)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_directory(real.parent)


def _copy_owner_and_mode(original: Path, new: Path) -> None:
    # The service may read the file as another user (sudo calibrate, service as `draughtsboard`).
    info = original.stat()
    with contextlib.suppress(PermissionError):
        os.chown(new, info.st_uid, info.st_gid)
    os.chmod(new, info.st_mode & 0o7777)


def _check_written(path: Path, tmp: Path, entries: Mapping[str, object],
                   verify: Callable[[Config], None] | None) -> None:
    try:
        loaded = Config.load(tmp)
    except ConfigError as exc:
        detail = str(exc).replace(str(tmp), str(path))
        raise ConfigError(f"{path}: the rewritten file would not load ({detail})") from None
    for key, value in entries.items():
        if loaded[f"board.{key}"] != value:
            raise ConfigError(f"{path}: board.{key} is defined outside the [board] section; "
                              "edit it by hand")
    if verify is not None:
        verify(loaded)


def _fsync_directory(directory: Path) -> None:
    # The rename is durable only once the directory entry is on disk.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
