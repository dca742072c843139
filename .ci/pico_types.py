"""Type-check the Pico firmware against MicroPython's own stubs (run by .ci/test).

The firmware (board_io/firmware/pico) is MicroPython: ``time.ticks_ms``, ``machine.Pin``,
``rp2.asm_pio`` exist there, not in CPython. The stubs of ``micropython-rp2-rpi-pico-stubs``
(the [test] extra; it brings ``micropython-stdlib-stubs``) describe exactly that firmware,
but they replace standard modules (``time``, ``select``, ``sys``), which mypy only accepts
as a typeshed of its own. This script lays the installed stub files out as one
(``stdlib/`` of the stdlib stubs, with the board's modules added to it and to ``VERSIONS``)
in a temporary directory, copies the firmware beside it (the firmware's flat module names,
as on the Pico) and runs ``mypy --custom-typeshed-dir`` with ``--check-untyped-defs`` (the
firmware has no annotations: plain MicroPython).

Usage: .venv/bin/python .ci/pico_types.py      (exit status: mypy's)
"""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "board_io" / "firmware" / "pico"
BOARD = "micropython-rp2-rpi-pico-stubs"
STDLIB = "micropython-stdlib-stubs"


def _stub_files(name: str) -> list[tuple[PurePosixPath, Path]]:
    """(path inside the distribution, installed file) of every stub of ``name`` (and the
    typeshed's ``VERSIONS``)."""
    dist = importlib.metadata.distribution(name)
    return [(PurePosixPath(str(f)), Path(str(dist.locate_file(f))))
            for f in dist.files or () if str(f).endswith((".pyi", "/VERSIONS"))]


def build_typeshed(target: Path) -> None:
    """Lay MicroPython's stubs out as a typeshed in ``target``."""
    stdlib = target / "stdlib"
    for inner, path in _stub_files(STDLIB):
        if inner.parts[0] == "stdlib":
            dest = target.joinpath(*inner.parts)
        elif inner.parts[0] == "stubs":
            continue
        else:  # _mpy_shed: the helpers the other stubs import
            dest = stdlib.joinpath(*inner.parts)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
    versions = (stdlib / "VERSIONS").read_text(encoding="utf-8")
    listed = {line.split(":")[0].strip() for line in versions.splitlines()
              if ":" in line and not line.startswith("#")}
    added = {"_mpy_shed"}
    for inner, path in _stub_files(BOARD):  # the board's modules win over the generic ones
        dest = stdlib.joinpath(*inner.parts)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
        added.add(inner.parts[0].removesuffix(".pyi"))
    extra = "".join(f"{name}: 3.0-\n" for name in sorted(added - listed))
    (stdlib / "VERSIONS").write_text(versions.rstrip("\n") + "\n" + extra, encoding="utf-8")
    import mypy  # its own typeshed's mypy_extensions, which mypy needs in any typeshed

    bundled = Path(mypy.__file__).parent / "typeshed" / "stubs" / "mypy-extensions"
    shutil.copytree(bundled, target / "stubs" / "mypy-extensions")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="pico-types-") as tmp:
        typeshed, code = Path(tmp) / "typeshed", Path(tmp) / "pico"
        build_typeshed(typeshed)
        code.mkdir()
        files = sorted(FIRMWARE.glob("*.py"))
        for f in files:
            shutil.copyfile(f, code / f.name)
        config = Path(tmp) / "mypy.ini"
        config.write_text("[mypy]\n", encoding="utf-8")
        argv = [sys.executable, "-m", "mypy", "--config-file", str(config),
                "--custom-typeshed-dir", str(typeshed), "--check-untyped-defs",
                "--no-incremental", "--cache-dir", "/dev/null",
                "--warn-unused-ignores", *(f.name for f in files)]
        result = subprocess.run(argv, cwd=code, check=False, capture_output=True, text=True)
        print((result.stdout + result.stderr).replace(str(code) + "/", "").strip())
        return result.returncode


if __name__ == "__main__":
    sys.exit(main())
