"""The page of the daily deals' commitments (``/daily/commitments``; its JSON is
``Commitments.listing`` as it is): the days ahead with their commitments, the days past
with the seed and salt that make each, and how to check one by hand
(``docs/commitments.md``). Readable on a phone: a hash breaks across lines."""

from __future__ import annotations

from html import escape
from typing import Any

from server.engine import GAMES

from ..domain import commitments as c
from .pages import html_page

#: more of the pages' style sheet (``/web/pages.css``)
STYLE = """code.hash{word-break:break-all;font-size:.85rem}
ul.commits{list-style:none;padding:0}ul.commits li{margin:.5rem 0}
"""

#: where the page is, for the clients and the other pages to link to
PATH = "/daily/commitments"


def _deal(day: str, deal: dict[str, Any]) -> str:
    game = str(deal["game"])
    name = GAMES[game].name if game in GAMES else game
    marked = "certified" if deal.get("certified") else "uncertified (its first candidate)"
    line = (
        f"<li><strong>{escape(name)}</strong> <span class=muted>{marked}</span><br>"
        f"<code class=hash>{escape(str(deal['commitment']))}</code>"
    )
    if "seed" in deal:
        text = c.committed_text(game, day, int(deal["seed"]), str(deal["salt"]))
        line += (
            f"<br>seed {int(deal['seed'])} · salt <code class=hash>{escape(str(deal['salt']))}"
            f"</code><br><span class=muted>check:</span> <code class=hash>printf '%s' "
            f"'{escape(text)}' | sha256sum</code>"
        )
    return line + "</li>"


def commitments_html(listing: dict[str, Any]) -> str:
    today = str(listing["today"])
    sections = []
    for day in listing["days"]:
        when = str(day["day"])
        if day["revealed"]:
            head = f"{when}: revealed"
        elif when == today:
            head = f"{when}: today (revealed at 00:00 UTC)"
        else:
            head = f"{when}: ahead"
        deals = "".join(_deal(when, deal) for deal in day["deals"])
        if day.get("pending"):
            names = ", ".join(GAMES[g].name if g in GAMES else g for g in day["pending"])
            deals += (
                f"<li class=muted>not committed yet, its deal being certified: {escape(names)}</li>"
            )
        sections.append(f"<h2>{escape(head)}</h2><ul class=commits>{deals}</ul>")
    body = (
        '<p><a href="/">Patience Race</a></p><h1>Daily deals, committed ahead</h1>'
        "<p>Every game's daily deal is fixed and committed to at least 7 days before its "
        "day: the commitment below is the SHA-256 of the text "
        f"<code class=hash>{escape(str(listing['layout']))}</code> (the seed in decimal, the "
        "salt in hex, no newline). At the day's reset the seed and salt are shown beside "
        "it, so anyone can check the deal played was the one committed to: save a "
        "commitment now, compare it after. A daily replay carries its day's commitment "
        "and salt (<code>patience-race-server verify --commitment HEX FILE</code>).</p>"
        f"{''.join(sections)}"
        f'<p class=muted><a href="{PATH}.json">JSON</a></p>'
    )
    return html_page("Daily deals, committed ahead", body)
