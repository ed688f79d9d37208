"""The HTML of the read-only pages (:mod:`server.app.transport.web` routes the
requests): the index, a leaderboard readable on a phone, a replay, and the small page of an error.
Every string from a player is escaped. No page has inline script or style (the
Content-Security-Policy forbids both): their style sheet is :data:`STYLE`, served as
``/web/pages.css``.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

from server.engine import GAMES

from ..domain import daily as d
from ..domain import difficulty as df
from ..domain import lost, replays
from ..domain.boards import Board

#: the pages' style sheet, served as ``/web/pages.css``
STYLE = """body{font-family:system-ui,sans-serif;margin:0 auto;max-width:40rem;padding:1rem;
color:#222;background:#fafaf7}
h1{font-size:1.3rem}table{border-collapse:collapse;width:100%}
th,td{padding:.35rem .4rem;text-align:left;border-bottom:1px solid #ddd}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
table.board td:nth-child(2){overflow-wrap:anywhere}
@media (max-width:480px){body{padding:.6rem}th,td{padding:.3rem .25rem}}
form{margin:1rem 0;display:flex;gap:.5rem;flex-wrap:wrap}
nav a{margin-right:.8rem}a{color:#06c}.muted{color:#777}
"""


def html_page(title: str, body: str, meta: str = "") -> str:
    """A page; ``meta``, more of its head (a link preview's tags: ``previews.py``)."""
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><link rel=icon href=/web/icons/icon.svg type=image/svg+xml>"
        f'<link rel=stylesheet href="/web/pages.css">{meta}</head><body>'
        f"{body}</body></html>"
    )


def _duration(entry: dict[str, Any]) -> str:
    """A timed board's time cell: a won game's time; a dash for a game not won, which
    its time does not rank (docs/leaderboards.md), as the race results say it."""
    time_ms = entry.get("time_ms")
    if not entry.get("won"):
        return "—"
    return d.finish_text(time_ms) if isinstance(time_ms, int) else ""


def _got(entry: dict[str, Any], unit: Any) -> str:
    """How far a game not won got: cards home (``30/52``), or pairs where cards come off
    in pairs (``15/26 pairs``: the board's ``unit``; its entries count cards).

    >>> _got({"home": 30, "total": 52}, "cards"), _got({"home": 30, "total": 52}, "pairs")
    ('30/52', '15/26 pairs')
    """
    home, total = int(entry.get("home") or 0), int(entry.get("total") or 0)
    return f"{home // 2}/{total // 2} pairs" if unit == "pairs" else f"{home}/{total}"


def _reached(result: dict[str, Any], unit: str) -> str:
    """How far a replay's game got: ``9/52 home``, or ``1/26 pairs off``.

    >>> _reached({"home": 2, "total": 52}, "pairs"), _reached({"home": 9, "total": 52}, "cards")
    ('1/26 pairs off', '9/52 home')
    """
    return f"{_got(result, 'pairs')} off" if unit == "pairs" else f"{_got(result, unit)} home"


def public_replay(entry: dict[str, Any], today: str) -> bool:
    """Whether a board entry's replay is anyone's to see: a daily game's only once its
    day is over (``handlers/replays.py``), so today's results link to none.

    >>> today = "2026-11-22"
    >>> public_replay({"day": "2026-11-21"}, today), public_replay({"day": today}, today)
    (True, False)
    """
    day = entry.get("day")
    return not isinstance(day, str) or day < today


def board_html(page: dict[str, Any], board: Board, today: str, meta: str = "") -> str:
    rows = []
    counting = board.counting
    for entry in page["entries"]:
        name = str(entry.get("player", "?"))
        # a name leads to the player's page in the browser client (their ratings)
        player_cell = f'<a href="/play#player={escape(quote(name, safe=""))}">{escape(name)}</a>'
        if counting:
            cells = f"<td class=n>{int(entry.get('count', 0))}</td>"
        elif board.kind == "rating":  # (docs/ratings.md)
            cells = (
                f"<td class=n>{int(entry.get('rating', 0))}</td>"
                f"<td class=n>{int(entry.get('races', 0))}</td>"
            )
        else:
            result = "won" if entry.get("won") else _got(entry, page.get("unit"))
            result = escape(result + replays.hints_text(entry))
            replay = entry.get("replay")
            if replay and public_replay(entry, today):
                result = f'<a href="/replay/{escape(str(replay))}">{result}</a>'
            cells = (
                f"<td>{result}</td><td class=n>{_duration(entry)}</td>"
                f"<td class=n>{int(entry.get('moves', 0))}</td>"
            )
        rows.append(f"<tr><td class=n>{int(entry['rank'])}</td><td>{player_cell}</td>{cells}</tr>")
    head = (
        "<tr><th class=n>#</th><th>player</th><th class=n>count</th></tr>"
        if counting
        else "<tr><th class=n>#</th><th>player</th><th class=n>rating</th>"
        "<th class=n>races</th></tr>"
        if board.kind == "rating"
        else "<tr><th class=n>#</th><th>player</th><th>result</th><th class=n>time</th>"
        "<th class=n>moves</th></tr>"
    )
    picker = ""
    if board.kind == "daily":
        options = "".join(
            f'<option value="{gid}"{" selected" if gid == board.game else ""}>'
            f"{escape(info.name)}</option>"
            for gid, info in GAMES.items()
        )
        previous = d.previous_day(board.day or today)
        following = d.day_of(d.day_start_ms(board.day or today) + d.DAY_MS)
        later = (
            f' <a href="/leaderboard/daily/{board.game}/{following}">{following} &rarr;</a>'
            if following <= today
            else ""
        )
        picker = (
            f'<form action="/leaderboard" method=get><select name=game>{options}</select>'
            f'<input type=date name=day value="{escape(board.day or today)}" max="{today}">'
            "<button>Show</button></form>"
            f'<nav><a href="/leaderboard/daily/{board.game}/{previous}">&larr; {previous}</a>'
            f"{later}</nav>"
        )
    empty = "" if rows else "<p class=muted>No results yet.</p>"
    if page.get("min_races"):  # a rating board: who is on it
        races = int(page["min_races"])
        after = f"{races} rated race{'' if races == 1 else 's'}"
        empty += f"<p class=muted>A racer joins this board after {after}.</p>"
    difficulty = page.get("difficulty")
    if difficulty:  # the day's deal's grade: public before play (docs/solver.md)
        unit = str(page.get("unit") or "cards")  # (pairs: Nestor, Doubles and Quits)
        picker += f"<p>Difficulty: {escape(df.words(difficulty, unit))}.</p>"
    book = page.get("book")
    if book:  # a certified deal's par and book line: only once the day is over
        proved = " (proved shortest)" if book.get("shortest") else " (shortest found)"
        picker += (
            f"<p>Par {int(book['par'])}{proved}: "
            f'<a href="/replay/{escape(str(book["replay"]))}">the book line</a></p>'
        )
    body = (
        f'<p><a href="/">Patience Race</a></p><h1>{escape(board.title())}</h1>{picker}'
        f"<table class=board><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>{empty}"
        f"<p class=muted>{int(page['size'])} on this board · "
        f'<a href="/leaderboard/{escape(board.id)}.json">JSON</a></p>'
    )
    return html_page(board.title(), body, meta)


def index_html(today: str, grades: dict[str, str] | None = None) -> str:
    """The index page: today's dailies (each with its deal's grade where it is graded:
    ``grades``, by game), the boards, the browser client."""
    grades = grades or {}
    items = "".join(
        f'<li><a href="/leaderboard/daily/{gid}/{today}">{escape(info.name)}</a>'
        # (after a name with brackets of its own: "The Gate (bars of three) (expert)")
        + (f" · graded {escape(str(grades[gid]))}" if grades.get(gid) else "")
        + " · "
        f'<a href="/leaderboard/best/{gid}">best times</a> · '
        f'<a href="/leaderboard/wins/{gid}">most wins</a> · '
        f'<a href="/leaderboard/rating/{gid}">ratings</a></li>'
        for gid, info in GAMES.items()
    )
    body = (
        "<h1>Patience Race</h1>"
        '<p><a href="/play"><strong>Play in your browser</strong></a>: solo games, '
        "the daily challenges and races with friends.</p>"
        f"<p>Today's daily challenges, {today}:</p><ul>{items}</ul>"
        '<p><a href="/leaderboard/races/week">Races won this week</a> · '
        '<a href="/leaderboard/races/all">all time</a></p>'
    )
    return html_page("Patience Race", body)


def no_client_html(why: str) -> str:
    """The page ``/play`` answers where the browser client cannot be served: why, and
    that the terminal client and the read-only pages still work."""
    body = (
        f'<p><a href="/">Patience Race</a></p><h1>The browser client is not here</h1>'
        f"<p>{escape(why)}.</p><p>The terminal client (<code>patience-race</code>) and "
        "the leaderboards still work.</p>"
    )
    return html_page("Patience Race: browser client", body)


#: the server the terminal client asks when given none (``client_cli.config``): a command
#: for any other carries ``--server``
TERMINAL_DEFAULT = "ws://127.0.0.1:8765"


def terminal_command(words: str, url: str | None) -> str:
    """A ``patience-race`` command for the server of the page at ``url`` (its websocket
    on the same host and port), with ``--server`` unless it is the terminal's default, so
    that it works as pasted, as the clients print theirs.

    >>> terminal_command("challenge --replay ab", "https://race.example.org/replay/ab")
    'patience-race challenge --replay ab --server wss://race.example.org'
    >>> terminal_command("challenge --replay ab", "http://127.0.0.1:8765/replay/ab")
    'patience-race challenge --replay ab'
    """
    if url is None:
        return f"patience-race {words}"
    scheme, _, rest = url.partition("://")
    server = f"{'wss' if scheme == 'https' else 'ws'}://{rest.partition('/')[0]}"
    if server == TERMINAL_DEFAULT:
        return f"patience-race {words}"
    return f"patience-race {words} --server {server}"


def race_this(replay: dict[str, Any], url: str | None = None) -> str:
    """A player's replay offers to race its ghost on the same deal (a book line is no
    player's game): in the browser client, or with the terminal client's command for the
    server of the page at ``url``."""
    if replay.get("kind") == replays.BOOK:
        return ""
    rid = escape(str(replay["id"]))
    typed = escape(terminal_command(f"challenge --replay {replay['id']}", url))
    return (
        f'<p><a href="/play#race={rid}">Race this</a>: the same deal against this game\'s '
        f"ghost (in a terminal: <code>{typed}</code>)</p>"
    )


def book_par(replay: dict[str, Any]) -> str:
    """A book line's par, and whether it is proved the shortest; nothing for a player's
    replay."""
    if replay.get("kind") != replays.BOOK or not isinstance(replay.get("par"), int):
        return ""
    proved = "proved shortest" if replay.get("shortest") else "shortest found"
    return f"<p>Par {int(replay['par'])} ({proved}): the day's book line.</p>"


def committed(replay: dict[str, Any]) -> str:
    """A daily replay's commitment to its deal, with the salt once it is revealed
    (``docs/commitments.md``); nothing for a replay without one."""
    made = replay.get("commitment")
    if not isinstance(made, str):
        return ""
    salt = replay.get("salt")
    revealed = f" · salt <code class=hash>{escape(salt)}</code>" if isinstance(salt, str) else ""
    return (
        f"<p class=muted>Deal committed ahead: <code class=hash>{escape(made)}</code>"
        f'{revealed} (<a href="/daily/commitments">the commitments</a>)</p>'
    )


def replay_html(replay: dict[str, Any], meta: str = "", url: str | None = None) -> str:
    result = replay.get("result", {})
    name = GAMES[replay["game"]].name if replay.get("game") in GAMES else replay.get("game")
    log = replay.get("moves", [])
    # (an undo says what it took back, as the terminal's viewer does: a bare "undo" left
    # the move it undid to be worked out)
    notes = replays.undo_notes([str(what) for _, what in log])
    moves = "".join(
        f"<tr><td class=n>{n + 1}</td><td class=n>"
        f"{d.clock_text(int(at) - int(replay['start_ms']))}</td><td>"
        f"{escape(replays.entry_words(str(what)))}"
        f"{escape(f' ({notes[n]})') if n in notes else ''}</td></tr>"
        for n, (at, what) in enumerate(log)
    )
    seed = replay.get("seed")
    info = GAMES.get(replay.get("game", ""))
    unit = lost.unit(info.cls) if info is not None else lost.CARDS
    try:
        other = replays.other_rules(replay)
        version = replays.rules_version(replay)
    except replays.Tampered:
        other, version = "its rules version is not a number", 0
    rules_note = f"<p class=muted>Not checkable here: {escape(other)}.</p>" if other else ""
    body = (
        f'<p><a href="/">Patience Race</a></p><h1>{escape(str(name))}: '
        f"{escape(str(replay.get('player', '')))}</h1>"
        f"<p>{escape(str(result.get('status')))} · {d.clock_text(int(result.get('time_ms', 0)))}"
        f" · {d.moves_text(int(result.get('moves', 0)))} · {_reached(result, unit)}"
        f"{replays.hints_text(result)}"
        f" · seed {escape(str(seed))}"
        f" · rules version {version}</p>{book_par(replay)}{rules_note}{committed(replay)}"
        f"<table><thead><tr><th class=n>#</th><th class=n>time</th><th>move</th></tr></thead>"
        f"<tbody>{moves}</tbody></table>"
        f"{race_this(replay, url)}"
        f'<p class=muted><a href="/replay/{escape(str(replay["id"]))}.json">JSON</a> '
        "(check it: <code>patience-race-server verify FILE</code>)</p>"
    )
    return html_page(f"Replay {replay['id']}", body, meta)
