"""A line-protocol front for py-draughts' TurboEngine, run with the Python of py-draughts' own venv.

py-draughts (PyPI ``py-draughts``) is imported as ``draughts``, the same name as pydraughts, so it
lives in a venv of its own and this script runs there, as a subprocess of ``bench/match.py``. The
script is ours; it only imports py-draughts.

Protocol, one line each way, squares numbered 1-50 as on the international board:

- in: ``go <seconds> <fen> [<move> ...]``: the game's start position (``W:W31,...:B1,...``) and
  the moves played since, each ``origin-destination`` or ``originxdestination:c1,c2,...`` (the
  captured squares), so the engine sees the game's history (repetitions, its draw counters);
- out: ``move <origin> <destination> <c1,c2,...|-> <depth> <nodes> <cpu seconds>``
  or ``error <text>``.
- in: ``quit``.

TurboEngine reads ``time.perf_counter`` for its deadline; here that name is bound to
``time.process_time``, so its budget is CPU time of this process: other jobs on the machine do
not change its strength.
"""

from __future__ import annotations

import sys
import time
import types

from draughts import StandardBoard  # type: ignore[import-not-found]
from draughts.engines import turbo  # type: ignore[import-not-found]

turbo.time = types.SimpleNamespace(perf_counter=time.process_time)  # CPU time, not wall time


def _find(board: object, text: str) -> object:
    head, _, caps = text.partition(":")
    origin, destination = (int(x) - 1 for x in head.replace("x", "-").split("-"))
    captured = {int(c) - 1 for c in caps.split(",") if c}
    for move in board.legal_moves:  # type: ignore[attr-defined]
        if (move.square_list[0], move.square_list[-1]) == (origin, destination) and \
                set(move.captured_list) == captured:
            return move
    raise ValueError(f"{text} is not legal in {board.fen}")  # type: ignore[attr-defined]


def main() -> None:
    engines: dict[float, object] = {}
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            return
        try:
            if words[0] != "go" or len(words) < 3:
                raise ValueError(f"unknown command {line.strip()!r}")
            seconds = float(words[1])
            board = StandardBoard.from_fen(words[2])
            for text in words[3:]:
                board.push(_find(board, text))
            engine = engines.get(seconds)
            if engine is None:
                engine = engines[seconds] = turbo.TurboEngine(depth_limit=None,
                                                              time_limit=seconds)
            started = time.process_time()
            move = engine.get_best_move(board)  # type: ignore[attr-defined]
            used = time.process_time() - started
            caps = ",".join(str(c + 1) for c in move.captured_list) or "-"
            print(f"move {move.square_list[0] + 1} {move.square_list[-1] + 1} {caps} "
                  f"{engine.completed_depth} {engine.nodes} {used:.4f}",  # type: ignore[attr-defined]
                  flush=True)
        except Exception as exc:  # the bench reads the message
            print(f"error {type(exc).__name__}: {exc}".replace("\n", " "), flush=True)


if __name__ == "__main__":
    main()
