"""Any position set up by the lights (firmware_host/game/setup.py): the lights by colour and
crown, the pieces to take off, sloppy hands in any order, and the position said set."""

from __future__ import annotations

import random

import pytest

from board_io.types import Pattern, Reading
from engine import Board
from engine.types import Color, Piece
from firmware_host.feedback import leds
from firmware_host.feedback.roles import Role
from firmware_host.game.setup import PUT, SetUp, position_fen
from firmware_host.game.types import State
from firmware_host.terms.commands import Command
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig, SimRig
from tests.firmware_host.set_up_hand import READING

#: The piece a hand puts on a square the lights ask to fill, as the simulated board holds it.
PIECE = {Reading.WHITE: Piece(Color.WHITE, False), Reading.BLACK: Piece(Color.BLACK, False),
         Reading.WHITE_KING: Piece(Color.WHITE, True),
         Reading.BLACK_KING: Piece(Color.BLACK, True)}

#: Positions with men and kings of both sides, set up from the start position.
TARGETS = [
    ("international", "W:WK3,28,33,34,38,45,K50:B7,12,19,23,K44"),
    ("russian", "B:WKa1,c3,e3,g3:Bb6,f6,Kh8,d4"),
]


def readings(variant: str, fen: str | None = None) -> dict[int, Reading]:
    return {sq: next(r for r, p in PIECE.items() if p == piece)
            for sq, piece in Board(variant, fen=fen).pieces().items()}


def test_each_square_lights_its_piece_by_colour_and_crown() -> None:
    target = Board("english", fen="W:W21,K22:B9,K10").pieces()
    setup = SetUp.towards(target, {}, frozenset())
    assert setup.lights(frozenset()) == {8: Role.SET_BLACK, 9: Role.SET_BLACK_KING,
                                         20: Role.SET_WHITE, 21: Role.SET_WHITE_KING}
    assert set(PUT.values()) == set(READING)  # four lights, one a piece


def test_a_known_piece_of_the_wrong_colour_or_crown_comes_off_first() -> None:
    target = Board("english", fen="W:W9,K21:B1").pieces()
    standing = Board("english").pieces()  # Black's man on 9, White's man on 21
    occupied = frozenset({8, 20, 0})
    setup = SetUp.towards(target, standing, occupied)
    assert setup.lights(occupied) == {8: Role.EXTRA, 20: Role.EXTRA}
    assert not setup.done(occupied)
    emptied = setup.seen(occupied - {8, 20})
    assert emptied.lights(occupied - {8, 20}) == {8: Role.SET_WHITE, 20: Role.SET_WHITE_KING}
    assert emptied.seen(occupied).done(occupied)


def test_a_piece_put_where_none_is_wanted_is_taken_off_again() -> None:
    target = Board("english", fen="W:W21:B1").pieces()
    setup = SetUp.towards(target, {}, frozenset({0, 20}))
    assert setup.done(frozenset({0, 20}))  # unknown pieces where wanted: trusted
    slipped = setup.seen(frozenset({0, 20, 14}))
    assert slipped.lights(frozenset({0, 20, 14})) == {14: Role.EXTRA}


def test_the_lights_of_a_set_up_are_told_apart_on_the_board() -> None:
    frame = leds.leds({0: Role.SET_WHITE, 1: Role.SET_BLACK, 2: Role.SET_WHITE_KING,
                       3: Role.SET_BLACK_KING, 4: Role.EXTRA})
    assert len({led.colour for led in frame.values()}) == 3  # a king: its side's colour
    assert frame[0].colour != frame[1].colour and frame[2].colour == frame[0].colour
    assert (frame[0].pattern, frame[1].pattern) == (Pattern.ON, Pattern.ON)
    assert (frame[2].pattern, frame[3].pattern) == (Pattern.FAST, Pattern.FAST)
    # A single-colour board tells a black piece from a white one by its brightness.
    assert max(frame[1].colour) < max(frame[0].colour)


def test_a_position_is_read_from_a_fen_or_a_pdn_game() -> None:
    russian = Board("russian").variant
    assert position_fen(russian, "W:Wc3:Bf6") == "W:Wc3:Bf6"
    assert position_fen(russian, '[GameType "25"] [FEN "W:Wc3:Bf6"] 1. c3-d4 *') == \
        "B:Wd4:Bf6"
    for bad in ("", "W:Wz9:B", "nonsense", '[GameType "20"] 1. 32-28 *', "x" * 3000):
        with pytest.raises(ValueError, match="position"):
            position_fen(russian, bad)


def sloppy_hands(rig: SimRig, rng: random.Random) -> set[Role]:
    """Follow the lights in any order, with slips: a piece put where nothing is lit, a right
    piece lifted and put aside, pauses long and short. Return the lights seen."""
    sim, session = rig.board, rig.session
    seen: set[Role] = set()
    empty = [sq for sq in range(rig.layout.num_squares)]
    for _ in range(400):
        rig.run_for(rng.choice((40, 90, 250, 700)))
        if any(e["event"] == "position_set" for e in rig.events):
            return seen
        frame = session.frame
        seen |= set(frame.values())
        lit = sorted(frame)
        slip = rng.random()
        if slip < 0.08:  # a piece put down on a square nothing asked for, of any colour
            square = rng.choice([sq for sq in empty if sq not in sim.pieces and sq not in lit])
            sim.place(square, rng.choice(list(PIECE)))
        elif slip < 0.14 and (right := [sq for sq in sim.pieces if sq not in lit]):
            sim.lift(rng.choice(right))  # a right piece knocked off (it lights to come back)
        elif lit:
            square = rng.choice(lit)
            role = frame[square]
            if role is Role.EXTRA and square in sim.pieces:
                sim.lift(square)
            elif role in READING and square not in sim.pieces:
                sim.place(square, READING[role])
    raise AssertionError(f"not set up after 400 actions: {session.frame}")


@pytest.mark.parametrize(("variant", "fen"), TARGETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_sloppy_hands_in_any_order_set_a_fen_up_from_the_start(variant: str, fen: str,
                                                               seed: int) -> None:
    rig = SimRig(variant, fen=fen, occupied=readings(variant))  # the start position stands
    rig.run_for(200)
    assert rig.session.state is State.SYNCING
    first = [e for e in rig.events if e["event"] == "setup"]
    assert len(first) == 1 and first[0]["remove"]  # said once, as it begins
    target = Board(variant, fen=fen).pieces()
    wrong = [sq for sq, p in target.items() if sq in rig.board.pieces and p.king]
    assert wrong and all(rig.session.frame[sq] is Role.EXTRA for sq in wrong)  # men: off
    seen = sloppy_hands(rig, random.Random(seed))
    assert {Role.SET_BLACK, Role.SET_WHITE_KING, Role.SET_BLACK_KING, Role.EXTRA} <= seen
    rig.run_for(200)
    # The board holds the position, every piece of its colour and crown.
    assert {sq: PIECE[r] for sq, r in rig.board.pieces.items()} == target
    said = [e for e in rig.events if e["event"] == "position_set"]
    assert len(said) == 1 and said[0]["fen"] == Board(variant, fen=fen).fen()
    assert rig.session.state is State.HUMAN_TO_MOVE and not rig.session.frame
    assert said[0]["side"] == ("white" if fen.startswith("W") else "black")


def test_the_setup_command_starts_a_game_from_the_position_by_the_lights() -> None:
    rig = Rig("english", mode=Mode.PLAY, computer=["10-14"])
    rig.play("22-18")
    rig.computer_move()
    rig.wait(100)
    rig.session.handle(Command("setup", rig.now, value='[FEN "W:W21,K22:B9"] *'))
    assert rig.state == "syncing" and rig.last("new_game")["fen"] == "W:W21,K22:B9"
    # The game's men on 21 and 9 are the position's; 22 was emptied by 22-18.
    assert rig.leds(Role.SET_WHITE_KING) == {"22"} and "18" in rig.leds(Role.EXTRA)
    assert not {"21", "9"} & set(rig.lit())
    rig.set(set())  # every piece off
    assert rig.leds(Role.SET_WHITE) == {"21"} and rig.leds(Role.SET_WHITE_KING) == {"22"}
    assert rig.leds(Role.SET_BLACK) == {"9"}
    rig.set({20, 21, 8})
    assert rig.last("position_set")["side"] == "white" and rig.state == "human_to_move"
    rig.play("21-17")
    assert rig.moves() == ["21-17"]
    assert rig.game().start_fen == "W:W21,K22:B9"


@pytest.mark.parametrize(("value", "mode"), [
    ("W:W99:B1", Mode.PLAY), ("", Mode.PLAY), ("W:W21:B9", Mode.FOLLOW)])
def test_a_setup_that_cannot_be_is_refused_and_nothing_changes(value: str, mode: Mode) -> None:
    rig = Rig("english", mode=Mode.PLAY)
    if mode is Mode.FOLLOW:
        rig.session.config = rig.config = rig.session.config.__class__(mode=Mode.FOLLOW)
    game_id, state = rig.session.game_id, rig.state
    rig.session.handle(Command("setup", rig.now, value=value))
    refused = rig.last("command_refused")
    assert refused["command"] == "setup"
    assert refused["reason"] == ("following" if mode is Mode.FOLLOW else "bad_value")
    assert rig.session.game_id == game_id and rig.state == state


def test_the_newgame_button_sets_the_position_up_again_by_the_lights() -> None:
    rig = Rig("english", mode=Mode.RECORD)
    rig.session.handle(Command("setup", rig.now, value="W:W21,K22:B9"))
    rig.set({20, 21, 8})  # the pieces the game held there were the position's
    rig.set(set())
    rig.set({20, 21, 8})
    assert rig.last("position_set")
    rig.play("22-18")
    rig.press("newgame")
    assert rig.state == "setting_up"
    assert rig.lit() == {"22": "set_white_king", "18": "extra"}  # by colour and crown
    rig.press("newgame")  # pressed again: back to the game, nothing to set up
    assert rig.state == "human_to_move" and rig.lit() == {}
    rig.press("newgame")
    rig.lift("18")
    rig.place("22")
    rig.wait(rig.config.newgame_ms + 100)
    assert rig.last("new_game")["fen"] == "W:W21,K22:B9"
    assert [e["event"] for e in rig.events].count("position_set") == 2
    assert rig.state == "human_to_move" and rig.moves() == []
