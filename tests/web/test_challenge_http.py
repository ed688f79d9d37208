"""A challenge's link, ``/c/ID``, over real HTTP: the browser client's page for an id of
the right shape (the client asks the server whether the challenge exists), with the
security headers; 404 for anything else, as for any unknown page."""

from __future__ import annotations

from tests.app import rawhttp
from tests.app.conftest import Running

HTML = "text/html; charset=utf-8"


async def test_a_challenge_link_answers_the_client_page(server: Running) -> None:
    port = server.web.port
    for target in ("/c/ua5j4vekfxk6uogy", "/c/abcdefghijklmnop", "/c/ua5j4vekfxk6uogy?from=chat"):
        page = await rawhttp.get(port, target)
        assert page.status == 200 and page.content_type == HTML, target
        assert '<script type="module" src="/web/app/main.js">' in page.text, target
        assert page.header("Content-Security-Policy"), target
        assert page.header("X-Content-Type-Options") == "nosniff", target
    head = await rawhttp.request(port, "HEAD", "/c/ua5j4vekfxk6uogy")
    assert head.status == 200 and head.body == b""


async def test_a_challenge_link_of_another_shape_is_404(server: Running) -> None:
    port = server.web.port
    refused = (
        "/c/",
        "/c/UA5J4VEKFXK6UOGY",  # ids are lower case
        "/c/ua5j4vekfxk6uog",  # 15 characters
        "/c/ua5j4vekfxk6uogyy",  # 17
        "/c/ua5j4vekfxk6uo01",  # 0 and 1 are not base32
        "/c/ua5j4vekfxk6uogy/",
        "/c/ua5j4vekfxk6uogy/x",
        "/c/ua5j4vekfxk6uogy.json",
        "/c/%2e%2e/%2e%2e/pyproject.toml",
        "/c",
    )
    for target in refused:
        answer = await rawhttp.get(port, target)
        assert answer.status == 404, target
        assert "import" not in answer.text and "[project]" not in answer.text, target
