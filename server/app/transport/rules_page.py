"""The games' rules pages for people in a browser (``/rules/GAME``): the page of
:mod:`rulebook` in its HTML form (real card faces, no terminal keys or commands), with
links to play the game and to the other games' pages. Read-only, like the pages of
:mod:`.pages`, whose style sheet carries :data:`STYLE` too.
"""

from __future__ import annotations

import functools
from html import escape

import rulebook
from server.engine import GAMES

from .pages import html_page

#: the rules pages' part of ``/web/pages.css``: card faces in the suit's colour (in a
#: sketch two columns wide, a ten's three: its code's and the space after it), sketches
#: of the table in type sized to fit a phone's width (scrolling on their own, rather than
#: widening the page, only past the smallest type)
STYLE = """.rules h2{font-size:1.05rem;margin:1.4rem 0 .4rem}
.rules dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem .8rem;margin:.4rem 0}
.rules dt{font-weight:600}.rules dd{margin:0}
.rules code{background:#eee;border-radius:3px;padding:0 .2rem}
.rules pre.sketch{overflow-x:auto;background:#1f5f3a;color:#e8f0e8;padding:.6rem;
border-radius:6px;line-height:1.5;font-size:.85rem;max-width:100%}
.card{display:inline-block;background:#fff;border:1px solid #999;border-radius:3px;
padding:0 .15rem;font-weight:600;white-space:nowrap;line-height:1.2}
pre .card{width:2ch;box-sizing:border-box;padding:0;text-align:center;letter-spacing:-.08em}
pre .card.ten{width:3ch}
.card.red{color:#c00}.card.black{color:#111}
.first{font-weight:600}
""" + "".join(
    # a sketch N characters wide in the width a phone leaves it (the page's and its own
    # padding, 2.6rem), a monospace character 0.62 of its type's size; never over .85rem,
    # and never under 8px (wider still, it scrolls on its own)
    f".rules pre.sketch.w{n}{{font-size:max(8px,min(.85rem,calc((100vw - 2.6rem)/{n * 0.62:g})))}}"
    for n in rulebook.SKETCH_WIDTHS
)


@functools.cache
def rules_html(game_id: str) -> str:
    """The browser's rules page of ``game_id`` (one of ``GAMES``), whole."""
    others = " ".join(
        f'<a href="/rules/{g}">{escape(GAMES[g].name)}</a>' for g in GAMES if g != game_id
    )
    nav = (
        f'<nav><a href="/play#solo={game_id}">Play {escape(GAMES[game_id].name)}</a> '
        '<a href="/play">Patience Race</a></nav>'
    )
    body = f'{nav}{rulebook.html(game_id)}<p class="muted">The other games: {others}</p>'
    return html_page(f"{GAMES[game_id].name}: the rules - Patience Race", body)
