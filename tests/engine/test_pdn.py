"""PDN 3.0 reading and writing: tolerant input, precise errors, valid output, round trips."""

from __future__ import annotations

import random
import re

import pytest
from draughts import Board as PyBoard
from draughts import Move as PyMove
from draughts.PDN import PDNReader

from engine import VARIANTS, WHITE, Board, DraughtsError, Move, find_variant
from engine.pdn import (
    PdnError,
    parse_gametype,
    read_games,
    write_board,
    write_game,
    write_games,
)
from engine.pdn_lexer import Source, tokens
from tests.conftest import sample_size

# A game in the style of FMJD-published PDN (Turbo Dambase / Toernooibase exports).
INTERNATIONAL_GAME = """[Event "Club championship"]
[Site "Amsterdam NED"]
[Date "2024.03.01"]
[Round "1"]
[White "Alpha, A."]
[Black "Beta, B."]
[Result "1-1"]
[GameType "20"]
[WhiteClock "1:20:00"]

1. 32-28 19-23 2. 28x19 14x23 {exchange} 3. 33-28 (3. 37-32 10-14) 3... 23x32
4. 37x28 $1 17-21! 1-1
"""


def random_moves(board: Board, plies: int, rng: random.Random) -> list[Move]:
    """Play up to ``plies`` random legal moves on ``board``; return them."""
    played = []
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        board.push(move)
        played.append(move)
    return played


# --- tokens -------------------------------------------------------------------------------


def test_tokens_kinds_and_positions() -> None:
    text = '[Event "a \\"b\\""]\n1.32-28! $3 {c} (1. 33-29) 19-23 (?) ; d\n2-0'
    toks = list(tokens(Source(text)))
    assert [(t.kind, t.text, t.line, t.col) for t in toks] == [
        ("tag", "Event", 1, 1),
        ("number", "1.", 2, 1),
        ("move", "32-28", 2, 3),
        ("nag", "$3", 2, 10),
        ("comment", "c", 2, 13),
        ("variation", "1. 33-29", 2, 17),
        ("move", "19-23", 2, 28),
        ("sign", "(?)", 2, 34),
        ("comment", "d", 2, 38),
        ("result", "2-0", 3, 1),
    ]
    assert toks[0].value == 'a "b"'
    assert toks[2].value == "!"


def test_pdn_error_is_an_engine_error() -> None:
    assert issubclass(PdnError, DraughtsError)
    assert issubclass(PdnError, ValueError)


# --- reading ------------------------------------------------------------------------------


def test_reads_a_published_style_game() -> None:
    [game] = read_games(INTERNATIONAL_GAME)
    assert game.variant.name == "international"
    assert game.move_texts == ["32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28",
                               "17-21"]
    assert game.result == "1-1"
    assert game.headers["White"] == "Alpha, A."
    assert game.headers["WhiteClock"] == "1:20:00"  # unknown tags are kept
    assert game.comments == {4: ["exchange"]}
    assert game.variations == {4: ["3. 37-32 10-14"]}
    assert game.annotations == {6: ["$1"], 7: ["!"]}
    final = game.board()
    assert final.ply == 8
    assert final.move_stack == game.moves


def test_bom_crlf_and_escape_lines() -> None:
    text = (
        '\ufeff% produced by a tool\r\n[Event "x"]\r\n[GameType "21"]\r\n\r\n'
        "1. 11-15 23-19 *\r\n"
    )
    [game] = read_games(text)
    assert game.variant.name == "english"
    assert game.move_texts == ["11-15", "23-19"]
    assert game.headers == {"Event": "x", "GameType": "21"}


def test_bytes_in_utf8_or_latin1() -> None:
    utf8 = '[White "Müller, Jörg"]\n1. 32-28 2-0'.encode()
    latin1 = '[White "Müller, Jörg"]\n1. 32-28 2-0'.encode("latin-1")
    for data in (b"\xef\xbb\xbf" + utf8, latin1):
        [game] = read_games(data)
        assert game.headers["White"] == "Müller, Jörg"


def test_game_outcome_from_the_result() -> None:
    games = read_games("1. 32-28 2-0\n1. 32-28 1-1\n1. 32-28 *")
    outcomes = [g.outcome for g in games]
    assert outcomes[0] is not None and outcomes[0].winner is WHITE
    assert outcomes[0].result() == "2-0"
    assert outcomes[1] is not None and outcomes[1].is_draw
    assert outcomes[2] is None


def test_move_numbers_in_every_form() -> None:
    text = '[GameType "20"]\n1.32-28 1...19-23 2. 28x19 2. ... 14x23 3.33-28 *'
    [game] = read_games(text)
    assert game.move_texts == ["32-28", "19-23", "28x19", "14x23", "33-28"]


@pytest.mark.parametrize("sign", ["!", "?", "!!", "??", "!?", "?!"])
def test_annotation_signs_glued_or_apart(sign: str) -> None:
    for text in (f"1. 32-28{sign} 19-23 *", f"1. 32-28 {sign} 19-23 *"):
        [game] = read_games(text)
        assert game.move_texts == ["32-28", "19-23"]
        assert game.annotations == {0: [sign]}


def test_pdn3_reading_forms() -> None:
    """PDN 3.0 reading grammar: "(?)" strengths, a "*" glued to the last move, leading zeros."""
    text = '[GameType "21"]\n1. 011-15 22-18(?) 2. 15x22 (2. 12-16) 25x18*\n1. 11-15 *'
    games = read_games(text, variant="english")
    assert [g.move_texts for g in games] == [["011-15", "22-18", "15x22", "25x18"], ["11-15"]]
    assert games[0].annotations == {1: ["(?)"]}
    assert games[0].variations == {2: ["2. 12-16"]}
    assert games[0].result == "*"


def test_unified_pool_starts_with_white() -> None:
    # PDN 3.0: "23,W,8,8,A0,0" is pool checkers in letters with White moving first.
    [game] = read_games('[GameType "23,W,8,8,A0,0"]\n1. c3-d4 f6-e5 *')
    assert game.variant.name == "pool"
    assert game.start_fen.startswith("W:")
    assert len(game.moves) == 2
    with pytest.raises(PdnError, match=r"move 1\. c3-b2"):
        read_games('[GameType "23,W,8,8,A0,0"]\n1. c3-b2 *')


def test_setup_commands_are_refused_clearly() -> None:
    with pytest.raises(PdnError, match="setup commands") as info:
        read_games('1. 32-28 /FEN "W:W28:B19"/ 19-23 *')
    assert (info.value.line, info.value.column) == (1, 10)


def test_comments_semicolon_and_nested_variations() -> None:
    text = """[GameType "25"]
1. c3-d4 ; a line comment (not a variation
f6-e5 (1... f6-g5 (1... b6-a5) {a comment with ) inside}) 2. d4:f6 g7:e5 *"""
    [game] = read_games(text)
    assert game.move_texts == ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]
    assert game.comments == {1: ["a line comment (not a variation"]}
    assert game.variations == {1: ["1... f6-g5 (1... b6-a5) {a comment with ) inside}"]}


@pytest.mark.parametrize("result", ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"])
def test_every_result_token(result: str) -> None:
    [game] = read_games(f"1. 32-28 {result}")
    assert game.result == result


def test_result_from_the_tag_when_the_movetext_has_none() -> None:
    games = read_games('[Result "2-0"]\n1. 32-28\n[Result "0-2"]\n1. 33-29 0-2')
    assert [g.result for g in games] == ["2-0", "0-2"]
    assert [g.move_texts for g in games] == [["32-28"], ["33-29"]]


def test_several_games_and_tagless_games() -> None:
    games = read_games("1. 32-28 2-0\n\n1. 33-29 19-23 *\n\n\n1. 31-27 0-2\n")
    assert [len(g.moves) for g in games] == [1, 2, 1]
    assert [g.line for g in games] == [1, 3, 6]


def test_fen_tag_and_second_mover_start() -> None:
    text = '[GameType "20"]\n[SetUp "1"]\n[FEN "B:W28,K46:B19,3"]\n1... 19-23 2. 28x19 *'
    [game] = read_games(text)
    assert game.start_fen == "B:W28,K46:B3,19"
    assert game.move_texts == ["19-23", "28x19"]
    assert game.board().fen() == "B:W19,K46:B3"


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_gametype_tag_selects_the_variant(variant: str) -> None:
    v = find_variant(variant)
    text = write_game({}, [], variant=v)
    [game] = read_games(text)
    assert game.variant is v
    assert game.start_fen == Board(v).fen()


def test_gametype_forms() -> None:
    full = parse_gametype("21,B,8,8,N1,0")
    assert (full.number, full.start, full.width, full.height, full.notation, full.corner,
            full.invert) == (21, "B", 8, 8, "N", 1, False)
    assert parse_gametype(" 30 ").number == 30
    assert parse_gametype("22,w,8,8,n2,1").invert is True


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("W", "must start with a number"),
        ("20,W,10", "1 or 6"),
        ("20,X,10,10,N2,0", "start colour"),
        ("20,W,10,x,N2,0", "board size"),
        ("20,W,10,10,Q2,0", "notation"),
        ("20,W,10,10,N2,7", "invert"),
    ],
)
def test_bad_gametype_values(value: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_gametype(value)
    with pytest.raises(PdnError, match=message) as info:
        read_games(f'[Event "e"]\n[GameType "{value}"]\n1. 32-28 *')
    assert (info.value.line, info.value.column) == (2, 1)


def test_brazilian_files_with_letter_squares() -> None:
    # PDN 3.0 writes Brazilian with the alphanumeric notation (GameType 26,W,8,8,A0,0).
    [game] = read_games('[GameType "26,W,8,8,A0,0"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *')
    assert game.variant.name == "brazilian"
    assert len(game.moves) == 4
    assert len(game.moves[-1].captures) == 1
    # Files numbered like the numeric 8x8 games (c3 = 22, d4 = 18, ...) read as the same game.
    [numbered] = read_games('[GameType "26"]\n1. 22-18 11-15 2. 18x11 8x15 *')
    assert numbered.moves == game.moves


def test_brazilian_written_in_letters_with_x() -> None:
    """PDN 3.0 GameType 26: "26,W,8,8,A0,0", capture separator x (wiegerw/pdn gametype.rst)."""
    pdn = write_game(None, ["c3-d4", "f6-e5", "d4xf6", "g7xe5"], variant="brazilian")
    assert '[GameType "26,W,8,8,A0,0"]' in pdn
    assert "Variant" not in pdn
    assert pdn.splitlines()[-1] == "1. c3-d4 f6-e5 2. d4xf6 g7xe5 *"


def test_variant_tag_chooses_among_variants_sharing_a_gametype() -> None:
    [game] = read_games('[GameType "25"]\n[Variant "poddavki"]\n1. c3-d4 *')
    assert game.variant.name == "russian-giveaway"
    # A Variant tag that contradicts the GameType is ignored.
    [game] = read_games('[GameType "25"]\n[Variant "english"]\n1. c3-d4 *')
    assert game.variant.name == "russian"


def test_default_variant_for_files_without_gametype() -> None:
    [game] = read_games("1. 11-15 23-19 *", variant="english")
    assert game.variant.name == "english"
    [game] = read_games("1. 32-28 *")
    assert game.variant.name == "international"


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        # Checkers programs (PDN 1.0) write no GameType.
        ('[Event "club"]\n1. 11-15 23-19 2. 8-11 22-17 *', "english"),
        ('[FEN "W:W22,24,27,32:B7,10,15,20"]\n1. 24-19 15x31 *', "english"),
        # Russian files often have none either.
        ("1. c3-d4 f6-e5 2. d4:f6 g7:e5 *", "russian"),
        # An Italian file with Italian tag names: White moves first from 21-32.
        ('[Bianco "Rossi"]\n[Nero "Bianchi"]\n1. 21-17 12-15 2. 23-19 11-14 *', "italian"),
        ("1. 33-28 18-23 2. 39-33 12-18 *", "international"),
        ("1. 46-40 *", "canadian"),
    ],
)
def test_variant_guessed_without_gametype(text: str, variant: str) -> None:
    [game] = read_games(text)
    assert game.variant.name == variant
    assert game.gametype is None


def test_guessing_reports_the_first_candidates_error() -> None:
    with pytest.raises(PdnError, match=r"move 1\. 11-12"):
        read_games("1. 11-12 *")


def test_moves_split_by_aligning_spaces() -> None:
    """Column-aligned files write "1- 6" (Turbo Dambase style); such moves are joined."""
    [game] = read_games('[GameType "20"]\n 1. 33- 28 18 -23  2. 39-33 12-18 *')
    assert game.move_texts == ["33-28", "18-23", "39-33", "12-18"]


# --- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("1. 32-28 {never closed\n19-23 *", 1, 10, "never closed"),
        ("1. 32-28 (1. 33-29\n19-23 *", 1, 10, "never closed"),
        ("1. 32-28 ) *", 1, 10, "no opening"),
        ('[Event "x"\n1. 32-28 *', 1, 1, "not closed"),
        ('[Event x]\n1. 32-28 *', 1, 1, "malformed tag"),
        ("1. 32-28 banana *", 1, 10, "unexpected 'banana'"),
        ("1. 32-28 19-23\n2. 28-22 *", 2, 4, "move 2. 28-22"),
        ("1. 32-28 19-23\n2. 28x19 14x25 *", 2, 10, r"move 2\.\.\. 14x25"),
        ("1. 32-28 19-23 2. 28x19 99-98 *", 1, 25, "not a square"),
        ('[GameType "41"]\n1. 32-28 *', 1, 1, "GameType 41"),
        ('[GameType "25,W,10,10,A0,0"]\n1. c3-d4 *', 1, 1, "8x8"),
        ('[Event "x"]\n[FEN "W:W99:B1"]\n1. 32-28 *', 2, 1, "bad FEN"),
    ],
)
def test_errors_name_line_and_column(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(PdnError, match=message) as info:
        read_games(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert str(info.value).startswith(f"line {line}, column {column}: ")
    assert isinstance(info.value, ValueError)


def test_illegal_move_after_a_fen_counts_from_the_second_mover() -> None:
    with pytest.raises(PdnError, match=r"move 1\.\.\. 19-14") as info:
        read_games('[GameType "20"]\n[FEN "B:W28:B19"]\n1... 19-14 *')
    assert info.value.line == 3


def test_collecting_errors_keeps_the_good_games() -> None:
    text = "\n\n".join([
        '[Event "1"]\n1. 32-28 *',
        '[Event "2"]\n1. 32-26 *',  # illegal
        '[Event "3"]\n1. 32-28 {unclosed\n',  # structural: skip to the next tag line
        '[Event "4"]\n1. 33-29 *',
    ])
    errors: list[PdnError] = []
    games = read_games(text, errors=errors)
    assert [g.headers["Event"] for g in games] == ["1", "4"]
    assert [e.line for e in errors] == [5, 8]


# --- writing ------------------------------------------------------------------------------


def test_written_game_layout() -> None:
    board = Board("international")
    for text in ("32-28", "19-23", "28-19", "14-23"):
        board.push(board.parse_move(text))
    pdn = write_game(
        {"Event": 'The "Open"', "White": "A\nB", "Annotator": "me"},
        board.move_stack, "2-0", variant="international", comments={2: ["a {nice} one"]},
    )
    assert pdn == (
        '[Event "The \\"Open\\""]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n'
        '[White "A B"]\n[Black "?"]\n[Result "2-0"]\n[GameType "20,W,10,10,N2,0"]\n'
        '[Annotator "me"]\n\n'
        "1. 32-28 19-23 {a (nice) one} 2. 28x19 14x23 2-0\n"
    )
    [back] = read_games(pdn)
    assert back.headers["Event"] == 'The "Open"'
    assert back.comments == {2: ["a (nice) one"]}


def test_no_second_mover_number_after_a_comment() -> None:
    # PGN resumes with "1..." after a comment; pydraughts 0.6.7 then misreads every game past
    # move 10 (tests/firmware_host/store/test_pdnrender_readers.py), and PDN numbers are optional.
    pdn = write_game(None, ["32-28", "18-23", "33-29"], variant="international",
                     comments={1: ["hm"]})
    assert pdn.splitlines()[-1] == "1. 32-28 {hm} 18-23 2. 33-29 *"
    [back] = read_games(pdn)
    assert back.move_texts == ["32-28", "18-23", "33-29"]
    assert back.comments == {1: ["hm"]}


def test_english_numbers_from_black() -> None:
    pdn = write_game(None, ["11-15", "23-19", "8-11"], variant="english")
    assert pdn.splitlines()[-1] == "1. 11-15 23-19 2. 8-11 *"
    assert '[GameType "21,B,8,8,N1,0"]' in pdn


def test_fen_written_only_when_not_the_initial_position() -> None:
    assert "FEN" not in write_game(None, [], variant="russian")
    pdn = write_game(None, ["19-24"], variant="international", start_fen="B:W28:B19")
    assert '[GameType "20,W,10,10,N2,0"]\n[FEN "B:W28:B19"]' in pdn
    assert pdn.splitlines()[-1] == "1... 19-24 *"
    # Diagonal draughts shares GameType 25 with Russian: its start is written out.
    assert "[FEN " in write_game(None, [], variant="diagonal")


def test_headers_of_a_read_game_are_enough_to_write_it() -> None:
    [game] = read_games('[GameType "25"]\n[Variant "poddavki"]\n[FEN "W:Wc3:Bf6"]\n1. c3-d4 *')
    pdn = write_game(game.headers, game.moves, comments={7: ["late"]})
    assert '[Variant "russian-giveaway"]' in pdn
    assert '[FEN "W:Wc3:Bf6"]' in pdn
    assert pdn.splitlines()[-1] == "1. c3-d4 {late} *"
    [back] = read_games(pdn)
    assert back.variant.name == "russian-giveaway"
    assert back.moves == game.moves


def test_lines_are_at_most_80_columns() -> None:
    rng = random.Random(3)
    for variant in ("international", "canadian", "russian"):
        board = Board(variant)
        random_moves(board, 120, rng)
        pdn = write_board(board, {"Event": "long"}, comments={5: ["x" * 100 + " words " * 30]})
        assert max(len(line) for line in pdn.splitlines()) <= 80
        assert read_games(pdn)[0].moves == board.move_stack


def test_write_board_takes_the_result_from_the_board() -> None:
    board = Board("english", "W:W22:B18")
    [capture] = board.legal_moves
    board.push(capture)  # 22x15: black has nothing left, white wins
    pdn = write_board(board)
    # English results are scored from Black, the first mover (PDN 2.0/3.0): a White win is 0-1.
    assert pdn.splitlines()[-1] == "1... 22x15 0-1"
    assert '[Result "0-1"]' in pdn
    assert read_games(pdn)[0].outcome.winner is WHITE
    assert '[FEN "W:W22:B18"]' in pdn
    assert write_board(Board("international")).splitlines()[-1] == "*"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"moves": ["32-26"]}, "illegal"),
        ({"moves": ["banana"]}, "not a move"),
        ({"moves": [], "result": "3-0"}, "not a PDN result"),
        ({"moves": [], "headers": {"Bad Name": "x"}}, "tag names"),
        ({"moves": [], "headers": {"lowercase": "x"}}, "tag names"),
        ({"moves": [], "start_fen": "W:W99"}, "99"),
    ],
)
def test_writer_rejects_bad_input(kwargs: dict[str, object], message: str) -> None:
    args = {"headers": None, "result": None, **kwargs}
    with pytest.raises(ValueError, match=message):
        write_game(args["headers"], args["moves"], args["result"],  # type: ignore[arg-type]
                   variant="international", start_fen=args.get("start_fen"))  # type: ignore[arg-type]


def test_signs_nags_and_variations_written_and_read_back() -> None:
    """A sign is glued to its move, NAGs follow it, a variation (from the position before the
    move it replaces, numbered from there) follows the move's comments."""
    moves = ["32-28", "19-23", "28x19", "14x23"]
    text = write_game(None, moves, "*", variant="international",
                      comments={2: ["[%eval 0.35]"]},
                      annotations={1: ["?", "$18"], 2: ["!"]},
                      variations={1: [["18-22", "37-32", "12-18"], ["17-21"]]})
    assert " ".join(text.split("\n\n")[1].split()) == (
        "1. 32-28 19-23? $18 {[%eval 0.35]} (1... 18-22 2. 37-32 12-18) (1... 17-21) 2. 28x19!"
        " 14x23 *")
    game = read_games(text)[0]
    assert game.move_texts == moves
    assert game.annotations == {1: ["?", "$18"], 2: ["!"]}
    assert game.variations == {1: ["1... 18-22 2. 37-32 12-18", "1... 17-21"]}
    assert game.comments == {2: ["[%eval 0.35]"]}


@pytest.mark.parametrize(
    ("notes", "message"),
    [
        ({"annotations": {0: ["?!?"]}}, "annotations are one of"),
        ({"annotations": {0: ["?", "!"]}}, "annotations are one of"),
        ({"annotations": {0: ["$x"]}}, "annotations are one of"),
        ({"variations": {0: [["31-27", "32-28"]]}}, "illegal"),
        ({"variations": {0: [["banana"]]}}, "not a move"),
    ],
)
def test_writer_rejects_bad_signs_and_variations(notes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        write_game(None, ["32-28"], "*", variant="international", **notes)  # type: ignore[arg-type]


# --- round trips --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_round_trip_every_variant(variant: str) -> None:
    """Written PDN read back gives the same moves, headers, start position and comments."""
    rng = random.Random(variant)
    games = []
    for i in range(sample_size(ci=4, full=40)):
        board = Board(variant)
        if i % 2:  # start some games from a later position: the FEN tag is used
            random_moves(board, rng.randrange(1, 30), rng)
            board = Board(variant, board.fen())
        moves = random_moves(board, rng.randrange(0, 150), rng)
        comments = {rng.randrange(0, len(moves) + 1): [f"note {i}"]} if i % 3 == 0 else {}
        headers = {"Event": f"Game {i}", "White": "Ünïcode, Ö.", "Custom_Tag": "v"}
        outcome = board.outcome()
        result = "*" if outcome is None else outcome.result()
        pdn = write_game(headers, moves, result, variant=variant,
                         start_fen=board.root().fen(), comments=comments)
        [back] = read_games(pdn)
        assert back.variant.name == variant
        assert back.moves == moves
        assert back.start_fen == board.root().fen()
        assert back.result == result
        assert {k: back.headers[k] for k in headers} == headers
        assert back.comments == comments
        games.append(back)
    # A file of several games reads back as the same games.
    again = read_games(write_games(games))
    assert [g.moves for g in again] == [g.moves for g in games]


# pydraughts names and how it writes the variants whose moves it can replay from our text.
PYDRAUGHTS_REPLAY = {
    "international": "standard",
    "english": "english",
    "italian": "italian",
    "russian": "russian",
    "brazilian": "brazilian",
    "turkish": "turkish",
}
PYDRAUGHTS_READ_ONLY = ("pool", "spanish", "canadian")


@pytest.mark.parametrize("variant", [*PYDRAUGHTS_REPLAY, *PYDRAUGHTS_READ_ONLY])
def test_pydraughts_reads_our_pdn(variant: str) -> None:
    """pydraughts' PDN reader gets the same tags and move texts from what we write.

    Where pydraughts shares our square names (international, English, Italian, Russian,
    Brazilian, Turkish) it also replays the moves as legal; it wants ``x`` in Russian captures
    where we write the Russian ``:``. Its pool, Spanish and Canadian boards number the squares
    differently (see test_differential_pydraughts), so only the reading is compared there.
    """
    rng = random.Random(f"py-{variant}")
    for i in range(sample_size(ci=3, full=30)):
        board = Board(variant)
        random_moves(board, rng.randrange(1, 120), rng)
        pdn = write_board(board, {"Event": f"t{i}", "Round": str(i)})
        ours = read_games(pdn)[0]
        [theirs] = PDNReader(pdn_text=pdn).games
        assert theirs.moves == ours.move_texts
        assert theirs.game_ending == ours.result
        assert theirs.tags["Event"] == f"t{i}"
        assert theirs.tags["GameType"] == ours.headers["GameType"]
        if variant in PYDRAUGHTS_REPLAY:
            py = PyBoard(variant=PYDRAUGHTS_REPLAY[variant])
            for text in theirs.moves:
                py.push(PyMove(py, pdn_move=text.replace(":", "x")))
            assert len(py.move_stack) == board.ply


def test_written_pdn_is_plain_pdn() -> None:
    """Tags one per line as [Name "value"], a blank line, then movetext ending in the result."""
    rng = random.Random(11)
    board = Board("international")
    random_moves(board, 60, rng)
    pdn = write_board(board, {"Event": "x"})
    head, body = pdn.split("\n\n")
    assert all(re.fullmatch(r'\[[A-Za-z0-9_]+ "[^"\n]*"\]', line) for line in head.splitlines())
    tokens = body.split()
    assert tokens[-1] == "*"
    assert tokens[0] == "1."


def test_a_result_in_a_comment_does_not_end_the_game_for_pydraughts() -> None:
    """Issue 38's evening: an arbiter's note "result 1-1 kept" made pydraughts (0.6.7) end the
    game at that 1-1 and lose every game after it in the file."""
    board = Board("international")
    for text in ("32-28", "19-23", "28x19", "14x23"):
        board.push(board.parse_move(text))
    noted = write_board(board, {"White": "A"}, "1-1", comments={
        2: ["arbiter: 18-23 corrected to 19-23 (ply 2; agreed 1-1 or * or 2-0?), result 1-1 "
            "kept"]})
    text = "\n".join([noted, write_board(Board("international"), {"White": "B"}, "0-2")])
    assert [(g.tags.get("White"), g.moves, g.game_ending)
            for g in PDNReader(pdn_text=text).games] == [
        ("A", ["32-28", "19-23", "28x19", "14x23"], "1-1"), ("B", [], "0-2")]
    ours = read_games(text)[0]
    assert ours.comments[2] == ['arbiter: 18-23 corrected to 19-23 (ply 2; agreed "1-1" or "*" '
                                'or 2-0?), result "1-1" kept']
