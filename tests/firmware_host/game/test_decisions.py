"""The session's helpers decide, the session carries out: what the commands and the timekeeper
return is read without acting, and nothing changes until the session carries it out."""

from __future__ import annotations

from engine.outcome import Termination
from engine.types import Color
from firmware_host.game.decisions import (
    EnterState,
    Evaluate,
    Finish,
    HoldChanged,
    OfferDraw,
    Publish,
    Save,
    Search,
)
from firmware_host.game.types import State
from firmware_host.terms.commands import Command
from firmware_host.terms.jobs import Purpose
from firmware_host.terms.settings import Mode
from tests.firmware_host.session_harness import Rig


def test_a_resignation_is_a_finish_the_commands_do_not_carry_out() -> None:
    rig = Rig("international")
    rig.play("32-28")
    decisions = rig.session._commands.decide(Command("resign", rig.now, side="white"))
    assert len(decisions) == 1 and isinstance(decisions[0], Finish)
    assert decisions[0].outcome.termination is Termination.RESIGNATION
    assert decisions[0].outcome.winner is Color.BLACK
    assert rig.session.outcome is None  # nothing done yet
    rig.session.handle(Command("resign", rig.now, side="white"))
    assert rig.session.outcome is not None and rig.last("result")["winner"] == "black"


def test_a_draw_offer_and_a_new_game_are_decisions() -> None:
    rig = Rig("international")
    rig.play("32-28")
    assert rig.session._commands.decide(Command("draw", rig.now, side="white")) == [
        OfferDraw(Color.WHITE)]
    assert rig.session.game.offer is None
    assert rig.session._commands.decide(Command("newgame", rig.now)) == [
        EnterState(State.SETTING_UP), Publish("newgame_requested"), Evaluate(rig.now)]
    assert rig.session.state is not State.SETTING_UP


def test_a_hint_is_a_search_decided() -> None:
    rig = Rig("english", mode=Mode.PLAY, computer=["22-18"], human_side=Color.BLACK)
    assert rig.session._commands.decide(Command("hint", rig.now)) == [Search(Purpose.HINT)]


def test_the_arbiters_hold_is_decided_by_the_timekeeper_and_carried_out_by_the_session(
) -> None:
    rig = Rig("international", time_control="5+0")
    rig.play("32-28")
    decisions = rig.session.timekeeper.command(Command("pause", rig.now))
    kinds = [type(decision) for decision in decisions]
    assert kinds == [Save, Publish, HoldChanged]
    assert rig.session.state is not State.PAUSED  # the session has not carried it out


def test_the_partner_s_last_move_that_ends_the_game_ends_it_here_by_the_rules() -> None:
    # A person on another board took White's last piece: the move lit here and the partner's
    # end arrive together; the move goes in the record and the rules end the game, as on the
    # partner's board (no "ended on the other board" note: both records alike).
    rig = Rig("international", mode=Mode.PLAY, fen="B:W28:B23", computer=["23x32"],
              human_side=Color.WHITE, remote=True, partner="club-b")
    assert rig.session.pending is not None  # lit, not carried out
    rig.session.handle(Command("followed_result", rig.now, value="0-2", tag="no_moves"))
    assert rig.session.outcome is not None
    assert rig.session.outcome.termination is Termination.NO_MOVES
    game = rig.store.load_game(rig.session.game_id)
    assert [m.pdn for m in game.moves] == ["23x32"] and game.result == "0-2"
    assert game.notes == []


def test_the_partner_s_resignation_after_its_move_puts_the_move_in_the_record() -> None:
    rig = Rig("international", mode=Mode.PLAY, fen="B:W28,K50:B23,K1", computer=["23x32"],
              human_side=Color.WHITE, remote=True, partner="club-b")
    rig.session.handle(Command("followed_result", rig.now, value="2-0", tag="resignation",
                               note="Black resigned"))
    game = rig.store.load_game(rig.session.game_id)
    assert [m.pdn for m in game.moves] == ["23x32"]
    assert (game.result, game.termination, game.notes) == ("2-0", "resignation",
                                                           [(1, "Black resigned")])
