"""Hub protocol messages: line syntax as Scan reads it, moves, positions, variants.

Moves and positions are checked against hand-written values and against pydraughts (an
independent implementation of the rules and of the Hub notation).
"""

from __future__ import annotations

import random

import draughts
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import VARIANTS, Board, IllegalMoveError, find_variant
from engine.search import WIN
from firmware_host.opponents.hub.notation import (
    HUB_VARIANTS,
    board_from_hub,
    board_from_pos,
    board_to_hub,
    hub_variant_name,
    move_from_hub,
    move_to_hub,
    numbering,
    parse_hub_move,
    pos_message,
    score_from_hub,
    score_to_hub,
    variant_from_hub,
)
from firmware_host.opponents.hub.protocol import (
    Done,
    HubMessage,
    HubProtocolError,
    Level,
    ParamSpec,
    SearchInfo,
    format_line,
    message,
    parse_line,
)
from tests.conftest import sample_size
from tests.engine.helpers import SIXTEEN_MOVES, played

START = "W" + "b" * 20 + "e" * 10 + "w" * 20


# -- line syntax -----------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "command", "args"), [
    ("hub", "hub", ()),
    ("go think\n", "go", (("think", None),)),
    ("  ready \r\n", "ready", ()),
    ('param name=variant value=normal type=enum values="normal killer bt frisian losing"',
     "param", (("name", "variant"), ("value", "normal"), ("type", "enum"),
               ("values", "normal killer bt frisian losing"))),
    ('id name=Scan version=3.1 author="Fabien Letouzey" country=France', "id",
     (("name", "Scan"), ("version", "3.1"), ("author", "Fabien Letouzey"), ("country", "France"))),
    ('error message=""', "error", (("message", ""),)),
    ('info pv="a=b c"', "info", (("pv", "a=b c"),)),
    ("set-param  name = book\tvalue=false", "set-param", (("name", "book"), ("value", "false"))),
    ('level infinite x="1"y', "level", (("infinite", None), ("x", "1"), ("y", None))),
    ("id author=Jérôme", "id", (("author", "Jérôme"),)),
])
def test_parse_line(line: str, command: str, args: tuple[tuple[str, str | None], ...]) -> None:
    assert parse_line(line) == HubMessage(command, args)


@pytest.mark.parametrize(("line", "error"), [
    ("", "empty"),
    ("   \n", "empty"),
    ("=value", "expected a name at column 1"),
    ("pos pos=", "expected a name at column 9"),
    ('pos pos="Wbb', "missing closing quote"),
    ('"quoted" command', "expected a name"),
    ("go =think", "expected a name"),
    ("go \x01think", "expected a name"),
])
def test_parse_line_rejects_malformed_lines(line: str, error: str) -> None:
    with pytest.raises(HubProtocolError, match=error):
        parse_line(line)


def test_hub_protocol_error_is_a_value_error() -> None:
    assert issubclass(HubProtocolError, ValueError)


def test_message_lookup() -> None:
    msg = parse_line("level depth=3 infinite depth=5")
    assert msg.get("depth") == "5"  # the last one wins, as in Scan
    assert msg.get("infinite") == "" and "infinite" in msg
    assert msg.get("nodes") is None and msg.get("nodes", "x") == "x" and "nodes" not in msg
    assert msg.require("depth") == "5"
    with pytest.raises(HubProtocolError, match="lacks nodes"):
        msg.require("nodes")


def test_format_quotes_only_when_needed() -> None:
    assert format_line("id", [("author", "Fabien Letouzey"), ("country", "France")]) == (
        'id author="Fabien Letouzey" country=France')
    assert format_line("error", [("message", "")]) == 'error message=""'
    assert format_line("x", [("a", "b=c")]) == 'x a="b=c"'
    assert format_line("go", [("think", None)]) == "go think"
    assert str(HubMessage("done", (("move", "32-28"),))) == "done move=32-28"


@pytest.mark.parametrize(("command", "args"), [
    ("bad command", ()),
    ("", ()),
    ("x", (("a b", "1"),)),
    ("x", (("a", 'say "hi"'),)),
    ("x", (("a", "two\nlines"),)),
])
def test_format_rejects_what_a_line_cannot_carry(command: str,
                                                 args: tuple[tuple[str, str], ...]) -> None:
    with pytest.raises(HubProtocolError):
        format_line(command, args)


def test_message_builder() -> None:
    assert message("level", move_time=1.5).format() == "level move-time=1.5"
    assert message("level", time=30.0, inc=0.25).format() == "level time=30.0 inc=0.25"
    assert message("set-param", name="book", value=True).format() == (
        "set-param name=book value=true")
    assert message("done", move="32-28", ponder=None).format() == "done move=32-28"
    assert message("go", "ponder").format() == "go ponder"
    assert message("info", score=-0.01, nodes=10).format() == "info score=-0.01 nodes=10"


# Printable ASCII and Latin/IPA letters; control characters (C0, DEL, C1) cannot be names.
_CHARS = st.one_of(st.characters(min_codepoint=32, max_codepoint=126),
                   st.characters(min_codepoint=0xA1, max_codepoint=0x2FF))
_NAME = st.text(_CHARS.filter(lambda c: c not in ' ="'), min_size=1, max_size=8)
_VALUE = st.one_of(st.none(), st.text(_CHARS.filter(lambda c: c != '"'), max_size=12))


@given(_NAME, st.lists(st.tuples(_NAME, _VALUE), max_size=5))
def test_format_then_parse_round_trips(command: str, args: list[tuple[str, str | None]]) -> None:
    msg = HubMessage(command, tuple(args))
    assert parse_line(msg.format()) == msg


# -- typed messages --------------------------------------------------------------------------


def test_param_spec() -> None:
    line = "param name=threads value=1 type=int min=1 max=16"
    spec = ParamSpec.from_message(parse_line(line))
    assert spec == ParamSpec("threads", "1", "int", "1", "16")
    assert spec.to_message().format() == line
    enum = ParamSpec.from_message(parse_line('param name=variant value=normal type=enum '
                                             'values="normal losing"'))
    assert enum.values == ("normal", "losing")
    assert enum.to_message().format() == (
        'param name=variant value=normal type=enum values="normal losing"')
    with pytest.raises(HubProtocolError, match="lacks name"):
        ParamSpec.from_message(parse_line("param value=1"))


@pytest.mark.parametrize(("line", "done"), [
    ("done move=32-28 ponder=17-22", Done("32-28", "17-22")),
    ("done move=28x10x14x23", Done("28x10x14x23")),
    ("done", Done()),
    ('done move=""', Done()),
])
def test_done(line: str, done: Done) -> None:
    assert Done.from_message(parse_line(line)) == done
    assert Done.from_message(done.to_message()) == done


@pytest.mark.parametrize(("spec", "value", "problem"), [
    (ParamSpec("threads", "1", "int", "1", "16"), "16", None),
    (ParamSpec("threads", "1", "int", "1", "16"), "17", "an integer in [1, 16]"),
    (ParamSpec("threads", "1", "int", "1", "16"), "two", "an integer in [1, 16]"),
    (ParamSpec("margin", "0.5", "real", "0", None), "0.25", None),
    (ParamSpec("margin", "0.5", "real", "0", None), "-1", "a number in [0, None]"),
    (ParamSpec("book", "true", "bool"), "yes", "true or false"),
    (ParamSpec("variant", "normal", "enum", values=("normal", "losing")), "bt",
     "one of normal, losing"),
    (ParamSpec("variant", "normal", "enum", values=("normal", "losing")), "losing", None),
    (ParamSpec("name", "x"), "anything at all", None),
])
def test_param_spec_checks_a_value_against_its_declared_type(
        spec: ParamSpec, value: str, problem: str | None) -> None:
    assert spec.problem(value) == problem


@pytest.mark.parametrize(("line", "level"), [
    ("level depth=12", Level(depth=12)),
    ("level nodes=1000000", Level(nodes=1_000_000)),
    ("level move-time=0.5", Level(move_time=0.5)),
    ("level moves=9 time=291.587", Level(moves=9, time=291.587)),
    ("level time=60 inc=1", Level(time=60.0, inc=1.0)),
    ("level infinite", Level(infinite=True)),
    ("level", Level()),
])
def test_level_round_trip(line: str, level: Level) -> None:
    assert Level.from_message(parse_line(line)) == level
    assert Level.from_message(level.to_message()) == level


@pytest.mark.parametrize("line", ["level depth=deep", "level move-time=-1", "level nodes=1.5"])
def test_level_rejects_bad_numbers(line: str) -> None:
    with pytest.raises(HubProtocolError):
        Level.from_message(parse_line(line))


def test_search_info_is_tolerant() -> None:
    line = ('info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 '
            'pv="32-28 17-22 28x17x22"')
    info = SearchInfo.from_message(parse_line(line))
    assert info == SearchInfo(21, 20.8, -0.01, 31261613, 3.906, 8.0, ("32-28", "17-22", "28x17x22"))
    assert SearchInfo.from_message(info.to_message()) == info
    odd = SearchInfo.from_message(parse_line("info depth=x score=?? nodes=5 extra=1"))
    assert odd == SearchInfo(nodes=5)


# -- moves -----------------------------------------------------------------------------------


def test_parse_hub_move() -> None:
    assert parse_hub_move("32-28") == parse_hub_move("32-28", 50)
    move = parse_hub_move("28x19x23")
    assert (move.origin, move.destination, move.captures, move.is_capture) == (
        27, 18, frozenset({22}), True)
    assert parse_hub_move("23x1x7x18").captures == frozenset({6, 17})
    assert parse_hub_move("28x19").captures == frozenset()


@pytest.mark.parametrize("text", ["", "32", "32--28", "32-28x5", "0-5", "51-46", "a-b",
                                  "28x19x23x23", "32-28-23", "+1-5", "28x", "x19"])
def test_parse_hub_move_rejects(text: str) -> None:
    with pytest.raises(HubProtocolError):
        parse_hub_move(text)


def test_hub_squares_follow_the_board_size() -> None:
    assert parse_hub_move("9-14", 32).destination == 13
    with pytest.raises(HubProtocolError, match=r"1\.\.32"):
        parse_hub_move("33-29", 32)


def test_moves_to_and_from_hub_text() -> None:
    board = Board()
    assert move_to_hub(move_from_hub(board, "32-28")) == "32-28"
    with pytest.raises(IllegalMoveError):
        move_from_hub(board, "32-26")
    # White man 28 takes 23 and 14 (landing on 19, then 10); black men elsewhere.
    board = Board("international", fen="W:W28:B23,14,3")
    move = move_from_hub(board, "28x10x23x14")
    assert move.key() == (27, 9, frozenset({22, 13}))
    assert move_to_hub(move) == "28x10x14x23"  # captured pieces ascending, as Scan writes them
    assert move_from_hub(board, "28x10x14x23") == move
    assert move_from_hub(board, "28x10") == move  # no captured list: unique anyway
    with pytest.raises(HubProtocolError, match="is a capture"):
        move_from_hub(board, "28-10")


def test_quiet_text_for_a_capture_and_capture_text_for_a_quiet_move() -> None:
    with pytest.raises(HubProtocolError, match="not a capture"):
        move_from_hub(Board(), "32x28")


def _playouts(variant: str, games: int, plies: int, seed: int) -> list[Board]:
    """Positions from random games (random moves drawn from our own legal move list)."""
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        board = Board(variant)
        for _ in range(rng.randrange(plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    return boards


#: Every variant pydraughts' Hub client plays that we have: (ours, pydraughts' name).
SHARED_WITH_PYDRAUGHTS = [
    ("international", "standard"), ("international-giveaway", "antidraughts"),
    ("russian", "russian"), ("brazilian", "brazilian"), ("english", "english"),
    ("italian", "italian"), ("turkish", "turkish"), ("frisian", "frisian"),
    ("frysk", "frysk!"), ("breakthrough", "breakthrough"),
]


@pytest.mark.parametrize(("ours", "theirs"), SHARED_WITH_PYDRAUGHTS)
def test_moves_and_positions_agree_with_pydraughts(ours: str, theirs: str) -> None:
    games = sample_size(ci=6, full=200)
    for board in _playouts(ours, games, 90, seed=7):
        hub_moves = " ".join(move_to_hub(m, ours) for m in board.move_stack)
        other = draughts.Board(variant=theirs)
        for text in hub_moves.split():
            other.push(draughts.Move(other, hub_move=text))
        assert board_to_hub(board) == other._game.get_fen()
        assert board_from_hub(other._game.get_fen(), ours).fen() == board.fen()
        if ours == "frisian" or board.outcome() is not None:
            continue  # their Frisian has no limit on king moves; a finished game has no moves
        theirs_legal = {_canonical(m.hub_move) for m in other.legal_moves()}
        ours_legal = {move_to_hub(m, ours) for m in board.legal_moves}
        if ours == "turkish":
            # pydraughts 0.6.7 lets a Turkish king fly over its own men (c7-c1 past c2): its
            # extra moves are quiet ones; every move of ours is one of theirs.
            assert ours_legal <= theirs_legal
            assert all("-" in text for text in theirs_legal - ours_legal)
        else:
            assert ours_legal == theirs_legal


def _canonical(hub_move: str) -> str:
    if "-" in hub_move:
        return hub_move
    squares = hub_move.split("x")
    return "x".join(squares[:2] + sorted(squares[2:], key=int))


# -- positions -------------------------------------------------------------------------------


def test_initial_position() -> None:
    assert board_to_hub(Board()) == START
    assert board_from_hub(START).fen() == Board().fen()
    black_kings = "B" + "e" * 45 + "WW" + "e" + "BB"  # white kings 46, 47; black 49, 50
    board = board_from_hub(black_kings)
    assert board.turn.name == "BLACK"
    assert {sq + 1: (p.color.name, p.king) for sq, p in board.pieces().items()} == {
        46: ("WHITE", True), 47: ("WHITE", True), 49: ("BLACK", True), 50: ("BLACK", True)}
    assert board_to_hub(board) == black_kings


def test_positions_round_trip() -> None:
    for board in _playouts("international", sample_size(ci=10, full=200), 120, seed=3):
        again = board_from_hub(board_to_hub(board))
        assert again.fen() == board.fen()


@pytest.mark.parametrize(("text", "error"), [
    (START[:-1], "needs 51 characters, got 50"),
    ("X" + START[1:], "must start with W or B"),
    (START[:10] + "k" + START[11:], "bad character 'k' for square 10"),
])
def test_bad_positions(text: str, error: str) -> None:
    with pytest.raises(HubProtocolError, match=error):
        board_from_hub(text)


def test_position_of_another_board_size() -> None:
    # pydraughts' English position: the board turned round, Black (first to move) named "w".
    assert board_to_hub(Board("english")) == "W" + "b" * 12 + "e" * 8 + "w" * 12
    with pytest.raises(HubProtocolError, match="needs 33"):
        board_from_hub(START, "english")


def test_pos_message_sends_the_plies_the_rules_count() -> None:
    board = Board("international", fen="W:WK46,50:BK4,1")
    for origin, destination in ((50, 45), (4, 9), (46, 41), (9, 13)):
        board.push(board.find_move(origin - 1, destination - 1))
    msg = pos_message(board)
    # No capture yet: the man's move 50-45 is sent too (the 25-move count restarts there, the
    # 5- and 16-move counts and Turkish repetitions would run across it).
    assert msg.get("pos") == board_to_hub(board.root())
    assert msg.get("moves") == "50-45 4-9 46-41 9-13"
    again = board_from_pos(msg)
    assert again.fen() == board.fen() and len(again.move_stack) == 4


def test_pos_message_after_a_capture_starts_there() -> None:
    board = played(("international", None, "32-28 19-23 28x19 14x23"))
    assert "moves" not in pos_message(board)
    assert board_from_pos(pos_message(board)).fen() == board.fen()
    board.push(board.parse_move("37-32"))
    assert pos_message(board).get("moves") == "37-32"


def test_the_engine_process_sees_the_16_move_count_across_a_mans_move() -> None:
    # The engine's process is sent this game's pos line: cut after the last man's move (as it
    # was) it saw 7 plies and the game going on.
    board = played(SIXTEEN_MOVES)
    outcome = board.outcome()
    assert outcome is not None and outcome.rule == "fmjd-16-moves"
    assert board_from_pos(pos_message(board)).outcome() == outcome
    before = board.copy()
    last = before.pop()
    seen = board_from_pos(pos_message(before))  # the position the engine answered in
    seen.push(last)
    assert seen.outcome() == outcome


def test_board_from_pos() -> None:
    assert board_from_pos(parse_line("pos start")).fen() == Board().fen()
    assert board_from_pos(parse_line("pos")).fen() == Board().fen()
    board = board_from_pos(parse_line(f'pos pos={START} moves="32-28 19-23 28x19"'))
    assert board.fen() == "B:W19,31,33-50:B1-18,20"
    with pytest.raises(IllegalMoveError):
        board_from_pos(parse_line(f'pos pos={START} moves="32-28 32-28"'))
    with pytest.raises(HubProtocolError):
        board_from_pos(parse_line(f'pos pos={START} moves="32+28"'))


# -- variants --------------------------------------------------------------------------------


def test_variant_names() -> None:
    assert variant_from_hub("normal").name == "international"
    assert variant_from_hub("losing").name == "international-giveaway"
    assert variant_from_hub("russian").name == "russian"
    # Scan's names for the variants it shares with us, and pydraughts' Frysk! name.
    assert [variant_from_hub(n).name for n in ("bt", "frisian", "killer", "frysk!")] == [
        "breakthrough", "frisian", "killer", "frysk"]
    for unsupported in ("spantsiretti", "nonsense"):
        with pytest.raises(HubProtocolError, match="not supported"):
            variant_from_hub(unsupported)
    assert hub_variant_name("international") == "normal"
    assert hub_variant_name("antidraughts") == "losing"
    assert hub_variant_name("brazilian") == "brazilian"


def test_every_mapped_hub_variant_exists_and_maps_back() -> None:
    for hub_name, ours in HUB_VARIANTS.items():
        assert variant_from_hub(hub_name).name == ours
        assert hub_variant_name(ours) == hub_name


@pytest.mark.parametrize(("ours", "hub"), [
    (0, 0.0), (25, 0.25), (-37, -0.37), (1234, 12.34),
    (WIN - 3, 99.97), (-(WIN - 4), -99.96), (WIN, 100.0),
])
def test_scores(ours: int, hub: float) -> None:
    assert score_to_hub(ours) == pytest.approx(hub)
    assert score_from_hub(hub) == ours


def test_scan_bitbase_scores_stay_evaluations() -> None:
    assert score_from_hub(85.5) == 8550  # Scan's bitbase wins carry no distance


# -- square numbering per variant (docs/hub.md) -------------------------------------------------


def test_numbering_as_pydraughts_sends_it() -> None:
    russian = Board("russian")
    assert move_to_hub(russian.parse_move("c3-d4"), "russian") == "10-14"
    assert board_to_hub(russian) == "W" + "b" * 12 + "e" * 8 + "w" * 12
    english = Board("english")
    assert move_to_hub(english.parse_move("11-15"), "english") == "11-15"
    assert board_to_hub(english) == "W" + "b" * 12 + "e" * 8 + "w" * 12  # Black named "W"
    turkish = Board("turkish")
    assert move_to_hub(turkish.parse_move("a3-a4"), "turkish") == "17-25"
    assert board_to_hub(turkish) == "W" + "e" * 8 + "b" * 16 + "e" * 16 + "w" * 16 + "e" * 8
    for name in ("czech", "brazilian", "russian-giveaway"):
        assert move_to_hub(Board(name).parse_move("c3-d4"), name) == "10-14"


@pytest.mark.parametrize("name", [v.name for v in VARIANTS])
def test_numbering_is_a_bijection_and_round_trips(name: str) -> None:
    numbers = numbering(name)
    n = find_variant(name).num_squares
    assert sorted(numbers.wire) == list(range(1, n + 1))
    assert sorted(numbers.position) == list(range(n))
    for board in _playouts(name, 3, 60, seed=11):
        assert board_from_hub(board_to_hub(board), name).fen() == board.fen()
        for move in board.legal_moves:
            assert move_from_hub(board, move_to_hub(move, name)) == board.legal_moves.get(move)
