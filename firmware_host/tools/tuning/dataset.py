"""The self-play positions as a file: gzip text, one ``result fen`` line each, header comments.

``result`` is White's score: 1, 0.5 or 0 from a game's end, or a probability between them (at
most three decimals) from a teacher engine's judgement (:mod:`.teacher`).

The header (``# key: value`` lines) records how the positions were made; gzip is written with no
name and no time stamp, so the same positions give the same bytes.

Example:
    >>> import io
    >>> from firmware_host.tools.tuning.selfplay import Sample
    >>> data = dumps({"variant": "russian"}, [Sample("W:Wc3:Bf6", 0.5)])
    >>> loads(data)
    ({'variant': 'russian'}, [Sample(fen='W:Wc3:Bf6', result=0.5)])
    >>> loads(dumps({}, [Sample("W:Wc3:Bf6", 0.7311)]))[1][0].result
    0.731
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from firmware_host.errors import DraughtsboardError
from firmware_host.tools.tuning.selfplay import Sample

__all__ = ["DatasetError", "dumps", "loads", "read", "write"]

_RESULTS = {"1": 1.0, "0.5": 0.5, "0": 0.0}
_NAMES = {value: text for text, value in _RESULTS.items()}
#: A probability: 0.xyz (a game's 1, 0.5 and 0 keep their short names).
_PROBABILITY = re.compile(r"0\.[0-9]{1,3}")


def _name(result: float) -> str:
    if result in _NAMES:
        return _NAMES[result]
    if not 0.0 <= result <= 1.0:
        raise DatasetError(f"a result is White's score, 0 to 1, not {result}")
    text = f"{result:.3f}".rstrip("0")
    return _NAMES.get(float(text), text)


def _result(text: str) -> float | None:
    if text in _RESULTS:
        return _RESULTS[text]
    return float(text) if _PROBABILITY.fullmatch(text) else None


class DatasetError(DraughtsboardError, ValueError):
    """A positions file that cannot be read: its name, line and what is wrong."""


def dumps(header: Mapping[str, str], samples: Iterable[Sample]) -> bytes:
    """The file's bytes (gzip, reproducible)."""
    lines = [f"# {key}: {value}" for key, value in header.items()]
    lines += [f"{_name(s.result)} {s.fen}" for s in samples]
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
        text, _, fen = line.partition(" ")
        result = _result(text)
        if result is None or not fen:
            raise DatasetError(f"{name}:{number}: expected 'result fen' with result 1, 0.5, 0 "
                               f"or a probability such as 0.731, got {line[:60]!r}")
        samples.append(Sample(fen, result))
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
