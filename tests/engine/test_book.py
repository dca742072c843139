"""Openings: the English ballot decks (checked against pydraughts' files) and early variety."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from engine import Board
from engine.book import Ballot, ballot_board, ballots, opening_move, random_ballot
from engine.search import Limit, Searcher

# ACF numbers of the 18 barred three-move openings (CheckerBoard's ACF table; 174 - 18 = 156).
BARRED_3 = {3, 13, 26, 35, 44, 45, 48, 52, 77, 88, 94, 109, 114, 137, 145, 156, 168, 171}


def _pydraughts(name: str) -> dict[str, object]:
    text = resources.files("draughts").joinpath("ballot_files", name).read_text("utf-8")
    data: dict[str, object] = json.loads(text)
    return data


def _moves_of_key(key: str) -> tuple[str, ...]:
    # pydraughts keys look like "004 09-13 22-17 13-22": number, then zero-padded moves.
    return tuple("-".join(str(int(sq)) for sq in m.split("-")) for m in key.split()[1:])


def _canonical(moves: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(m.replace("x", "-") for m in moves)


def _position(board: Board) -> tuple[int, frozenset[tuple[int, int, bool]]]:
    return (int(board.turn),
            frozenset((sq, int(p.color), p.king) for sq, p in board.pieces().items()))


def test_three_move_deck_has_the_acf_156() -> None:
    deck = ballots(3)
    everything = ballots(3, include_barred=True)
    assert len(deck) == 156 and len(everything) == 174
    assert [b.number for b in everything] == list(range(1, 175))
    assert {b.number for b in everything if b.barred} == BARRED_3
    assert len({b.moves for b in everything}) == 174


def test_two_move_deck_has_43() -> None:
    deck = ballots(2)
    assert len(deck) == 43 and len(ballots(2, include_barred=True)) == 49
    barred = {b.moves for b in ballots(2, include_barred=True) if b.barred}
    assert barred == {("9-14", "21-17"), ("9-14", "23-18"), ("10-14", "21-17"),
                      ("10-14", "23-18"), ("11-16", "23-19"), ("12-16", "23-19")}


@pytest.mark.parametrize("length", [2, 3])
def test_every_ballot_is_legal_and_matches_pydraughts(length: int) -> None:
    data = _pydraughts(f"{length}move_english.json")
    positions = data["all"]
    assert isinstance(positions, dict)
    theirs = {_moves_of_key(key): fen for key, fen in positions.items()}
    for ballot in ballots(length, include_barred=True):
        board = ballot_board(ballot)
        assert board.ply == length
        fen = theirs[_canonical(ballot.moves)]
        assert _position(board) == _position(Board("english", fen))


def test_decks_agree_with_pydraughts_except_its_known_slip() -> None:
    # pydraughts lists ACF #13 twice among its barred openings and leaves out #26
    # (9-13 24-19 10-15), which the ACF bars; everything else agrees.
    data = _pydraughts("3move_english.json")
    standard = data["standard"]
    assert isinstance(standard, list)
    theirs = {_moves_of_key(k) for k in standard}
    ours = {_canonical(b.moves) for b in ballots(3)}
    assert theirs - ours == {("9-13", "24-19", "10-15")}
    assert ours <= theirs
    two = _pydraughts("2move_english.json")["standard"]
    assert isinstance(two, list)
    assert {_moves_of_key(k) for k in two} == {b.moves for b in ballots(2)}


def test_random_ballot_is_reproducible_and_from_the_deck() -> None:
    first = random_ballot(random.Random(5))
    assert first == random_ballot(random.Random(5))
    assert first in ballots(3)
    drawn = {random_ballot(random.Random(seed), 2) for seed in range(60)}
    assert len(drawn) > 20 and drawn <= set(ballots(2))


def test_bad_length_is_refused() -> None:
    with pytest.raises(ValueError):
        ballots(4)


def test_ballot_text() -> None:
    assert str(Ballot(4, ("9-13", "22-17", "13x22"))) == "4: 9-13 22-17 13x22"


@pytest.mark.parametrize("variant", ["international", "russian", "english"])
def test_opening_moves_vary_and_stay_sound(variant: str) -> None:
    board = Board(variant)
    searcher = Searcher(variant)
    chosen = {opening_move(board, searcher, random.Random(seed), Limit(depth=3))
              for seed in range(8)}
    assert None not in chosen and len(chosen) > 1
    assert all(move in board.legal_moves for move in chosen)


def test_no_variety_after_the_opening_or_from_a_set_position() -> None:
    searcher = Searcher("russian")
    late = Board("russian")
    for text in ["c3-d4", "f6-g5", "g3-h4", "g7-f6", "b2-c3", "h8-g7"]:
        late.push(late.parse_move(text))
    assert opening_move(late, searcher, random.Random(1)) is None
    composed = Board("russian", "W:Wc3:Bf6")
    assert opening_move(composed, searcher, random.Random(1)) is None
