"""A started server says where to play in a browser, on the port it was given: ``make
run ARGS='--port 9123'`` printed "open http://127.0.0.1:8765/play (another port: the one
given)", an address a new user copies and finds nothing at."""

from __future__ import annotations

import urllib.request

from .conftest import ServerProcess


def test_the_server_says_where_its_browser_client_is(server_process: ServerProcess) -> None:
    out = (server_process.data_dir / "server.out").read_text()
    line = f"play in a browser: http://127.0.0.1:{server_process.port}/play\n"
    assert line in out, out
    with urllib.request.urlopen(line.split(": ", 1)[1].strip(), timeout=10) as page:
        assert page.status == 200 and b"Patience Race" in page.read()
