"""The configuration loader: defaults, validation messages, overrides, secrets."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from firmware_host.config.example import render
from firmware_host.config.loader import Config, ConfigError, redact_url
from firmware_host.config.schema import ENGINE_HUB_COMMAND, STORE_URL, TIMING_SETTLE_MS
from firmware_host.store.urls import store_url_problem

ROOT = Path(__file__).resolve().parents[3]


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
    # Every option is written out, but those whose default depends on the machine or the user:
    # board.id (the hostname) and the paths (the user's own directories; the installed
    # service's config names its own: test_install_writes_the_services_paths).
    machine = {"board.id", "store.games_dir", "store.spool_dir", "web.token_file",
               "coach.mistakes_dir"}
    assert config.explicit == frozenset(config.values) - machine
    assert "\n# id = <the hostname>\n" in shipped.read_text()
    assert "\n# games_dir = <~/.local/share/draughtsboard/games>\n" in shipped.read_text()


def test_the_paths_default_to_the_users_own_directories(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    config = Config.from_mapping({})
    assert config["store.games_dir"] == str(tmp_path / ".local/share/draughtsboard/games")
    assert config["store.spool_dir"] == str(tmp_path / "state/draughtsboard/spool")
    assert config["web.token_file"] == str(tmp_path / "state/draughtsboard/web-token")
    assert config["coach.mistakes_dir"] == str(tmp_path / ".local/share/draughtsboard/mistakes")


def test_hub_params_table(tmp_path: Path) -> None:
    config = Config.load(write(tmp_path, "[engine]\nhub_params = { book = true, threads = 2 }\n"))
    assert config["engine.hub_params"] == {"book": True, "threads": 2}
    with pytest.raises(ConfigError, match="may not set variant"):
        Config.load(write(tmp_path, "[engine]\nhub_params = { variant = 'normal' }\n"))
    with pytest.raises(ConfigError, match="must be a table"):
        Config.load(write(tmp_path, "[engine]\nhub_params = { x = [1] }\n"))


def test_a_file_that_is_not_utf8_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes("[game]\nevent = 'Café'\n".encode("latin-1"))
    with pytest.raises(ConfigError) as info:
        Config.load(path)
    assert str(info.value) == \
        f"{path}: not UTF-8 text (byte 0xe9 on line 2); save the file as UTF-8"


@pytest.mark.parametrize("value", ["nan", "+nan", "inf", "-inf"])
def test_non_finite_numbers_are_refused(tmp_path: Path, value: str) -> None:
    for text, key in ((f"[leds]\nbrightness = {value}\n", "leds.brightness"),
                      (f"[engine]\nhub_timeout_s = {value}\n", "engine.hub_timeout_s"),
                      (f"[engine]\nhub_params = {{ x = {value} }}\n", "engine.hub_params.x")):
        with pytest.raises(ConfigError, match="must be a finite number") as info:
            Config.load(write(tmp_path, text))
        assert info.value.key == key and str(info.value).startswith(f"{tmp_path}")
    with pytest.raises(ConfigError, match=r"leds\.brightness must be a finite number"):
        Config.from_mapping({}).with_overrides({"leds.brightness": float(value)})


@pytest.mark.parametrize(("url", "words"), [
    ("redis://:s3cret@pi.local:abc/0", "must have a port from 1 to 65535, not 'abc'"),
    ("redis://:s3cret@pi.local:65536/0", "must have a port from 1 to 65535, not 65536"),
    ("redis://:s3cret@pi.local:0/0", "must have a port from 1 to 65535, not 0"),
    ("redis://:s3cret@[::1", "is not a valid URL"),
    ("redis://:s3cret@[::1]x:6379", "text after the [IPv6] host"),
    ("redis://:s3cret@pi local:6379/0", "has a malformed host 'pi local'"),
    ("redis://:s3cret@:6379/0", "must name a host"),
    ("redis://:s3cret@pi.local:6379/zero", "must end in a database number such as /0"),
    ("redis://:s3/cret@pi.local:6379/0", "must be percent-encoded"),
    ("unix://:s3cret@", "must name the socket's path"),
    ("ftp://:s3cret@host/", "unix:// or redis+sentinel:// URL"),
    ("redis+sentinel://:s3cret@10.0.0.1:26379", "must name the service the sentinels watch"),
    ("redis+sentinel://:s3cret@10.0.0.1:0/hall/0", "must have a port from 1 to 65535, not 0"),
    ("redis+sentinel://:s3cret@10.0.0.1,/hall/0", "must list the sentinels as HOST:PORT"),
    ("redis+sentinel://:s3cret@h/hall/x", "must end in /SERVICE or /SERVICE/DB"),
    ("redis+sentinel://h/hall/0?password=s3cret&db=1", "takes only ?password="),
])
def test_store_url_is_checked_in_full_and_never_shows_the_password(
        tmp_path: Path, url: str, words: str) -> None:
    path = write(tmp_path, f"[store]\nurl = '{url}'\n")
    with pytest.raises(ConfigError) as info:
        Config.load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: store.url ") and words in message
    assert "s3" not in message and "cret" not in message and info.value.key == "store.url"


@pytest.mark.parametrize("url", [
    "memory", "redis://localhost", "redis://127.0.0.1:6379/0", "rediss://:pw@redis.example:6380/2",
    "redis://user:pw@[::1]:6379/0", "redis://pi.local:6379/0?socket_timeout=5",
    "unix:///run/redis/redis-server.sock", "unix://:pw@/run/redis.sock?db=1",
])
def test_good_store_urls(url: str) -> None:
    assert store_url_problem(url) is None
    assert Config.from_mapping({"store": {"url": url}})["store.url"] == url


def test_board_id_defaults_to_the_hostname(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "gethostname", lambda: "Hall-Pi.Local")
    assert Config.from_mapping({})["board.id"] == "hall-pi-local"
    monkeypatch.setattr(socket, "gethostname", lambda: "")
    assert Config.from_mapping({})["board.id"] == "board1"
    assert Config.from_mapping({"board": {"id": "table_7"}})["board.id"] == "table_7"
    for bad in ("", "a:b", "board 1", "-x", "x" * 64):
        with pytest.raises(ConfigError, match="is not a board id") as info:
            Config.from_mapping({"board": {"id": bad}})
        assert info.value.key == "board.id"


def test_crown_ms_has_a_key() -> None:
    assert Config.from_mapping({})["timing.crown_ms"] == 1500
    assert Config.from_mapping({"timing": {"crown_ms": 0}})["timing.crown_ms"] == 0
    with pytest.raises(ConfigError, match=r"timing\.crown_ms = 60001 is above 60000"):
        Config.from_mapping({"timing": {"crown_ms": 60001}})


def test_the_service_has_its_own_config_error(tmp_path: Path) -> None:
    import board_io.errors
    import firmware_host.config
    import firmware_host.errors

    assert ConfigError is firmware_host.errors.ConfigError is firmware_host.config.ConfigError
    assert issubclass(ConfigError, board_io.errors.ConfigProblem)  # key and file, as board_io's
    path = write(tmp_path, "[engine]\nlevel = 11\n")
    with pytest.raises(firmware_host.errors.DraughtsboardError) as info:
        Config.load(path)
    assert isinstance(info.value, ConfigError) and info.value.key == "engine.level"
    assert info.value.source == str(path)


def test_unknown_override_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"command line: unknown option game\.varient"):
        Config.from_mapping({}).with_overrides({"game.varient": "russian"})


def test_cli_prints_one_line_for_a_file_that_is_not_utf8(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.cli import main

    path = tmp_path / "bad.toml"
    path.write_bytes(b"[store]\nurl = 'redis://:pw@h:1/0'\n\xff\n")
    assert main(["run", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"draughtsboard: {path}: not UTF-8 text (byte 0xff on line 3); save the file " \
                  "as UTF-8\n"


def test_store_url_from_the_command_line_is_checked_too() -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_mapping({}).with_overrides({"store.url": "redis://:pw@[::1"})
    assert str(info.value).startswith("command line: store.url is not a valid URL")
    assert ":pw@" not in str(info.value)


def test_a_key_read_through_its_option_is_the_validated_value() -> None:
    config = Config.from_mapping({"timing": {"settle_ms": 250}, "engine": {"hub_command": ["x"]}})
    assert config[TIMING_SETTLE_MS] == 250
    assert config[ENGINE_HUB_COMMAND] == ["x"]
    assert config[STORE_URL] == "memory"  # the default
    # A list comes back as a fresh copy: a caller's change does not reach the configuration.
    config[ENGINE_HUB_COMMAND].append("y")
    assert config[ENGINE_HUB_COMMAND] == ["x"]


def test_a_value_the_option_refuses_is_a_config_error_on_read() -> None:
    config = Config({"timing.settle_ms": -5})  # built around the loader's checks
    with pytest.raises(ConfigError, match=r"timing\.settle_ms = -5 is below 0"):
        config[TIMING_SETTLE_MS]
    assert Config({})[TIMING_SETTLE_MS] == 300  # absent: the default
