"""The browser client's files over real HTTP: the routes, their content types, the
security headers on every answer (the existing pages' too), entity tags, 404s, and no
way out of the served folders."""

from __future__ import annotations

import gzip
from pathlib import Path

from server.app.transport import pages, static
from tests.app import rawhttp
from tests.app.conftest import Running

HTML = "text/html; charset=utf-8"


async def test_the_client_page_and_its_files_with_their_types(server: Running) -> None:
    port = server.web.port
    for target in ("/play", "/r/ABC123", "/r/abc123"):
        page = await rawhttp.get(port, target)
        assert page.status == 200 and page.content_type == HTML, target
        assert '<script type="module" src="/web/app/main.js">' in page.text
        assert "<style" not in page.text and "<script>" not in page.text
    kinds = {
        "/web/app/main.js": static.JAVASCRIPT,
        "/web/app/link.js": static.JAVASCRIPT,
        "/web/style/app.css": static.CSS,
        "/web/vendor/msgpack/encode.mjs": static.JAVASCRIPT,
        "/web/vendor/msgpack/utils/int.mjs": static.JAVASCRIPT,
        "/web/rules/gate.txt": static.TEXT,
        "/web/pages.css": static.CSS,
        "/web/icons/icon.svg": static.SVG,
        "/web/manifest.webmanifest": static.MANIFEST,
    }
    for target, kind in kinds.items():
        answer = await rawhttp.get(port, target)
        assert answer.status == 200, target
        assert answer.content_type == kind, target
        assert answer.header("Content-Length") == str(len(answer.body)), target
    rules = await rawhttp.get(port, "/web/rules/gate.txt")
    assert rules.text.startswith("THE GATE")


async def test_every_answer_carries_the_security_headers(server: Running) -> None:
    port = server.web.port
    targets = (
        "/",
        "/leaderboard/races/all",
        "/leaderboard/races/all.json",
        "/replay/nope",
        "/healthz",
        "/metrics",
        "/nowhere",
        "/play",
        "/r/ABC123",
        "/web/app/main.js",
        "/web/app/nothing.js",
    )
    for target in targets:
        for method in ("GET", "HEAD", "POST"):
            answer = await rawhttp.request(port, method, target)
            csp = answer.header("Content-Security-Policy") or ""
            assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, target
            assert "unsafe-inline" not in csp
            assert answer.header("X-Content-Type-Options") == "nosniff", target
            assert answer.header("X-Frame-Options") == "DENY", target


async def test_the_read_only_pages_have_no_inline_style_or_script(server: Running) -> None:
    for target in ("/", "/leaderboard/races/week", "/replay/nope"):
        page = await rawhttp.get(server.web.port, target)
        assert '<link rel=stylesheet href="/web/pages.css">' in page.text, target
        assert "<style" not in page.text and "<script" not in page.text, target
    index = await rawhttp.get(server.web.port, "/")
    assert 'href="/play"' in index.text


async def test_an_entity_tag_answers_304(server: Running) -> None:
    port = server.web.port
    for target in ("/web/app/main.js", "/play"):
        first = await rawhttp.get(port, target)
        etag = first.header("ETag")
        assert etag and etag.startswith('"'), target
        again = await rawhttp.request(port, "GET", target, f"If-None-Match: {etag}")
        assert again.status == 304 and again.body == b"", target
        assert again.header("X-Content-Type-Options") == "nosniff"
        other = await rawhttp.request(port, "GET", target, 'If-None-Match: "other"')
        assert other.status == 200 and other.body == first.body, target


async def test_files_go_gzipped_to_a_client_that_accepts_it(server: Running) -> None:
    port = server.web.port
    for target in ("/web/app/main.js", "/web/vendor/msgpack/Decoder.mjs", "/web/style/app.css"):
        plain = await rawhttp.get(port, target)
        packed = await rawhttp.request(port, "GET", target, "Accept-Encoding: gzip, br")
        assert plain.header("Content-Encoding") is None, target
        assert packed.header("Content-Encoding") == "gzip", target
        assert plain.header("Vary") == packed.header("Vary") == "Accept-Encoding"
        assert gzip.decompress(packed.body) == plain.body, target
        assert packed.header("Content-Length") == str(len(packed.body))
        assert packed.header("ETag") != plain.header("ETag")
        etag = packed.header("ETag")
        again = await rawhttp.request(
            port, "GET", target, "Accept-Encoding: gzip", f"If-None-Match: {etag}"
        )
        assert again.status == 304, target
    small = await rawhttp.request(port, "GET", "/web/app/cards.js", "Accept-Encoding: gzip")
    assert small.status == 200


async def test_unknown_files_and_traversal_are_404(server: Running) -> None:
    port = server.web.port
    refused = (
        "/web/app/nothing.js",
        "/web/app/main.css",  # the wrong ending for its folder
        "/web/style/app.js",
        "/web/index.html",
        "/web/package.json",
        "/web/package-lock.json",
        "/web/app/../../server/cli.py",
        "/web/app/%2e%2e/%2e%2e/server/cli.py",
        "/web/app/..%2f..%2fpyproject.toml",
        "/web/app/%2e%2e%2fmain.js",
        "/web/app//main.js",
        "/web/app/.hidden.js",
        "/web/app/main.js%00.css",
        "/web/vendor/msgpack/../package.json",
        "/web/vendor/msgpack/index.d.ts",
        "/web/vendor/msgpack/encode.mjs.map",
        "/web/vendor/msgpack/LICENSE",
        "/web/vendor/msgpack/vendored.json",
        "/web/vendor/msgpack/README.md",
        "/web/icons/icon.png",
        "/web/icons/../manifest.webmanifest",
        "/web/manifest.json",
        "/web/app/manifest.webmanifest",
        "/web/node_modules/@msgpack/msgpack/package.json",
        "/web/rules/chess.txt",
        "/web/rules/../../server/cli.txt",
        "/web/rules/README.md",
        "/web/app/main.js?v=1",
        "/r/ABC/DEF",
        "/r/AB%20C",
        "/r/",
    )
    for target in refused:
        answer = await rawhttp.get(port, target)
        assert answer.status == 404, target
        assert "import" not in answer.text and "[project]" not in answer.text, target


def test_a_name_resolving_outside_its_folder_is_not_served() -> None:
    """Even a link planted inside a served folder leads nowhere outside it."""
    link = static.WEB_ROOT / "app" / "planted-link.js"
    link.symlink_to(static.ROOT / "pyproject.toml")
    try:
        assert static.web_file("app/planted-link.js") is None
        assert static.web_file("app/main.js") is not None
    finally:
        link.unlink()


def test_without_its_library_the_client_page_says_what_is_missing(tmp_path: Path) -> None:
    """The library is committed (client_web/vendor/): only a copy of the server without
    it misses it, and no npm would bring it back."""
    assert static.client_ready() is None
    assert "without its browser client" in str(static.client_ready(tmp_path))
    (tmp_path / "index.html").write_text("<!doctype html>")
    why = static.client_ready(tmp_path)
    assert why is not None and "client_web/vendor/msgpack/" in why and "npm" not in why
    page = pages.no_client_html(why)
    assert "vendor/msgpack" in page and "<script" not in page and "<style" not in page
