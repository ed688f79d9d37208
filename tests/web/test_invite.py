"""Links that invite: a race room's link, a challenge's, a replay's page and the
leaderboards carry Open Graph and Twitter tags naming the game, the host or player and
how things stand (read from Redis, every value escaped; an unknown link gets the page
with the generic tags); the invite page says the game and who is hosting before it asks
a name; Join with no code says what to type. Over real HTTP and in Chromium, on the
real server and Redis."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from redis.asyncio import Redis

from server.app.store.codec import pack, unpack
from server.app.store.keys import room_key
from tests.app import rawhttp
from tests.app.client import Client, player
from tests.app.conftest import Running, ServerProcess
from tests.solver.positions import LOST

from .conftest import http, shot
from .test_play import until
from .test_race import register

HOSTILE = "</title><script>alert('x')</script>\"&"


class Head(HTMLParser):
    """A page's ``<meta>`` tags (by their ``property`` or ``name``), its title and links."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: list[dict[str, str | None]] = []
        self.title = ""
        self._in_title = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "meta" and (found.get("property") or found.get("name")):
            self.meta[found.get("property") or found.get("name") or ""] = found.get("content") or ""
        elif tag == "link":
            self.links.append(found)
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


async def page(port: int, target: str, host: str = "race.example.org:8765") -> Head:
    """The page at ``target`` as asked for with ``Host: host``."""
    answer = await rawhttp.send(
        port, f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
    )
    assert answer.status == 200, (target, answer.status, answer.text)
    return Head(answer.text)


def previewed(head: Head, title: str, url: str | None) -> None:
    """The tags every previewed page carries, with this title and address."""
    meta = head.meta
    assert meta["og:title"] == meta["twitter:title"] == title
    assert meta["og:type"] == "website" and meta["og:site_name"] == "Patience Race"
    assert meta["twitter:card"] == "summary"
    assert meta["og:description"] == meta["twitter:description"] and meta["og:description"]
    assert "og:image" not in meta  # there is none to show
    assert meta.get("og:url") == url


async def lobby(url: str) -> tuple[Client, Client, str]:
    """Ada's room of The Gate with Bo in it: the two and the room's code."""
    ada, bo = await player(url, "Ada"), await player(url, "Bo")
    code: str = (await ada.call("room_create", game="gate"))["code"]
    await bo.call("room_join", code=code)
    return ada, bo, code


async def test_a_room_link_previews_its_game_host_and_state(server: Running) -> None:
    port = server.web.port
    ada, bo, code = await lobby(server.url)
    head = await page(port, f"/r/{code}")
    title = "Race Ada at The Gate: waiting for racers, 2 in"
    previewed(head, title, f"http://race.example.org:8765/r/{code}")
    assert head.title == f"{title} · Patience Race"
    assert head.meta["patience:host"] == "Ada" and head.meta["patience:game-name"] == "The Gate"
    assert head.meta["patience:game"] == "gate"
    assert head.meta["patience:state"] == "waiting for racers, 2 in"
    # a lower-case code is the same room (the client reads it so too)
    assert (await page(port, f"/r/{code.lower()}")).meta["og:title"] == title

    # a room that is no room still gets the page, with the generic tags, and the fact
    # that there is no room (for the invite page)
    unknown = await page(port, "/r/NOSUCHROOM")
    previewed(unknown, "Patience Race", "http://race.example.org:8765/r/NOSUCHROOM")
    assert {k: v for k, v in unknown.meta.items() if k.startswith("patience:")} == {
        "patience:room": "none"
    }
    # a Host that names no host gives no address
    assert "og:url" not in (await page(port, f"/r/{code}", host='x"><b>')).meta
    # a race on, one racer resigned: the link counts who is in it (not as "racing": an
    # outside tester's link said "4 racing" with two resigned) and offers to watch, not
    # to join (nobody joins a race under way)
    await bo.call("ready")
    await ada.call("start")
    for client in (ada, bo):
        await client.event("race_start")
    await bo.call("resign")
    racing = await page(port, f"/r/{code}")
    assert racing.meta["patience:state"] == "racing now, 2 in the race: watch it live"
    assert racing.meta["og:description"].endswith("open the link to watch it in a browser.")
    # a race over: its room takes racers for the rematch, and its link says so
    await ada.call("resign")
    await ada.event("results")
    over = (await page(port, f"/r/{code}")).meta["patience:state"]
    assert over == "race over: join for the rematch", over
    await ada.close()


async def test_a_hostile_name_is_escaped(server: Running) -> None:
    """Names are letters, digits, - and _ when registered; a room's state in Redis is
    taken as it is all the same (older data, another version): its names are escaped."""
    port = server.web.port
    ada, _bo, code = await lobby(server.url)
    redis = Redis.from_url(server.settings.redis_url or "")
    try:
        kept = await redis.get(room_key(code))
        assert kept is not None
        state = unpack(kept)
        for racer in state["racers"]:
            if racer["name"] == "Ada":
                racer["name"] = HOSTILE
        await redis.set(room_key(code), pack(state))
    finally:
        await redis.aclose()
    answer = await rawhttp.get(port, f"/r/{code}")
    assert "<script>alert" not in answer.text and "</title><script>" not in answer.text
    head = Head(answer.text)
    assert head.meta["patience:host"] == HOSTILE  # escaped, and read back whole
    assert head.meta["og:title"] == f"Race {HOSTILE} at The Gate: waiting for racers, 2 in"
    assert head.title.startswith(f"Race {HOSTILE}")
    await ada.close()


async def test_a_challenge_a_replay_and_a_board_preview_themselves(server: Running) -> None:
    port = server.web.port
    ada = await player(server.url, "Ada")
    gid = (await ada.call("new_game", game="nestor", seed=16))["game"]
    for move in LOST["nestor"].line:
        await ada.call("move", move=move, game=gid)
    challenge = (await ada.call("challenge_create", replay=gid))["challenge"]

    head = await page(port, challenge["link"])
    title = "Beat Ada's 2/26 pairs off on Nestor"  # (Nestor's cards come off in pairs)
    previewed(head, title, f"http://race.example.org:8765{challenge['link']}")
    assert head.meta["patience:host"] == "Ada" and head.meta["patience:game-name"] == "Nestor"
    unknown = await page(port, "/c/abcdefghijklmnop")
    previewed(unknown, "Patience Race", "http://race.example.org:8765/c/abcdefghijklmnop")

    head = await page(port, f"/replay/{gid}")
    previewed(head, "A replay of Ada's Nestor, lost, 2/26 pairs off", head.meta.get("og:url"))
    assert head.meta["og:url"] == f"http://race.example.org:8765/replay/{gid}"

    head = await page(port, "/leaderboard/races/all?utm_source=chat")
    previewed(head, "Races won, all time", "http://race.example.org:8765/leaderboard/races/all")
    assert head.meta["og:description"] == "No results yet: be the first on this board."
    # the read-only pages have the favicon
    for target in ("/", "/leaderboard/races/all", f"/replay/{gid}"):
        icons = [link for link in (await page(port, target)).links if link.get("rel") == "icon"]
        assert icons == [{"rel": "icon", "href": "/web/icons/icon.svg", "type": "image/svg+xml"}]
    await ada.close()


def test_the_invite_page_names_the_game_and_the_host(
    browser: Any, web_server: ServerProcess
) -> None:
    base = http(web_server)
    ada_ctx, bo_ctx = browser.new_context(), browser.new_context()
    try:
        ada, bo = ada_ctx.new_page(), bo_ctx.new_page()
        ada.goto(f"{base}/play")
        register(ada, "Ada")
        ada.click('.game-row[data-game="wedge"] [data-act=race]')
        share = ada.wait_for_selector("input.share")
        assert share is not None
        link = share.input_value()
        code = link.rsplit("/", 1)[1]

        bo.goto(link)
        assert bo.inner_text("h1") == "Ada invites you to race The Wedge"
        assert bo.inner_text("p.invite") == f"Room {code}: waiting for racers, 1 in."
        assert bo.title() == "Race Ada at The Wedge: waiting for racers, 1 in · Patience Race"
        shot(bo, "invite")
        register(bo, "Bo")  # and the name form goes on to the room as before
        ada.wait_for_selector('.players li[data-player="Bo"]')
    finally:
        ada_ctx.close()
        bo_ctx.close()


def test_a_link_to_no_room_says_so_before_asking_a_name(
    browser: Any, web_server: ServerProcess
) -> None:
    """It said "You are invited to race (room ZZZZZZ)" with **Join the race** and **Just
    watch this race**, and only once a name was chosen that there was no such room."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        pia = context.new_page()
        pia.goto(f"{http(web_server)}/r/ZZZZZZ")
        assert pia.inner_text("h1") == "There is no race room ZZZZZZ"
        said = pia.inner_text("p.invite")
        assert "Check the code with whoever sent it" in said
        assert "closes once everyone has left it" in said
        assert pia.locator("text=Just watch this race").count() == 0
        assert pia.inner_text(".name-form button[type=submit]") == "Play"
        # the rule for a name, which the browser shows when its pattern is not met (it
        # said only "Please match the requested format", and "letters" took in José)
        rule = "2 to 20 letters (A to Z), digits, - or _, the first a letter or a digit"
        assert pia.get_attribute("input[name=name]", "title") == rule
        assert rule in pia.inner_text(".welcome")
        pia.fill("input[name=name]", "José")  # (the field is checked trimmed, not by a pattern)
        assert pia.eval_on_selector("input[name=name]", "e => e.validationMessage") == rule
        pia.fill("input[name=name]", "-h")  # (no first letter or digit: read as an option)
        assert pia.eval_on_selector("input[name=name]", "e => e.validationMessage") == rule
        register(pia, "pia")  # on to the games, not to a room that is not there
        pia.wait_for_selector(".game-row")
        assert pia.url.endswith("/play")
    finally:
        context.close()


def test_join_with_no_code_says_what_to_type(browser: Any, web_server: ServerProcess) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        pia = context.new_page()
        pia.goto(f"{http(web_server)}/play")
        register(pia, "pia")
        box = pia.wait_for_selector("input[aria-label='room code']")
        assert box is not None
        before = pia.url
        pia.click("form.join button[type=submit]")
        note = pia.wait_for_selector("#join-note:has-text('room code')")
        assert note is not None and "/r/" in note.inner_text()
        assert pia.url == before
        focused = pia.evaluate("document.activeElement.getAttribute('aria-label')")
        assert focused == "room code"
        assert box.get_attribute("aria-invalid") == "true"
        # a whole link pasted is read for its code
        box.fill(f"{http(web_server)}/r/abcdef")
        pia.click("form.join button[type=submit]")
        until(pia, "() => location.pathname === '/r/ABCDEF'")
        # a code no room has: the server's words, then what to check and do instead
        pia.wait_for_selector("main .note:text('no room ABCDEF')")
        said = pia.inner_text("main")
        assert "Check the code with whoever sent it, and that it is for this server" in said
        assert "Race beside a game opens one of your own." in said
    finally:
        context.close()


async def test_a_groups_link_names_the_group_to_whoever_holds_its_key(server: Running) -> None:
    """An outside tester: the name form a group's link opens could not say which group
    it joins (its page named none). With the link's key, the page's head names the group;
    without it, or with a wrong one, nothing of the group (a group is its members')."""
    ada = await player(server.url, "Ada")
    group = (await ada.call("group_create", name="Tuesday Club"))["group"]
    link = group["link"]
    assert link.startswith(f"/g/{group['id']}?k=")
    port = server.web.port
    head = await page(port, link)
    assert head.meta["patience:group-name"] == "Tuesday Club"
    previewed(head, "Join Tuesday Club on Patience Race", f"http://race.example.org:8765{link}")
    for target in (f"/g/{group['id']}", f"/g/{group['id']}?k=AAAAAAAAAAAAAAAA"):
        other = await page(port, target)
        assert "patience:group-name" not in other.meta, target
        assert "Tuesday Club" not in str(other.meta) and "Tuesday" not in other.title
