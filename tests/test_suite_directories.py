"""The suite keeps what it makes to itself: a test run leaves nothing in its runner's home."""

from __future__ import annotations

from pathlib import Path

from firmware_host.config.places import data_home, games_dir, state_home


def test_games_made_by_tests_stay_out_of_the_runners_home() -> None:
    home = Path.home()
    for place in (Path(games_dir()), data_home(), state_home()):
        assert not place.is_relative_to(home), place
