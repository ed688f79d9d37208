"""``patience-race profile [NAME]`` drawn (client_cli/profile.py): whose ratings, and
who the words speak to."""

from __future__ import annotations

import io

from rich.console import Console, RenderableType

from client_cli.profile import profile_view


def text(renderable: RenderableType) -> str:
    console = Console(width=80, file=io.StringIO(), color_system=None, emoji=False)
    console.print(renderable)
    return " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]


def test_a_profile_with_no_rated_race_speaks_of_its_player() -> None:
    """bob looking at carol_w's profile was told "a race against people rates you": it
    rates her, not him. His own still says you."""
    carols = text(profile_view({"player": "carol_w", "ratings": []}, me="bob"))
    assert "carol_w's ratings" in carols
    assert "No rated race yet: a race against people rates carol_w." in carols
    assert "rates you" not in carols
    # (a name told apart from the player's own as the server does: in any case)
    own = text(profile_view({"player": "Bob", "ratings": []}, me="bob"))
    assert "No rated race yet: a race against people rates you." in own
    # whose it is unknown: the name, true of anyone
    assert "rates carol_w." in text(profile_view({"player": "carol_w", "ratings": []}))
