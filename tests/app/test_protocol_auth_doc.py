"""docs/protocol.md's lists of which requests need a signed-in player, and which a side
connection may make, checked against the real server: every request type is sent on a
fresh connection that never signed in, with plausible fields, and the ones answered
``not_authenticated`` must be exactly those the doc says need a player. (The lists had
drifted: thirty requests added since said nothing.)"""

from __future__ import annotations

import re
from typing import Any

from server.protocol.messages import REQUESTS, SIDE_REQUESTS

from .client import Client
from .conftest import Running
from .test_protocol_doc import DOC

#: a plausible value for each field a request may need (the check of who may ask comes
#: before anything looks the value up)
VALUES: dict[str, Any] = {
    "protocol": 1,
    "name": "nobody",
    "code": "ABCDEFGH",
    "game": "gate",
    "move": "deal",
    "board": "best/gate",
    "replay": "0" * 16,
    "step": 0,
    "challenge": "0" * 16,
    "group": "0" * 10,
    "key": "0" * 10,
}


def first(part: str) -> set[str]:
    """The names in backticks in ``part``'s first sentence."""
    return set(re.findall(r"`([a-z_]+)`", part.split(". ", 1)[0]))


def doc_lists() -> tuple[set[str], set[str], set[str]]:
    text = " ".join(DOC.read_text().split())
    need = text.split("Requests that need a signed-in player (else `not_authenticated`):")[1]
    free = text.split("Requests that do not:")[1]
    side = text.split("and may ask only for these:")[1]
    groups = {kind for kind in REQUESTS if kind.startswith("group_")}  # "every `group_`"
    needed = first(need) - {"not_authenticated", "group_", "around", "friends", "name"}
    return needed | groups, first(free) - {"name"}, first(side)


async def test_the_requests_said_to_need_a_player_are_the_ones_that_do(server: Running) -> None:
    need, free, _ = doc_lists()
    refused: set[str] = set()
    for kind, cls in REQUESTS.items():
        required = [name for name, spec in cls.FIELDS.items() if spec.required]
        unknown = [name for name in required if name not in VALUES]
        assert not unknown, f"{kind}: give VALUES (above) a value for {unknown}"
        fields = {name: VALUES[name] for name in required}
        client = await Client.connect(server.url)
        if kind != "hello":
            await client.call("hello", protocol=1)
        reply = await client.request(kind, **fields)
        if reply.get("code") == "not_authenticated":
            refused.add(kind)
        await client.close()
    # `top` is in both: a page is anyone's, yourself or your friends a player's; and
    # `profile`: another's by name (`nobody`, registered above) is anyone's, one's own a
    # player's
    client = await Client.connect(server.url)
    await client.call("hello", protocol=1)
    assert (await client.request("top", board="best/gate", around=True))["code"] == (
        "not_authenticated"
    )
    assert (await client.request("profile", name="nobody"))["type"] == "profile"
    await client.close()
    assert "top" in need and "top" in free
    assert "profile" in need and "profile" in free
    assert refused == need - {"top"}, (refused - need, need - refused)
    allowed = set(REQUESTS) - refused | {"profile"}
    assert allowed == free, (allowed - free, free - allowed)


def test_the_requests_said_to_be_allowed_beside_are_the_servers() -> None:
    _, _, side = doc_lists()
    assert side == {cls.TYPE for cls in SIDE_REQUESTS}, (
        side - {cls.TYPE for cls in SIDE_REQUESTS},
        {cls.TYPE for cls in SIDE_REQUESTS} - side,
    )
