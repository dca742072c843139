"""Puzzles: what the builder finds, and every shipped puzzle checked by a search of this test's
own (plain negamax with alpha-beta over ``Board.legal_moves``, not the builder's code path):
the solution wins what the puzzle says at its stated depth, every other move wins nothing;
pydraughts replays the line as legal; a puzzle marked ``ending`` is won by the endgame tables.
CI checks a sample of each collection, ``DRAUGHTSBOARD_SAMPLE=full`` all of them."""

from __future__ import annotations

import random

import pytest

from engine import WHITE, Board, find_variant
from engine.endgame import WDL, EndgameTable
from engine.pdn import read_games
from engine.puzzles import (
    MAN,
    WIN,
    Progress,
    Puzzle,
    collect,
    find,
    king_value,
    load,
    mistakes,
    read_collection,
    reply,
    verdict,
    write_collection,
)
from tests.conftest import sample_size
from tests.engine.test_analysis import DROP, DROPPED_SHOT, MISS, game
from tests.engine.test_differential_pydraughts import _their_fen

#: The collections that ship, and pydraughts' name for each variant.
SHIPPED = {"international": "standard", "russian": "russian", "english": "english"}


def material(board: Board, side: int) -> int:
    king = king_value(board.variant)
    total = 0
    for piece in board.pieces().values():
        value = king if piece.king else MAN
        total += value if int(piece.color) == side else -value
    return total


def negamax(board: Board, depth: int, alpha: int, beta: int) -> int:
    """The side to move's material after ``depth`` plies, every capture due then played out;
    a side with no move has lost."""
    moves = list(board.legal_moves)
    if not moves:
        return -WIN
    if depth <= 0 and not moves[0].is_capture:
        return material(board, int(board.turn))
    best = -2 * WIN
    for move in moves:
        board.push(move)
        score = -negamax(board, depth - 1, -beta, -max(alpha, best))
        board.pop()
        best = max(best, score)
        if best >= beta:
            break
    return best


def check(puzzle: Puzzle) -> None:
    board = puzzle.board()
    side = int(board.turn)
    now = material(board, side)
    for move in board.legal_moves:
        board.push(move)
        if move == puzzle.solution:
            value = -negamax(board, puzzle.depth - 1, -2 * WIN, 2 * WIN)
            if puzzle.gain >= WIN // 2:
                assert value >= WIN // 2, (puzzle.fen, value)
            else:
                assert value - now == puzzle.gain >= MAN, (puzzle.fen, value, now)
        else:
            # Refuted: the defender keeps the solver to no gain (a null window at "now").
            held = -negamax(board, puzzle.depth - 1, -now - 1, -now)
            assert held <= now, (puzzle.fen, board.move_stack[-1])
        board.pop()


def pydraughts_replays(puzzle: Puzzle, variant: str) -> None:
    from draughts import Board as PyBoard
    from draughts import Move as PyMove
    from draughts.PDN import PDNReader

    text = write_collection([puzzle])
    ours = read_games(text)[0].move_texts
    if puzzle.variant.first_mover is WHITE:
        # pydraughts 0.6.7 numbers moves as if White always moved first: in English, where
        # Black does ("1. 11-15 23-19", White's move alone "1... 32-28"), it reads a move
        # number as a move or drops a move, so only its board checks the English lines.
        [theirs] = PDNReader(pdn_text=text).games
        moves = theirs.moves
        if theirs.tags["FEN"].startswith("B"):
            # It reads the first move twice when the FEN has Black to move (PDN.py:
            # `clean_moves` starts with it, then the loop adds it again).
            assert moves[0] == moves[1], moves
            moves = moves[1:]
        assert [m.replace(":", "x") for m in moves] == [m.replace(":", "x") for m in ours]
    # pydraughts reads no square ranges in a FEN: the position as it reads one.
    py = PyBoard(variant=SHIPPED[variant], fen=_their_fen(puzzle.board()))
    for move_text in ours:
        move = PyMove(py, pdn_move=move_text.replace(":", "x"))
        assert move.board_move in [m.board_move for m in py.legal_moves()], (puzzle.fen,
                                                                              move_text)
        py.push(move)


def tables_agree(puzzle: Puzzle) -> None:
    table = EndgameTable.load(puzzle.variant)
    board = puzzle.board()
    for move in board.legal_moves:
        board.push(move)
        lost = not board.legal_moves or table.probe(*board.bitboards(),
                                                     int(board.turn)) is WDL.LOSS
        assert lost == (move == puzzle.solution), (puzzle.fen, move)
        board.pop()


def sample(variant: str) -> list[Puzzle]:
    puzzles = load(variant)
    count = sample_size(ci=3, full=len(puzzles))
    return random.Random(variant).sample(puzzles, min(count, len(puzzles)))


@pytest.mark.parametrize("variant", sorted(SHIPPED))
def test_a_small_collection_ships(variant: str) -> None:
    puzzles = load(variant)
    assert 10 <= len(puzzles) <= 60
    assert len({p.fen for p in puzzles}) == len(puzzles)
    assert [p.number for p in puzzles] == [f"{variant}-{i:03d}"
                                           for i in range(1, len(puzzles) + 1)]
    assert all(1 <= p.difficulty <= 5 and p.depth >= 5 for p in puzzles)


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(SHIPPED))
def test_every_shipped_puzzle_holds_at_its_depth(variant: str) -> None:
    for puzzle in sample(variant):
        check(puzzle)
        pydraughts_replays(puzzle, variant)
        if "ending" in puzzle.motifs:
            tables_agree(puzzle)


def test_the_two_for_one_is_found() -> None:
    board = game(DROPPED_SHOT[:MISS])
    puzzle = find(board)
    assert puzzle is not None
    probe, words = board.copy(), []
    for move in puzzle.line:
        words.append(probe.move_notation(move))
        probe.push(move)
    assert words == ["31-27", "22x31", "36x16"]
    assert puzzle.gain == MAN and puzzle.motifs == ("shot",) and puzzle.difficulty == 2
    check(puzzle)


def test_a_position_with_two_winning_moves_or_none_is_no_puzzle() -> None:
    assert find(Board("international")) is None  # nothing wins at the start
    board = Board("russian", fen="W:Wc3,e3:Bd4,h8")  # c3:e5 and e3:c5 both win the man
    assert find(board) is None


def test_a_man_left_hanging_is_no_puzzle() -> None:
    # e5:c7 keeps the man it takes (after e5:c3 Black wins it back), but a man taken as it
    # hangs, the gain made by one move of the solver, is no puzzle.
    board = Board("russian", fen="W:We5,a1:Bd4,d6,c5")
    values = {}
    for move in board.legal_moves:
        board.push(move)
        values[board.variant.square_name(move.destination)] = -negamax(board, 6, -2 * WIN,
                                                                       2 * WIN)
        board.pop()
    assert values == {"c3": 0, "c7": MAN}
    assert find(board) is None


def test_giveaway_variants_have_no_puzzles() -> None:
    with pytest.raises(ValueError, match="giveaway"):
        find(Board("russian-giveaway"))


def test_collect_spaces_puzzles_and_names_their_source() -> None:
    board = game([*DROPPED_SHOT[:MISS], "31-27", "22x31", "36x16"])
    found = list(collect([(board, "club night")], skip=0))
    assert [p.source for p in found] == ["club night, ply 9"]


def test_collection_round_trip_and_bad_files() -> None:
    puzzle = find(game(DROPPED_SHOT[:MISS]))
    assert puzzle is not None
    text = write_collection([puzzle])
    assert read_collection(text) == [puzzle]
    assert read_games(text)[0].headers["Motif"] == "shot"
    with pytest.raises(ValueError, match="is not a puzzle"):
        read_collection('[GameType "20"]\n1. 32-28 *\n')


def test_king_values() -> None:
    assert king_value(find_variant("international")) == 3 * MAN
    assert king_value(find_variant("english")) == 2 * MAN


def test_solving_the_two_for_one_move_by_move() -> None:
    puzzle = find(game(DROPPED_SHOT[:MISS]))
    assert puzzle is not None
    line = list(puzzle.line)
    assert verdict(puzzle, line[:1]).progress is Progress.GOING
    assert reply(puzzle, line[:1]) == line[1]          # the defender plays the line
    assert verdict(puzzle, line[:3]).progress is Progress.SOLVED


def test_every_wrong_first_move_is_refuted() -> None:
    puzzle = find(game(DROPPED_SHOT[:MISS]))
    assert puzzle is not None
    board = puzzle.board()
    now = material(board, int(board.turn))
    for move in board.legal_moves:
        if move == puzzle.solution:
            continue
        judged = verdict(puzzle, [move])
        assert judged.progress is Progress.WRONG and judged.refutation, move
        assert reply(puzzle, [move]) == judged.refutation[0]
        # After the refutation the solver wins nothing within the depth (this test's search).
        after = board.copy()
        after.push(move)
        for step in judged.refutation:
            after.push(step)
        left = puzzle.depth - 1 - len(judged.refutation)
        value = negamax(after, left, -2 * WIN, 2 * WIN)
        solver_value = value if after.turn == board.turn else -value
        assert solver_value <= now, (board.move_notation(move), solver_value)


def test_a_missed_shot_goes_to_the_players_mistakes() -> None:
    board = game(DROPPED_SHOT)
    found = mistakes(board, [DROP, MISS], source="club night")
    assert [(p.board().move_notation(p.solution), p.source) for p in found] == [
        ("31-27", "club night, ply 9")]
    assert mistakes(game([*DROPPED_SHOT[:MISS], "31-27"]), [MISS]) == []  # found it: none


@pytest.mark.parametrize("variant", sorted(SHIPPED))
def test_playing_a_shipped_puzzles_line_solves_it(variant: str) -> None:
    for puzzle in sample(variant):
        line = list(puzzle.line)
        said = [verdict(puzzle, line[:i + 1]).progress for i in range(0, len(line), 2)]
        assert said[-1] is Progress.SOLVED and Progress.WRONG not in said, puzzle.number
        assert [reply(puzzle, line[:i + 1]) for i in range(0, len(line) - 1, 2)] == \
            line[1::2], puzzle.number
