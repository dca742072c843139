"""The evaluation tuner: reproducible self-play positions, the logistic fit, the generated file."""

from __future__ import annotations

import gzip
import math
from collections.abc import Mapping
from pathlib import Path

import pytest

from engine import Board, find_variant
from engine.evaluate import FEATURES, prior_weights_for, weights_for
from engine.generators import generator_for
from firmware_host.cli import main
from firmware_host.tools.tuning import dataset, render, teacher
from firmware_host.tools.tuning.fit import FitError, features, fit, log_loss
from firmware_host.tools.tuning.selfplay import Sample, SelfPlay, play

SMALL = SelfPlay("russian", games=2, seed=5, nodes=60, max_plies=60)


@pytest.fixture(scope="module")
def samples() -> list[Sample]:
    return list(play(SMALL))


def test_the_same_seed_gives_the_same_positions(samples: list[Sample]) -> None:
    assert samples == list(play(SMALL))
    other = list(play(SelfPlay("russian", games=2, seed=6, nodes=60, max_plies=60)))
    assert [s.fen for s in other] != [s.fen for s in samples]


def test_only_quiet_positions_are_kept(samples: list[Sample]) -> None:
    gen = generator_for("russian")
    assert samples
    for sample in samples:
        white, black, kings = Board("russian", sample.fen).bitboards()
        assert not gen.has_capture(white, black, kings, 0)
        assert not gen.has_capture(black, white, kings, 1)


def test_positions_of_one_game_share_its_result(samples: list[Sample]) -> None:
    # A game's positions come in one run; the two games together have at most two results.
    assert len({s.result for s in samples}) <= 2
    assert {s.result for s in samples} <= {0.0, 0.5, 1.0}


def test_giveaway_variants_are_not_tuned() -> None:
    with pytest.raises(ValueError, match="giveaway"):
        SelfPlay("russian-giveaway")
    with pytest.raises(FitError, match="giveaway"):
        fit(find_variant("russian-giveaway"), [Sample("W:Wc3:Bf6", 0.5)])


def test_the_file_is_the_same_bytes_for_the_same_positions(tmp_path: Path,
                                                           samples: list[Sample]) -> None:
    header = {"variant": "russian", "seed": "5"}
    assert dataset.dumps(header, samples) == dataset.dumps(header, samples)
    path = tmp_path / "russian.txt.gz"
    dataset.write(path, header, samples)
    assert dataset.read(path) == (header, samples)


def test_a_bad_line_is_named_with_its_number(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt.gz"
    path.write_bytes(gzip.compress(b"# variant: russian\n1 W:Wc3:Bf6\n2 W:Wc3\n"))
    with pytest.raises(dataset.DatasetError, match=r"bad.txt.gz:3: expected 'result fen'"):
        dataset.read(path)
    (tmp_path / "plain.txt").write_text("1 W:Wc3:Bf6\n")
    with pytest.raises(dataset.DatasetError, match="not a gzip positions file"):
        dataset.read(tmp_path / "plain.txt")


def test_the_loss_is_log_two_for_a_coin_and_falls_with_a_right_guess() -> None:
    assert log_loss(0.01, [0.0, 0.0], [1.0, 0.0]) == pytest.approx(math.log(2))
    assert log_loss(0.01, [300.0], [1.0]) < log_loss(0.01, [0.0], [1.0])
    assert log_loss(0.01, [300.0], [0.0]) > math.log(2)


def test_the_fit_is_a_coordinate_minimum(samples: list[Sample]) -> None:
    """No single weight moved by one, within its bounds, lowers the penalised training loss."""
    variant = find_variant("russian")
    result = fit(variant, samples, passes=50, l2=0.1, holdout=0.0)
    assert result.loss_after <= result.loss_before
    rows, results = features(variant, samples)
    prior = result.prior.vector()
    n = len(rows)

    def objective(weights: list[int]) -> float:
        scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
        pull = sum(0.1 * (result.k * (w - p)) ** 2 * sum(row[i] ** 2 for row in rows) / n
                   for i, (w, p) in enumerate(zip(weights, prior, strict=True)))
        return log_loss(result.k, scores, results) + pull

    fitted = list(result.weights.vector())
    best = objective(fitted)
    for i, name in enumerate(FEATURES):
        if name in ("man", "king") or not any(row[i] for row in rows):
            continue  # the man fixes the scale, the king keeps its prior
        low, high = result.bounds[i]
        for delta in (1, -1):
            trial = list(fitted)
            trial[i] += delta
            if low <= trial[i] <= high:  # a bound from the game may hold a weight back
                assert objective(trial) >= best - 1e-9, name
    assert result.weights.man == 100
    assert result.weights.king == result.prior.king


def test_a_fit_that_does_not_help_unseen_games_keeps_the_weights() -> None:
    # Results that contradict the material: the held-out games say the fit is noise.
    variant = find_variant("english")
    train = [Sample("W:W21-32:B1-11", 0.0), Sample("B:W22-32:B1-12", 1.0)] * 10
    test = [Sample("W:W21-32:B1-11", 1.0), Sample("B:W22-32:B1-12", 0.0)] * 5
    result = fit(variant, train + test, passes=5, l2=None, holdout=len(test) / 30)
    assert result.weights == prior_weights_for(variant)
    assert result.holdout_after == result.holdout_before


def test_the_generated_module_reads_back(tmp_path: Path) -> None:
    terms = dict(zip(FEATURES, weights_for(find_variant("czech")).vector(), strict=True))
    terms["king"] = 271
    text = render.render({"czech": terms}, {"czech": 'made by "hand"'})
    namespace: dict[str, object] = {}
    exec(compile(text, "weights.py", "exec"), namespace)
    assert namespace["TUNED"] == {"czech": terms}
    assert namespace["SOURCES"] == {"czech": 'made by "hand"'}
    assert all(len(line) <= 100 for line in text.splitlines())


def test_the_engine_hints_and_levels_play_with_the_tuned_weights() -> None:
    from engine.levels import searcher_for_level
    from engine.search import Searcher
    from engine.weights import TUNED

    assert TUNED
    for name, terms in TUNED.items():
        # Hints and teach mode search with a Searcher; the levels build one too.
        for searcher in (Searcher(name), searcher_for_level(name, 3)):
            vector = dict(zip(FEATURES, searcher.evaluator.weights.vector(), strict=True))
            assert {k: vector[k] for k in terms} == dict(terms)


def test_the_command_line_plays_fits_and_writes(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "russian.txt.gz"
    assert main(["tune", "selfplay", "--variant", "russian", "--games", "2", "--seed", "5",
                 "--nodes", "60", "--max-plies", "60", "--out", str(data)]) == 0
    header, found = dataset.read(data)
    assert found == list(play(SMALL))
    assert header["command"].startswith("draughtsboard tune selfplay --variant russian")
    out = tmp_path / "weights.py"
    assert main(["tune", "fit", "--variant", "russian", str(data), "--l2", "0.1",
                 "--holdout", "0", "--write", str(out)]) == 0
    namespace: dict[str, object] = {}
    exec(compile(out.read_text(), str(out), "exec"), namespace)
    tuned = namespace["TUNED"]
    assert isinstance(tuned, Mapping) and set(tuned["russian"]) == set(FEATURES)
    assert "russian" in capsys.readouterr().out


def test_forget_drops_one_variant(tmp_path: Path) -> None:
    from engine.weights import TUNED

    out = tmp_path / "weights.py"
    name = sorted(TUNED)[0]
    assert main(["tune", "forget", "--variant", name, "--write", str(out)]) == 0
    namespace: dict[str, object] = {}
    exec(compile(out.read_text(), str(out), "exec"), namespace)
    tuned = namespace["TUNED"]
    assert isinstance(tuned, Mapping) and set(tuned) == set(TUNED) - {name}


@pytest.mark.parametrize("argv", [
    ["tune", "selfplay", "--variant", "nowhere", "--out", "x.gz"],
    ["tune", "selfplay", "--variant", "russian", "--games", "0", "--out", "x.gz"],
    ["tune", "fit", "--variant", "russian", "missing.txt.gz"],
    ["tune", "fit", "--variant", "russian-giveaway", "missing.txt.gz"],
    ["tune", "forget", "--variant", "nowhere", "--write", "weights.py"],
    ["tune", "patterns", "--variant", "international", "missing.txt.gz"],
    ["tune", "patterns", "--variant", "nowhere", "missing.txt.gz"],
])
def test_bad_input_is_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("draughtsboard tune: ") and err.count("\n") == 1


# -- a teacher engine's labels (firmware_host.tools.tuning.teacher) --------------------------

def test_probabilities_round_trip_and_bad_ones_are_named(tmp_path: Path) -> None:
    samples = [Sample("W:W31-50:B1-20", 0.7311), Sample("B:W31-50:B1-20", 0.9996),
               Sample("W:W31-50:B1-20", 0.0004), Sample("B:W31-49:B1-20", 0.5)]
    _, back = dataset.loads(dataset.dumps({"teacher": "x"}, samples))
    assert [s.result for s in back] == [0.731, 1.0, 0.0, 0.5]
    for bad in ("1.5", "0.7311", "-0.1", ".5", "0.5x"):
        path = tmp_path / "bad.txt.gz"
        path.write_bytes(gzip.compress(f"# variant: international\n{bad} W:W31:B1\n".encode()))
        with pytest.raises(dataset.DatasetError, match=r"bad\.txt\.gz:2: .*probability"):
            dataset.read(path)
    with pytest.raises(dataset.DatasetError, match="0 to 1"):
        dataset.dumps({}, [Sample("W:W31:B1", 1.2)])


def test_a_teacher_labels_quiet_distinct_positions_for_white() -> None:
    quiet, capture = "W:W31-50:B1-20", "W:W28:B23"
    seen: list[str] = []

    def scorer(board: Board) -> float | None:
        seen.append(board.fen())
        return None if board.fen() == "B:W31-50:B1-20" else 100.0

    samples = teacher.label("international", [quiet, capture, quiet, "nonsense",
                                              "B:W31-50:B1-20"], scorer)
    assert seen == [quiet, "B:W31-50:B1-20"]  # the capture, the repeat, the bad FEN: never asked
    assert samples[0].fen == quiet and math.isclose(samples[0].result, 0.75)
    assert len(samples) == 1  # no score: left out
    black_up = teacher.label("international", ["B:W31-50:B1-20"], lambda board: 100.0)
    assert math.isclose(black_up[0].result, 0.25)


def test_game_positions_read_both_record_formats() -> None:
    match_record = {"opening": "33-29 17-22", "moves": ["39-33", "12-17", "bad", "33-28"]}
    ladder_record = {"opening": "W:W31-50:B1-20", "moves": "32-28 19-23"}
    fens = list(teacher.game_positions("international", [match_record, ladder_record]))
    start = Board("international")
    start.push(start.parse_move("33-29"))
    start.push(start.parse_move("17-22"))
    assert fens[0] == start.fen()
    assert len(fens) == 3 + 3  # the match record stops at its bad move
    assert fens[3] == "W:W31-50:B1-20"


def test_a_fit_on_teacher_labels_moves_towards_the_teachers_weights() -> None:
    # The teacher is our own evaluation with the centre worth 40 more: fitted from the priors,
    # the centre weight must move up towards it.
    from engine.evaluate import Evaluator

    variant = find_variant("international")
    prior = prior_weights_for(variant)
    centre = FEATURES.index("centre")
    taught = Evaluator(variant, prior.with_terms({"centre": prior.vector()[centre] + 40}),
                       shipped_patterns=False)
    games = list(play(SelfPlay("international", games=6, seed=2, nodes=60, max_plies=80)))
    samples = teacher.label("international", [s.fen for s in games],
                            lambda board: float(taught.evaluate(board)))
    assert len(samples) > 100
    result = fit(variant, samples, passes=4, l2=0.001, holdout=0.0)
    assert result.weights.vector()[centre] >= prior.vector()[centre] + 20
    assert result.loss_after < result.loss_before


# -- region patterns fitted with the linear terms (firmware_host.tools.tuning.patterns) ------

@pytest.fixture(scope="module")
def taught_by_a_pattern() -> tuple[list[Sample], tuple[int, int]]:
    """Self-play positions labelled by the priors plus one planted pattern worth +60."""
    from engine.evaluate import Evaluator
    from engine.patterns import PatternTable, indices

    variant = find_variant("international")
    games = list(play(SelfPlay("international", games=8, seed=3, nodes=60, max_plies=100)))
    fens = teacher.quiet_positions("international", [s.fen for s in games])
    # A pattern of table 5 (not the empty block) that some positions have and others not.
    counts: dict[int, int] = {}
    for fen in fens:
        own, _ = indices(Board(variant, fen))
        counts[own[5]] = counts.get(own[5], 0) + 1
    pattern = max((c, p) for p, c in counts.items() if p and c < len(fens) // 2)[1]
    taught = Evaluator(variant, prior_weights_for(variant),
                       patterns=PatternTable(variant, {(5, pattern): 60}))
    samples = teacher.label("international", fens, lambda board: float(taught.evaluate(board)))
    return samples, (5, pattern)


def test_a_pattern_fit_finds_a_planted_pattern(
        taught_by_a_pattern: tuple[list[Sample], tuple[int, int]]) -> None:
    from firmware_host.tools.tuning.patterns import fit_patterns

    samples, planted = taught_by_a_pattern
    assert len(samples) > 200
    result = fit_patterns(find_variant("international"), [samples], l2=0.00001, holdout=0.2)
    # The planted weight stands out (L2 and the linear terms share a little of it).
    others = [abs(w) for key, w in result.table.weights.items() if key != planted]
    assert result.table.weights[planted] >= 20
    assert result.table.weights[planted] >= 3 * max(others, default=0)
    assert result.held_out_loss < result.linear_held_out_loss
    assert result.terms["man"] > 50


def test_the_command_line_fits_and_writes_patterns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        taught_by_a_pattern: tuple[list[Sample], tuple[int, int]]) -> None:
    from engine.patterns import PatternTable

    samples, planted = taught_by_a_pattern
    data = tmp_path / "taught.txt.gz"
    dataset.write(data, {"variant": "international"}, samples)
    weights_py, patterns = tmp_path / "weights.py", tmp_path / "patterns.txt.gz"
    assert main(["tune", "patterns", "--variant", "international", str(data), "--l2", "0.00001",
                 "--write", str(weights_py), "--write-patterns", str(patterns)]) == 0
    namespace: dict[str, object] = {}
    exec(compile(weights_py.read_text(), str(weights_py), "exec"), namespace)
    tuned, sources = namespace["TUNED"], namespace["SOURCES"]
    assert isinstance(tuned, Mapping) and set(tuned["international"]) == set(FEATURES)
    assert isinstance(sources, Mapping) and "tune patterns" in sources["international"]
    table = PatternTable.from_text(find_variant("international"),
                                   gzip.decompress(patterns.read_bytes()).decode())
    assert table.weights[planted] >= 20
    assert "held out" in capsys.readouterr().out


def test_settled_positions_leave_out_the_shots(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        taught_by_a_pattern: tuple[list[Sample], tuple[int, int]]) -> None:
    from firmware_host.tools.tuning.patterns import settled

    variant = find_variant("international")
    # Black to move plays a shot: the static evaluation calls it level, three plies win men.
    shot = Sample("B:W31-36,38-50:B1-11,13-17,19,20,23", 0.055)
    quiet = Sample("W:W31-50:B1-20", 0.5)
    assert settled(variant, [quiet, shot, quiet], 3, 50) == [quiet, quiet]
    assert settled(variant, [shot], 3, 1000) == [shot]
    samples = taught_by_a_pattern[0]
    kept = settled(variant, samples, 3, 50)
    assert 0 < len(kept) <= len(samples)
    data = tmp_path / "taught.txt.gz"
    dataset.write(data, {"variant": "international"}, [*samples, shot])
    patterns = tmp_path / "patterns.txt.gz"
    assert main(["tune", "patterns", "--variant", "international", str(data), "--l2", "0.00001",
                 "--settle", "3", "--write-patterns", str(patterns)]) == 0
    out = capsys.readouterr().out
    held = int(len(kept) * 0.2)
    assert f"{len(kept) - held} positions fitted, {held} held out" in out
    assert "--settle 3 --settle-margin 50" in gzip.decompress(patterns.read_bytes()).decode()


def test_a_pattern_fit_without_numpy_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from firmware_host.tools.tuning.patterns import PatternFitError, fit_patterns

    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(PatternFitError, match=r"draughtsboard\[tune\]"):
        fit_patterns(find_variant("international"), [[Sample("W:W31-50:B1-20", 0.5)]])


def test_patterns_need_the_ten_by_ten_board(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    data = tmp_path / "russian.txt.gz"
    dataset.write(data, {"variant": "russian"}, [Sample("W:Wc3:Bf6", 0.5)])
    assert main(["tune", "patterns", "--variant", "russian", str(data)]) == 2
    err = capsys.readouterr().err
    assert "10x10" in err and err.count("\n") == 1
