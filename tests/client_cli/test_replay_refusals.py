"""``replay`` and ``review`` refusing, the command run in process against a real server
and Redis: what names no replay is refused before anything is asked (a server nobody
listens on would have said "cannot reach"), in words that say what a replay id and its
link look like (exit 2, a wrong command line); the server's refusals are said as
helpfully as ``review`` says its own."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from client_cli import cli
from tests.app.client import player
from tests.app.conftest import ServerProcess
from tests.app.pars import fix_pars, today_and_yesterday

from .test_replay_keys_terminal import solo_game

GID = "0cdcc14ac44c6f69"
#: a server nobody listens on: a command that asked it would say it cannot reach it
NOBODY = "ws://127.0.0.1:9"


@pytest.fixture
def own_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    config = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.setenv("PATIENCE_SERVER", NOBODY)
    return config


def said(capsys: pytest.CaptureFixture[str]) -> str:
    return " ".join(capsys.readouterr().err.split())


def test_a_replay_not_there_says_it_may_be_a_race_on_or_expired(
    server_process: ServerProcess, own_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server says ``no_such_replay`` alike for one's own race game while the race is
    still on and for a solo game's replay expired: ``replay`` said only "no replay 'ID'",
    where ``review`` says "the race is still on" and "(or it has expired)"."""
    assert cli.main(["replay", GID, "--server", server_process.url]) == 1
    words = said(capsys)
    assert f"no replay '{GID}' (or it has expired)" in words, words
    assert "once the race ends" in words, words


def test_a_book_line_before_the_reset_is_nobodys_and_a_daily_its_players(
    redis_url: str, tmp_path: Path, own_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A book line has no player: "until then only its player sees it" was wrong of it;
    a daily game's replay before the reset is its player's."""
    asyncio.run(fix_pars(redis_url))
    today, _ = today_and_yesterday()
    server = ServerProcess(redis_url, tmp_path)
    server.start()
    try:
        book = f"book{today.replace('-', '')}nestor"
        assert cli.main(["replay", book, "--server", server.url]) == 1
        words = said(capsys)
        assert "the book line is public after the day's reset (00:00 UTC)" in words, words
        assert "its player" not in words and "seed" not in words, words

        async def a_daily() -> str:
            ann = await player(server.url, "ann")
            game = await ann.call("daily", game="nestor")
            await ann.call("resign")
            await ann.close()
            return str(game["game"])

        gid = asyncio.run(a_daily())
        assert cli.main(["replay", gid, "--server", server.url]) == 1
        words = said(capsys)
        assert "until then only its player sees it, without its seed" in words, words
    finally:
        server.stop()


@pytest.mark.parametrize(
    "given",
    [
        "http://127.0.0.1:9471/garbage/xyz",
        "htp:/foo",
        "../../etc",
        "",
        "c" * 100,
        "xyz",
        "http://127.0.0.1:9471/replay/",
        "http://127.0.0.1:9471/play#replay=../etc",
    ],
)
def test_what_names_no_replay_is_refused_before_asking(
    own_config: Path, capsys: pytest.CaptureFixture[str], given: str
) -> None:
    """It was taken for an id ("xyz" of a link to another page, "etc" of a path) and
    asked for: "no replay 'xyz'", exit 1; a long one "too long: ... it was not sent"."""
    assert cli.main(["replay", given]) == 2
    words = said(capsys)
    assert "not a replay id or link" in words, words
    assert "16 letters and digits" in words and "http://HOST/replay/ID" in words, words
    assert "/play#replay=ID" in words, words
    assert "reach" not in words, words  # (nothing asked of a server)


def test_challenge_of_a_replay_refuses_the_same(
    own_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["challenge", "--replay", "http://h/garbage/xyz"]) == 2
    assert "not a replay id or link" in said(capsys)


@pytest.mark.parametrize(
    "given",
    [
        GID,
        GID.upper(),
        f" http://127.0.0.1:9471/replay/{GID} ",
        f"https://race.example.org/replay/{GID}/",
        f"https://race.example.org/replay/{GID}.json",
        f"http://127.0.0.1:9471/play#replay={GID}",
        f"http://127.0.0.1:9471/play#board=gate&replay={GID}",
    ],
)
def test_every_form_of_a_replay_is_taken(given: str) -> None:
    from client_cli.ids import game_id, replay_id  # (the module this test asks for)

    assert replay_id(given) == GID
    assert game_id(given) == GID


def test_a_book_line_is_a_replay_and_no_game() -> None:
    from client_cli.ids import game_id, replay_id

    assert replay_id("book20261128gate") == "book20261128gate"
    assert replay_id("http://h/replay/book20261124gatenarrow") == "book20261124gatenarrow"
    assert game_id("book20261128gate") is None


def test_review_takes_the_link_the_replay_viewer_gives(
    server_process: ServerProcess, own_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``review http://HOST/replay/ID`` said "no game '...': a game's id is 16 letters
    and digits"; the viewer prints that link at its foot. Its server is the link's (the
    configured one, nobody's, would not answer)."""
    gid = solo_game(server_process.url, own_config)
    link = server_process.url.replace("ws://", "http://") + f"/replay/{gid}"
    assert cli.main(["review", link]) == 0
    out = capsys.readouterr()
    shown = " ".join(out.out.split())
    assert "Where the game was lost" in shown, shown
    assert "a player who knew the face-down cards could still win" in shown, shown


@pytest.mark.parametrize("given", ["zzz", "http://127.0.0.1:9471/garbage/xyz", "book20261128gate"])
def test_review_refuses_what_names_no_game_before_asking(
    own_config: Path, capsys: pytest.CaptureFixture[str], given: str
) -> None:
    assert cli.main(["review", given]) == 2
    words = said(capsys)
    assert "a game's id is 16 letters and digits" in words, words
    assert "http://HOST/replay/ID" in words, words
    assert "reach" not in words, words
