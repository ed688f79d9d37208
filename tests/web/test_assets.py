"""The favicon and the web app manifest: served under ``/web/`` with their content types,
linked from the client's page, the manifest naming icons that exist, and Chromium itself
reading the manifest without an error."""

from __future__ import annotations

import json
import re
from typing import Any
from xml.etree import ElementTree

from server.app.transport import static
from tests.app import rawhttp
from tests.app.conftest import Running, ServerProcess

from .conftest import http

FAVICON = "/web/icons/icon.svg"
MANIFEST = "/web/manifest.webmanifest"


def svg(body: bytes) -> ElementTree.Element:
    root = ElementTree.fromstring(body)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox")
    return root


async def test_the_favicon_and_the_manifest_are_served_with_their_types(server: Running) -> None:
    port = server.web.port
    icon = await rawhttp.get(port, FAVICON)
    assert icon.status == 200 and icon.content_type == "image/svg+xml; charset=utf-8"
    svg(icon.body)
    answer = await rawhttp.get(port, MANIFEST)
    assert answer.status == 200
    assert answer.content_type == "application/manifest+json; charset=utf-8"
    manifest = json.loads(answer.body)
    assert manifest["name"] == "Patience Race" and manifest["short_name"]
    assert manifest["start_url"] == "/play" and manifest["display"] == "standalone"
    purposes = set()
    for entry in manifest["icons"]:
        assert entry["sizes"] == "any" and entry["type"] == "image/svg+xml"
        purposes.update(entry["purpose"].split())
        got = await rawhttp.get(port, entry["src"])
        assert got.status == 200 and got.content_type.startswith(entry["type"]), entry
        svg(got.body)
    assert purposes == {"any", "maskable"}
    # the colours are the client's own: its page's background and its top bar
    css = (static.WEB_ROOT / "style" / "app.css").read_text()
    for colour in (manifest["theme_color"], manifest["background_color"]):
        assert re.fullmatch(r"#[0-9a-f]{6}", colour) and colour in css, colour


async def test_the_client_page_links_them(server: Running) -> None:
    page = await rawhttp.get(server.web.port, "/play")
    assert f'<link rel="icon" href="{FAVICON}" type="image/svg+xml">' in page.text
    assert f'<link rel="manifest" href="{MANIFEST}">' in page.text
    assert 'href="data:,"' not in page.text  # the empty favicon it had


def test_chromium_reads_the_manifest(browser: Any, web_server: ServerProcess) -> None:
    """Chromium's own parse of the manifest (DevTools' ``Page.getAppManifest``): no error,
    the start address and the icons as written."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play")
        page.wait_for_selector("input[name=name]")
        cdp = context.new_cdp_session(page)
        got = cdp.send("Page.getAppManifest")
        assert got["url"] == f"{http(web_server)}{MANIFEST}"
        assert got["errors"] == [], got["errors"]
        parsed = got["manifest"]
        assert parsed["startUrl"] == f"{http(web_server)}/play"
        assert parsed["display"].lower().removeprefix("k") == "standalone"  # kStandalone
        assert {icon["url"] for icon in parsed["icons"]} == {
            f"{http(web_server)}/web/icons/icon.svg",
            f"{http(web_server)}/web/icons/maskable.svg",
        }
    finally:
        context.close()
