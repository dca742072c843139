"""Issue 25 §9: NaN, infinity and negative numbers are not time limits. The Hub server took
``level move-time=nan`` silently and ``go think`` never returned; ``analyse --movetime inf``
ran until killed. Each now gets one clear line."""

from __future__ import annotations

import pytest

from firmware_host.cli import main
from firmware_host.opponents.hub.protocol import HubProtocolError, Level, parse_line
from firmware_host.opponents.hub.server import HubServer

VALUES = ["nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1"]


@pytest.mark.parametrize("name", ["move-time", "time", "inc"])
@pytest.mark.parametrize("value", VALUES)
def test_the_hub_server_answers_a_bad_time_with_an_error(name: str, value: str) -> None:
    lines: list[str] = []
    hub = HubServer(lines.append)
    try:
        hub.handle("hub")
        hub.handle("init")
        lines.clear()
        hub.handle(f"level {name}={value}")
        errors = [parse_line(line) for line in lines if parse_line(line).command == "error"]
        assert len(errors) == 1, lines
        assert value.lower().lstrip("-") in (errors[0].get("message") or "").lower()
    finally:
        hub.close()


@pytest.mark.parametrize("value", VALUES)
def test_a_level_line_with_a_bad_time_is_refused(value: str) -> None:
    with pytest.raises(HubProtocolError):
        Level.from_message(parse_line(f"level move-time={value}"))


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0", "1e999"])
def test_analyse_refuses_a_bad_movetime_in_one_line(value: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--variant", "russian", f"--movetime={value}"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--movetime" in err[0], err
