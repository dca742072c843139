"""Each player's progress on the web (the app on fakeredis, the records in a folder as the
board, the worker and ``play --puzzles`` keep them): the hall links to ``/progress``, which
lists every player; a player's page shows the puzzle rating with its deviation, the puzzles
solved and the mistakes a game by month, in the viewer's language; a name that is no record's
key, or a path out of the folder, is a 404; a damaged record is a 500 that names no file."""

from __future__ import annotations

from pathlib import Path

from aiohttp.test_utils import TestClient

from engine.puzzles import load
from firmware_host.coach.progress import GameMistakes, ProgressBook
from tests.firmware_host.web import test_web_puzzle as daily
from tests.firmware_host.web.test_web_puzzle import Check, page


def serve(books: Path | None, check: Check) -> None:
    daily.serve(0.0, check, books=books)


def anna(folder: Path) -> None:
    """Anna: three puzzles (two solved), three games over two months."""
    book = ProgressBook(folder)
    for puzzle, solved in zip(load("russian")[:3], (True, True, False), strict=True):
        book.attempt("Anna de Vries", puzzle, solved)
    book.games("Anna de Vries", [GameMistakes("a", "2026-10-03", "", 30, 2, 1),
                                 GameMistakes("b", "2026-11-20", "", 30, 1, 0),
                                 GameMistakes("c", "2026-11-27", "", 30, 0, 0)])


def test_the_hall_links_to_each_players_progress(tmp_path: Path) -> None:
    anna(tmp_path)
    ProgressBook(tmp_path).games("Ёлкин, П.", [GameMistakes("d", "", "", 12, 0, 1)])
    rating = ProgressBook(tmp_path).load("Anna de Vries").rating

    async def check(http: TestClient) -> None:
        assert 'href="/progress">Progress</a>' in await page(http, "/")
        listed = await page(http, "/progress")
        assert listed.index("Anna de Vries") < listed.index("Ёлкин, П.")
        assert 'href="/progress/anna-de-vries"' in listed
        assert f"{rating.shown()}" in listed and "2 solved of 3 tried" in listed
        text = await page(http, "/progress/anna-de-vries")
        assert "<h1>Anna de Vries</h1>" in text
        assert f"{rating.shown()}</strong> (deviation {round(rating.rd)}, provisional)" in text
        assert "2 solved of 3 tried (67%)" in text
        rows = [("2026-10", 1, "3.0", "1.0"), ("2026-11", 2, "0.5", "0.0")]
        for month, games, errors, blunders in rows:
            assert (f"<tr><td>{month}</td><td>{games}</td><td>{errors}</td>"
                    f"<td>{blunders}</td></tr>") in text
        assert text.count('<rect class="errors"') == 2
        russian = await page(http, "/progress/anna-de-vries?lang=ru")
        assert "Рейтинг в задачах" in russian and "решено 2 из 3" in russian
        assert "отклонение" in russian and "Ошибок за партию, по месяцам" in russian
        other = await page(http, "/progress/%D1%91%D0%BB%D0%BA%D0%B8%D0%BD-%D0%BF?lang=en")
        assert "<h1>Ёлкин, П.</h1>" in other and "<td>undated</td>" in other
        assert "(deviation 350, provisional)" in other and "0 solved of 0 tried" in other

    serve(tmp_path, check)


def test_no_record_and_paths_out_of_the_folder_are_not_found(tmp_path: Path) -> None:
    books = tmp_path / "mistakes"
    anna(books)
    (tmp_path / "secret.progress.json").write_text("{}")
    (books / "damaged.progress.json").write_text("{not json")

    async def check(http: TestClient) -> None:
        for path in ("/progress/bob", "/progress/Anna%20de%20Vries", "/progress/..%2Fsecret",
                     "/progress/.", "/progress/%3F"):
            await page(http, path, 404)
        text = await page(http, "/progress/damaged", 500)
        assert "cannot be read" in text and str(books) not in text
        listed = await page(http, "/progress")
        assert "anna-de-vries" in listed and "damaged" not in listed

    serve(books, check)


def test_a_web_without_records_says_how_they_begin() -> None:
    async def check(http: TestClient) -> None:
        assert "No progress is kept here yet" in await page(http, "/progress")
        await page(http, "/progress/anna-de-vries", 404)

    serve(None, check)
