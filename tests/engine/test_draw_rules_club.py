"""Draw rules of the club variants: Portuguese counts, Czech and Thai repetition only.

Rule texts (docs/rules.md, "Portuguese draughts" and sources [POR-X], [POR-R]):

- Federação Portuguesa de Damas, rule 26 (1980) as Luís Xavier quotes it: "Quando um jogador
  possuir um máximo de quatro peças, sendo pelo menos uma dessas peças dama, permitem-se 20
  lances a cada um dos jogadores ... A contagem ... terá início ao primeiro lance que ocorra
  após surgir a situação referida. Sempre que seja efectuado lance de peão, por qualquer dos
  jogadores, ou seja capturada alguma dama, a contagem reiniciar-se-á no lance seguinte."
- The same history: "a forçada (3 damas e posse do rio x dama) a ser resolvido em 12 lances";
  the "rio" is the diagonal from square 1 to square 32.
- FPD rules, art. 14 a): a draw when "o número de lances previsto pelas leis de lances
  limitados" is reached; b) the same position three times.
- Czech (Česká federace dámy, as the Czech Wikipedia gives its rules) and Thai: no counting rule
  in any text found; threefold repetition only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import BLACK, WHITE, Board, Move
from engine.draw import DRAW_RULES, Material, PlyFacts, RepetitionRule, evaluate
from engine.outcome import Outcome, Termination
from tests.engine.test_draw_rules import _kings_only, _quiet_walk

WHITE_ROAD = frozenset({int(WHITE)})


def _kings(material: Material, plies: int, first: int = 0, road: frozenset[int] = frozenset(),
           start: int = 0) -> list[PlyFacts]:
    """``plies`` quiet king moves, all positions different, material unchanged."""
    return [
        PlyFacts((first + i) % 2, True, False, False, material, ("k", start + i),
                 kings_on_main_road=road)
        for i in range(plies)
    ]


def _rule(plies: list[PlyFacts], start: Material, variant: str = "portuguese") -> str | None:
    # The start position has the first ply's kings on the rio (a game set up in the forçada).
    road = (False, plies[0].kings_on_main_road if plies else frozenset[int]())
    result = evaluate(variant, plies, start_material=start, start_key="start", start_road=road)
    return None if result is None else result.rule


THREE_V_ONE = Material(0, 3, 0, 1)


# --- a forçada: three kings holding the rio against a king, 12 moves ---------------------------


def test_forcada_is_drawn_on_the_strong_sides_twelfth_move() -> None:
    # White (strong) moves first: its 12th move is ply 23.
    plies = _kings(THREE_V_ONE, 23, road=WHITE_ROAD)
    assert _rule(plies[:22], THREE_V_ONE) is None
    assert _rule(plies, THREE_V_ONE) == "portuguese-12-moves-forcada"
    # Black (the lone king) moves first: White's 12th move is ply 24.
    plies = _kings(THREE_V_ONE, 24, first=1, road=WHITE_ROAD)
    assert _rule(plies[:23], THREE_V_ONE) is None
    assert _rule(plies, THREE_V_ONE) == "portuguese-12-moves-forcada"


def test_forcada_needs_the_rio_and_restarts_when_it_is_left() -> None:
    # No king of the strong side on the rio: not the forçada; the 20-move rule applies instead.
    plies = _kings(THREE_V_ONE, 40)
    assert _rule(plies[:39], THREE_V_ONE) is None
    assert _rule(plies, THREE_V_ONE) == "portuguese-20-moves"
    # The lone king on the rio is not "posse do rio" for the strong side.
    black_road = _kings(THREE_V_ONE, 23, road=frozenset({int(BLACK)}))
    assert _rule(black_road, THREE_V_ONE) is None
    # Leaving the rio after 10 plies: 12 strong moves more from the return.
    # (The away move is White's: from Black's reply on, White's 12th move is the 24th ply.)
    away = PlyFacts(0, True, False, False, THREE_V_ONE, "away")
    back = _kings(THREE_V_ONE, 24, first=1, road=WHITE_ROAD, start=100)
    plies = [*_kings(THREE_V_ONE, 10, road=WHITE_ROAD), away, *back]
    assert _rule(plies[:-1], THREE_V_ONE) is None
    assert _rule(plies, THREE_V_ONE) == "portuguese-12-moves-forcada"


def test_forcada_is_three_kings_exactly() -> None:
    # Two kings and a man, or four kings, against a king: the 20-move rule, not the forçada.
    for material in (Material(1, 2, 0, 1), Material(0, 4, 0, 1)):
        plies = _kings(material, 40, road=WHITE_ROAD)
        assert _rule(plies[:23], material) is None
        assert _rule(plies, material) == "portuguese-20-moves"


# --- the 20-move rule: a side with at most four pieces, a king among them ----------------------


def test_twenty_moves_each_with_a_side_down_to_four_pieces() -> None:
    for material in (Material(3, 1, 8, 1), Material(0, 2, 0, 2), Material(5, 2, 0, 1)):
        plies = _kings(material, 40)
        assert _rule(plies[:39], material) is None, material
        assert _rule(plies, material) == "portuguese-20-moves", material


def test_twenty_moves_need_a_small_side_with_a_king() -> None:
    # Five pieces each; four men without a king against a king and men: no count.
    for material in (Material(4, 1, 4, 1), Material(4, 0, 3, 2)):
        assert _rule(_kings(material, 300), material) is None, material


def test_a_man_move_or_a_king_captured_restarts_the_count() -> None:
    material = Material(3, 1, 2, 2)  # both sides at four pieces
    man = PlyFacts(1, False, False, False, material, "man")
    assert _rule([*_kings(material, 30), man, *_kings(material, 39, start=100)], material) is None
    assert _rule([*_kings(material, 30), man, *_kings(material, 40, start=100)],
                 material) == "portuguese-20-moves"
    # White's king takes a black king: the count starts again after the capture.
    after = Material(3, 1, 2, 1)
    king_taken = PlyFacts(0, True, True, False, after, "takes-king")
    plies = [*_kings(material, 30), king_taken, *_kings(after, 39, first=1, start=100)]
    assert _rule(plies, material) is None
    assert _rule([*plies, *_kings(after, 1, first=0, start=900)], material) == (
        "portuguese-20-moves")


def test_a_king_taking_a_man_does_not_restart_the_count() -> None:
    # "ou seja capturada alguma dama": only the capture of a king restarts it.
    material = Material(3, 1, 2, 2)
    after = Material(3, 1, 1, 2)
    man_taken = PlyFacts(0, True, True, False, after, "takes-man")
    plies = [*_kings(material, 30), man_taken, *_kings(after, 9, first=1, start=100)]
    assert _rule(plies, material) == "portuguese-20-moves"
    assert _rule(plies[:-1], material) is None


def test_the_count_starts_with_the_first_move_after_the_situation_arises() -> None:
    # Five pieces each, then a king takes a man: Black is down to four pieces, a king among
    # them. The capture itself is not counted: the draw comes 40 plies after it.
    before, after = Material(3, 2, 4, 1), Material(3, 2, 3, 1)
    capture = PlyFacts(0, True, True, False, after, "capture")
    rest = _kings(after, 40, first=1, start=10)
    assert _rule([capture, *rest[:39]], before) is None
    assert _rule([capture, *rest], before) == "portuguese-20-moves"


# --- on real boards -------------------------------------------------------------------------


def _road(board: Board) -> set[int]:
    """The rio: squares 1 to 32 of the Portuguese numbering."""
    v = board.variant
    ends = {v.parse_square("1"), v.parse_square("32")}
    rows = {v.square_coords(sq) for sq in ends}
    assert rows == {(0, 7), (7, 0)}
    return {sq for sq in range(v.num_squares) if sum(v.square_coords(sq)) == 7}


def test_forcada_on_a_real_board() -> None:
    board = Board("portuguese", "W:WK1,K3,K8:BK30")
    road = _road(board)
    assert board.variant.parse_square("1") in road

    def keeps_the_rio(b: Board, move: Move) -> bool:
        if b.turn is BLACK:
            return True
        kings = {sq for sq, p in b.pieces().items() if p.color is WHITE} - {move.origin}
        return bool((kings | {move.destination}) & road)

    _quiet_walk(board, 22, seed=3, allow=keeps_the_rio)
    assert board.outcome() is None
    _quiet_walk(board, 1, seed=3, allow=keeps_the_rio)
    assert board.outcome() == Outcome(Termination.DRAW_RULE, None, "portuguese-12-moves-forcada")


@pytest.mark.parametrize("fen", ["W:WK1,K2:BK30,K32", "W:WK10,2,3,4:BK23,29,30,31,K28"])
def test_twenty_moves_on_a_real_board(fen: str) -> None:
    """Two kings each; and White down to a king and three men (Black: two kings, three men)."""
    board = Board("portuguese", fen)
    _quiet_walk(board, 39, seed=5, allow=_kings_only)
    assert board.outcome() is None
    _quiet_walk(board, 1, seed=5, allow=_kings_only)
    outcome = board.outcome()
    assert outcome == Outcome(Termination.DRAW_RULE, None, "portuguese-20-moves")
    assert outcome.result() == "1/2-1/2"


# --- Czech and Thai: repetition only -------------------------------------------------------------


@pytest.mark.parametrize("variant", ["czech", "thai"])
def test_czech_and_thai_have_no_move_count(variant: str) -> None:
    assert DRAW_RULES[variant] == (RepetitionRule(),)
    for material in (THREE_V_ONE, Material(0, 1, 0, 1), Material(2, 2, 2, 2)):
        assert _rule(_kings(material, 400, road=WHITE_ROAD), material, variant) is None


@pytest.mark.parametrize(("variant", "fen"), [("czech", "W:WKa1,Kc1:BKh2,Kf8"),
                                               ("thai", "B:WK4,K1:BK29,K32")])
def test_czech_and_thai_repetition_on_a_real_board(variant: str, fen: str) -> None:
    board = Board(variant, fen)
    cycle = _quiet_cycle(board)
    for ply, (origin, destination) in enumerate(cycle * 2):
        assert board.outcome() is None, ply
        board.push(board.find_move(origin, destination))
    assert board.outcome() == Outcome(Termination.REPETITION, None, "repetition")


def _quiet_cycle(board: Board) -> list[tuple[int, int]]:
    """Four plies (out and back for each side) that return to the position without captures."""
    for first in board.legal_moves:
        for second in _replies(board, [first]):
            cycle = [(first.origin, first.destination), (second.origin, second.destination)]
            cycle += [(d, o) for o, d in cycle]
            if _plays_quietly(board, cycle):
                return cycle
    raise AssertionError(f"no quiet cycle from {board.fen()}")


def _replies(board: Board, moves: list[Move]) -> list[Move]:
    for move in moves:
        board.push(move)
    replies = list(board.legal_moves)
    for _ in moves:
        board.pop()
    return replies


def _plays_quietly(board: Board, cycle: list[tuple[int, int]]) -> bool:
    played = 0
    try:
        for origin, destination in cycle:
            if any(m.captures for m in board.legal_moves):
                return False
            move = next((m for m in board.legal_moves
                         if (m.origin, m.destination) == (origin, destination)), None)
            if move is None:
                return False
            board.push(move)
            played += 1
        return True
    finally:
        for _ in range(played):
            board.pop()


def test_every_draw_rule_is_named_in_the_rules_page() -> None:
    """docs/rules.md gives each rule's text and source under the name the outcome carries."""
    text = (Path(__file__).parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    names = {rule.name for rules in DRAW_RULES.values() for rule in rules}
    assert "portuguese-20-moves" in names
    assert not [name for name in sorted(names) if f"`{name}`" not in text]
