"""The live feed in each viewer's language (issues 30, 39): a board's sentence goes in every
language, rendered from its event's key and values, and each page shows its viewer's (the
board's own ``text``, in the board's language, stays for the log and the PDN); the words of the
page the script puts in are the viewer's (tests/firmware_host/web/test_web_i18n.py)."""

from __future__ import annotations

from firmware_host.web.feed import Delta


def test_a_russian_boards_refusal_is_said_in_every_viewers_language() -> None:
    # Issue 39: an English sentence under a translated heading on every translated page.
    delta = Delta()
    delta.add({"event": "refused", "reason": "capture_compulsory", "capture": "22x13",
               "text": "бить обязательно: 22x13"})
    message = delta.message("b1", hall=False)
    assert message is not None
    (said,) = message["say"]
    assert said["ru"] == "бить обязательно: 22x13"
    assert said["en"] == "a capture is compulsory: 22x13"
    assert said["nl"] == "slaan is verplicht: 22x13"
    assert set(said) == {"en", "ru", "nl", "fr", "pt_BR", "ja", "ko"}


def test_an_event_of_a_newer_kind_is_said_in_the_boards_words() -> None:
    delta = Delta()
    delta.add({"event": "refused", "reason": "capture_compulsory", "capture": "22x13"})
    delta.add({"event": "computer_move", "text": "компьютер ходит"})  # no pdn: no sentence
    message = delta.message("b1", hall=False)
    assert message is not None
    assert message["say"][0]["ja"] == "取れる駒は必ず取ります：22x13"
    assert message["say"][1]["en"] == "компьютер ходит"


def test_the_state_goes_with_its_language_free_key() -> None:
    delta = Delta()
    delta.add({"event": "state", "state": "human_to_move"})
    message = delta.message("b1", hall=True)
    assert message is not None and message["state_key"] == "human_to_move"
    assert message["state"] == "waiting for a move"  # the key the page's words translate
