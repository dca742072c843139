"""A process that records one game through the store, to be killed at any moment and restarted.

``python -m tests.firmware_host.store_kill_child URL SPOOL_DIR PLIES`` resumes the game the
session names (or starts one), checks that the log and the session agree, then writes the moves
up to ``PLIES`` each with its session snapshot (and the last with the result) in one
transaction, printing ``ok <ply>`` once each is durable, and ``done`` at the end.
"""

from __future__ import annotations

import sys

from firmware_host.store import MoveRecord, StoreError, open_store


def main(url: str, spool_dir: str, plies: int) -> int:
    store = open_store(url, "board1", spool_dir)
    state = store.load_session()
    if state is None:
        game_id = store.new_game({"Event": "kill campaign"}, "international", None, "record")
        ply = 0
        store.save_session({"game_id": game_id, "ply": 0})
    else:
        game_id, ply = str(state["game_id"]), int(state["ply"])
    try:
        logged = len(store.load_game(game_id).moves)
    except StoreError as exc:
        print(f"unreadable {exc}", flush=True)
        return 3
    if logged != ply:
        print(f"mismatch session {ply} log {logged}", flush=True)
        return 3
    print(f"resumed {ply}", flush=True)
    while ply < plies:
        ply += 1
        last = ply == plies
        store.append_move(game_id, MoveRecord(ply, f"m{ply}", f"fen{ply}", 1000.0 + ply),
                          result="1-0" if last else None, termination="no_moves",
                          session={"game_id": game_id, "ply": ply, "over": last})
        store.publish({"event": "move", "ply": ply})
        store.publish({"event": "leds", "frame": {}})
        print(f"ok {ply}", flush=True)
        if not store.connected:
            store.flush()
    store.close()
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
