"""Every Markdown page and anchor the repository refers to exists, inside the repository.

A reference is a local Markdown link (``[text](docs/players.md#modes)``, a picture, ``LICENSE``)
in any ``.md`` file, or a path
ending in ``.md`` (with or without ``#anchor``) written anywhere in a ``.md`` file or in the
Python sources (docstrings and comments). A path is read relative to the file that names it, or
else to the repository root (``docs/design.md#led-roles`` in a module means the root's ``docs``);
a bare page name (``rules.md``) may also be one of ``docs/``.
Anchors are GitHub's heading slugs: lower case, punctuation dropped, spaces as hyphens, ``-1``,
``-2`` for repeated headings.
"""

from __future__ import annotations

import doctest
import os
import re
import unicodedata
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Not the project's own text: environments, build output, caches, recorded bench data.
SKIP = {".git", ".venv", "build", "dist", "node_modules", "__pycache__", ".mypy_cache",
        ".pytest_cache", ".hypothesis", "data"}
PYTHON_DIRS = ("engine", "board_io", "firmware_host", "tests", "bench", "systemd")

_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_PATH = re.compile(r"(?<![\w/.\-])((?:\.\.?/)*[\w\-./]*[\w\-]\.md)(#[\w\-]+)?(?![\w\-])")
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def _files(suffix: str, dirs: tuple[str, ...] | None = None) -> list[Path]:
    bases = [ROOT / d for d in dirs] if dirs else [ROOT]
    found: list[Path] = []
    for base in bases:
        for folder, subfolders, names in os.walk(base):
            subfolders[:] = [d for d in subfolders if d not in SKIP and not d.endswith(".egg-info")]
            found.extend(Path(folder, name) for name in names if name.endswith(suffix))
    return sorted(found)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text.

    Example:
        >>> slug("Touch-move and j'adoube")
        'touch-move-and-jadoube'
        >>> slug("International draughts — `international`, GameType 20")
        'international-draughts--international-gametype-20'
        >>> slug("The web service (`draughtsboard web`)")
        'the-web-service-draughtsboard-web'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    kept = "".join(ch for ch in text.lower() if ch in " -_"
                   or unicodedata.category(ch)[0] in "LNM")
    return kept.replace(" ", "-")


def _outside_fences(text: str) -> Iterator[str]:
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield line


@cache
def anchors(page: Path) -> frozenset[str]:
    """The anchors of a Markdown page: its headings' slugs (repeats numbered) and HTML anchors."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for line in _outside_fences(page.read_text(encoding="utf-8")):
        found.update(_HTML_ANCHOR.findall(line))
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def _references(path: Path) -> Iterator[tuple[int, str]]:
    """``(line number, target)`` for every local ``.md`` reference (or bare anchor) in a file."""
    markdown = path.suffix == ".md"
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if markdown and _FENCE.match(line):
            fenced = not fenced
            continue
        targets: set[str] = set()
        if markdown and not fenced:
            for target in _LINK.findall(line):
                if not re.match(r"[a-z][a-z0-9+.\-]*:", target):  # http:, mailto:, file: ...
                    targets.add(target)  # a page, an anchor, a picture, LICENSE
        targets.update(match.group(1) + (match.group(2) or "") for match in _PATH.finditer(line)
                       if "*" not in match.group(1))
        for target in sorted(targets):
            yield number, target


def _problem(source: Path, target: str) -> str | None:
    """Why ``target``, named in ``source``, does not resolve; ``None`` when it does."""
    name, _, anchor = target.partition("#")
    if not name:
        page = source
    else:
        candidates = [(source.parent / name).resolve(), (ROOT / name).resolve()]
        if "/" not in name:
            candidates.append(ROOT / "docs" / name)
        inside = [c for c in candidates if c.is_relative_to(ROOT)]
        if not inside:
            return "points outside the repository"
        existing = [c for c in inside if c.exists()]
        if not existing:
            return "no such file in the repository"
        page = existing[0]
    if anchor and page.suffix == ".md" and anchor not in anchors(page):
        return f"no heading with the anchor #{anchor} in {page.relative_to(ROOT)}"
    return None


def _sources() -> list[Path]:
    this = Path(__file__).resolve()  # its own examples of broken references are meant to be
    return [p for p in _files(".md") + _files(".py", PYTHON_DIRS) if p != this]


def test_every_referenced_page_and_anchor_exists() -> None:
    broken = [f"{source.relative_to(ROOT)}:{number}: {target}: {why}"
              for source in _sources() for number, target in _references(source)
              if (why := _problem(source, target)) is not None]
    assert not broken, "\n".join(broken)


def test_the_slug_examples_hold() -> None:
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(slug, "slug", globs={"slug": slug}):
        runner.run(test)
    assert runner.summarize(verbose=False) == (0, 3)


def test_the_checker_finds_a_missing_page_a_missing_anchor_and_an_outside_path() -> None:
    readme = ROOT / "README.md"
    assert _problem(readme, "docs/players.md") is None
    assert _problem(readme, "docs/design.md#led-roles") is None
    assert _problem(readme, "docs/no-such-page.md") == "no such file in the repository"
    assert _problem(readme, "docs/players.md#no-such-heading") is not None
    assert _problem(readme, "../../outside.md") == "points outside the repository"


def test_headings_in_code_fences_are_not_anchors(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n```sh\n# a comment\n```\n\n## Title\n", encoding="utf-8")
    assert anchors(page) == {"title", "title-1"}


#: A path that climbs out of the checkout, or into the machine it was written on.
_OUTSIDE = re.compile(r"\.\./shared\b|(?<![\w.])/work/|\b(?:DESIGN|STYLE)\.md\b")


def test_nothing_refers_to_a_file_outside_the_repository() -> None:
    outside = [f"{source.relative_to(ROOT)}:{n}: {line.strip()}" for source in _sources()
               for n, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1)
               if _OUTSIDE.search(line)]
    assert not outside, "\n".join(outside)
