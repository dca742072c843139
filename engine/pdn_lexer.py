"""Tokens of PDN text, for :mod:`engine.pdn`: tags, comments, variations, moves, results.

Also the errors (:class:`PdnError`, with line and column) and the GameType tag parser.

>>> [t.kind for t in tokens(Source('[Event "x"] 1. 32-28! {ok} *'))]
['tag', 'number', 'move', 'comment', 'result']
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from engine.errors import DraughtsError
from engine.outcome import RESULTS

__all__ = ["GameType", "PdnError", "Source", "Token", "normalise", "parse_gametype", "tokens"]

# A tag is scanned in linear time and memory (a backtracking regex took ~165 bytes of stack per
# byte of a long value); its name and value have a length limit far above any real tag's.
_TAG_NAME = re.compile(r"[A-Za-z0-9_]{1,64}")
_TAG_PLAIN = re.compile(r'[^"\\\n]*')
#: The longest tag value read (a 12x12 FEN is some 300 characters; an Annotator a line).
MAX_TAG_VALUE = 4096
_SQUARE = r"(?:[A-Za-z][0-9]{1,2}|[0-9]{1,3})"
# A move and its strength sign; whatever follows (say a glued "*" result) is read on its own.
_MOVE = re.compile(
    rf"({_SQUARE}(?:[-xX:×]{_SQUARE})+|(?:[A-Za-z][0-9]{{1,2}}){{2,}})([!?]{{0,2}})"
)
_PAREN_STRENGTH = re.compile(r"\([!?]{1,2}\)")
_DANGLING = re.compile(rf"(?:\A|\.){_SQUARE}(?:[-xX:]{_SQUARE})*[-xX:]\Z")
_BARE_SQUARE = re.compile(r"[A-Za-z][0-9]{1,2}|[0-9]{1,3}")
_NUMBER = re.compile(r"([0-9]+)(\.+)")
_NAG = re.compile(r"\$[0-9]+\Z")
_SIGNS = re.compile(r"[!?+=#~∞±∓\-–—]+\Z")
_DELIMITERS = frozenset("{}()[];")
_SPACE = re.compile(r"\s+")
_RESULT_ALIASES = {"½-½": "1/2-1/2"}


class PdnError(DraughtsError, ValueError):
    """Malformed or illegal PDN: ``line`` and ``column`` (1-based) say where."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.reason = message
        self.line = line
        self.column = column
        #: Where in the text, when the tokeniser raised it (reading resumes after it).
        self.offset: int | None = None


@dataclass(frozen=True)
class GameType:
    """A parsed GameType tag: ``20`` or ``20,W,10,10,N2,0``.

    ``start`` is the colour that moves first (``"W"``/``"B"``), ``notation`` the square notation
    (``"A"`` alphanumeric, ``"N"`` numeric, ``"S"`` short) with ``corner`` the corner of square 1,
    ``invert`` whether the bottom-left square is not a playing square. Missing fields are ``None``.
    """

    number: int
    start: str | None = None
    width: int | None = None
    height: int | None = None
    notation: str | None = None
    corner: int | None = None
    invert: bool | None = None


def parse_gametype(text: str) -> GameType:
    """Parse a GameType tag value.

    >>> parse_gametype("25,W,8,8,A0,0").notation
    'A'

    Raises:
        ValueError: the value is not ``number`` or the six-field form.
    """
    fields = [f.strip() for f in text.split(",")]
    if not fields[0].isdigit():
        raise ValueError(f"GameType must start with a number, not {fields[0]!r}")
    if len(fields) == 1:
        return GameType(int(fields[0]))
    if len(fields) != 6:
        raise ValueError(f"GameType needs 1 or 6 comma-separated fields, not {len(fields)}")
    number, start, width, height, notation, invert = fields
    if start.upper() not in ("W", "B"):
        raise ValueError(f"GameType start colour must be W or B, not {start!r}")
    sizes_ok = width.isdigit() and height.isdigit()
    if not (sizes_ok and 4 <= int(width) <= 26 and 4 <= int(height) <= 26):
        raise ValueError(f"GameType board size must be 4..26 squares, not {width}x{height}")
    if not re.fullmatch(r"[ANS][0-3]", notation.upper()):
        raise ValueError(f"GameType notation must be A, N or S and a corner 0-3, not {notation!r}")
    if invert not in ("0", "1"):
        raise ValueError(f"GameType invert flag must be 0 or 1, not {invert!r}")
    return GameType(
        int(number), start.upper(), int(width), int(height),
        notation[0].upper(), int(notation[1]), invert == "1",
    )


class Token(NamedTuple):
    """One token: its kind, text, 1-based line and column; ``value`` of a tag or move sign."""

    kind: str  # tag, comment, variation, number, move, nag, sign, result
    text: str
    line: int
    col: int
    value: str = ""


class Source:
    """PDN text, with offsets turned into (line, column)."""

    def __init__(self, text: str) -> None:
        self.text = text
        # Lines are counted as offsets are asked for, forward from the last one asked (tokens
        # come in order): linear in the text, at C speed, and no table of line starts (10 MB of
        # blank lines made 10 M of them).
        self._offset, self._line, self._start = 0, 1, 0

    def where(self, offset: int) -> tuple[int, int]:
        """``(line, column)``, 1-based, of ``offset``."""
        if offset < self._offset:
            self._offset, self._line, self._start = 0, 1, 0
        lines = self.text.count("\n", self._offset, offset)
        if lines:
            self._line += lines
            self._start = self.text.rfind("\n", self._offset, offset) + 1
        self._offset = offset
        return self._line, offset - self._start + 1

    def error(self, message: str, offset: int) -> PdnError:
        error = PdnError(message, *self.where(offset))
        error.offset = offset
        return error



def normalise(text: str) -> str:
    """Drop a byte-order mark; CRLF and CR line ends become LF (so lines count right)."""
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def tokens(src: Source, start: int = 0) -> Iterator[Token]:
    """The tokens of ``src`` from offset ``start``.

    Raises:
        PdnError: an unclosed comment, variation or tag, a stray bracket, an unknown word.
    """
    text, i, n = src.text, start, len(src.text)
    while i < n:
        c = text[i]
        if c.isspace():  # a run of blanks at once: 10 MB of them is one match, not 10 M steps
            space = _SPACE.match(text, i)
            i = space.end() if space else i + 1
        elif c == "%" and (i == 0 or text[i - 1] == "\n"):  # escape line (from PGN)
            i = _line_end(text, i)
        elif c == ";":
            end = _line_end(text, i)
            yield Token("comment", text[i + 1 : end].strip(), *src.where(i))
            i = end
        elif c == "{":
            end = text.find("}", i + 1)
            if end < 0:
                raise src.error("comment '{' is never closed by '}'", i)
            yield Token("comment", " ".join(text[i + 1 : end].split()), *src.where(i))
            i = end + 1
        elif c == "[":
            tok, i = _tag(src, i)
            yield tok
        elif c == "(" and _PAREN_STRENGTH.match(text, i):  # "29-23(?)": a move strength
            end = text.index(")", i) + 1
            yield Token("sign", text[i:end], *src.where(i))
            i = end
        elif c == "(":
            end = _variation_end(src, i)
            yield Token("variation", " ".join(text[i + 1 : end].split()), *src.where(i))
            i = end + 1
        elif c in ")]}":
            raise src.error(f"unexpected {c!r} with no opening bracket", i)
        else:
            end = _word_end(text, i)
            word = text[i:end]
            while True:  # "1- 6", "1 -6": a move split by column-aligning spaces
                after = _skip_blanks(text, end)
                if after < n and _splits_move(word, text[after]):
                    end = _word_end(text, after)
                    word += text[after:end]
                else:
                    break
            yield from _words(src, word, i)
            i = end


def _word_end(text: str, i: int) -> int:
    while i < len(text) and not text[i].isspace() and text[i] not in _DELIMITERS:
        i += 1
    return i


def _skip_blanks(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _splits_move(word: str, following: str) -> bool:
    """Whether ``word`` and the word starting with ``following`` are one move written apart."""
    if _DANGLING.search(word):
        return following.isalnum()
    return following in "-xX:" and _BARE_SQUARE.fullmatch(word) is not None


def _line_end(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _tag(src: Source, i: int) -> tuple[Token, int]:
    """The tag at ``i`` (``[Name "value"]``, ``\\`` escaping the next character)."""
    text = src.text
    j = _skip_blanks(text, i + 1)
    name = _TAG_NAME.match(text, j)
    parts: list[str] = []
    end = -1
    if name is not None:
        j = _skip_blanks(text, name.end())
        if j > name.end() and text.startswith('"', j):
            j, size = j + 1, 0
            while True:  # plain runs, then one escaped character, until the closing quote
                plain = _TAG_PLAIN.match(text, j)  # never None: [^...]* matches ""
                plain_end = j if plain is None else plain.end()
                parts.append(text[j:plain_end])
                size += plain_end - j
                j = plain_end
                if size > MAX_TAG_VALUE:
                    raise src.error(f"tag {name.group()} is longer than {MAX_TAG_VALUE} "
                                    "characters", i)
                if text.startswith('"', j):
                    j = _skip_blanks(text, j + 1)
                    end = j + 1 if text.startswith("]", j) else -1
                    break
                if not text.startswith("\\", j) or j + 1 >= len(text) or text[j + 1] == "\n":
                    break
                parts.append(text[j + 1])
                size += 1
                j += 2
    if name is None or end < 0:
        line_end = _line_end(text, i)
        snippet = text[i:min(line_end, i + 60)]
        if "]" not in text[i:line_end]:
            raise src.error(f"tag {snippet!r} is not closed by ']' on its line", i)
        raise src.error(f'malformed tag {snippet!r}: expected [Name "value"]', i)
    return Token("tag", name.group(), *src.where(i), value="".join(parts)), end


def _variation_end(src: Source, start: int) -> int:
    """Return the offset of the ')' closing the '(' at ``start`` (nested, comments skipped)."""
    text, depth, i = src.text, 0, start
    while i < len(text):
        c = text[i]
        if c == "{":
            close = text.find("}", i)
            if close < 0:
                raise src.error("comment '{' is never closed by '}'", i)
            i = close
        elif c == ";":
            i = _line_end(text, i)
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise src.error("variation '(' is never closed by ')'", start)


def _words(src: Source, word: str, offset: int) -> Iterator[Token]:
    """Classify one whitespace-delimited word (a move number may be glued to its move)."""
    while word:
        line, col = src.where(offset)
        word = _RESULT_ALIASES.get(word, word)
        if word in RESULTS:
            yield Token("result", word, line, col)
            return
        number = _NUMBER.match(word)
        if number:
            yield Token("number", number.group(0), line, col)
            offset += number.end()
            word = word[number.end() :]
            continue
        if word.strip(".") == "":  # an ellipsis on its own: "1. ... 19-23"
            return
        move = _MOVE.match(word)
        if move:
            yield Token("move", move.group(1), line, col, value=move.group(2))
            offset += move.end()
            word = word[move.end() :]
            continue
        if _NAG.match(word):
            yield Token("nag", word, line, col)
        elif _SIGNS.match(word):
            yield Token("sign", word, line, col)
        elif word.startswith("/"):
            raise src.error("setup commands (/FEN .../) inside a game are not supported", offset)
        else:
            message = f"unexpected {word[:40]!r}: not a move, move number or result"
            raise src.error(message, offset)
        return


