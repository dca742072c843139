"""The board's voice (issue 30): espeak-ng's speech of the board's sentences, off the scan
thread, in the board's language."""

from __future__ import annotations

import array
import shutil
import subprocess
import threading
import wave
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from firmware_host.config.loader import Config
from firmware_host.feedback.texts import render
from firmware_host.i18n import translator
from firmware_host.i18n.catalogs import translated_languages
from firmware_host.voice import Speaker, espeak_command, open_voice, sentence, spoken_move
from tests.firmware_host.session_harness import Rig

ESPEAK = shutil.which("espeak-ng")


def _speech(path: Path) -> tuple[float, float, float]:
    """(seconds, loudness of the whole, share of 20 ms frames that are not silence)."""
    with wave.open(str(path)) as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1
        rate = wav.getframerate()
        samples = array.array("h", wav.readframes(wav.getnframes()))
    seconds = len(samples) / rate
    rms = (sum(s * s for s in samples) / max(len(samples), 1)) ** 0.5
    frame = rate // 50
    loud = [max(abs(s) for s in samples[i:i + frame]) > 500
            for i in range(0, len(samples) - frame, frame)]
    return seconds, rms, sum(loud) / max(len(loud), 1)


@pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed (apt install espeak-ng)")
@pytest.mark.parametrize(("language", "event"), [
    ("ru", {"event": "refused", "reason": "capture_compulsory", "capture": "c3:e5"}),
    ("nl", {"event": "computer_move", "pdn": "32-28"}),
    ("ja", {"event": "result", "result": "2-0", "termination": "resignation"}),
    ("en", {"event": "computer_move", "pdn": "22x13x24"}),
])
def test_the_sentence_renders_to_speech_of_a_plausible_length(
        language: str, event: dict[str, Any], tmp_path: Path) -> None:
    text = sentence(event, translator(language))
    assert text
    wav = tmp_path / "said.wav"
    subprocess.run(espeak_command(text, language, wav=str(wav)), check=True, timeout=60,
                   capture_output=True)
    seconds, rms, voiced = _speech(wav)
    # Speech, not silence or a click: a few syllables a second (espeak-ng's 175 words a
    # minute), so between 0.04 s and 0.5 s for each character of the sentence.
    assert 0.04 * len(text) < seconds < 0.5 * len(text) + 1, (text, seconds)
    assert rms > 300 and voiced > 0.3, (rms, voiced)


@pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed (apt install espeak-ng)")
def test_a_longer_sentence_is_spoken_longer(tmp_path: Path) -> None:
    ru = translator("ru")
    short = sentence({"event": "computer_move", "pdn": "c3-d4"}, ru)
    long = sentence({"event": "refused", "reason": "touch_move", "square": "c3"}, ru)
    assert short and long and len(long) > 2 * len(short)
    lengths = []
    for name, text in (("short", short), ("long", long)):
        wav = tmp_path / f"{name}.wav"
        subprocess.run(espeak_command(text, "ru", wav=str(wav)), check=True, timeout=60,
                       capture_output=True)
        lengths.append(_speech(wav)[0])
    assert lengths[1] > 1.5 * lengths[0]


def test_squares_are_said_as_players_say_them() -> None:
    en, ru = translator("en"), translator("ru")
    assert spoken_move("32-28", en) == "32 to 28"  # numeric board: numbers
    assert spoken_move("c3:e5:g7", ru) == "c 3 на e 5 на g 7"  # algebraic: letter, digit
    assert spoken_move("c3xe5", ru) == "c 3 бьёт на e 5"


def test_saying_never_blocks_and_the_oldest_waiting_is_dropped() -> None:
    started, release = threading.Event(), threading.Event()
    said: list[str] = []

    def slow(command: Any) -> None:
        said.append(command[-1])
        started.set()
        assert release.wait(30)

    speaker = Speaker("en", runner=slow, capacity=3)
    speaker.say("one")
    assert started.wait(30)  # the worker is speaking "one" and stays there
    for text in ("two", "three", "four", "five", "six"):
        speaker.say(text)  # returns at once though the voice is busy
    assert speaker.dropped == 2
    release.set()
    speaker.close()
    assert said == ["one", "four", "five", "six"]


def test_a_failing_speech_program_never_stops_the_speaker() -> None:
    said: list[str] = []

    def flaky(command: Any) -> None:
        if command[-1] == "bad":
            raise OSError("no audio device")
        said.append(command[-1])

    speaker = Speaker("en", runner=flaky)
    speaker.say("bad")
    speaker.say("good")
    speaker.close()
    assert said == ["good"]


@pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed (apt install espeak-ng)")
def test_a_russian_board_with_voice_says_refusals_in_russian() -> None:
    commands: list[list[str]] = []
    config = Config.from_mapping({"board": {"language": "ru"}, "voice": {"enabled": True}})
    rig = Rig("russian", fen="W:Wc3:Bd4,h8", language="ru")
    with ExitStack() as stack:
        speaker = open_voice(config, stack, rig.session, runner=lambda c: commands.append(list(c)))
        assert speaker is not None
        rig.lift("c3")
        rig.place("b4")
        rig.wait(rig.config.settle_ms + 10)
    assert commands == [["espeak-ng", "-v", "ru", "--", "бить обязательно: c3:e5"]]


def test_the_voice_is_off_by_default_and_a_missing_program_is_no_crash() -> None:
    rig = Rig("english")
    with ExitStack() as stack:
        assert open_voice(Config.from_mapping({}), stack, rig.session) is None
        missing = Config.from_mapping({"voice": {"enabled": True,
                                                 "command": "no-such-speech-program"}})
        assert open_voice(missing, stack, rig.session) is None


@pytest.mark.parametrize("language", ["en", *translated_languages()])
@pytest.mark.parametrize(("fields", "computer"), [
    ({}, True),
    ({"reason": "follow"}, False),
    ({"reason": "remote"}, False),
    ({"reason": "remote", "opponent": "Ann Smit"}, False),
])
def test_the_lit_move_is_said_as_whose_it_is(language: str, fields: dict[str, str],
                                             computer: bool) -> None:
    """A move of the followed game, or of a person on another board, is not the computer's:
    in every language the board says whose it is (the other player by name when it has one)."""
    tr = translator(language)
    event = {"event": "computer_move", "pdn": "32-28", **fields}
    spoken, written = sentence(event, tr), render(event, tr)
    assert spoken is not None and written is not None
    the_computer = sentence({"event": "computer_move", "pdn": "32-28"}, tr)
    assert (spoken == the_computer) is computer
    assert (written == render({"event": "computer_move", "pdn": "32-28"}, tr)) is computer
    if "opponent" in fields:
        assert "Ann Smit" in spoken and "Ann Smit" in written
