"""The arbiter console's cards: every board of the hall as the console shows it, read from
Redis and never written.

A card holds a board's game (players, round, moves, clock, result), whether its service is
online, the pairing that waits for its next game and the round it plays in; the console page
renders the cards and ``/arbiter/state.json`` sends them. The decisions
(:mod:`firmware_host.web.arbiter`) read the same facts through :class:`Cards` before they are
sent.
"""

from __future__ import annotations

from collections.abc import Callable

from redis.asyncio import Redis
from redis.exceptions import ResponseError

from firmware_host.feedback.texts import said_everywhere
from firmware_host.i18n import N_, Translator
from firmware_host.store.keys import ROUND_INDEX
from firmware_host.store.records import GameRecord
from firmware_host.terms.commands import MAX_HEADER_LENGTH
from firmware_host.tournament import arbiter
from firmware_host.tournament.pairing import PAIRING_TAGS, Pairing, is_round, pairing_key
from firmware_host.tournament.rounds import StoredRound, index_entry, round_order
from firmware_host.web import liveness
from firmware_host.web.arbiter_words import TERMINATIONS, audit_words
from firmware_host.web.bounded import ReplyTooLarge
from firmware_host.web.reader import BoardView, Reader
from firmware_host.web.views import Views, move_label, player
from firmware_host.web.views import result_words as game_result_words

__all__ = ["AUDIT_SHOWN", "RECENT", "STATUSES", "Cards", "pairing_named", "played",
           "status_counts", "waiting_rounds"]

#: Recent events looked at for a board's state and clock.
RECENT = 200
#: Audit entries the console shows.
AUDIT_SHOWN = 20


class Cards:
    """The console's cards of the boards on one Redis client.

    Args:
        client: the ``redis.asyncio`` client of the boards.
        reader: the web's reader of the same client.
        views: the pages' renderer (its clocks as the pages show them).
        clock: the wall clock (a board's heartbeat is read against it).
    """

    def __init__(self, client: Redis, reader: Reader, views: Views,
                 clock: Callable[[], float]) -> None:
        self.client = client
        self.reader = reader
        self.views = views
        self.clock = clock

    async def card(self, view: BoardView, alive: liveness.Liveness,
                   rounds: dict[str, tuple[StoredRound, Pairing]]) -> dict[str, object]:
        """A card's facts, as the page renders them and ``state.json`` sends them."""
        board_id = view.board_id
        game = view.game
        tags = {} if game is None else game.headers
        result = None if game is None else game.result
        waiting = await self.waiting(board_id)
        named = bool(tags.get("White") or tags.get("Black"))
        of_round = rounds.get(board_id)
        decision = None if of_round is None else of_round[0].decisions.get(board_id)
        begun = game is not None and played(game)
        # The game's names; before it begins, those of the pairing that waits for it.
        shown = waiting if waiting and not named and not begun and not (
            game is not None and game.finished) else tags
        return {
            "board": board_id, "game_id": None if game is None else game.game_id,
            "white": player(shown, "White"), "black": player(shown, "Black"),
            "round": tags.get("Round") or waiting.get("Round"),
            "event": tags.get("Event") or waiting.get("Event"),
            "plies": 0 if game is None else len(game.moves),
            "first": _first_mover(game),
            "last_moves": _last_moves(game),
            "result": result, "result_text": game_result_words(result),
            "termination": None if game is None else game.termination or None,
            "termination_text": TERMINATIONS.get(game.termination, game.termination)
            if game is not None and game.termination else None,
            "finished": game is not None and game.finished, "played": begun,
            "state": view.state, "state_text": view.state_name,
            "clock": self.views.clock_now(view, alive), "online": alive.online,
            "seen_text": alive.seen_text,
            "said": said_everywhere(view.messages[-1]) if view.messages else None,
            "waiting": waiting.get("Round"),
            "pairing": None if not waiting else {
                "white": waiting.get("White", ""), "black": waiting.get("Black", ""),
                "round": waiting.get("Round", ""), "event": waiting.get("Event", "")},
            "of_round": None if of_round is None else {
                "round": of_round[0].number, "event": of_round[0].event,
                "white": of_round[1].white, "black": of_round[1].black},
            "decision": None if decision is None else {"kind": decision.kind,
                                                       "side": decision.side},
            "status": _status(alive.online, game, bool(waiting), begun),
        }

    async def waiting(self, board_id: str) -> dict[str, str]:
        """The pairing waiting for a board's next game (its PDN tags, each one printable line
        of at most MAX_HEADER_LENGTH; {}: none, or not a pairing)."""
        try:
            raw: object = await self.client.hmget(pairing_key(board_id), *PAIRING_TAGS)
        except (ResponseError, ReplyTooLarge):  # a key of another type, or huge: no pairing
            return {}
        values = raw if isinstance(raw, list) else []
        return {tag: text for tag, value in zip(PAIRING_TAGS, values, strict=False)
                if value is not None and (text := _decoded(value))
                and len(text) <= MAX_HEADER_LENGTH and text.isprintable()}

    async def current_rounds(self) -> dict[str, tuple[StoredRound, Pairing]]:
        """Each board's pairing in its event's newest imported round (a board in two events'
        newest rounds: the later round's)."""
        index: object = await self.client.hgetall(ROUND_INDEX)
        newest: dict[str, tuple[str, str]] = {}  # event -> (round, key)
        for key, value in (index.items() if isinstance(index, dict) else ()):
            number, event = index_entry(value)
            if number and (event not in newest or round_order(number) > round_order(
                    newest[event][0])):
                newest[event] = (number, _decoded(key))
        found: dict[str, tuple[StoredRound, Pairing]] = {}
        for number, key in sorted(newest.values(), key=lambda item: round_order(item[0])):
            try:
                stored = StoredRound.parse(await self.client.get(key), number)
            except ValueError:
                stored = None  # a damaged round: the console shows the boards without it
            if stored is not None:
                for pairing in stored.pairings:
                    found[pairing.board] = (stored, pairing)
        return found

    async def boards(self) -> list[tuple[BoardView, dict[str, object]]]:
        """Every board as the reader sees it, and its card's facts."""
        boards = await self.reader.boards()
        alive = await liveness.read(self.client, boards, self.clock())
        rounds = await self.current_rounds()
        found = []
        for board in boards:
            view = await self.reader.board(board, RECENT)
            found.append((view, await self.card(view, alive[board], rounds)))
        return found

    async def audit(self, tr: Translator) -> list[dict[str, object]]:
        """The newest audit entries, each with its words (``text``, in ``tr``'s language)."""
        return [{**e, "text": audit_words(e, tr)}
                for e in await arbiter.audit_entries(self.client, AUDIT_SHOWN)]


def _first_mover(game: GameRecord | None) -> str | None:
    """The side that made the game's first move (None: no move yet): the one not to move after
    it, as its FEN says."""
    if game is None or not game.moves:
        return None
    after = game.moves[0].fen_after[:1].upper()
    return {"W": "black", "B": "white"}.get(after)


def pairing_named(tags: dict[str, str], pairing: Pairing) -> bool:
    """Whether ``tags`` (a waiting pairing's, or a game's) are those of ``pairing``."""
    return all(tags.get(tag) == value for tag, value in pairing.headers().items()
               if tag != "Event")


def played(game: GameRecord) -> bool:
    """The game has begun: a move by the players (an English ballot's moves do not count)."""
    return any(m.by != "ballot" for m in game.moves)


def waiting_rounds(boards: list[dict[str, object]]) -> list[str]:
    """The rounds whose pairing waits for a board, in order (``3`` before ``10``); a waiting
    "round" that is not a round number (``²``: a board wrote it) is left out.

    >>> waiting_rounds([{"waiting": "10"}, {"waiting": "3"}, {"waiting": "²"},
    ...                 {"waiting": None}])
    ['3', '10']
    """
    found = {str(b["waiting"]) for b in boards
             if isinstance(b.get("waiting"), str) and is_round(str(b["waiting"]))}
    return sorted(found, key=round_order)


def _last_moves(game: GameRecord | None, count: int = 6) -> str:
    """The game's last moves as PDN numbers them (``31. 32-28 19-23 32. 28x19``).

    >>> from firmware_host.store.records import MoveRecord
    >>> moves = [MoveRecord(p, t, "", 0.0) for p, t in enumerate(["32-28", "19-23", "28x19"], 1)]
    >>> _last_moves(GameRecord("g", "b", {}, "international", None, "record", 0.0, moves), 2)
    '1... 19-23 2. 28x19'
    """
    if game is None or not game.moves:
        return ""
    shown = game.moves[-count:]
    words = [move_label(shown[0].ply, shown[0].pdn)]
    for move in shown[1:]:
        words.append(move_label(move.ply, move.pdn) if move.ply % 2 else move.pdn)
    return " ".join(words)


#: The console's filters: a board's status, and the words of each.
STATUSES = {"playing": N_("Playing"), "waiting": N_("Waiting to start"),
            "finished": N_("Finished"), "offline": N_("Offline"), "idle": N_("No round")}


def _status(online: bool, game: GameRecord | None, waiting: bool, played: bool) -> str:
    """Which of :data:`STATUSES` a board is in (offline first: it needs the arbiter)."""
    if not online:
        return "offline"
    if game is not None and game.finished:
        return "finished"
    if played:
        return "playing"
    if waiting or (game is not None and game.headers.get("Round")):
        return "waiting"
    return "idle"


def status_counts(boards: list[dict[str, object]]) -> dict[str, int]:
    """How many boards each status has (the filters' counts)."""
    return {key: sum(1 for b in boards if b["status"] == key) for key in STATUSES}


def _decoded(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
