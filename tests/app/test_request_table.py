"""The service's table of requests (``service.request_table``): every request the
protocol names is answered by exactly one part, or the server does not start."""

from __future__ import annotations

from typing import Any

import pytest

from server.app.service import request_table
from server.protocol import messages as m

from .conftest import Running


class Answers:
    """A part as the table sees one: the requests it answers."""

    def __init__(self, *kinds: type[m.Request]) -> None:
        self.kinds = kinds

    def requests(self) -> dict[type[m.Request], Any]:
        return {kind: self.answer for kind in self.kinds}

    async def answer(self, session: Any, request: m.Request) -> dict[str, Any]:
        return {}


def test_a_request_two_parts_answer_is_refused() -> None:
    with pytest.raises(ValueError, match="Ping is answered by both Answers and Answers"):
        request_table([Answers(m.Ping), Answers(m.Ping)], [m.Ping])


def test_a_request_no_part_answers_is_refused() -> None:
    """A new developer added a request to ``messages.REQUESTS`` and forgot its handler:
    the server started, and the request was answered ``internal_error`` with a traceback
    in the log."""
    with pytest.raises(ValueError, match="answered by no part: Ping"):
        request_table([Answers(m.Hello)], [m.Hello, m.Ping])


def test_every_request_of_the_protocol_is_answered(server: Running) -> None:
    assert set(server.service._handlers) == set(m.REQUESTS.values())
