"""The live feed in each viewer's language (issue 30): the board's sentences are said in the
board's own language (the event's ``text``); the words of the page the script puts in are the
viewer's (tests/firmware_host/web/test_web_i18n.py)."""

from __future__ import annotations

from firmware_host.web.feed import Delta


def test_a_russian_boards_refusal_is_said_in_russian_on_the_feed() -> None:
    delta = Delta()
    delta.add({"event": "refused", "reason": "capture_compulsory", "capture": "22x13",
               "text": "бить обязательно: 22x13"})
    message = delta.message("b1", hall=False)
    assert message is not None and message["say"] == ["бить обязательно: 22x13"]


def test_an_event_without_text_is_said_from_its_template() -> None:
    delta = Delta()
    delta.add({"event": "refused", "reason": "capture_compulsory", "capture": "22x13"})
    message = delta.message("b1", hall=False)
    assert message is not None and message["say"] == ["a capture is compulsory: 22x13"]


def test_the_state_goes_with_its_language_free_key() -> None:
    delta = Delta()
    delta.add({"event": "state", "state": "human_to_move"})
    message = delta.message("b1", hall=True)
    assert message is not None and message["state_key"] == "human_to_move"
    assert message["state"] == "waiting for a move"  # the key the page's words translate
