"""Par in the terminal client, as a person sees it: once today's ranked attempt is over,
the result says the day's par and whether it is proved the shortest; a past day's board
says its par the same way, with the book line to watch. The real client in a pty
against a real server and Redis, the deals certified in Redis before the server starts."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

from tests.app.conftest import ServerProcess
from tests.app.pars import fix_pars, today_and_yesterday

from .terminal import Terminal


def test_par_says_proved_shortest_or_shortest_found(
    redis_url: str, tmp_path: Path, terminals: list[Terminal]
) -> None:
    pars = asyncio.run(fix_pars(redis_url))
    _, yesterday = today_and_yesterday()
    server = ServerProcess(redis_url, tmp_path)
    server.start()
    try:
        config = tmp_path / "ann"
        ann = Terminal(["daily", "nestor"], server=server.url, config=config)
        terminals.append(ann)
        ann.wait_for("name:")
        ann.type("ann")
        ann.wait_for(r"Press Enter to start your ranked attempt")
        time.sleep(2.2)  # (the client holds Enter back a moment, as a person reads)
        ann.type("")
        ann.wait_for(r"Nestor · daily")
        ann.type("resign")
        ann.wait_for(r"Resign today's ranked attempt\?")
        ann.type("y")
        par = pars["today/nestor"]
        ann.wait_for(rf"The day's par {par} \(proved shortest\)\.")
        ann.type("q")
        assert ann.exit_code() == 0

        for game, words in (("nestor", "proved shortest"), ("gate", "shortest found")):
            top = Terminal(["top", f"daily/{game}/{yesterday}"], server=server.url, config=config)
            terminals.append(top)
            assert top.exit_code() == 0
            par = pars[f"yesterday/{game}"]
            book = f"book{yesterday.replace('-', '')}{game}"
            # (the command whole, with the server it is on: on a line of its own)
            said = " ".join(top.text.split())
            watch = f"patience-race replay {book} --server {server.url}"
            assert f"Par {par} ({words}): the book line, {watch}" in said, top.text
            assert re.search(rf"^{re.escape(watch)}$", top.text, re.M), top.text
            shown = Terminal(["replay", book], server=server.url, config=config)
            terminals.append(shown)
            shown.wait_for(rf"the book line of {yesterday}, par {par} \({words}\)")
            shown.type("q")
            assert shown.exit_code() == 0
    finally:
        server.stop()
