"""The board's languages: complete, checked catalogs, and a Russian board that refuses in
Russian (issue 30)."""

from __future__ import annotations

import ast
import gettext
import io
import shutil
import string
import subprocess
from pathlib import Path

import pytest

from firmware_host.config.loader import Config
from firmware_host.feedback.texts import PLURALS, REASONS, TEMPLATES, WORDS, render
from firmware_host.i18n import LANGUAGES, negotiate, translator
from firmware_host.i18n.catalogs import POT, extract, msgids, po_path, read, translated_languages
from firmware_host.tools.terminal import PlayOptions, play
from tests.firmware_host.session_harness import Rig

babel = pytest.importorskip("babel")

ROOT = Path(__file__).resolve().parents[3]
LANGS = translated_languages()


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_language_has_its_catalog() -> None:
    assert sorted(LANGS) == sorted(["ru", "nl", "fr", "pt_BR", "ja", "ko"])
    assert set(LANGUAGES) == {"en", *LANGS}


def test_extraction_finds_nothing_new_against_the_pot() -> None:
    """Every sentence marked in the code is in the .pot, and the .pot has nothing stale."""
    assert msgids(extract()) == msgids(read(POT)), \
        "run: python -m firmware_host.i18n.catalogs extract && ... update"


@pytest.mark.parametrize("language", LANGS)
def test_catalog_has_every_message_no_fuzzy_same_placeholders(language: str) -> None:
    template = read(POT)
    catalog = read(po_path(language))
    assert not catalog.fuzzy
    by_id = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalog if m.id}
    for source in template:
        if not source.id:
            continue
        key = source.id if isinstance(source.id, str) else source.id[0]
        message = by_id.get(key)
        assert message is not None, f"{language}: missing {key!r}"
        assert not message.fuzzy, f"{language}: fuzzy {key!r}"
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert len(strings) == (catalog.num_plurals if isinstance(source.id, tuple) else 1)
        wanted = set().union(*(_fields(s) for s in (
            source.id if isinstance(source.id, tuple) else (source.id,))))
        for text in strings:
            assert text, f"{language}: untranslated {key!r}"
            assert _fields(text) == wanted, f"{language}: {key!r} -> {text!r}"
    assert set(by_id) == msgids(template), f"{language}: obsolete messages"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
@pytest.mark.parametrize("language", LANGS)
def test_msgfmt_check_accepts_the_catalog(language: str, tmp_path: Path) -> None:
    result = subprocess.run(["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "x.mo"),
                             str(po_path(language))], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "fuzzy" not in result.stderr and "untranslated" not in result.stderr


@pytest.mark.parametrize("language", LANGS)
def test_the_committed_mo_is_the_po_compiled(language: str, tmp_path: Path) -> None:
    from babel.messages.mofile import write_mo

    fresh = tmp_path / "fresh.mo"
    with fresh.open("wb") as out:
        write_mo(out, read(po_path(language)))
    committed = po_path(language).with_suffix(".mo")
    with fresh.open("rb") as a, committed.open("rb") as b:
        assert gettext.GNUTranslations(a)._catalog == gettext.GNUTranslations(b)._catalog, \
            "run: python -m firmware_host.i18n.catalogs compile"


def test_no_sentence_of_the_tables_bypasses_the_catalogs() -> None:
    ids = msgids(read(POT))
    tables = [t for key, t in TEMPLATES.items() if t and key not in PLURALS]
    tables += list(REASONS.values()) + [w for words in WORDS.values() for w in words.values()]
    tables += [forms[0] for forms, _ in PLURALS.values()]
    assert [t for t in tables if t not in ids] == []


@pytest.mark.parametrize("path", ["firmware_host/tools/terminal.py",
                                  "firmware_host/tools/typed_move.py"])
def test_terminal_sentences_go_through_the_translator(path: str) -> None:
    """No literal sentence is raised or said in the terminal: each passes gettext."""
    tree = ast.parse((ROOT / path).read_text())
    bare = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and (
                (isinstance(node.func, ast.Name) and node.func.id == "TypedMoveError")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "say")):
            first = node.args[0]
            if isinstance(first, ast.JoinedStr) or (
                    isinstance(first, ast.Constant) and isinstance(first.value, str)):
                bare.append(node.lineno)
    assert bare == []


def test_russian_plurals_have_three_forms() -> None:
    ru = translator("ru")
    said = [render({"event": "takeback", "plies": n, "side": "white"}, ru) for n in (1, 2, 5, 11)]
    # Issue 39: "взято назад: 1 ход" read as a translation; the verb agrees with the count.
    assert said == ["отменён 1 ход, ходят белые", "отменены 2 хода, ходят белые",
                    "отменено 5 ходов, ходят белые", "отменено 11 ходов, ходят белые"]
    assert render({"event": "refused", "reason": "max_capture", "count": 5}, ru) == \
        "нужно взять максимум: 5 шашек"


def test_japanese_has_one_form_and_english_two() -> None:
    assert render({"event": "takeback", "plies": 3, "side": "black"}, translator("ja")) == \
        "3手待ったしました。黒の手番です"
    assert render({"event": "takeback", "plies": 1, "side": "black"}) == \
        "took back 1 move, black to move"


def test_a_russian_board_refuses_in_russian_in_its_events() -> None:
    rig = Rig("russian", fen="W:Wc3:Bd4,h8", language="ru")
    rig.lift("c3")
    rig.place("b4")
    rig.wait(rig.config.settle_ms + 10)
    refused = rig.last("refused")
    assert refused["reason"] == "capture_compulsory"  # language-free
    assert refused["text"] == "бить обязательно: c3:e5"


def test_an_english_board_still_refuses_in_english() -> None:
    rig = Rig("russian", fen="W:Wc3:Bd4,h8")
    rig.lift("c3")
    rig.place("b4")
    rig.wait(rig.config.settle_ms + 10)
    assert rig.last("refused")["text"] == "a capture is compulsory: c3:e5"


def test_a_russian_board_refuses_in_russian_in_the_terminal() -> None:
    config = Config.from_mapping({"game": {"variant": "russian", "human_side": "white"},
                                  "board": {"language": "ru"}, "store": {"url": "memory"}})
    out = io.StringIO()
    options = PlayOptions(config=config, auto_execute=True, colour=False, virtual_time=True)
    assert play(options, stdin=io.StringIO("c3-e5\nbanana\nlift c3\nplace e5\nquit\n"),
                out=out) == 0
    text = out.getvalue()
    assert "шашка с c3 может пойти на b4 или d4, но не на e5" in text
    assert "'banana' — не ход и не команда (наберите help)" in text
    assert "режим «игра»" in text
    assert "ваш ход; ходят белые" in text


def test_play_takes_language_on_the_command_line() -> None:
    from firmware_host.cli import build_parser

    args = build_parser().parse_args(["play", "--language", "nl"])
    assert args.language == "nl"
    args = build_parser().parse_args(["run", "--language", "ja"])
    assert args.language == "ja"
    assert build_parser().parse_args(["demo", "--language", "ru"]).language == "ru"


def test_a_demo_board_speaks_its_language() -> None:
    from firmware_host.tools.demo import DemoOptions, demo_config

    config = demo_config(DemoOptions(language="pt-BR"), "/nonexistent")
    assert config["board.language"] == "pt-BR"
    from firmware_host.game.types import SessionConfig

    assert translator(SessionConfig.from_config(config).language).language == "pt_BR"


def test_a_language_the_board_does_not_speak_is_one_clear_error() -> None:
    from firmware_host.config.loader import ConfigError

    with pytest.raises(ConfigError, match="not a language of the board"):
        Config.from_mapping({"board": {"language": "klingon"}})


def test_the_viewer_language_comes_from_the_query_then_the_header() -> None:
    assert negotiate(None, "ja,en;q=0.5") == "ja"
    assert negotiate("ru", "ja,en;q=0.5") == "ru"
    assert negotiate(None, "pt-BR,pt;q=0.9") == "pt_BR"
    assert negotiate(None, None) == "en"
    assert negotiate(None, "x" * 10_000) == "en"  # hostile header: no error, English


def test_the_package_data_ships_every_catalog() -> None:
    """A wheel carries the compiled catalogs (pyproject's package data names them)."""
    import fnmatch
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = data["tool"]["setuptools"]["package-data"]["firmware_host"]
    package = ROOT / "firmware_host"
    for language in LANGS:
        for suffix in (".po", ".mo"):
            path = po_path(language).with_suffix(suffix).relative_to(package).as_posix()
            assert any(fnmatch.fnmatch(path, g) for g in globs), path


def test_a_russian_terminals_help_is_in_russian() -> None:
    config = Config.from_mapping({"game": {"variant": "russian", "human_side": "white"},
                                  "board": {"language": "ru"}, "store": {"url": "memory"}})
    out = io.StringIO()
    options = PlayOptions(config=config, auto_execute=True, colour=False, virtual_time=True)
    assert play(options, stdin=io.StringIO("help\nquit\n"), out=out) == 0
    text = out.getvalue()
    assert "команды:\n" in text and "takeback  отменить ход: вернуться к своему прошлому ходу" \
        in text
    assert "поля: от a1 до h8 или от 1 до 32." in text and "make a move" not in text


def test_a_russian_boards_other_events_carry_their_sentence_in_russian() -> None:
    rig = Rig("russian", fen="W:Wc3:Bd4,h8", language="ru")
    rig.lift("c3")
    rig.place("e5")
    rig.lift("d4")
    rig.wait(rig.config.settle_ms + 10)
    assert rig.last("new_game")["text"] == "новая партия (Русские шашки, режим «запись»)"
    assert rig.last("synced")["text"] == "доска совпадает с партией"
    assert rig.last("touch")["text"] == "тронул — ходи: шашку на c3 тронули, ею надо ходить"
    move = rig.last("move")
    assert move["pdn"] == "c3:e5" and move["text"] == "1. c3:e5"
    state = rig.last("state")
    assert "text" not in state  # no sentence: nothing added
    english = Rig("russian", fen="W:Wc3:Bd4,h8")
    english.lift("c3")
    english.place("e5")
    english.lift("d4")
    english.wait(english.config.settle_ms + 10)
    assert "text" not in english.last("move")  # English events stay as they were


def test_a_russian_terminal_names_the_lights_in_russian() -> None:
    from board_io.types import Reading
    from engine.variant import find_variant
    from firmware_host.feedback.roles import Role
    from firmware_host.tools.diagram import draw

    leds = {21: Role.FROM, 17: Role.TO, 12: Role.REMOVE}
    text = draw(find_variant("russian"), {21: Reading.WHITE}, leds, colour=False,
                tr=translator("ru"))
    assert text.splitlines()[-1] == "  подсветка: F откуда, T куда, X снять"
    assert "F○F" in text  # the letters on the board stay: they are the legend's keys
    english = draw(find_variant("russian"), {21: Reading.WHITE}, leds, colour=False)
    assert english.splitlines()[-1] == "  lights: F from, T to, X take off"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_legend_entry_keeps_its_letter(language: str) -> None:
    from firmware_host.feedback.roles import Role

    tr = translator(language)
    for role in Role:
        assert role.legend[1] == " " and role.letter.isupper()
        assert tr.gettext(role.legend).startswith(role.letter + " "), (role, tr.gettext(
            role.legend))


def test_a_russian_demo_says_its_ply_and_lights_in_russian() -> None:
    from firmware_host.feedback.roles import Role
    from firmware_host.tools.demo import led_legend, ply_line

    ru = translator("ru")
    assert ply_line(4, "human_to_move", ru) == "[полуход 4, ждём ход]"
    assert ply_line(5, "engine_thinking", ru) == "[полуход 5, думает]"
    assert ply_line(1, "engine_thinking") == "[ply 1, thinking]"
    frame = {31: Role.FROM, 27: Role.TO}
    assert led_legend(frame, lambda sq: str(sq + 1), ru) == "подсветка: куда 28 | откуда 32"
    assert led_legend({}, str, ru) == "подсветка: выкл."


#: Issue 39's notes from speakers of each language: (language, English, what it must be).
SPEAKERS_NOTES = [
    ("ru", "Filter", "Применить"),
    ("ru", "The lights", "Подсветка"),
    ("ru", "not needed by the configured backends", "не нужен настроенным драйверам"),
    ("ja", "Archive", "対局記録"),
    ("ja", "last seen {time}", "最終応答 {time}"),
    ("ja", "Moves", "手数"),
    ("ja", "The moves", "棋譜"),
    ("ja", "carry out the computer's move {pdn}", "コンピューターの手 {pdn} を盤で指してください"),
    ("ko", "Filter", "필터 적용"),
    ("ko", "International draughts", "국제 체커 (10×10)"),
    ("ko", "{link} to control the board.", "{link}하면 판을 조작할 수 있습니다."),
    ("fr", "crown this man", "damez ce pion"),
    ("fr", "The lights", "Les voyants"),
    ("pt_BR", "To move", "Vez"),
    ("nl", "The newest {limit} games that match are listed.",
     "Hieronder staan de {limit} meest recente partijen die aan de zoekopdracht voldoen."),
]
#: Words a language's catalog must not use (one term for one thing: issue 39).
NOT_SAID = {"ru": ("огни", "огням", "огнями", "огоньки", "Отобрать", "сопряж"),
            "ja": ("棋譜庫", "最終確認", "ライト"),
            "ko": ("거르기", "(으)로", "국제 드래프트", "불빛"),
            "fr": ("lumière", "couronnez"), "pt_BR": ("A jogar",)}


@pytest.mark.parametrize(("language", "english", "said"), SPEAKERS_NOTES)
def test_the_speakers_notes_are_applied(language: str, english: str, said: str) -> None:
    assert translator(language).gettext(english) == said


@pytest.mark.parametrize("language", sorted(NOT_SAID))
def test_one_term_for_one_thing(language: str) -> None:
    catalog = read(po_path(language))
    texts = [s for m in catalog if m.id for s in
             (m.string if isinstance(m.string, tuple) else (m.string,))]
    found = {word: [t for t in texts if word in t][:2] for word in NOT_SAID[language]}
    assert {word: hits for word, hits in found.items() if hits} == {}


def test_a_takeback_agrees_with_its_count_in_russian_and_the_state_line_keeps_its_order() -> None:
    ru = translator("ru")
    assert render({"event": "takeback", "plies": 1, "side": "white"}, ru) == \
        "отменён 1 ход, ходят белые"
    config = Config.from_mapping({"game": {"variant": "english", "human_side": "black"},
                                  "board": {"language": "ja"}, "store": {"url": "memory"}})
    out = io.StringIO()
    options = PlayOptions(config=config, auto_execute=False, colour=False, virtual_time=True)
    assert play(options, stdin=io.StringIO("11-15\nstatus\nquit\n"), out=out) == 0
    assert "[コンピューターの手 " in out.getvalue() and " を盤で指してください;" in \
        out.getvalue()  # the move inside the sentence, not after it
