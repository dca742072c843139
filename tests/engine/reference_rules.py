"""A slow, independent reference move generator for the variants no other program here shares.

Written from the rule texts (docs/rules.md), not from :mod:`engine.movegen`: a dict of
``(row, col) -> (colour, king)`` cells, plain recursion over jumps, the precedence rules as
written. It reads FEN with its own square numbering and answers in square *names*, so that a
mistake in the engine's geometry cannot cancel out. Used by test_rules_club.py for perft and for
random-position differentials (Czech, Portuguese, Killer, Thai).

>>> sorted(reference_moves("czech", "W:Wc3:Bd4,f6"))[0]
('c3', 'e5', frozenset({'d4'}))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

W, B = 0, 1
Cell = tuple[int, int]
Key = tuple[str, str, frozenset[str]]


@dataclass(frozen=True)
class Rules:
    """The rules of one variant as the rule texts state them."""

    size: int
    dark_a1: bool  # a1 is a playing square
    numbering: str  # "top-left" (10x10 PDN), "white-right" (Iberian, Thai), "algebraic"
    men_back: bool  # men capture backwards
    flying: bool
    precedence: str  # "free", "majority", "count-then-kings", "king-first"
    promotion_ends: bool  # a man crowned in a capture stops there
    halt: str  # "" | "every" (Thai: land right behind each piece) | "killer"
    remove_at_once: bool  # captured pieces leave at once (Thai)


RULES = {
    # Czech federation rules: men forwards, flying kings, king captures first, free otherwise.
    "czech": Rules(8, True, "algebraic", False, True, "king-first", True, "", False),
    # Portuguese: Spanish board, men forwards, flying kings, most pieces then most kings.
    "portuguese": Rules(8, False, "white-right", False, True, "count-then-kings", True, "",
                        False),
    # Killer: FMJD rules (men backwards, majority, crowned only at the end) + the killer rule.
    "killer": Rules(10, True, "top-left", True, True, "majority", False, "killer", False),
    # Thai: men forwards, kings halt behind each piece, captured pieces removed at once, free.
    "thai": Rules(8, True, "white-right", False, True, "free", True, "every", True),
}


def _cells(rules: Rules) -> list[Cell]:
    n = rules.size
    cells = [(r, c) for r in range(n) for c in range(n) if ((r + c) % 2 == 0) == rules.dark_a1]
    if rules.numbering == "white-right":
        return sorted(cells, key=lambda rc: (rc[0], -rc[1]))
    return sorted(cells, key=lambda rc: (-rc[0], rc[1]))


def _name(rules: Rules, cell: Cell, cells: list[Cell]) -> str:
    if rules.numbering == "algebraic":
        return "abcdefgh"[cell[1]] + str(cell[0] + 1)
    return str(cells.index(cell) + 1)


def _parse(rules: Rules, fen: str) -> tuple[int, dict[Cell, tuple[int, bool]]]:
    cells = _cells(rules)
    by_name = {_name(rules, c, cells): c for c in cells}
    turn_text, *sides = fen.split(":")
    pieces: dict[Cell, tuple[int, bool]] = {}
    for side in sides:
        colour = W if side[0] == "W" else B
        for item in filter(None, side[1:].split(",")):
            king = item.startswith("K")
            item = item.lstrip("K")
            if "-" in item:
                lo, hi = item.split("-")
                names = [str(i) for i in range(int(lo), int(hi) + 1)]
            else:
                names = [item]
            for name in names:
                pieces[by_name[name]] = (colour, king)
    return (W if turn_text == "W" else B), pieces


def _on(rules: Rules, cell: Cell) -> bool:
    return 0 <= cell[0] < rules.size and 0 <= cell[1] < rules.size


_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _forward(colour: int) -> int:
    return 1 if colour == W else -1


@dataclass(frozen=True)
class _Seq:
    dest: Cell
    taken: tuple[Cell, ...]
    last_king: bool  # the last captured piece was a king


def _captures(rules: Rules, pieces: dict[Cell, tuple[int, bool]], start: Cell) -> list[_Seq]:
    colour, king = pieces[start]
    board = dict(pieces)
    del board[start]  # the capturing piece has left its square
    out: list[_Seq] = []
    last_row = rules.size - 1 if colour == W else 0

    def jumps(cell: Cell, taken: tuple[Cell, ...], is_king: bool) -> Iterator[tuple[Cell, Cell]]:
        """(captured, landing) pairs from ``cell``."""
        for dr, dc in _DIRS:
            if not is_king and not rules.men_back and dr != _forward(colour):
                continue
            r, c = cell[0] + dr, cell[1] + dc
            if is_king and rules.flying:
                while _on(rules, (r, c)) and (r, c) not in board:
                    r, c = r + dr, c + dc
            victim = (r, c)
            if not _on(rules, victim) or victim not in board or board[victim][0] == colour:
                continue
            if victim in taken:
                continue
            r, c = r + dr, c + dc
            while _on(rules, (r, c)) and (r, c) not in board:
                yield victim, (r, c)
                if not (is_king and rules.flying) or rules.halt == "every":
                    break
                r, c = r + dr, c + dc

    def extend(cell: Cell, taken: tuple[Cell, ...], is_king: bool) -> None:
        options = list(jumps(cell, taken, is_king))
        if not options:
            return
        by_victim: dict[Cell, list[Cell]] = {}
        for victim, land in options:
            by_victim.setdefault(victim, []).append(land)
        for victim, lands in by_victim.items():
            now = (*taken, victim)
            saved = board.pop(victim) if rules.remove_at_once else None
            going_on = [land for land in lands
                        if not _stops_here(land, is_king) and any(jumps(land, now, is_king))]
            if going_on:
                for land in going_on:
                    extend(land, now, is_king)
            else:
                last_king = (saved if saved is not None else board[victim])[1]
                ends = lands
                if rules.halt == "killer" and is_king and last_king:
                    ends = lands[:1]
                for land in ends:
                    out.append(_Seq(land, now, last_king))
            if saved is not None:
                board[victim] = saved

    def _stops_here(land: Cell, is_king: bool) -> bool:
        return not is_king and land[0] == last_row and rules.promotion_ends

    extend(start, (), king)
    return out


def reference_moves(variant: str, fen: str) -> set[Key]:
    """Every legal move of the position as (origin, destination, captured names)."""
    rules = RULES[variant]
    cells = _cells(rules)
    turn, pieces = _parse(rules, fen)
    caps: list[tuple[Cell, _Seq]] = []
    for cell, (colour, _king) in pieces.items():
        if colour == turn:
            caps += [(cell, seq) for seq in _captures(rules, pieces, cell)]
    if caps:
        caps = _precedence(rules, pieces, caps)
        return {(_name(rules, o, cells), _name(rules, s.dest, cells),
                 frozenset(_name(rules, t, cells) for t in s.taken)) for o, s in caps}
    quiet: set[Key] = set()
    for cell, (colour, king) in pieces.items():
        if colour != turn:
            continue
        for dr, dc in _DIRS:
            if not king and dr != _forward(colour):
                continue
            r, c = cell[0] + dr, cell[1] + dc
            while _on(rules, (r, c)) and (r, c) not in pieces:
                quiet.add((_name(rules, cell, cells), _name(rules, (r, c), cells), frozenset()))
                if not (king and rules.flying):
                    break
                r, c = r + dr, c + dc
    return quiet


def _precedence(rules: Rules, pieces: dict[Cell, tuple[int, bool]],
                caps: list[tuple[Cell, _Seq]]) -> list[tuple[Cell, _Seq]]:
    if rules.precedence == "king-first":
        by_king = [(o, s) for o, s in caps if pieces[o][1]]
        return by_king or caps
    if rules.precedence in ("majority", "count-then-kings"):
        def score(item: tuple[Cell, _Seq]) -> tuple[int, int]:
            kings = sum(pieces[t][1] for t in item[1].taken)
            return (len(item[1].taken), kings if rules.precedence == "count-then-kings" else 0)

        best = max(score(item) for item in caps)
        return [item for item in caps if score(item) == best]
    return caps


def play(variant: str, fen: str, key: Key) -> str:
    """The FEN after the move ``key`` (the reference's own bookkeeping, for perft)."""
    rules = RULES[variant]
    cells = _cells(rules)
    by_name = {_name(rules, c, cells): c for c in cells}
    turn, pieces = _parse(rules, fen)
    origin, dest = by_name[key[0]], by_name[key[1]]
    colour, king = pieces.pop(origin)
    for name in key[2]:
        del pieces[by_name[name]]
    last_row = rules.size - 1 if colour == W else 0
    pieces[dest] = (colour, king or dest[0] == last_row)
    parts = {W: [], B: []}  # type: dict[int, list[str]]
    for cell, (c, k) in pieces.items():
        parts[c].append(("K" if k else "") + _name(rules, cell, cells))
    nxt = "B" if turn == W else "W"
    return f"{nxt}:W{','.join(parts[W])}:B{','.join(parts[B])}"


def perft(variant: str, fen: str, depth: int) -> int:
    """Leaf count with distinct (origin, destination, captured set) moves."""
    moves = reference_moves(variant, fen)
    if depth == 1:
        return len(moves)
    return sum(perft(variant, play(variant, fen, m), depth - 1) for m in moves)
