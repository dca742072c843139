"""The board's voice: the computer's move, refusals and the result spoken aloud.

For players who cannot see the LEDs well, and for children. ``[voice] enabled = true`` turns it
on (off by default); the sentences are the events' own, in the board's language
(``board.language``), spoken by ``espeak-ng`` through the audio out.

Speaking never holds up the scan thread: :meth:`Speaker.say` puts the sentence on a bounded
queue and returns; one worker thread speaks them in turn, and when the queue is full the
oldest sentence waiting is dropped (a board that says three moves late helps nobody).

Squares are spoken as players say them: numbers on numeric boards ("32 28"), letter and digit
on algebraic ones ("c 3 d 4").

>>> from firmware_host.i18n import translator
>>> spoken_move("32-28", translator("en")), spoken_move("22x13x24", translator("en"))
('32 to 28', '22 takes 13 takes 24')
>>> spoken_move("c3-d4", translator("ru"))
'c 3 на d 4'
>>> espeak_voice("pt_BR"), espeak_voice("ja"), espeak_voice("en")
('pt-br', 'ja', 'en-gb')
"""

from __future__ import annotations

import logging
import queue
import re
import shutil
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from typing import Protocol

from firmware_host.config.schema import BOARD_LANGUAGE, VOICE_COMMAND, VOICE_ENABLED, Settings
from firmware_host.feedback.texts import render
from firmware_host.i18n import N_, Translator, translator

__all__ = ["Speaker", "espeak_command", "espeak_voice", "open_voice", "sentence", "spoken_move",
           "voice_listener"]

log = logging.getLogger(__name__)

#: The events the voice says.
SPOKEN_EVENTS = frozenset({"computer_move", "refused", "result", "lesson"})
#: espeak-ng's voice of each board language.
_VOICES = {"en": "en-gb", "ru": "ru", "nl": "nl", "fr": "fr-fr", "pt_BR": "pt-br", "ja": "ja",
           "ko": "ko"}
_SQUARE = re.compile(r"([a-z]?)(\d+)")


def espeak_voice(language: str) -> str:
    """espeak-ng's voice (``-v``) for a board language."""
    return _VOICES.get(language, "en-gb")


def espeak_command(text: str, language: str, program: str = "espeak-ng",
                   wav: str | None = None) -> list[str]:
    """The command line speaking ``text`` (into the WAV file ``wav`` if given).

    >>> espeak_command("hello", "nl", wav="/tmp/x.wav")
    ['espeak-ng', '-v', 'nl', '-w', '/tmp/x.wav', '--', 'hello']
    """
    out = ["-w", wav] if wav else []
    return [program, "-v", espeak_voice(language), *out, "--", text]


def _square(name: str) -> str:
    match = _SQUARE.fullmatch(name)
    if match is None:
        return name
    letter, digits = match.groups()
    return f"{letter} {digits}" if letter else digits


def spoken_move(pdn: str, tr: Translator) -> str:
    """A move as a player says it: squares joined by "to" (a step) or "takes" (a capture)."""
    capture = "x" in pdn
    squares = [_square(part) for part in re.split(r"[-x:]", pdn) if part]
    if len(squares) < 2:
        return pdn
    joint = tr.gettext(N_("takes")) if capture else tr.gettext(N_("to"))
    return f" {joint} ".join(squares)


def sentence(event: Mapping[str, object], tr: Translator) -> str | None:
    """What the voice says for ``event`` (None: nothing).

    >>> from firmware_host.i18n import translator
    >>> sentence({"event": "computer_move", "pdn": "32-28"}, translator("en"))
    'the computer plays 32 to 28'
    >>> sentence({"event": "computer_move", "pdn": "32-28", "reason": "remote"}, translator("en"))
    'your opponent plays 32 to 28'
    >>> sentence({"event": "move", "pdn": "32-28"}, translator("en")) is None
    True
    """
    kind = event.get("event")
    if kind not in SPOKEN_EVENTS:
        return None
    pdn, text = event.get("pdn"), event.get("text")
    if kind == "lesson":  # the coach's sentence, in the board's language already
        return text if isinstance(text, str) and text else None
    if kind == "computer_move" and isinstance(pdn, str):
        move = spoken_move(pdn, tr)
        opponent = event.get("opponent")
        match event.get("reason"):
            case "follow":  # (the followed game's move: nobody plays against this board)
                return tr.gettext(N_("{move} in the followed game")).format(move=move)
            case "remote" if isinstance(opponent, str) and opponent:
                return tr.gettext(N_("{opponent} plays {move}")).format(opponent=opponent,
                                                                       move=move)
            case "remote":
                return tr.gettext(N_("your opponent plays {move}")).format(move=move)
        return tr.gettext(N_("the computer plays {move}")).format(move=move)
    return render(event, tr)


Runner = Callable[[Sequence[str]], object]


def _run(command: Sequence[str]) -> object:
    return subprocess.run(command, check=False, timeout=60, stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class Speaker:
    """Speaks sentences on a worker thread, never blocking the caller.

    ``runner`` runs one command line (the tests record them, or write WAV files).

    >>> said = []
    >>> speaker = Speaker("nl", runner=said.append)
    >>> speaker.say("hallo")
    >>> speaker.close()
    >>> said
    [['espeak-ng', '-v', 'nl', '--', 'hallo']]
    """

    def __init__(self, language: str, program: str = "espeak-ng", runner: Runner = _run,
                 capacity: int = 3) -> None:
        self.language = language
        self.program = program
        self._runner = runner
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=capacity)
        self._lock = threading.Lock()
        self.dropped = 0
        self._thread = threading.Thread(target=self._work, name="voice", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        """Queue ``text``; when the queue is full, drop the oldest sentence waiting."""
        with self._lock:
            while True:
                try:
                    self._queue.put_nowait(text)
                    return
                except queue.Full:
                    try:
                        self._queue.get_nowait()
                        self.dropped += 1
                    except queue.Empty:  # pragma: no cover - the worker just took it
                        pass

    def close(self) -> None:
        """Say what is queued, then stop the worker (a voice stuck for a minute is left)."""
        try:
            self._queue.put(None, timeout=60)
        except queue.Full:  # the speech program hangs: stop after it without the rest
            with self._lock:
                while True:
                    try:
                        self._queue.put_nowait(None)
                        break
                    except queue.Full:
                        self._queue.get_nowait()
                        self.dropped += 1
        self._thread.join(timeout=60)

    def _work(self) -> None:
        while True:
            text = self._queue.get()
            if text is None:
                return
            try:
                self._runner(espeak_command(text, self.language, self.program))
            except Exception as exc:  # a missing or broken speech program never stops the game
                log.warning("voice: %s failed: %s", self.program, exc)


def voice_listener(speaker: Speaker, tr: Translator) -> Callable[[Mapping[str, object]], None]:
    """A session listener passing what the voice says to ``speaker``.

    >>> from firmware_host.i18n import translator
    >>> said = []
    >>> speaker = Speaker("ru", runner=said.append)
    >>> voice_listener(speaker, translator("ru"))({"event": "computer_move", "pdn": "32-28"})
    >>> speaker.close()
    >>> said[0][-1]
    'компьютер ходит 32 на 28'
    """

    def listen(event: Mapping[str, object]) -> None:
        text = sentence(event, tr)
        if text:
            speaker.say(text)

    return listen


class _Subscriber(Protocol):
    def subscribe(self, listener: Callable[[Mapping[str, object]], None]) -> None: ...


def open_voice(config: Settings, stack: ExitStack, session: _Subscriber,
               runner: Runner = _run) -> Speaker | None:
    """Give ``session`` a voice when ``voice.enabled`` (closed with ``stack``); None when off,
    or when the speech program is missing (said once in the log, the board plays on).

    >>> from firmware_host.config import Config
    >>> open_voice(Config.from_mapping({}), ExitStack(), None) is None  # type: ignore[arg-type]
    True
    """
    if not config[VOICE_ENABLED]:
        return None
    program = config[VOICE_COMMAND]
    if shutil.which(program) is None:
        log.warning("voice: %s is not installed (apt install espeak-ng): the board stays silent",
                    program)
        return None
    language = translator(config[BOARD_LANGUAGE]).language
    speaker = Speaker(language, program, runner)
    stack.callback(speaker.close)
    session.subscribe(voice_listener(speaker, translator(language)))
    return speaker
