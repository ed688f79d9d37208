"""One player on every device: a link code signs another connection in as the same player
with a token of its own, the player's devices are listed and signed out, the older
connection is told in words where the player went; bad input gets its documented error
and changes nothing; across processes on one Redis as on one."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from server.app.settings import Settings
from server.app.store.bus import BOARDS
from server.app.store.keys import devices_key

from .client import Client, player, signed_in
from .cluster import LocalCluster
from .conftest import Running, running, with_settings
from .test_cluster import cluster, local_cluster, on_cluster  # noqa: F401 (fixtures)

CODE_RE = re.compile(r"[2-9A-Z]{4}-[2-9A-Z]{4}")


async def anonymous(url: str) -> Client:
    client = await Client.connect(url)
    await client.call("hello", protocol=1)
    return client


async def registered(url: str, name: str, device: str) -> Client:
    client = await anonymous(url)
    reply = await client.call("register", name=name, device=device)
    client.token = reply["token"]
    client.name = name
    return client


async def linked(url: str, code: str, device: str) -> tuple[Client, dict[str, Any]]:
    client = await anonymous(url)
    reply = await client.call("link", code=code, device=device)
    client.token = reply["token"]
    client.name = reply["player"]["name"]
    return client, reply


def labels(reply: dict[str, Any]) -> list[str]:
    return [d["label"] for d in reply["devices"]]


async def test_a_link_code_signs_another_device_in_as_the_same_player(server: Running) -> None:
    desk = await registered(server.url, "ann", "terminal on desk")
    made = await desk.call("link_code")
    assert CODE_RE.fullmatch(made["code"]), made
    assert made["ttl"] == 300
    assert made["expires"] - server.clock.now_ms() in range(295_000, 300_001)
    game = await desk.call("new_game", game="gate", seed=3)

    # typed as a person might: small letters, no dash, spaces around
    phone, reply = await linked(
        server.url, f" {made['code'].replace('-', '').lower()} ", "Chrome on Android"
    )
    assert reply["player"]["name"] == "ann" and reply["token"] != desk.token
    assert reply["resume"]["solo"]["game"] == game["game"]
    out = await desk.event("signed_out")
    assert out == {
        "type": "signed_out",
        "reason": "signed in on another device: Chrome on Android",
        "cause": "replaced",
    }
    assert (await desk.closed())[0] == 4001

    listed = await phone.call("devices")
    assert labels(listed) == ["terminal on desk", "Chrome on Android"]
    assert [(d["this"], d["connected"]) for d in listed["devices"]] == [
        (False, False),
        (True, True),
    ]
    assert all(
        set(d) == {"id", "label", "added", "seen", "this", "connected"} for d in listed["devices"]
    )
    assert reply["device"] == listed["devices"][1]["id"]

    # both tokens sign in as ann; the desk's again tells the phone where it went
    desk2 = await signed_in(server.url, desk.token or "")
    assert desk2.name == "ann"
    assert (await phone.event("signed_out"))[
        "reason"
    ] == "signed in on another device: terminal on desk"


async def test_two_terminals_on_one_machine_are_told_apart(server: Running) -> None:
    """Both terminals on one machine say "terminal on desk": the second is numbered, in
    the list and in what the first is told when it takes over."""
    first = await registered(server.url, "ann", "terminal on desk")
    made = await first.call("link_code")
    second, _ = await linked(server.url, made["code"], "terminal on desk")
    assert (await first.event("signed_out"))["reason"] == (
        "signed in on another device: terminal on desk 2"
    )
    made = await second.call("link_code")
    third, _ = await linked(server.url, made["code"], "terminal on desk")
    listed = await third.call("devices")
    assert labels(listed) == ["terminal on desk", "terminal on desk 2", "terminal on desk 3"]
    # a device signing in again keeps its number whatever its client says
    again = await Client.connect(server.url)
    await again.call("hello", protocol=1, token=second.token, device="terminal on desk")
    assert labels(await again.call("devices"))[1] == "terminal on desk 2"


async def test_devices_asked_beside_marks_the_device_that_plays(settings: Settings) -> None:
    """``devices`` asked on a side connection (the terminal's one-shot commands are ones)
    marks connected the device holding the player's connection, whichever process has
    it, and not the device asking; once that connection is gone, none. It marked the
    asking device connected and the phone that played not."""
    async with running(settings) as one, running(settings) as two:
        desk = await registered(one.url, "ann", "terminal on desk")
        phone, _ = await linked(two.url, (await desk.call("link_code"))["code"], "phone")
        await desk.closed()  # (replaced by the phone's sign-in)
        assert desk.token is not None
        side = await Client.connect(one.url)
        await side.call("hello", protocol=1, token=desk.token, side=True)
        listed = await side.call("devices")
        assert [(d["label"], d["this"], d["connected"]) for d in listed["devices"]] == [
            ("terminal on desk", True, False),
            ("phone", False, True),
        ]
        # the player's own connection answers the same
        listed = await phone.call("devices")
        assert [(d["this"], d["connected"]) for d in listed["devices"]] == [
            (False, False),
            (True, True),
        ]
        await phone.ws.close()
        deadline = asyncio.get_running_loop().time() + 10
        while True:
            listed = await side.call("devices")
            connected = [d["connected"] for d in listed["devices"]]
            if connected == [False, False] or asyncio.get_running_loop().time() > deadline:
                break
            await asyncio.sleep(0.05)
        assert connected == [False, False]


async def test_devices_asked_beside_marks_the_device_it_registered_on(settings: Settings) -> None:
    """The device a player registered on, still holding their connection, is connected
    to a ``devices`` asked beside on another process: it had been listed as not (its
    presence mark, set before the device was made, named none)."""
    async with running(settings) as one, running(settings) as two:
        phone = await registered(one.url, "ann", "phone")
        assert phone.token is not None
        side = await Client.connect(two.url)
        await side.call("hello", protocol=1, token=phone.token, side=True)
        listed = await side.call("devices")
        assert [(d["label"], d["this"], d["connected"]) for d in listed["devices"]] == [
            ("phone", True, True)
        ]
        # a device linked beside (the terminal's `link` does so), on the other process
        desk = await anonymous(two.url)
        code = (await phone.call("link_code"))["code"]
        await desk.call("link", code=code, device="desk", side=True)
        listed = await desk.call("devices")
        assert [(d["label"], d["this"], d["connected"]) for d in listed["devices"]] == [
            ("phone", False, True),
            ("desk", True, False),
        ]


async def test_the_same_device_twice_is_told_so(server: Running) -> None:
    ann = await registered(server.url, "ann", "Firefox on Linux")
    again = await Client.connect(server.url)
    await again.call("hello", protocol=1, token=ann.token)
    out = await ann.event("signed_out")
    assert (
        out["reason"] == "signed in again on this device (Firefox on Linux), on another connection"
    )
    assert out["cause"] == "replaced"
    assert labels(await again.call("devices")) == ["Firefox on Linux"]


async def test_a_token_from_before_devices_becomes_the_first_device(server: Running) -> None:
    ann = await player(server.url, "ann")  # registered without a label: "unnamed device"
    device = (await ann.call("devices"))["devices"][0]["id"]
    assert labels(await ann.call("devices")) == ["unnamed device"]
    await ann.close()
    # as a player registered before devices were kept: a token and no record
    back = await signed_in(server.url, ann.token or "")
    await server.redis.delete(devices_key(back.welcome["player"]["id"]))  # type: ignore[attr-defined]
    await back.close()
    back = await signed_in(server.url, ann.token or "")
    listed = await back.call("devices")
    assert labels(listed) == ["first device"] and listed["devices"][0]["id"] != device
    # a label given later is kept
    await back.close()
    back = await Client.connect(server.url)
    await back.call("hello", protocol=1, token=ann.token, device="terminal on\x1b[2J laptop")
    assert labels(await back.call("devices")) == ["terminal on[2J laptop"]


async def test_bad_link_codes_change_nothing(server: Running) -> None:
    ann = await registered(server.url, "ann", "desk")
    code = (await ann.call("link_code"))["code"]
    stranger = await anonymous(server.url)

    malformed = await stranger.request("link", code="ABCD-EFG1", device="x")
    assert malformed["code"] == "bad_link_code", malformed
    assert "not a link code" in malformed["message"]
    unknown = await stranger.request("link", code="2222-2222", device="x")
    assert unknown["code"] == "no_such_link_code", unknown
    # the connection is still anonymous, and ann's code still works
    assert (await stranger.request("devices"))["code"] == "not_authenticated"
    # ann asks again: the first code is revoked
    second = (await ann.call("link_code"))["code"]
    assert second != code
    revoked = await stranger.request("link", code=code, device="x")
    assert revoked["code"] == "no_such_link_code"

    phone, _ = await linked(server.url, second, "phone")
    reused = await stranger.request("link", code=second, device="x")
    assert reused["code"] == "no_such_link_code", reused
    assert "used or have expired" in reused["message"]
    # a signed-in connection cannot link
    assert (await phone.request("link", code=second))["code"] == "already_registered"
    assert labels(await phone.call("devices")) == ["desk", "phone"]


async def test_an_expired_link_code_is_refused(server: Running) -> None:
    ann = await registered(server.url, "ann", "desk")
    code = (await ann.call("link_code"))["code"]
    server.clock.advance(301)
    late = await anonymous(server.url)
    reply = await late.request("link", code=code, device="phone")
    assert reply["code"] == "no_such_link_code" and "expired" in reply["message"], reply
    assert labels(await ann.call("devices")) == ["desk"]
    assert (await late.request("devices"))["code"] == "not_authenticated"


async def test_guessing_link_codes_is_rate_limited(settings: Settings) -> None:
    async with running(with_settings(settings, link_tries=3)) as server:
        ann = await registered(server.url, "ann", "desk")
        guesser = await anonymous(server.url)
        # a code that signs in is not counted against the address
        code = (await ann.call("link_code"))["code"]
        await linked(server.url, code, "phone")
        for guess in ("2222-2222", "3333-3333", "4444-4444"):
            assert (await guesser.request("link", code=guess))["code"] == "no_such_link_code"
        refused = await guesser.request("link", code="5555-5555")
        assert refused["code"] == "rate_limited", refused
        assert "no more than 3 link codes tried in 10 minutes" in refused["message"]
        # even a good code waits, and is not used up by the refusal
        back = await signed_in(server.url, ann.token or "")
        good = (await back.call("link_code"))["code"]
        assert (await guesser.request("link", code=good))["code"] == "rate_limited"
        assert labels(await back.call("devices")) == ["desk", "phone"]
        # ten minutes on, the address may try again (that code has expired meanwhile)
        server.clock.advance(601)
        fresh = (await back.call("link_code"))["code"]
        assert (await guesser.call("link", code=fresh, device="tablet"))["player"]["name"] == "ann"


async def test_signing_devices_out(server: Running) -> None:
    desk = await registered(server.url, "ann", "desk")
    bob = await registered(server.url, "bob", "bob's phone")
    bobs = (await bob.call("devices"))["devices"][0]["id"]
    phone, _ = await linked(server.url, (await desk.call("link_code"))["code"], "phone")
    tablet, _ = await linked(server.url, (await phone.call("link_code"))["code"], "tablet")
    listed = await tablet.call("devices")
    ids = {d["label"]: d["id"] for d in listed["devices"]}
    assert list(ids) == ["desk", "phone", "tablet"]

    # bad input: nothing changes
    for fields, code in (
        ({"device": bobs}, "no_such_device"),
        ({"device": "nosuch"}, "no_such_device"),
        ({"device": ids["tablet"]}, "this_device"),
        ({}, "bad_request"),
        ({"device": ids["desk"], "everywhere": True}, "bad_request"),
    ):
        reply = await tablet.request("sign_out", **fields)
        assert reply["code"] == code, (fields, reply)
    assert labels(await tablet.call("devices")) == ["desk", "phone", "tablet"]
    assert (await signed_in(server.url, bob.token or "")).name == "bob"

    # one device out: its token is refused, in words
    after = await tablet.call("sign_out", device=ids["desk"])
    assert labels(after) == ["phone", "tablet"]
    refused = await (await Client.connect(server.url)).request(
        "hello", protocol=1, token=desk.token
    )
    assert refused["code"] == "bad_token", refused
    assert re.fullmatch(
        r"this device was signed out from tablet on \d{4}-\d\d-\d\d \d\d:\d\d UTC: "
        r"sign in again with a link code from a device still signed in",
        refused["message"],
    ), refused

    # everywhere else: this one stays
    back = await signed_in(server.url, phone.token or "")
    after = await back.call("sign_out", everywhere=True)
    assert labels(after) == ["phone"]
    assert (
        await (await Client.connect(server.url)).request("hello", protocol=1, token=tablet.token)
    )["code"] == "bad_token"
    assert (await signed_in(server.url, phone.token or "")).name == "ann"
    assert (await (await Client.connect(server.url)).request("hello", protocol=1, token="nope"))[
        "message"
    ] == "no player has this token"


async def test_linking_and_signing_out_across_processes(settings: Settings) -> None:
    """A code made through one process is used through another; the connection the
    first holds is told where the player went; a device signed out through the second
    is refused through the first."""
    async with running(settings) as one, running(settings) as two:
        desk = await registered(one.url, "ann", "terminal on desk")
        code = (await desk.call("link_code"))["code"]
        phone, _ = await linked(two.url, code, "Chrome on Android")
        out = await desk.event("signed_out")
        assert out["reason"] == "signed in on another device: Chrome on Android"
        assert out["cause"] == "replaced"
        assert (await desk.closed())[0] == 4001
        # the code is used up for both
        again = await (await anonymous(one.url)).request("link", code=code)
        assert again["code"] == "no_such_link_code"
        desk_id = (await phone.call("devices"))["devices"][0]["id"]
        await phone.call("sign_out", device=desk_id)
        refused = await (await Client.connect(one.url)).request(
            "hello", protocol=1, token=desk.token
        )
        assert refused["code"] == "bad_token" and "Chrome on Android" in refused["message"]


async def test_a_player_has_at_most_sixteen_devices(server: Running) -> None:
    current = await registered(server.url, "ann", "device 1")
    for n in range(2, 17):
        if n == 11:  # (ten codes an hour)
            server.clock.advance(3601)
        code = (await current.call("link_code"))["code"]
        current, _ = await linked(server.url, code, f"device {n}")
    refused = await current.request("link_code")
    assert refused["code"] == "too_many_devices", refused
    assert refused["message"] == "a player may have 16 devices: sign one out first"
    listed = await current.call("devices")
    assert len(listed["devices"]) == 16
    await current.call("sign_out", device=listed["devices"][0]["id"])
    assert (await current.call("link_code"))["code"]


async def test_devices_on_a_cluster(cluster: LocalCluster, tmp_path: Path) -> None:  # noqa: F811
    """On a Redis Cluster too: every key of a player's devices and link codes stands alone
    (no script touches two), and a sign-out's pipeline is split by node."""
    async with running(with_settings(on_cluster(cluster, tmp_path), link_tries=2)) as server:
        desk = await registered(server.url, "ann", "desk")
        phone, _ = await linked(server.url, (await desk.call("link_code"))["code"], "phone")
        tablet, _ = await linked(server.url, (await phone.call("link_code"))["code"], "tablet")
        assert labels(await tablet.call("devices")) == ["desk", "phone", "tablet"]
        assert labels(await tablet.call("sign_out", everywhere=True)) == ["tablet"]
        for token in (desk.token, phone.token):
            refused = await (await Client.connect(server.url)).request(
                "hello", protocol=1, token=token
            )
            assert refused["code"] == "bad_token" and "from tablet" in refused["message"]
        guesser = await anonymous(server.url)
        for guess in ("2222-2222", "3333-3333"):
            assert (await guesser.request("link", code=guess))["code"] == "no_such_link_code"
        assert (await guesser.request("link", code="4444-4444"))["code"] == "rate_limited"


async def test_link_codes_asked_for_are_limited_an_hour(server: Running) -> None:
    ann = await registered(server.url, "ann", "desk")
    for _ in range(10):
        await ann.call("link_code")
    refused = await ann.request("link_code")
    assert refused["code"] == "rate_limited", refused
    assert refused["message"].startswith("at most 10 link codes an hour: try again in ")
    server.clock.advance(3601)
    assert (await ann.call("link_code"))["code"]


async def test_signing_a_device_out_closes_its_side_connections_everywhere(
    settings: Settings,
) -> None:
    """A device signed out loses every connection it has, its side connections too
    (``hello``'s ``side``, the terminal's one-shot commands), in whichever of three
    processes they are. One left open stayed signed in as the player, and could make a
    link code and so a new token: "sign out everywhere" undone by whoever held the
    stolen token."""
    async with running(settings) as one, running(settings) as two, running(settings) as three:
        desk = await registered(one.url, "ann", "desk")
        assert desk.token is not None
        sides = []
        for place in (one, two, three):
            side = await Client.connect(place.url)
            welcome = await side.call("hello", protocol=1, token=desk.token, side=True)
            assert welcome["side"] is True
            sides.append(side)
        phone, _ = await linked(two.url, (await desk.call("link_code"))["code"], "phone")
        await desk.closed()  # (replaced by the phone's sign-in)
        after = await phone.call("sign_out", everywhere=True)
        assert labels(after) == ["phone"]
        for side in sides:
            out = await side.event("signed_out", timeout=5)
            assert out["cause"] == "signed_out" and out["reason"] == "signed out from phone"
            assert (await side.closed())[0] == 4001
        # a side connection of a device still signed in is not touched
        kept = await Client.connect(three.url)
        assert phone.token is not None
        await kept.call("hello", protocol=1, token=phone.token, side=True)
        tablet, _ = await linked(one.url, (await kept.call("link_code"))["code"], "tablet")
        listed = (await tablet.call("devices"))["devices"]
        await kept.call("sign_out", device=next(d["id"] for d in listed if d["label"] == "tablet"))
        assert (await tablet.event("signed_out", timeout=5))["cause"] == "signed_out"
        assert (await kept.call("profile"))["type"] == "profile"


async def test_a_sign_out_missed_while_deaf_closes_the_connection_when_the_bus_is_back(
    settings: Settings,
) -> None:
    """A process that did not hear a device's ``signed_out`` (its bus deaf: Redis
    restarted) closes that device's connections as it hears again and catches up."""
    async with running(settings) as one, running(settings) as two:
        desk = await registered(one.url, "ann", "desk")
        assert desk.token is not None
        side = await Client.connect(two.url)
        await side.call("hello", protocol=1, token=desk.token, side=True)
        phone, _ = await linked(one.url, (await desk.call("link_code"))["code"], "phone")
        await two.service.bus.unsubscribe(BOARDS)  # two hears none of it
        await phone.call("sign_out", everywhere=True)
        assert (await side.call("profile"))["type"] == "profile"  # still open: missed
        await two.service.on_bus_back()
        out = await side.event("signed_out", timeout=5)
        assert out["cause"] == "signed_out"
        assert (await side.closed())[0] == 4001


async def test_a_link_code_entered_beside_takes_nothing_over(server: Running) -> None:
    """``link`` with ``side`` (the terminal's ``link CODE``, which saves the token and
    quits) signs the connection in beside the player's own: the browser tab playing is
    not thrown out (it was: "signed in on another device", for a command that had quit)."""
    phone = await registered(server.url, "ann", "Chrome on Android")
    game = await phone.call("new_game", game="gate", seed=3)
    code = (await phone.call("link_code"))["code"]
    desk = await anonymous(server.url)
    reply = await desk.call("link", code=code, device="terminal on desk", side=True)
    assert reply["player"]["name"] == "ann" and reply["side"] is True
    assert "resume" not in reply  # (nothing taken up: the game is the phone's)
    refused = await desk.request("move", game=game["game"], move=game["legal"][0])
    assert refused["code"] == "side_connection", refused
    await desk.close()
    moved = await phone.call("move", game=game["game"], move=game["legal"][0])  # still its
    assert moved["type"] == "moved"
    assert "signed_out" not in [e["type"] for e in phone.events]
    later = await signed_in(server.url, reply["token"])  # the token is a device's own
    assert later.name == "ann"
    assert labels(await later.call("devices")) == ["Chrome on Android", "terminal on desk"]


async def test_the_device_that_asked_for_a_code_hears_it_used(settings: Settings) -> None:
    """A browser showing its link code kept counting it down after a terminal had used
    it (a second device then tried it and was refused): the player's connection, on
    whichever process, is told the code was used and by what (``link_used``), before
    any sign-in that takes its place."""
    async with running(settings) as one, running(settings) as two:
        desk = await registered(one.url, "ann", "Chrome on Linux")
        code = (await desk.call("link_code"))["code"]
        side = await anonymous(two.url)
        await side.call("link", code=code, device="terminal on vm", side=True)
        used = await desk.event("link_used")
        assert used["code"] == code and used["device"] == "terminal on vm", used
        assert "id" not in used
        # a code that signs its device in in the player's place: told first, then gone
        code = (await desk.call("link_code"))["code"]
        await linked(two.url, code, "Chrome on Android")
        used = await desk.event("link_used", lambda e: e["code"] == code)
        assert used["device"] == "Chrome on Android"
        await desk.event("signed_out")


async def test_a_code_replaced_from_another_device_is_told_to_the_one_showing_it(
    settings: Settings,
) -> None:
    """A player has one link code at a time: a new one revokes the old. A browser showing
    its code kept offering it after the terminal (beside it, in another process) had
    asked for a newer one, and the code it offered was refused. The player's connection
    is told (``link_revoked``); asking again itself, it is not (its reply is the news)."""
    async with running(settings) as one, running(settings) as two:
        desk = await registered(one.url, "ann", "Chrome on Linux")
        side = await anonymous(two.url)  # a terminal's command, signed in beside
        code = (await desk.call("link_code"))["code"]
        await side.call("link", code=code, device="terminal on vm", side=True)
        first = (await desk.call("link_code"))["code"]
        newer = (await side.call("link_code"))["code"]
        revoked = await desk.event("link_revoked", timeout=5)
        assert revoked == {"type": "link_revoked", "code": first, "device": "terminal on vm"}
        refused = await (await anonymous(one.url)).request("link", code=first)
        assert refused["code"] == "no_such_link_code", refused
        third = (await desk.call("link_code"))["code"]  # asked for here: no news
        await desk.call("ping")
        await asyncio.sleep(0.2)  # (a bus message from two would have come by now)
        assert [e for e in desk.events if e["type"] == "link_revoked"] == []
        assert third != newer
