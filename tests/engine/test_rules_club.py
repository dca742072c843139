"""The club variants (Czech, Portuguese, Thai, Frisian, Frysk!, Killer, breakthrough).

Rule tables: positions built to exercise one rule each, the expected moves reasoned from the rule
texts quoted in docs/rules.md. Perft from the initial positions against published figures or
independent implementations (pydraughts 0.6.7 and py-draughts 1.10.1 for Frisian, Frysk! and
breakthrough; the slow reference generator of ``reference_rules`` for the rest), and a
random-position differential against that reference.
"""

from __future__ import annotations

import random

import pytest

from engine import Board, find_variant
from engine.draw import Material, PlyFacts, evaluate
from engine.outcome import Termination
from engine.pdn import read_games, write_board
from engine.perft import perft
from engine.types import BLACK, WHITE
from tests.conftest import sample_size
from tests.engine import reference_rules


def _sq(variant: str, name: str) -> str:
    """The PDN name of the square at ``name`` (``"e3"``: file letter, rank number)."""
    v = find_variant(variant)
    square = v.square_at(int(name[1:]) - 1, "abcdefghij".index(name[0]))
    assert square is not None, name
    return v.square_name(square)


def _fen(variant: str, turn: str, white: list[str], black: list[str]) -> str:
    def side(items: list[str]) -> str:
        return ",".join(("K" if i[0] == "K" else "") + _sq(variant, i.lstrip("K")) for i in items)

    return f"{turn}:W{side(white)}:B{side(black)}"


def _moves(variant: str, fen: str) -> list[str]:
    board = Board(variant, fen)
    return sorted(board.move_notation(m, full=True) for m in board.generate_moves())


# -- rule tables --------------------------------------------------------------------------------


def test_czech_a_king_capture_comes_first() -> None:
    # The man on c3 could take two (d4, f6); the king on h2 takes g3 and goes on. Czech: a
    # capture with a king has precedence; Russian (free choice) allows both.
    fen = "W:Wc3,Kh2:Bd4,f6,g3"
    assert all(m.startswith("h2") for m in _moves("czech", fen))
    assert any(m.startswith("c3") for m in _moves("russian", fen))
    # Without a king capture the choice is free: e3 may take one piece while others take two.
    assert _moves("czech", "W:Wc3,e3:Bd4,f4,f6") == ["c3xe5xg7", "e3xc5", "e3xg5xe7"]


def test_czech_men_do_not_capture_backwards() -> None:
    assert _moves("czech", "W:Wd4:Bc3") == ["d4-c5", "d4-e5"]


def test_portuguese_most_pieces_then_most_kings() -> None:
    # Same board and precedence as Spanish: the capture of a king beats that of a man.
    fen = "W:W6:B10,K11"
    assert _moves("portuguese", fen) == _moves("spanish", fen)
    assert len(_moves("portuguese", fen)) == 1


def test_killer_a_king_taking_a_king_last_stops_right_behind_it() -> None:
    # White king 46 takes the black king on 37 (the long diagonal): only 32, directly behind.
    assert _moves("killer", "W:WK46:BK37") == ["46x32"]
    assert len(_moves("international", "W:WK46:BK37")) == 7
    # The last piece a man: the king may land anywhere beyond, as in international draughts.
    assert _moves("killer", "W:WK46:B37") == _moves("international", "W:WK46:B37")
    # A king taken before the last piece does not restrict the landing.
    assert _moves("killer", "W:WK46:BK37,19") == _moves("international", "W:WK46:BK37,19")


def test_frisian_captures_along_rows_and_columns() -> None:
    assert _moves("frisian", _fen("frisian", "W", ["c3"], ["c5"])) == [
        "37x17"]  # c3 over c5 to c7, straight up the column
    assert _moves("frisian", _fen("frisian", "W", ["c3"], ["e3"])) == ["37x39"]  # along row 3


def test_frisian_capture_value() -> None:
    # Two men (200) beat one king (199): the man on e3 takes f4 and h6.
    fen = _fen("frisian", "W", ["e3", "Ka7"], ["f4", "h6", "Kb8", "Kd10"])
    assert _moves("frisian", fen) == ["38x29x20"]
    # A king (199) beats a man (100): the king on a7 takes the king on b8.
    fen = _fen("frisian", "W", ["e3", "Ka7"], ["f4", "Kb8"])
    assert all(m.startswith(_sq("frisian", "a7")) for m in _moves("frisian", fen))
    # Equal value (one man each): the king must capture.
    fen = _fen("frisian", "W", ["e3", "Ka7"], ["f4", "b8"])
    assert _moves("frisian", fen) == ["16x2", "16x7"]


def test_frisian_same_king_three_quiet_moves_while_men_remain() -> None:
    board = Board("frisian", "W:WK46,35:B3")
    for text in ["46-41", "3-8", "41-46", "8-12", "46-41", "12-17"]:
        board.push(board.parse_move(text))
    assert [board.move_notation(m) for m in board.legal_moves] == ["35-30"]
    board = Board("frisian", "W:WK46:B3")  # no men left: no limit
    for text in ["46-41", "3-8", "41-46", "8-12", "46-41", "12-17"]:
        board.push(board.parse_move(text))
    assert "41-46" in [board.move_notation(m) for m in board.legal_moves]


def test_frisian_draw_rules() -> None:
    two_v_one, one_v_one = Material(0, 2, 0, 1), Material(0, 1, 0, 1)
    plies = [PlyFacts(i % 2, True, False, False, two_v_one, i) for i in range(14)]
    assert evaluate("frisian", plies[:13], start_material=two_v_one) is None
    draw = evaluate("frisian", plies, start_material=two_v_one)
    assert draw is not None and draw.rule == "frisian-7-moves"
    plies = [PlyFacts(i % 2, True, False, False, one_v_one, i) for i in range(4)]
    draw = evaluate("frysk", plies, start_material=one_v_one)
    assert draw is not None and draw.rule == "frisian-2-moves"


def test_frysk_starts_from_five_men_each() -> None:
    assert Board("frysk").fen() == "W:W46-50:B1-5"
    assert find_variant("frysk!").name == "frysk"


def test_breakthrough_the_first_king_wins() -> None:
    board = Board("breakthrough", "W:W6:B45")
    board.push(board.parse_move("6-1"))
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is WHITE
    assert outcome.termination is Termination.NO_MOVES
    assert not board.legal_moves
    assert write_board(board).splitlines()[-1].endswith("2-0")
    # Set up with a black king on the board: Black has already won, whoever is to move.
    outcome = Board("breakthrough", "W:W31:BK46").outcome()
    assert outcome is not None and outcome.winner is BLACK


def test_thai_king_halts_behind_each_piece() -> None:
    # The king on a1 (square 4) takes c3... no: b2 is empty; it meets d4 (15) and must stop on
    # e5 directly behind (18), not beyond.
    assert _moves("thai", "W:WK4:B15") == ["4-18"]
    assert _moves("thai", "W:WK4:B8,15,22") == ["4-11-18-25"]


def test_thai_notation_and_start() -> None:
    board = Board("thai")
    assert board.fen() == "B:W1-8:B25-32" and board.turn is BLACK
    assert find_variant("thai").square_name(find_variant("thai").square_at(0, 6)) == "1"  # g1
    board = Board("thai", "W:WK4:B8,15,22")
    move = board.parse_move("4-11-18-25")
    assert move.captures and board.move_notation(move) == "4-25"


# -- perft ----------------------------------------------------------------------------------------

#: Leaf counts from the initial position, one per (origin, destination, captured set), with
#: their source (docs/rules.md).
PERFT = {
    # International draughts' published figures (BikDam) hold until the first king appears.
    "killer": [9, 81, 658, 4265, 27117, 167140],
    "breakthrough": [9, 81, 658, 4265, 27117, 167140],
    # Rein Halbersma's published Czech figures (damforum.nl t=2822, kept in his dctl test suite,
    # test/src/ai/traversal/initial/board8x8.cpp): English's until the first kings (depth 9).
    "czech": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963671],
    # Rein Halbersma's published Frisian figures, duplicates removed (damforum.nl t=2822,
    # start=15; dctl's board10x10.cpp): the first kings appear at depth 7.
    "frisian": [9, 81, 658, 3874, 21265, 102431, 540126, 2825779],
    # pydraughts 0.6.7 (and py-draughts 1.10.1): Frysk! has no capture-path duplicates here.
    "frysk": [9, 81, 657, 5329, 41829, 328329],
    # The same author's Spanish figures: Portuguese moves and captures as Spanish (docs/rules.md).
    "portuguese": [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866],
    # reference_rules (independent), see test_perft_matches_the_reference.
    "thai": [7, 49, 392, 3136, 26592, 218695],
}
#: Thai rules from the 12 v 12 position of the other 8x8 games (three rows each): Rein
#: Halbersma's published Thai figures (the same thread and file, ``initial(2)``: two empty rows).
#: They differ from English's (3,963,680) and Czech's from depth 9, when kings appear.
THAI_12 = ("B:W1-12:B21-32", [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963648, 18363523])
#: Frisian counted by capture paths, as pydraughts 0.6.7 and py-draughts 1.10.1 count them.
FRISIAN_PATHS = [9, 81, 658, 3880, 21345]


@pytest.mark.parametrize("variant", sorted(PERFT))
def test_perft(variant: str) -> None:
    depth = sample_size(ci=5, full=len(PERFT[variant]))
    board = Board(variant)
    assert [perft(board, d) for d in range(1, depth + 1)] == PERFT[variant][:depth]


def test_thai_perft_from_twelve_men_each() -> None:
    fen, figures = THAI_12
    board = Board("thai", fen)
    depth = sample_size(ci=7, full=9)  # depth 9: where Thai parts from English and Czech
    assert [perft(board, d) for d in range(1, depth + 1)] == figures[:depth]


def test_frisian_perft_by_paths() -> None:
    board = Board("frisian")
    depth = sample_size(ci=4, full=5)
    assert [perft(board, d, paths=True) for d in range(1, depth + 1)] == FRISIAN_PATHS[:depth]
    assert perft(board, 4) == 3874  # six pairs of paths share their key


@pytest.mark.parametrize("variant", sorted(reference_rules.RULES))
def test_perft_matches_the_reference(variant: str) -> None:
    fen = Board(variant).fen()
    depth = sample_size(ci=3, full=5)
    for d in range(1, depth + 1):
        assert perft(Board(variant), d) == reference_rules.perft(variant, fen, d), d


# -- differential against the reference ------------------------------------------------------------


def _random_position(variant: str, rng: random.Random) -> Board:
    v = find_variant(variant)
    squares = list(range(v.num_squares))
    rng.shuffle(squares)
    king_rate = rng.choice((0.0, 0.3, 0.6))
    parts: dict[str, list[str]] = {"W": [], "B": []}
    for colour, side in ((WHITE, "W"), (BLACK, "B")):
        for _ in range(rng.randint(1, 10)):
            if not squares:
                break
            sq = squares.pop()
            king = rng.random() < king_rate or v.square_coords(sq)[0] == v.promotion_row(colour)
            parts[side].append(("K" if king else "") + v.square_name(sq))
    fen = f"{rng.choice('WB')}:W{','.join(parts['W'])}:B{','.join(parts['B'])}"
    return Board(variant, fen)


def _playout(variant: str, rng: random.Random) -> Board:
    board = Board(variant)
    for _ in range(rng.randint(5, 100)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return Board(variant, board.fen())


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(reference_rules.RULES))
def test_same_moves_as_the_reference(variant: str) -> None:
    rng = random.Random(f"reference-{variant}")
    total = sample_size(ci=300, full=10_000)
    failures = []
    captures = 0
    for i in range(total):
        board = _random_position(variant, rng) if i % 2 else _playout(variant, rng)
        v = board.variant
        ours = {(v.square_name(o), v.square_name(d), frozenset(v.square_name(c) for c in caps))
                for o, d, caps in (m.key() for m in board.legal_moves)}
        theirs = reference_rules.reference_moves(variant, board.fen())
        captures += any(key[2] for key in ours)
        if ours != theirs:
            failures.append(f"{board.fen()}: ours only {ours - theirs}, ref only {theirs - ours}")
    assert not failures, f"{len(failures)}/{total}:\n" + "\n".join(failures[:5])
    assert captures > total // 10


# -- PDN round trip of a recorded game -----------------------------------------------------------


@pytest.mark.parametrize("variant", ["czech", "portuguese", "thai", "frisian", "frysk", "killer",
                                     "breakthrough"])
def test_a_game_round_trips_through_pdn(variant: str) -> None:
    rng = random.Random(f"pdn-{variant}")
    board = Board(variant)
    for _ in range(80):
        moves = list(board.legal_moves)
        if not moves or board.outcome() is not None:
            break
        board.push(rng.choice(moves))
    text = write_board(board, {"Event": f"{variant} club night"})
    game = read_games(text)[0]
    assert game.variant.name == variant  # GameType, and a Variant tag where it is shared
    again = Board(variant, game.start_fen)
    for move in game.moves:
        again.push(move)
    assert again.fen() == board.fen()
