"""The self-play positions as a file: gzip text, one ``result fen`` line each, header comments.

The header (``# key: value`` lines) records how the positions were made; gzip is written with no
name and no time stamp, so the same positions give the same bytes.

Example:
    >>> import io
    >>> from firmware_host.tools.tuning.selfplay import Sample
    >>> data = dumps({"variant": "russian"}, [Sample("W:Wc3:Bf6", 0.5)])
    >>> loads(data)
    ({'variant': 'russian'}, [Sample(fen='W:Wc3:Bf6', result=0.5)])
"""

from __future__ import annotations

import gzip
from collections.abc import Iterable, Mapping
from pathlib import Path

from firmware_host.tools.tuning.selfplay import Sample

__all__ = ["DatasetError", "dumps", "loads", "read", "write"]

_RESULTS = {"1": 1.0, "0.5": 0.5, "0": 0.0}
_NAMES = {value: text for text, value in _RESULTS.items()}


class DatasetError(ValueError):
    """A positions file that cannot be read: its name, line and what is wrong."""


def dumps(header: Mapping[str, str], samples: Iterable[Sample]) -> bytes:
    """The file's bytes (gzip, reproducible)."""
    lines = [f"# {key}: {value}" for key, value in header.items()]
    lines += [f"{_NAMES[s.result]} {s.fen}" for s in samples]
    return gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0)


def loads(data: bytes, name: str = "<data>") -> tuple[dict[str, str], list[Sample]]:
    """The header and positions of a file's bytes.

    Raises:
        DatasetError: not gzip, or a line that is not ``result fen``.
    """
    try:
        text = gzip.decompress(data).decode()
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{name}: not a gzip positions file ({exc})") from None
    header: dict[str, str] = {}
    samples: list[Sample] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            header[key.strip()] = value.strip()
            continue
        result, _, fen = line.partition(" ")
        if result not in _RESULTS or not fen:
            raise DatasetError(f"{name}:{number}: expected 'result fen' with result 1, 0.5 or 0, "
                               f"got {line[:60]!r}")
        samples.append(Sample(fen, _RESULTS[result]))
    return header, samples


def write(path: Path, header: Mapping[str, str], samples: Iterable[Sample]) -> None:
    """Write the positions to ``path``."""
    path.write_bytes(dumps(header, samples))


def read(path: Path) -> tuple[dict[str, str], list[Sample]]:
    """Read a positions file.

    Raises:
        DatasetError: unreadable or malformed (the message names the file).
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DatasetError(f"{path}: {exc.strerror or exc}") from None
    return loads(data, str(path))
