"""bench/scan_labels.py against a stand-in Scan: which positions it labels (the quiet ones, less
``--exclude``, one ``--shard``, the ``--first`` few), the labels' scale, and bad arguments."""

from __future__ import annotations

import math
import os
import stat
import sys
import textwrap
from pathlib import Path

import pytest

import bench.scan_labels as scan_labels
from firmware_host.tools.tuning import dataset
from firmware_host.tools.tuning.selfplay import Sample

ROOT = Path(__file__).resolve().parents[2]

# Scores every position +50 for the side to move, through the first Hub protocol.
FAKE_SCAN = f"""#!{sys.executable}
import sys
sys.path.insert(0, {str(ROOT)!r})
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "hub":
        print("name Stand-in Scan"); print("wait")
    elif words[0] == "init":
        print("ready")
    elif words[0] == "go":
        print("info 12 12.0 50.0 1000 0.01"); print("move 32-28")
    elif words[0] == "quit":
        break
    sys.stdout.flush()
"""

# Quiet positions (no capture for either side), each a different one.
QUIET = [
    "W:W31-50:B1-20",
    "B:W31-50:B1-20",
    "W:W32-50:B1-20",
    "B:W32-50:B1-20",
    "W:W33-50:B1-20",
    "B:W33-50:B1-20",
]


def _fake_scan(tmp_path: Path) -> Path:
    script = tmp_path / "scan"
    script.write_text(textwrap.dedent(FAKE_SCAN))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_it_labels_one_shard_of_what_is_not_labelled_yet(tmp_path: Path) -> None:
    positions = tmp_path / "positions.txt.gz"
    dataset.write(positions, {"variant": "international"}, [Sample(f, 0.5) for f in QUIET])
    known = tmp_path / "known.txt.gz"
    dataset.write(known, {"variant": "international"}, [Sample(QUIET[1], 0.7)])
    out = tmp_path / "labels.txt.gz"
    assert scan_labels.main(["--scan", str(_fake_scan(tmp_path)), "--positions", str(positions),
                             "--exclude", str(known), "--shard", "1/2", "--first", "2",
                             "--out", str(out)]) == 0
    header, samples = dataset.read(out)
    # Left after the exclusion: 0, 2, 3, 4, 5; shard 1 of 2 is 2 and 4; the first two of them.
    assert [s.fen for s in samples] == [QUIET[2], QUIET[4]]
    white_wins = 1 / (1 + math.exp(-math.log(3) / 100 * 50))  # +50 for White, to move
    assert [s.result for s in samples] == [round(white_wins, 3)] * 2
    assert "--shard 1/2 --first 2" in header["command"]
    assert header["teacher"].startswith("Stand-in Scan")


@pytest.mark.parametrize("shard", ["2/2", "x", "1/0", "3/2"])
def test_a_bad_shard_is_refused(shard: str, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        scan_labels.main(["--scan", os.devnull, f"--shard={shard}", "--out",
                          str(tmp_path / "x.txt.gz")])
    assert stop.value.code == 2
    assert f"--shard {shard!r}: K/N with 0 <= K < N" in capsys.readouterr().err
