"""Ratings of the strength levels: a maximum-likelihood Elo (Bradley-Terry) fit over all games.

Every game of a ladder file (``bench/level_ladder.py --out``) counts, whoever played it: a
level's rating is pulled by its neighbours, by the long-distance pairs and by the anchors (Scan at
fixed depths, when a file has such games) at once, not chained from pair to pair. A game scores
1, 1/2 or 0, and player *i* is expected to score ``1 / (1 + 10 ** ((r_j - r_i) / 400))`` against
player *j*. The ratings that make the games most likely are found by Newton's method; the error
bars are standard errors from the curvature of the log-likelihood at its maximum (the inverse of
the Fisher information), relative to the anchor player, whose rating is fixed (level 1 = 0 unless
``--anchor`` says otherwise).

A pair that one side won every game of would push the gap to infinity, so each pair of players
that met gets ``prior_draws`` virtual draws (BayesElo's device; default 1, ``--prior-draws 0``
for the plain maximum-likelihood fit).

Run: ``.venv/bin/python bench/rating.py [bench/data/ladder-international.json ...]
[--markdown]`` (no file: every ``bench/data/ladder-*.json``, one table per variant).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

#: Elo per natural-log unit of the odds: p = 1 / (1 + 10 ** (-d / 400)) = 1 / (1 + exp(-K d)).
K = math.log(10) / 400
DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Game:
    """One game's result: ``score`` is what ``white`` made of it (1, 0.5 or 0)."""

    white: str
    black: str
    score: float


@dataclass(frozen=True)
class Fit:
    """Fitted ratings, their covariance (relative to the anchor) and the games behind each."""

    players: tuple[str, ...]
    ratings: dict[str, float]
    covariance: dict[tuple[str, str], float]
    games: dict[str, int]
    anchor: str
    iterations: int

    def error(self, player: str) -> float:
        """Standard error of ``player``'s rating relative to the anchor (0 for the anchor)."""
        return math.sqrt(max(0.0, self.covariance[player, player]))

    def gap_error(self, a: str, b: str) -> float:
        """Standard error of the difference ``rating(a) - rating(b)``."""
        c = self.covariance
        return math.sqrt(max(0.0, c[a, a] + c[b, b] - 2 * c[a, b]))


def expected(difference: float) -> float:
    """Expected score of a player rated ``difference`` Elo above the opponent.

    >>> expected(0.0)
    0.5
    >>> round(expected(400 * math.log10(3)), 6)
    0.75
    """
    return 1.0 / (1.0 + math.pow(10.0, -difference / 400.0))


def elo_difference(score: float) -> float:
    """The Elo gap that makes ``score`` (0 < score < 1) the expected score.

    >>> round(elo_difference(0.75), 2)
    190.85

    Raises:
        ValueError: the score is not strictly between 0 and 1.
    """
    if not 0.0 < score < 1.0:
        raise ValueError(f"a score of {score!r} has no finite Elo difference")
    return 400.0 * math.log10(score / (1.0 - score))


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Solve ``matrix @ x = rhs`` by Gaussian elimination with partial pivoting."""
    n = len(rhs)
    a = [[*row, rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ValueError("the games do not connect every player to the anchor")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            if f:
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def _pair_table(games: Iterable[Game], prior_draws: float) -> dict[tuple[str, str], list[float]]:
    """``(a, b) -> [points of a, games]`` with a < b, the virtual draws included."""
    table: dict[tuple[str, str], list[float]] = {}
    for g in games:
        if g.white == g.black:
            raise ValueError(f"{g.white} cannot play itself")
        if g.score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game scores 1, 1/2 or 0, not {g.score!r}")
        a, b, s = (g.white, g.black, g.score) if g.white < g.black else (
            g.black, g.white, 1.0 - g.score)
        entry = table.setdefault((a, b), [0.0, 0.0])
        entry[0] += s
        entry[1] += 1
    for entry in table.values():
        entry[0] += prior_draws / 2
        entry[1] += prior_draws
    return table


def fit(games: Sequence[Game], anchor: str | None = None, prior_draws: float = 1.0,
        players: Sequence[str] | None = None) -> Fit:
    """Maximum-likelihood ratings of every player in ``games``, ``anchor`` fixed at 0.

    Example (3 wins in 4 games is a score of 75 %, about 191 Elo):
        >>> f = fit([Game("a", "b", 1), Game("b", "a", 0), Game("a", "b", 1),
        ...          Game("a", "b", 0)], anchor="b", prior_draws=0)
        >>> round(f.ratings["a"], 1), round(f.error("a"), 1)
        (190.8, 200.6)

    Raises:
        ValueError: no games, an unknown anchor, a score other than 1, 1/2, 0, or players
            that no chain of games connects (or a perfect score without virtual draws).
    """
    if not games:
        raise ValueError("no games to fit")
    names = tuple(players) if players is not None else tuple(
        sorted({g.white for g in games} | {g.black for g in games}))
    anchor = names[0] if anchor is None else anchor
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the players {', '.join(names)}")
    table = _pair_table(games, prior_draws)
    free = [p for p in names if p != anchor]
    index = {p: i for i, p in enumerate(free)}
    rating = dict.fromkeys(names, 0.0)
    iterations = 0
    while True:
        iterations += 1
        if iterations > 200:
            raise ValueError("the fit did not converge in 200 steps")
        gradient = [0.0] * len(free)
        hessian = [[0.0] * len(free) for _ in free]
        for (a, b), (points, count) in table.items():
            e = expected(rating[a] - rating[b])
            slope, w = K * (points - count * e), K * K * count * e * (1 - e)
            for player, sign in ((a, 1.0), (b, -1.0)):
                if player in index:
                    gradient[index[player]] += sign * slope
                    hessian[index[player]][index[player]] += w
            if a in index and b in index:
                hessian[index[a]][index[b]] -= w
                hessian[index[b]][index[a]] -= w
        step = _solve(hessian, gradient) if free else []
        largest = max((abs(s) for s in step), default=0.0)
        if largest > 400:  # a long step from far away: go part of the way (it converges)
            step = [s * 400 / largest for s in step]
        for player, s in zip(free, step, strict=True):
            rating[player] += s
        if largest < 1e-7:
            break
        if any(abs(r) > 4000 for r in rating.values()):
            raise ValueError("the ratings diverge: a player won or lost every game "
                             "(give virtual draws, e.g. prior_draws=1)")
    covariance = dict.fromkeys(((a, b) for a in names for b in names), 0.0)
    if free:
        inverse = _inverse(hessian)
        for a in free:
            for b in free:
                covariance[a, b] = inverse[index[a]][index[b]]
    played = dict.fromkeys(names, 0)
    for g in games:
        played[g.white] += 1
        played[g.black] += 1
    return Fit(names, rating, covariance, played, anchor, iterations)


# ---------------------------------------------------------------------- ladder files


@dataclass(frozen=True)
class Ladder:
    """The games of one or more ladder files of one variant and what produced them."""

    variant: str
    games: tuple[Game, ...]
    players: dict[str, dict[str, object]]
    sources: tuple[dict[str, object], ...]


RESULT_SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def load(paths: Iterable[Path]) -> dict[str, Ladder]:
    """Ladder files grouped by variant (games of the same variant pool into one fit).

    Raises:
        ValueError: a file that is not a ladder file (its name is in the message).
    """
    Pool = tuple[list[Game], dict[str, dict[str, object]], list[dict[str, object]]]
    by_variant: dict[str, Pool] = {}
    searched: dict[str, dict[str, list[float]]] = {}
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            variant = str(data["variant"])
            games = [Game(str(g["white"]), str(g["black"]), RESULT_SCORES[g["result"]])
                     for g in data["games"]]
            players = {str(k): dict(v) for k, v in data.get("players", {}).items()}
            sides = [(str(name), side) for g in data["games"]
                     for name, side in g.get("sides", {}).items()]
            totals = searched.setdefault(variant, {})
            for name, side in sides:
                total = totals.setdefault(name, [0.0, 0.0, 0.0])
                for i, key in enumerate(("moves", "depth", "nodes")):
                    total[i] += float(side.get(key, 0))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"{path}: not a ladder file ({exc!r})") from exc
        pooled, known, sources = by_variant.setdefault(variant, ([], {}, []))
        pooled += games
        for name, info in players.items():
            known.setdefault(name, {}).update(info)
        sources.append({k: v for k, v in data.items() if k not in ("games", "players")}
                       | {"file": Path(path).name, "game_count": len(games)})
    for variant, totals in searched.items():  # depth and nodes a move over all the files
        for name, (moves, depth, nodes) in totals.items():
            if moves:
                by_variant[variant][1].setdefault(name, {}).update(
                    mean_depth=depth / moves, mean_nodes=nodes / moves)
    return {v: Ladder(v, tuple(g), p, tuple(s)) for v, (g, p, s) in by_variant.items()}


def order_players(players: Iterable[str]) -> list[str]:
    """Levels in number order (L1 ... L10), then the other players by name."""
    def key(name: str) -> tuple[int, int, str]:
        if name.startswith("L") and name[1:].isdigit():
            return (0, int(name[1:]), name)
        return (1, 0, name)
    return sorted(players, key=key)


def _searched(info: Mapping[str, object]) -> str:
    """``depth 4.2, 1,234 nodes`` a move on average, from a ladder file's player entry."""
    depth, nodes = info.get("mean_depth"), info.get("mean_nodes")
    parts = []
    if isinstance(depth, (int, float)):
        parts.append(f"depth {depth:.1f}")
    if isinstance(nodes, (int, float)):
        parts.append(f"{nodes:,.0f} nodes")
    return ", ".join(parts)


def describe(ladder: Ladder, result: Fit) -> list[dict[str, object]]:
    """One row per player: rating, error, and for a level the gap to the level below it.

    The levels come first in number order, then the other players (the anchors) by name.
    """
    rows: list[dict[str, object]] = []
    previous: str | None = None
    for name in order_players(result.players):
        is_level = name.startswith("L") and name[1:].isdigit()
        info = ladder.players.get(name, {})
        row: dict[str, object] = {
            "player": name, "rating": result.ratings[name], "error": result.error(name),
            "games": result.games[name], "description": info.get("description", ""),
            "searched": _searched(info),
        }
        if is_level and previous is not None:
            row["gap"] = result.ratings[name] - result.ratings[previous]
            row["gap_error"] = result.gap_error(name, previous)
        rows.append(row)
        previous = name if is_level else previous
    return rows


def pair_scores(games: Iterable[Game]) -> dict[tuple[str, str], tuple[float, int]]:
    """``(a, b) -> (points of a, games)`` for each pair as played, without virtual draws."""
    return {k: (v[0], int(v[1])) for k, v in _pair_table(games, 0.0).items()}


def text_table(ladder: Ladder, result: Fit) -> str:
    lines = [f"{ladder.variant}: {len(ladder.games)} games, anchor {result.anchor} = 0",
             f"{'player':<10} {'rating':>7} {'±':>5} {'gap':>6} {'±':>5} {'games':>6}  "
             f"{'a move (mean)':<24} plays like"]
    for row in describe(ladder, result):
        gap = f"{row['gap']:6.0f} {row['gap_error']:5.0f}" if "gap" in row else " " * 12
        lines.append(f"{row['player']:<10} {row['rating']:7.0f} {row['error']:5.0f} {gap} "
                     f"{row['games']:6d}  {row['searched']:<24} {row['description']}")
    lines.append("pairs (points of the first / games):")
    for (a, b), (points, count) in sorted(pair_scores(ladder.games).items()):
        lines.append(f"  {a}-{b}: {points:g}/{count}")
    return "\n".join(lines)


def markdown_table(ladder: Ladder, result: Fit) -> str:
    """The table of docs/levels.md: level, rating, ± error, how it plays, games behind it."""
    lines = ["| level | rating | ± | gap to the level below | plays like | a move (mean) | games |",
             "|---|---|---|---|---|---|---|"]
    for row in describe(ladder, result):
        name = str(row["player"])
        label = name[1:] if name.startswith("L") and name[1:].isdigit() else name
        gap = f"{row['gap']:+.0f} ± {row['gap_error']:.0f}" if "gap" in row else "(anchor)" if (
            name == result.anchor) else ""
        lines.append(f"| {label} | {row['rating']:.0f} | {row['error']:.0f} | {gap} | "
                     f"{row['description']} | {row['searched']} | {row['games']} |")
    return "\n".join(lines)


def sources_line(ladder: Ladder) -> str:
    """What produced the games: the commit(s) measured and each file's command and games."""
    commits = sorted({str(src.get("commit", "?"))[:10] + (
        " with uncommitted changes" if src.get("dirty") else "") for src in ladder.sources})
    runs = []
    for src in ladder.sources:
        stopped = "" if src.get("complete", True) else ", stopped early"
        runs.append(f"`{src.get('command', '?')}` ({src.get('game_count')} games{stopped})")
    return f"commit {', '.join(commits)}; " + "; ".join(runs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path,
                        help="ladder files (default: bench/data/ladder-*.json)")
    parser.add_argument("--anchor", default="L1", help="the player rated 0 (default L1)")
    parser.add_argument("--prior-draws", type=float, default=1.0,
                        help="virtual draws added to each pair that met (default 1)")
    parser.add_argument("--markdown", action="store_true", help="print docs/levels.md's tables")
    args = parser.parse_args(argv)
    files = args.files or sorted(DATA.glob("ladder-*.json"))
    if not files:
        print(f"rating: no ladder files in {DATA}; make one with bench/level_ladder.py --out",
              file=sys.stderr)
        return 2
    try:
        ladders = load(files)
        for variant, ladder in sorted(ladders.items()):
            names = order_players({g.white for g in ladder.games} | {g.black for g in ladder.games})
            result = fit(ladder.games, anchor=args.anchor if args.anchor in names else names[0],
                         prior_draws=args.prior_draws, players=names)
            if args.markdown:
                print(f"**{variant}** — {sources_line(ladder)}\n")
                print(markdown_table(ladder, result) + "\n")
            else:
                print(text_table(ladder, result) + "\n")
    except ValueError as exc:
        print(f"rating: {exc}", file=sys.stderr)
        return 2
    return 0


def ratings_by_level(fitted: Fit) -> Mapping[int, float]:
    """The fitted ratings of the levels, by level number (other players left out)."""
    return {int(p[1:]): r for p, r in fitted.ratings.items()
            if p.startswith("L") and p[1:].isdigit()}


if __name__ == "__main__":
    sys.exit(main())
