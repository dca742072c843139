"""PDN 3.0 (Portable Draughts Notation): read and write whole games.

The reader is tolerant of what real files contain (a byte-order mark, CRLF line ends, comments in
braces or after ``;``, variations, NAGs, move numbers in every form, the annotation signs
``! ? !! ?? !? ?!``, every result style, unknown tags) and precise about what it cannot read: a
:class:`PdnError` names the line, the column and, for an illegal move, the move number.

>>> from engine.pdn import read_games, write_game
>>> game = read_games('[GameType "20"]\\n1. 32-28 19-23 2. 28x19 14x23 *')[0]
>>> [game.variant.name, game.move_texts, game.result]
['international', ['32-28', '19-23', '28x19', '14x23'], '*']
>>> print(write_game({"Event": "Club"}, game.moves, "*", variant="international"))
... # doctest: +ELLIPSIS
[Event "Club"]
...
1. 32-28 19-23 2. 28x19 14x23 *
<BLANKLINE>
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.board import Board
from engine.outcome import RESULTS, Outcome
from engine.pdn_gametype import (
    CANONICAL_VARIANT,
    gametype_number,
    gametype_tag,
    variant_for_number,
)
from engine.pdn_lexer import (
    GameType,
    PdnError,
    Source,
    Token,
    normalise,
    parse_gametype,
    tokens,
)
from engine.types import BLACK, WHITE, Move
from engine.variant import Variant, find_variant

__all__ = [
    "GameType",
    "PdnError",
    "PdnGame",
    "line_text",
    "parse_gametype",
    "read_games",
    "write_board",
    "write_game",
    "write_games",
]

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_ROSTER_DEFAULTS = {"Date": "????.??.??"}
_MANAGED = frozenset({*ROSTER, "GameType", "SetUp", "FEN", "Variant"})
_TAG_NAME = re.compile(r"[A-Z][A-Za-z0-9_]*\Z")  # PDN 3.0: a tag name starts with a capital
_SEPARATORS = re.compile(r"[-xX:×]")
_ALPHA_SQUARE = re.compile(r"[A-Za-z][0-9]{1,2}")

@dataclass
class PdnGame:
    """One game read from PDN.

    ``moves`` are the played moves (validated), ``move_texts`` their text as written (annotation
    signs removed). ``comments[i]`` are the comments after the ``i``-th move (``0``: before the
    first), ``annotations[i]`` the signs and NAGs of move ``i`` (0-based), ``variations[i]`` the
    raw text of the variations given as alternatives to move ``i``. ``line`` is where the game
    starts in the text.
    """

    headers: dict[str, str]
    variant: Variant
    start_fen: str
    moves: list[Move]
    move_texts: list[str]
    result: str
    comments: dict[int, list[str]] = field(default_factory=dict)
    annotations: dict[int, list[str]] = field(default_factory=dict)
    variations: dict[int, list[str]] = field(default_factory=dict)
    gametype: GameType | None = None
    line: int = 1

    def board(self) -> Board:
        """Return a board at the end of the game (its move stack holds the moves).

        >>> read_games("1. 32-28 *")[0].board().ply
        1
        """
        board = Board(self.variant.name, fen=self.start_fen)
        for move in self.moves:
            board.push(move)
        return board

    @property
    def outcome(self) -> Outcome | None:
        """The result as an :class:`~engine.outcome.Outcome` (reason unknown), None for ``*``.

        >>> read_games("1. 32-28 0-2")[0].outcome.winner
        <Color.BLACK: 1>
        """
        tag = self.headers.get("GameType")
        outcome = Outcome.from_result(self.result, gametype=tag or gametype_number(self.variant))
        if outcome is None:
            return None
        return Outcome(outcome.termination, outcome.winner, gametype=gametype_number(self.variant))

    def pdn(self) -> str:
        """Write this game back as PDN (see :func:`write_game`)."""
        return write_game(
            self.headers, self.moves, self.result,
            variant=self.variant, start_fen=self.start_fen, comments=self.comments,
        )


@dataclass
class _Draft:
    """A game as tokenised, before its moves are checked."""

    line: int
    headers: dict[str, str] = field(default_factory=dict)
    tag_pos: dict[str, tuple[int, int]] = field(default_factory=dict)
    moves: list[Token] = field(default_factory=list)
    comments: dict[int, list[str]] = field(default_factory=dict)
    annotations: dict[int, list[str]] = field(default_factory=dict)
    variations: dict[int, list[str]] = field(default_factory=dict)
    result: str | None = None
    movetext: bool = False

    def add(self, tok: Token) -> None:
        last = len(self.moves) - 1
        if tok.kind == "tag":
            self.headers[tok.text] = tok.value
            self.tag_pos[tok.text] = (tok.line, tok.col)
            return
        self.movetext = True
        if tok.kind == "move":
            self.moves.append(tok)
            if tok.value:
                self.annotations.setdefault(last + 1, []).append(tok.value)
        elif tok.kind == "comment":
            self.comments.setdefault(last + 1, []).append(tok.text)
        elif tok.kind == "variation":
            self.variations.setdefault(max(last, 0), []).append(tok.text)
        elif tok.kind in ("nag", "sign") and last >= 0:
            self.annotations.setdefault(last, []).append(tok.text)


def _drafts(src: Source, start: int = 0) -> Iterator[_Draft]:
    draft: _Draft | None = None
    for tok in tokens(src, start):
        if draft is not None and tok.kind == "tag" and draft.movetext:
            yield draft  # a game without a result token: the next game's tags end it
            draft = None
        if draft is None:
            if tok.kind == "comment" and not tok.text:
                continue
            draft = _Draft(tok.line)
        if tok.kind == "result":
            draft.result = tok.text
            yield draft
            draft = None
        else:
            draft.add(tok)
    if draft is not None and (draft.headers or draft.moves):
        yield draft


def read_games(
    text: str | bytes,
    *,
    variant: str | Variant | None = None,
    errors: list[PdnError] | None = None,
) -> list[PdnGame]:
    """Read every game of a PDN text, checking each move against the rules.

    ``text`` may be bytes: UTF-8, else Latin-1. ``variant`` is used for games without a
    GameType tag; without it the variant is guessed from the squares (the first variant in
    which the whole game is legal; see docs/rules.md). With ``errors`` given, a game that
    cannot be read is skipped and its error appended there; after malformed text (say an
    unclosed comment) reading resumes at the next line that opens a tag.

    >>> len(read_games("1. 32-28 19-23 2-0\\n\\n1. 33-29 *"))
    2

    Raises:
        PdnError: malformed text, an unknown GameType, a bad FEN, or an illegal or unreadable
            move; the message names the line, the column and the move number.
    """
    src = Source(normalise(_decode(text)))
    games: list[PdnGame] = []
    drafts = _drafts(src)
    while True:
        try:
            draft = next(drafts, None)
        except PdnError as exc:
            if errors is None:
                raise
            errors.append(exc)
            # The game being tokenised is lost; go on with the next line that opens a tag.
            offset = exc.offset if exc.offset is not None else len(src.text)
            resume = src.text.find("\n[", offset)
            if resume < 0:
                return games
            drafts = _drafts(src, resume + 1)
            continue
        if draft is None:
            return games
        try:
            games.append(_build(draft, variant))
        except PdnError as exc:
            if errors is None:
                raise
            errors.append(exc)


def _decode(text: str | bytes) -> str:
    if isinstance(text, str):
        return text
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError:  # older files are Latin-1 (pydraughts assumes the same)
        return text.decode("latin-1")


def _build(draft: _Draft, default: str | Variant | None) -> PdnGame:
    gametype, candidates = _variant_of(draft, default)
    errors: list[PdnError] = []
    for chosen in candidates:
        try:
            return _replay(draft, gametype, chosen)
        except PdnError as exc:
            errors.append(exc)
    # When guessing, the variant that got furthest into the game is the likeliest one.
    raise max(errors, key=lambda e: (e.line, e.column))


def _replay(draft: _Draft, gametype: GameType | None, chosen: Variant) -> PdnGame:
    # The GameType's start colour (W/B) says who moves first; "23,W,8,8,A0,0" is pool checkers
    # with White first (PDN 3.0 "unified pool"). A FEN tag says it for its own position.
    first_mover = chosen.first_mover
    if gametype is not None and gametype.start is not None:
        first_mover = WHITE if gametype.start == "W" else BLACK
    fen = draft.headers.get("FEN", "").strip()
    if not fen and first_mover != chosen.first_mover:
        fen = "WB"[first_mover] + chosen.starting_fen[1:]
    try:
        board = Board(chosen.name, fen=fen or None)
    except ValueError as exc:
        raise PdnError(f"bad FEN tag: {exc}", *draft.tag_pos.get("FEN", (draft.line, 1))) from exc
    start_fen = _fen_of(chosen.name, fen) if len(fen) < 1000 else board.fen()
    first = board.turn
    moves: list[Move] = []
    texts: list[str] = []
    for ply, tok in enumerate(draft.moves):
        try:
            move = board.parse_move(_plain(tok.text, chosen))
        except ValueError as exc:
            label = _move_label(ply, first == first_mover)
            raise PdnError(f"move {label} {tok.text}: {exc}", tok.line, tok.col) from exc
        board.push(move)
        moves.append(move)
        texts.append(tok.text)
    result = draft.result or draft.headers.get("Result", "*").strip()
    return PdnGame(
        headers=dict(draft.headers), variant=chosen, start_fen=start_fen, moves=moves,
        move_texts=texts, result=result if result in RESULTS else "*",
        comments=draft.comments, annotations=draft.annotations, variations=draft.variations,
        gametype=gametype, line=draft.line,
    )


@lru_cache(maxsize=256)
def _fen_of(variant: str, fen: str) -> str:
    """The FEN the engine writes for ``fen`` (the variant's start when empty): the same for
    every game of a file that starts from it, so it is written once, not once a game."""
    return Board(variant, fen=fen or None).fen()


def _plain(text: str, variant: Variant) -> str:
    """``28x19`` -> ``28-19``, ``a3b4`` -> ``a3-b4``: the squares only, one separator.

    The board's parser takes any separator; splitting here keeps an ``x`` separator from being
    read as the file letter of a square. A numeric variant also gets its squares written as
    ``c3`` (files from programs that write every 8x8 game in letters): they are translated by
    position.
    """
    squares: list[str] = []
    for chunk in _SEPARATORS.split(text):
        if chunk.isdigit():
            squares.append(chunk)
            continue
        for name in _ALPHA_SQUARE.findall(chunk):
            square = None
            if variant.numeric_notation and name[1:].isdigit():
                square = variant.square_at(int(name[1:]) - 1, ord(name[0].lower()) - ord("a"))
            squares.append(name if square is None else variant.square_name(square))
    return "-".join(squares)


def _move_label(ply: int, first_mover_starts: bool) -> str:
    """The move number of the ``ply``-th move as a player writes it: ``12.`` or ``12...``."""
    index = ply if first_mover_starts else ply + 1
    return f"{index // 2 + 1}{'.' if index % 2 == 0 else '...'}"


def _variant_of(
    draft: _Draft, default: str | Variant | None
) -> tuple[GameType | None, list[Variant]]:
    """The GameType and the variants to try, in order (several only when guessing)."""
    pos = draft.tag_pos.get("GameType", (draft.line, 1))
    gametype: GameType | None = None
    if "GameType" in draft.headers:
        try:
            gametype = parse_gametype(draft.headers["GameType"])
        except ValueError as exc:
            raise PdnError(f"bad GameType tag: {exc}", *pos) from exc
    named = draft.headers.get("Variant", "").strip()
    if named:
        try:
            chosen: Variant | None = find_variant(named)
        except ValueError:
            chosen = None
        if chosen is not None and (gametype is None or gametype_number(chosen) == gametype.number):
            return gametype, [chosen]
    if gametype is None:
        if default is not None:
            return None, [find_variant(default)]
        return None, _guess(draft)
    chosen = variant_for_number(gametype.number)
    if chosen is None:
        raise PdnError(f"GameType {gametype.number} is not a variant this program plays", *pos)
    if gametype.width is not None and (gametype.width, gametype.height) != (
        chosen.cols,
        chosen.rows,
    ):
        raise PdnError(
            f"GameType {gametype.number} is {chosen.name}, played on {chosen.cols}x{chosen.rows},"
            f" but the tag says {gametype.width}x{gametype.height}",
            *pos,
        )
    return gametype, [chosen]


def _guess(draft: _Draft) -> list[Variant]:
    """Variants to try for a game without a GameType tag, judged by its squares.

    Files from checkers programs (PDN 1.0) and many Russian and Italian files carry no GameType.
    Letter squares: Russian, then Brazilian, Czech and Turkish (Czech club files, such as the
    Czech championships of the PDN 3.0 corpus, carry no GameType). Numbers up to 32: English, then
    Italian (the 8x8 games whose files go without the tag), then international; up to 50:
    international; more: Canadian. The first variant in which the whole game is legal wins.
    """
    fen = draft.headers.get("FEN", "")
    texts = [tok.text for tok in draft.moves] + [fen]
    letters = any(not c.isdigit() for t in draft.moves for c in _SEPARATORS.split(t.text))
    if letters or re.search(r"[:,K][a-l][0-9]", fen):
        return [find_variant(name) for name in ("russian", "brazilian", "czech", "turkish")]
    numbers = [int(n) for t in texts for n in re.findall(r"[0-9]+", t)]
    top = max(numbers, default=0)
    names = ["international", "canadian"]
    if top <= 32:
        names = ["english", "italian", *names]
    elif top > 50:
        names = ["canadian", "international"]
    return [find_variant(name) for name in names]


# --- writing -----------------------------------------------------------------------------------


def _tag_line(name: str, value: str) -> str:
    if not _TAG_NAME.match(name):
        raise ValueError(f"PDN tag names are a capital, then letters, digits, '_': {name!r}")
    value = " ".join(str(value).split())  # a tag is one line
    return '[{} "{}"]'.format(name, value.replace("\\", "\\\\").replace('"', '\\"'))


def _header_lines(
    headers: Mapping[str, str], variant: Variant, result: str, start_fen: str | None
) -> list[str]:
    lines = []
    for name in ROSTER:
        value = result if name == "Result" else headers.get(name, _ROSTER_DEFAULTS.get(name, "?"))
        lines.append(_tag_line(name, value))
    lines.append(_tag_line("GameType", gametype_tag(variant)))
    if CANONICAL_VARIANT.get(gametype_number(variant)) != variant.name:
        lines.append(_tag_line("Variant", variant.name))
    if start_fen is not None:
        lines.append(_tag_line("FEN", start_fen))
    lines += [_tag_line(k, v) for k, v in headers.items() if k not in _MANAGED]
    return lines


#: A comment's words; a PGN command (``[%clk 0:02:56]``) is one: never split across lines.
_COMMENT_WORD = re.compile(r"\[%[^\]\s]+[^\]]*\]|\S+")


def _comment(text: str) -> list[str]:
    """A comment's words, braces made parentheses; a word that is a game result (``1-1``,
    ``*``) is quoted: pydraughts (0.6.7) ends a game at the first result it finds, in a comment
    too, and loses every game after it."""
    words = [f'"{word}"' if word in RESULTS else word
             for word in _COMMENT_WORD.findall(text.replace("{", "(").replace("}", ")"))]
    if not words:
        return []
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def _wrap(units: Iterable[str], width: int) -> str:
    lines: list[str] = []
    line = ""
    for unit in units:
        while len(unit) > width:  # only a very long comment word: split it
            if line:
                lines.append(line)
                line = ""
            lines.append(unit[:width])
            unit = unit[width:]
        if line and len(line) + 1 + len(unit) > width:
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    if line:
        lines.append(line)
    return "\n".join(lines)


def write_game(
    headers: Mapping[str, str] | None,
    moves: Sequence[Move | str],
    result: str | None = None,
    *,
    variant: str | Variant | None = None,
    start_fen: str | None = None,
    comments: Mapping[int, Sequence[str]] | None = None,
    width: int = 80,
    annotations: Mapping[int, Sequence[str]] | None = None,
    variations: Mapping[int, Sequence[Sequence[Move | str]]] | None = None,
) -> str:
    """Write one game as PDN 3.0 text, ending with a blank line.

    The seven-tag roster comes first (``?`` for what is unknown), then ``GameType``, then
    ``FEN`` when the game does not start from the initial position, then the other headers.
    Moves are written as the variant notes them (``board.move_notation``), numbered, wrapped at
    ``width`` columns and followed by the result (``*`` while unfinished). ``comments[i]`` are
    written after the ``i``-th move (``0``: before the first).

    Keyed by move index as :class:`PdnGame` reads them (``0``: the first move):
    ``annotations[i]`` are move ``i``'s move strength sign (``!``, ``?``, ``!!``, ``??``,
    ``!?``, ``?!``: written right after the move, as PDN 3.0 asks; at most one) and NAGs
    (``$2``: after it); ``variations[i]`` are lines played instead of move ``i``, from the
    position before it, each written in parentheses after the move and its comments. Both
    pydraughts (0.6.7) and py-draughts (1.10.1) skip signs, NAGs, comments and variations
    and read the game's own moves.

    >>> write_game(None, ["32-28"], variant="international").splitlines()[-1]
    '1. 32-28 *'
    >>> write_game(None, ["32-28", "19-23"], variant="international",
    ...            annotations={1: ["?"]}, variations={1: [["18-22", "37-32"]]},
    ...            comments={2: ["[%eval 0.35]"]}).splitlines()[-1]
    '1. 32-28 19-23? {[%eval 0.35]} (1... 18-22 2. 37-32) *'

    Raises:
        ValueError: an illegal or unreadable move (of the game or a variation), a bad FEN,
            result, tag name, sign or NAG.
    """
    headers = dict(headers or {})
    chosen = _writer_variant(headers, variant)
    if start_fen is None and headers.get("FEN", "").strip():
        start_fen = headers["FEN"]  # headers of a game read from PDN carry its start
    result = (result or headers.get("Result") or "*").strip()
    if result not in RESULTS:
        raise ValueError(f"not a PDN result: {result!r} (expected one of {sorted(RESULTS)})")
    board = Board(chosen.name, fen=start_fen)
    fen = board.fen()
    # A reader that knows only the GameType number sets up that number's own variant: write the
    # FEN whenever the start differs from it (diagonal draughts shares 25 with Russian).
    canonical = variant_for_number(gametype_number(chosen)) or chosen
    initial = fen == Board(canonical.name).fen()
    first_mover_starts = board.turn == chosen.first_mover
    notes = _Notes(comments or {}, annotations or {}, variations or {})
    units = list(_movetext(board, moves, notes, first_mover_starts))
    lines = _header_lines(headers, chosen, result, None if initial else fen)
    return "\n".join(lines) + "\n\n" + _wrap([*units, result], width) + "\n"


def _writer_variant(headers: Mapping[str, str], variant: str | Variant | None) -> Variant:
    """The variant to write: as given, else from the Variant and GameType headers."""
    if variant is not None:
        return find_variant(variant)
    number = parse_gametype(headers["GameType"]).number if "GameType" in headers else 20
    named = headers.get("Variant", "").strip()
    if named:
        chosen = find_variant(named)
        if gametype_number(chosen) == number:
            return chosen
    return variant_for_number(number) or find_variant("international")


#: The move strength signs PDN 3.0 writes right after a move; NAGs are ``$`` and a number.
_STRENGTHS = frozenset({"!", "?", "!!", "??", "!?", "?!"})
_NAG_TEXT = re.compile(r"\$[0-9]{1,3}\Z")


@dataclass(frozen=True)
class _Notes:
    """What the writer adds to the moves: comments (after the ``i``-th move), and signs,
    NAGs and variations (of move index ``i``)."""

    comments: Mapping[int, Sequence[str]]
    annotations: Mapping[int, Sequence[str]]
    variations: Mapping[int, Sequence[Sequence[Move | str]]]


def _signs(annotations: Sequence[str], ply: int) -> tuple[str, list[str]]:
    """Move ``ply``'s strength sign (or ``""``) and NAGs, checked."""
    strengths = [a for a in annotations if a in _STRENGTHS]
    nags = [a for a in annotations if _NAG_TEXT.match(a)]
    bad = [a for a in annotations if a not in _STRENGTHS and not _NAG_TEXT.match(a)]
    if bad or len(strengths) > 1:
        raise ValueError(f"move {ply + 1}: annotations are one of {sorted(_STRENGTHS)} and "
                         f"NAGs ($n), not {list(annotations)!r}")
    return (strengths[0] if strengths else ""), nags


def _movetext(
    board: Board,
    moves: Sequence[Move | str],
    notes: _Notes,
    first_mover_starts: bool,
    start: int = 0,
) -> Iterator[str]:
    """The words of the movetext; ``start`` is the ply of the first move (in a variation)."""
    comments = notes.comments
    for text in comments.get(0, ()):
        yield from _comment(text)
    for index, item in enumerate(moves):
        ply = start + index
        move = board.parse_move(_plain(item, board.variant)) if isinstance(item, str) else item
        if move not in board.legal_moves:
            raise ValueError(f"move {ply + 1} ({move}) is not legal in {board.fen()}")
        label = _move_label(ply, first_mover_starts)
        sign, nags = _signs(notes.annotations.get(index, ()), ply)
        notation = board.move_notation(move) + sign
        before = board.copy() if index in notes.variations else None
        board.push(move)
        # The second mover's number only when the game (or the variation) starts with its
        # move: never to resume after a comment as PGN does. PDN makes move numbers optional,
        # and pydraughts (0.6.7) misreads a game that has one past move 10 (it deletes every
        # later "1." it finds; it drops variations before it looks).
        if label.endswith("...") and index > 0:
            yield notation
        else:
            yield f"{label} {notation}"
        yield from nags
        for text in comments.get(index + 1, ()):
            yield from _comment(text)
        if before is not None:
            for line in notes.variations[index]:
                yield from _variation(before, line, first_mover_starts, ply)
    for key in sorted(k for k in comments if k > len(moves)):  # past the end: keep them last
        for text in comments[key]:
            yield from _comment(text)


def _variation(board: Board, line: Sequence[Move | str], first_mover_starts: bool,
               ply: int) -> Iterator[str]:
    """A variation's words: ``(12... 18-23``, ..., ``28x19)``, from a copy of ``board``."""
    if not line:
        return
    words = list(_movetext(board.copy(), line, _Notes({}, {}, {}), first_mover_starts, ply))
    words[0] = "(" + words[0]
    words[-1] += ")"
    yield from words


def write_board(
    board: Board,
    headers: Mapping[str, str] | None = None,
    result: str | None = None,
    *,
    comments: Mapping[int, Sequence[str]] | None = None,
    width: int = 80,
) -> str:
    """Write the game played on ``board`` (from ``board.root()``), its result from the board.

    ``result`` defaults to the board's :meth:`~engine.board.Board.outcome` (``*`` while the game
    goes on).

    >>> from engine import Board
    >>> write_board(Board("english")).splitlines()[-1]
    '*'

    Raises:
        ValueError: as :func:`write_game`.
    """
    if result is None:
        outcome = board.outcome()
        result = "*" if outcome is None else outcome.result()
    return write_game(
        headers, board.move_stack, result, variant=board.variant,
        start_fen=board.root().fen(), comments=comments, width=width,
    )


def write_games(games: Iterable[PdnGame], width: int = 80) -> str:
    """Write several games, separated by blank lines.

    Raises:
        ValueError: as :func:`write_game`.
    """
    return "\n".join(
        write_game(
            g.headers, g.moves, g.result, variant=g.variant, start_fen=g.start_fen,
            comments=g.comments, width=width,
        )
        for g in games
    )


def line_text(board: Board, moves: Sequence[Move]) -> str:
    """``moves`` from ``board`` as PDN writes them, numbered: ``5. 31-27 22x31 6. 36x16``.

    >>> board = Board("international")
    >>> line_text(board, [board.parse_move("32-28")])
    '1. 32-28'
    """
    probe, words = board.copy(), []
    first = probe.variant.first_mover
    for move in moves:
        full = (len(probe.move_stack) + (probe.root().turn is not first)) // 2 + 1
        if probe.turn is first:
            words.append(f"{full}.")
        elif not words:
            words.append(f"{full}...")
        words.append(probe.move_notation(move))
        probe.push(move)
    return " ".join(words)
