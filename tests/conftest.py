"""Shared test settings.

Heavy suites take their sample size from one setting, ``DRAUGHTSBOARD_SAMPLE``:
``ci`` (the default, small enough for CI) or ``full`` (the size quoted before an issue is resolved).
"""

from __future__ import annotations

import logging
import os

import pytest

#: numpy's OpenBLAS starts a thread a core for its vector operations; in a test run, which shares
#: the cores with Redis servers, browsers and the service's processes, those threads wait on each
#: other (the region patterns' fit of tests/firmware_host/tools/tuning: 50 s instead of 6 s on a
#: busy machine of 2 cores, the same weights). One thread, set before numpy is first imported;
#: the suite's subprocesses inherit it. A value already set is kept.
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

SAMPLE = os.environ.get("DRAUGHTSBOARD_SAMPLE", "ci")
if SAMPLE not in ("ci", "full"):
    raise pytest.UsageError(f"DRAUGHTSBOARD_SAMPLE must be 'ci' or 'full', not {SAMPLE!r}")


def sample_size(ci: int, full: int) -> int:
    """Return the sample size for the current run: ``ci`` in CI, ``full`` when asked for."""
    return full if SAMPLE == "full" else ci


#: The per-test timeout at full size. pyproject's ``timeout = 300`` fits the CI sample; at full
#: size one test runs for many minutes (10,000 positions through pydraughts' Frisian alone takes
#: longer than 300 s; not every test that takes its size from ``sample_size`` is marked ``slow``),
#: so every test gets an hour instead: still a bound that catches a hang, no longer one that kills
#: a run in progress.
FULL_SAMPLE_TIMEOUT_S = 3600


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """At full size, give every test without a timeout of its own the longer bound."""
    if SAMPLE != "full":
        return
    for item in items:
        if not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(FULL_SAMPLE_TIMEOUT_S))


@pytest.fixture(scope="session", autouse=True)
def _own_user_directories(tmp_path_factory: pytest.TempPathFactory) -> object:
    """Every test keeps its games, spool and config in directories of the run, never in those
    of the person who runs the suite (the XDG variables the service reads, see
    ``firmware_host.config.places``); subprocesses inherit them."""
    root = tmp_path_factory.mktemp("xdg")
    saved = {name: os.environ.get(name) for name in XDG_NAMES}
    for name in XDG_NAMES:
        os.environ[name] = str(root / name.lower())
    yield root
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


#: The user's directories as the service finds them.
XDG_NAMES = ("XDG_DATA_HOME", "XDG_STATE_HOME")


#: Loggers of the project: an ERROR from one of them fails the test that logged it.
PROJECT_LOGGERS = ("draughtsboard", "firmware_host", "board_io", "engine")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "logs_errors: the test makes a fault on purpose and expects ERROR log lines")
    config.addinivalue_line(
        "markers", "incremental: a class of steps of one scene, each starting where the one "
                   "before left it: after a failed step the rest are not run (xfail)")


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A step of an ``incremental`` class after a failed one is not run (it would fail for the
    step before, not for its own behaviour)."""
    failed = getattr(item.parent, "_failed_step", None)
    if item.get_closest_marker("incremental") is not None and failed is not None:
        pytest.xfail(f"the step before failed: {failed}")


@pytest.fixture(autouse=True)
def _no_unexpected_errors(request: pytest.FixtureRequest,
                          caplog: pytest.LogCaptureFixture) -> object:
    """Fail any test that logs an unexpected ERROR (or worse) from the project's loggers.

    A test that makes a fault on purpose says so with ``@pytest.mark.logs_errors``.
    """
    yield
    if request.node.get_closest_marker("logs_errors") is not None:
        return
    errors = [record for record in caplog.get_records("call")
              if record.levelno >= logging.ERROR
              and record.name.split(".")[0] in PROJECT_LOGGERS]
    if errors:
        lines = "\n".join(f"{r.name}: {r.getMessage()}" for r in errors[:5])
        pytest.fail(f"unexpected ERROR log lines (mark the test logs_errors if they are "
                    f"meant):\n{lines}", pytrace=False)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    """In CI (``CI`` set, as ``.ci/run`` sets it) a skipped test is a failure: every tool a
    test needs (espeak-ng, msgfmt, Babel, py-draughts, the installed console script, root for a
    tmpfs) is installed there, so a skip means a missing dependency, never a choice."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if item.get_closest_marker("incremental") is not None and report.failed:
        item.parent._failed_step = item.name  # type: ignore[union-attr]
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where nothing may be missing: {reason}"
    return None
