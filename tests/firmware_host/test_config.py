"""The configuration loader: defaults, validation messages, overrides, secrets."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.config.example import render
from firmware_host.config.loader import Config, ConfigError, redact_url

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(text)
    return path


def test_defaults_when_empty(tmp_path: Path) -> None:
    config = Config.load(write(tmp_path, ""))
    assert config["game.variant"] == "international"
    assert config["timing.debounce_ms"] == 20
    assert config["timing.settle_ms"] == 300
    assert config["store.url"] == "memory"
    assert not config.is_set("game.variant")


def test_values_from_file(tmp_path: Path) -> None:
    config = Config.load(write(tmp_path, '[game]\nvariant = "russian"\n[engine]\nlevel = 7\n'))
    assert config["game.variant"] == "russian"
    assert config["engine.level"] == 7
    assert config.is_set("engine.level")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "[game]\nvarient = 'russian'\n",
            "unknown option game.varient (did you mean game.variant?)",
        ),
        ("[gaem]\nvariant = 'russian'\n", "unknown option gaem.variant"),
        ("[engine]\nlevel = 'high'\n", "engine.level must be an integer, not 'high'"),
        ("[engine]\nlevel = 11\n", "engine.level = 11 is above 10"),
        ("[timing]\nsettle_ms = -1\n", "timing.settle_ms = -1 is below 0"),
        ("[game]\nmode = 'blitz'\n", "game.mode = 'blitz' is not one of: play, record, teach"),
        ("[game]\ntakeback = 1\n", "game.takeback must be true or false, not 1"),
        ("game = 3\n", "[game] must be a table of options"),
        ("[game\n", "not valid TOML"),
        ("[store]\nurl = 'http://x'\n", "store.url must be 'memory' or a redis://"),
    ],
)
def test_invalid_values_name_the_key_and_file(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        Config.load(path)
    assert expected in str(info.value)
    assert str(path) in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        Config.load(tmp_path / "nope.toml")


def test_pin_used_twice_is_refused(tmp_path: Path) -> None:
    text = (
        "[board]\nsensors = 'gpio-matrix'\nbuttons = 'gpio'\n"
        "[gpio_matrix]\nrow_pins = [5, 6]\ncolumn_pins = [13, 19]\n"
        "[buttons]\nhint_pin = 6\n"
    )
    with pytest.raises(ConfigError, match=r"GPIO pin 6 is used twice: gpio_matrix.row_pins and "
                                          r"buttons.hint_pin"):
        Config.load(write(tmp_path, text))


def test_pins_of_unselected_backends_do_not_clash(tmp_path: Path) -> None:
    text = "[gpio_matrix]\nrow_pins = [25]\n"  # shift_register.load_pin defaults to 25 too
    assert Config.load(write(tmp_path, text))["gpio_matrix.row_pins"] == [25]


def test_overrides_win_and_are_validated() -> None:
    config = Config.from_mapping({"game": {"variant": "russian"}})
    overridden = config.with_overrides({"game.variant": "english", "game.mode": None})
    assert overridden["game.variant"] == "english"
    assert overridden["game.mode"] == "play"
    with pytest.raises(ConfigError, match=r"command line: game\.mode"):
        config.with_overrides({"game.mode": "blitz"})


def test_touch_move_auto_follows_mode() -> None:
    assert Config.from_mapping({"game": {"mode": "record"}}).touch_move() == "strict"
    assert Config.from_mapping({"game": {"mode": "play"}}).touch_move() == "off"
    forced = {"game": {"mode": "play", "touch_move": "strict"}}
    assert Config.from_mapping(forced).touch_move() == "strict"


def test_password_never_shown() -> None:
    url = "redis://:s3cret@10.0.0.2:6379/0"
    assert redact_url(url) == "redis://:***@10.0.0.2:6379/0"
    config = Config.from_mapping({"store": {"url": url}})
    assert "s3cret" not in repr(config.describe())
    with pytest.raises(ConfigError) as info:
        Config.from_mapping({"store": {"url": "ftp://:s3cret@host/"}})
    assert "s3cret" not in str(info.value)


def test_shipped_example_is_current_and_valid() -> None:
    shipped = ROOT / "systemd" / "draughtsboard.toml"
    assert shipped.read_text() == render(), "regenerate: python -m firmware_host.config.example"
    config = Config.load(shipped)
    assert config.explicit == frozenset(config.values)  # every option is written out


def test_hub_params_table(tmp_path: Path) -> None:
    config = Config.load(write(tmp_path, "[engine]\nhub_params = { book = true, threads = 2 }\n"))
    assert config["engine.hub_params"] == {"book": True, "threads": 2}
    with pytest.raises(ConfigError, match="may not set variant"):
        Config.load(write(tmp_path, "[engine]\nhub_params = { variant = 'normal' }\n"))
    with pytest.raises(ConfigError, match="must be a table"):
        Config.load(write(tmp_path, "[engine]\nhub_params = { x = [1] }\n"))
