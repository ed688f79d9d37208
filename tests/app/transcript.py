"""The golden transcript's recording (``test_golden_transcript.py``): the frozen clock,
each client's frames as an actor receives them, the transcript of a scripted day, and its
rendering with what varies from run to run normalised (the test's docstring says how)."""

from __future__ import annotations

import asyncio
import difflib
import json
import re
import time
from collections.abc import Callable
from typing import Any

import msgpack

from server.app.settings import Clock

from .client import Client
from .conftest import Running
from .test_pages import fetch, http

#: the frozen clock's start: Sunday 2026-11-22, 10:00 UTC
T0 = 1_795_341_600_000
DAY_MS = 86_400_000
#: a line of the transcript is broken when longer
WIDTH = 120


class FrozenClock(Clock):
    """Server time that moves only when the script moves it (the conftest's ManualClock
    runs on with real time)."""

    def __init__(self, start_ms: int) -> None:
        self.ms = start_ms

    def now_ms(self) -> int:
        return self.ms

    def advance(self, seconds: float) -> None:
        self.ms += round(seconds * 1000)


class Actor:
    """One connection of the script, by name: what it sends is written into the
    transcript as it goes, what it receives at the end of each step."""

    def __init__(self, transcript: Transcript, name: str, client: Client) -> None:
        self.transcript = transcript
        self.name = name
        self.client = client
        #: frames written into the transcript so far
        self.collected = 0
        #: frames already returned by :meth:`expect`
        self.taken: set[int] = set()

    async def send(self, kind: str, /, **fields: Any) -> dict[str, Any]:
        """A request and its reply (an error too)."""
        self.transcript.entries.append(("sent", self.name, {"type": kind, **fields}))
        return await self.client.request(kind, **fields)

    async def call(self, kind: str, /, **fields: Any) -> dict[str, Any]:
        """A request that must succeed."""
        reply = await self.send(kind, **fields)
        assert reply["type"] != "error", (self.name, reply)
        return reply

    async def refused(self, error: str, kind: str, /, **fields: Any) -> dict[str, Any]:
        """A request that must be refused, with the error code ``error``."""
        reply = await self.send(kind, **fields)
        assert reply["type"] == "error" and reply["code"] == error, (self.name, reply)
        return reply

    async def expect(
        self, kind: str, where: Callable[[dict[str, Any]], bool] = lambda f: True
    ) -> dict[str, Any]:
        """Wait for the first event of ``kind`` matching ``where`` received in this step
        and not yet expected: what the server sends on its own time (timers, progress
        ticks, a race's end) is awaited by name before the step ends."""
        deadline = time.monotonic() + 10
        frames = self.client.frames
        while True:
            for n in range(self.collected, len(frames)):
                frame = frames[n]
                if n in self.taken or "id" in frame or frame.get("type") != kind:
                    continue
                if where(frame):
                    self.taken.add(n)
                    return frame
            if time.monotonic() > deadline:
                got = [f.get("type") for f in frames[self.collected :]]
                raise TimeoutError(f"{self.name}: no {kind} event; this step has {got}")
            await asyncio.sleep(0.005)

    async def collect(self) -> list[dict[str, Any]]:
        """Every frame received since the last step: a ping's pong marks the end (the
        server answers a connection's requests in order, after every frame it had sent
        it before), and is left out."""
        pong = await self.client.request("ping")
        assert pong["type"] == "pong", pong
        frames = self.client.frames
        end = next(n for n in range(self.collected, len(frames)) if frames[n] is pong)
        step = frames[self.collected : end]
        self.collected = end + 1
        self.taken.clear()
        return step


class Transcript:
    def __init__(self, server: Running) -> None:
        self.server = server
        self.actors: list[Actor] = []
        #: ("step", title) | ("sent", name, request) | ("got", name, frames)
        #: | ("http", path, status, content type, body)
        self.entries: list[tuple[Any, ...]] = []

    async def connect(self, name: str) -> Actor:
        actor = Actor(self, name, await Client.connect(self.server.url))
        self.actors.append(actor)
        return actor

    async def step(self, title: str) -> None:
        """End the step before (collect what everyone received) and begin another."""
        await self.collect()
        self.entries.append(("step", title))

    async def collect(self) -> None:
        for actor in self.actors:
            frames = await actor.collect()
            if frames:
                self.entries.append(("got", actor.name, frames))

    async def http(self, path: str) -> tuple[int, str, str]:
        base = http(self.server)
        status, kind, body = await fetch(base + path)
        # (a page's link preview names its address, whose port is the run's, and its
        # terminal commands the server's websocket, on the same port)
        ws = base.replace("http://", "ws://", 1)
        shown = body.replace(base, "http://<server>").replace(ws, "ws://<server>")
        self.entries.append(("http", path, status, kind, shown))
        return status, kind, body

    async def close(self) -> None:
        for actor in self.actors:
            await actor.client.close()


class Normaliser:
    """Generated ids to placeholders, in order of first appearance; server times to
    offsets from the clock's start."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.counts: dict[str, int] = {}
        self._pattern: re.Pattern[str] | None = None

    def _name(self, value: str, label: str | None, kind: str) -> None:
        if value in self.names:
            return
        if label is None:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            label = f"<{kind}-{self.counts[kind]}>"
        self.names[value] = label
        self._pattern = None

    def learn(self, key: str | None, parent: dict[str, Any] | None, text: str) -> None:
        """Name an id where the protocol puts one: ``token``; a room ``code`` (``room`` in a
        replay); 16 hex digits, a player's ``id`` beside their ``name``, else a game's."""
        if key == "token":
            player = parent.get("player") if parent else None
            name = player.get("name") if isinstance(player, dict) else None
            self._name(text, f"<{name}:token>" if name else None, "token")
        elif key in ("code", "room") and re.fullmatch(r"[A-HJKMNP-Z2-9]{6}", text):
            self._name(text, None, "room")
            # (a code is read ignoring case: the script sends one in lower case too)
            self._name(text.lower(), self.names[text][:-1] + ", lower case>", "room")
        elif key in ("commitment", "salt") and re.fullmatch(r"[0-9a-f]{64}", text):
            self._name(text, None, key)  # (a salt is random: docs/commitments.md)
        elif re.fullmatch(r"[0-9a-f]{16}", text):
            if key == "id" and parent is not None and "name" in parent:
                self._name(text, f"<{parent['name']}:id>", "player")
            else:
                self._name(text, None, "game")

    def text(self, text: str) -> str:
        """Every id known replaced in a text (and every 64-digit hash: a page shows a
        commitment's salt before any message names it)."""
        for found in re.findall(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])", text):
            self._name(found, None, "hash")
        if not self.names:
            return text
        if self._pattern is None:
            ids = sorted(self.names, key=len, reverse=True)
            alternatives = "|".join(re.escape(i) for i in ids)
            self._pattern = re.compile(rf"(?<![\w-])({alternatives})(?![\w-])")
        return self._pattern.sub(lambda m: self.names[m.group(1)], text)

    def value(self, value: Any, key: str | None = None, parent: Any = None) -> Any:
        if isinstance(value, dict):
            return {k: self.value(v, k, value) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v, key, parent) for v in value]
        if isinstance(value, str):
            self.learn(key, parent if isinstance(parent, dict) else None, value)
            return self.text(value)
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and T0 <= value < T0 + 30 * DAY_MS
        ):
            return f"<t+{value - T0}>"
        return value


def pretty(value: Any, indent: int = 0, before: int = 0) -> str:
    """JSON, on one line where it fits in WIDTH (``indent`` and ``before`` characters in),
    else a member a line (a list of numbers or texts filling its lines); the lines after
    the first indented."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or not value or indent + before + len(flat) <= WIDTH:
        return flat
    inner = " " * (indent + 2)
    end = "\n" + " " * indent
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            head = json.dumps(key, ensure_ascii=False) + ": "
            lines.append(inner + head + pretty(item, indent + 2, len(head)))
        return "{\n" + ",\n".join(lines) + end + "}"
    if any(isinstance(item, dict | list) for item in value):
        lines = [inner + pretty(item, indent + 2) for item in value]
        return "[\n" + ",\n".join(lines) + end + "]"
    rows: list[list[str]] = [[]]
    for item in value:
        text = json.dumps(item, ensure_ascii=False)
        if rows[-1] and len(inner) + len(", ".join([*rows[-1], text])) + 1 > WIDTH:
            rows.append([])
        rows[-1].append(text)
    return "[\n" + ",\n".join(inner + ", ".join(row) for row in rows) + end + "]"


def render(entries: list[tuple[Any, ...]]) -> str:
    norm = Normaliser()
    out: list[str] = []
    for entry in entries:
        if entry[0] == "step":
            out += ["", f"## {entry[1]}"]
        elif entry[0] == "sent":
            _, name, request = entry
            out.append(f"{name} → {pretty(norm.value(request), 0, len(name) + 3)}")
        elif entry[0] == "got":
            _, name, frames = entry
            for frame in frames:
                out.append(f"{name} ← {pretty(norm.value(frame), 0, len(name) + 3)}")
        else:
            _, path, status, kind, body = entry
            out.append(f"GET {norm.text(path)} → {status} {kind}")
            if kind == "application/json":
                parsed = json.loads(body)
                # the body as json.dumps writes it (spacing, escapes), or said otherwise
                out.append("  (the body is json.dumps of:)" if body == json.dumps(parsed) else body)
                out.append("  " + pretty(norm.value(parsed), 2))
            else:
                for ids in re.findall(r"[0-9a-f]{16}", body):
                    norm.learn(None, None, ids)
                # a line of the body a line here, broken between tags ("+" goes on)
                for line in norm.text(body).split("\n"):
                    parts = re.split(r"(?<=>)(?=<)", line)
                    out += ["  | " + parts[0], *("  + " + part for part in parts[1:])]
    text = "\n".join(out).lstrip("\n") + "\n"
    left = set(re.findall(r"(?<![\w-])[0-9a-f]{16}(?![\w-])", text))
    assert not left, f"ids the normaliser does not know: {sorted(left)}"
    return text


def wire(value: Any) -> Any:
    """A value as a client receives it in a msgpack frame."""
    return msgpack.unpackb(msgpack.packb(value), raw=False)


def differences(golden: str, text: str, most: int) -> list[str]:
    """A unified diff, each hunk headed by the step and the frame it begins in."""
    before = golden.splitlines()
    lines = []
    diff = difflib.unified_diff(
        before, text.splitlines(), fromfile="golden", tofile="this run", lineterm=""
    )
    for line in diff:
        start = re.match(r"@@ -(\d+)", line)
        if start:
            above = before[: int(start.group(1)) + 3]  # to the first line changed
            step = next((t for t in reversed(above) if t.startswith("## ")), "")
            frame = next((t for t in reversed(above) if re.match(r"\S+ [←→] ", t)), "")
            line = f"{line} {step} / {frame[:60]}"
        lines.append(line)
    return lines[:most] + (["..."] if len(lines) > most else [])
