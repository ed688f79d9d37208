"""What the client knows: the game on the table, the room, the race, the last message.

:class:`Model` is plain data updated from server messages by small methods that do no I/O,
so the screen can be drawn from it by pure functions and tests can feed it messages.
Times are milliseconds: ``now`` is the local clock (a monotonic one:
``connection.local_ms``), and ``offset_ms`` turns it into the server's
(``server = local + offset``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .board_race import BoardRace
from .challenge import ChallengeRace
from .daily_end import end_by_result, result_of, streaks
from .difficulty import difficulty_of
from .page import Page, fixed
from .racers import own_status, with_leavers, with_left
from .sanitize import clean

#: screens
SOLO, ROOM, WATCH, CHALLENGE = "solo", "room", "watch", "challenge"
#: room states
LOBBY, COUNTDOWN, RACING, FINISHED, CLOSED = "lobby", "countdown", "racing", "finished", "closed"
#: message tones
INFO, ERROR, GOOD, WARN = "info", "error", "good", "warn"
#: the kinds of a daily challenge's games (a game snapshot's ``kind``)
DAILY, PRACTICE = "daily", "practice"


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass(frozen=True)
class Lost:
    """Why a game was lost and how far it got: a reply's ``lost`` field, checked."""

    why: str
    home: int
    total: int
    unit: str  # cards, or pairs in the games that take cards off in pairs
    undo: bool  # the server would take the last move back now

    @classmethod
    def from_message(cls, value: Any) -> Lost | None:
        if not isinstance(value, Mapping):
            return None
        unit = clean(value.get("unit", "cards"), 8)
        return cls(
            why=clean(value.get("why", ""), 160),
            home=_int(value.get("home")),
            total=_int(value.get("total")),
            unit=unit if unit in ("cards", "pairs") else "cards",
            undo=value.get("undo") is True,
        )

    def said(self) -> str:
        """The loss in one line.

        >>> Lost("No move is left and the stock is out.", 30, 52, "cards", True).said()
        'Lost: no move is left and the stock is out. 30 of 52 cards home. u undoes the last move.'
        >>> Lost("No pair is left to take off.", 11, 26, "pairs", False).said()
        'Lost: no pair is left to take off. 11 of 26 pairs off.'
        """
        why = self.why[:1].lower() + self.why[1:] if self.why else "no move is left."
        where = "off" if self.unit == "pairs" else "home"
        line = f"Lost: {why} {self.home} of {self.total} {self.unit} {where}."
        return f"{line} u undoes the last move." if self.undo else line


@dataclass
class Game:
    """A game snapshot: a ``game`` reply, a ``moved``/``undone`` reply, a ``race_start``."""

    gid: str
    kind: str
    rules: str
    view: dict[str, Any]
    legal: list[str]
    status: str
    #: the server said no sequence of moves from here gets on (a ``stuck`` event),
    #: until the next reply changes the position
    stuck: bool = False
    #: a lost game told plainly (the reply's ``lost``: why, how far it got, whether an
    #: undo is accepted now), while the status is ``lost``
    lost: Lost | None = None

    @classmethod
    def from_message(cls, msg: Mapping[str, Any]) -> Game:
        view = msg.get("view")
        legal = msg.get("legal")
        return cls(
            gid=clean(msg.get("game", ""), 32),
            kind=clean(msg.get("kind", "solo"), 8),
            rules=clean(msg.get("rules", ""), 32),
            view=dict(view) if isinstance(view, Mapping) else {},
            legal=[clean(m, 32) for m in legal] if isinstance(legal, list) else [],
            status=clean(msg.get("status", "playing"), 16),
            lost=Lost.from_message(msg.get("lost")),
        )

    def update(self, msg: Mapping[str, Any]) -> None:
        """Apply a ``moved``, ``undone`` or ``homed`` reply."""
        self.stuck = False
        if isinstance(msg.get("view"), Mapping):
            self.view = dict(msg["view"])
        legal = msg.get("legal")
        if isinstance(legal, list):
            self.legal = [clean(m, 32) for m in legal]
        self.status = clean(msg.get("status", self.status), 16)
        self.lost = Lost.from_message(msg.get("lost")) if self.status == "lost" else None

    @property
    def over(self) -> bool:
        return self.status != "playing"

    @property
    def pairs(self) -> bool:
        """Whether cards leave this table in pairs, onto a discard (Nestor, Doubles and
        Quits): nothing goes home one card at a time, and progress counts pairs."""
        piles = self.view.get("piles")
        return isinstance(piles, list) and any(
            isinstance(p, Mapping) and p.get("kind") == "discard" for p in piles
        )

    @property
    def labels(self) -> frozenset[str]:
        piles = self.view.get("piles")
        if not isinstance(piles, list):
            return frozenset()
        return frozenset(
            clean(p.get("label", ""), 8).lower() for p in piles if isinstance(p, Mapping)
        )


def stuck_note(game: Game, *, offer: bool = False) -> str:
    """What the screen says of a game with no way forward (a ``stuck`` event): ``offer``,
    the question that comes with the event (y resigns); after it, a reminder.

    >>> game = Game("ab12", "solo", "gate", {"can_undo": True}, ["w>b1"], "playing")
    >>> stuck_note(game, offer=True)
    'No way forward from here. Resign? y resigns; u undoes; anything else plays on.'
    >>> stuck_note(game)
    'No way forward from here: type resign to give up, or u to undo.'
    """
    can_undo = game.view.get("can_undo") is True
    if offer:
        undo = " u undoes;" if can_undo else ""
        return f"No way forward from here. Resign? y resigns;{undo} anything else plays on."
    undo = ", or u to undo" if can_undo else ""
    return f"No way forward from here: type resign to give up{undo}."


@dataclass
class Model:
    server: str = ""
    ascii: bool = False
    me: str | None = None
    #: rules id -> the game's name
    games: dict[str, str] = field(default_factory=dict)
    #: the games whose progress counts pairs off (the games list's `unit`)
    pair_games: set[str] = field(default_factory=set)
    screen: str = SOLO
    game: Game | None = None
    #: the code of the room on screen, and its last state
    room_code: str | None = None
    room: dict[str, Any] | None = None
    message: str = ""
    tone: str = INFO
    #: local ms: when a message said in passing goes ("Reconnected."), else None
    passes_at: int | None = None
    #: the state of the connection when it is not simply up ("reconnecting in 2 s")
    link: str = ""
    offset_ms: int = 0
    #: local ms: when the solo clock started, and when it stopped (game over)
    clock_from: int | None = None
    clock_to: int | None = None
    #: a question waiting for y/n (its id: "resign", "leave"), and its words: whatever is
    #: said while it waits goes before them on the status line, not in their place
    confirm: str | None = None
    question: str = ""
    question_tone: str = INFO
    #: the daily challenge on the table (its ``daily`` reply without the game), if any
    daily: dict[str, Any] | None = None
    #: the ``daily_result`` of the ranked attempt on the table, once it has ended
    daily_result: dict[str, Any] | None = None
    #: the challenge being raced (the challenge screen)
    challenge: ChallengeRace | None = None
    #: the daily practice on the table's ghosts, where it races the board
    board: BoardRace | None = None
    #: the challenge last made of a game of ours (``c``), told again as we leave
    made: dict[str, Any] | None = None
    help: bool = False
    #: a page over the table (a game's rules, a review, the results), made for the width
    page: Page | None = None
    #: the pile a click picked, waiting for the click that says where it goes
    picked: str | None = None
    #: what Tab offers for the typed text when several moves match (shown under the board)
    choices: list[str] = field(default_factory=list)
    #: bumped on every change: the screen is redrawn when it moves
    version: int = 0

    # -- messages --------------------------------------------------------------------

    def changed(self) -> None:
        self.version += 1

    def say(self, text: str, tone: str = INFO, passes_at: int | None = None) -> None:
        if self.confirm is not None and self.question and text != self.question:
            # (an event's notice as the player is asked: "ann resigned" had taken the
            # place of "Resign this race?", leaving "y yes" under it)
            text = f"{text} · {self.question}" if text else self.question
            tone, passes_at = self.question_tone, None
        self.message = text
        self.tone = tone
        self.passes_at = passes_at
        self.changed()

    def ask(self, confirm: str, question: str, tone: str = ERROR) -> None:
        """Ask ``question``, waiting for y/n (``confirm``: its id)."""
        self.confirm, self.question, self.question_tone = confirm, question, tone
        self.say(question, tone)

    def set_games(self, games: Any) -> None:
        if isinstance(games, list):
            self.games = {
                clean(g.get("id", ""), 32): clean(g.get("name", ""), 40)
                for g in games
                if isinstance(g, Mapping)
            }
            self.pair_games = {
                clean(g.get("id", ""), 32)
                for g in games
                if isinstance(g, Mapping) and g.get("unit") == "pairs"
            }
        self.changed()

    @property
    def counts_pairs(self) -> bool:
        """Whether progress here counts pairs off (of 26) rather than cards home: the
        game in play takes cards off in pairs or, with none (watching a room), the room's
        game does (the games list's ``unit``)."""
        if self.game is not None:
            return self.game.pairs
        return clean((self.room or {}).get("game", ""), 32) in self.pair_games

    @property
    def unit(self) -> str:
        """What progress here counts, as a challenge's ``unit``: ``pairs`` or ``cards``."""
        return "pairs" if self.counts_pairs else "cards"

    def game_name(self, rules: str | None = None) -> str:
        rules = rules if rules is not None else (self.game.rules if self.game else "")
        if not rules and self.room:
            rules = clean(self.room.get("game", ""), 32)
        if not rules and self.challenge is not None:
            rules = clean(self.challenge.shown.get("game", ""), 32)
        return self.games.get(rules) or rules

    def set_solo(self, msg: Mapping[str, Any], now: int) -> None:
        """A solo game to play: a ``game`` reply or ``welcome.resume.solo``. Its clock
        counts from the snapshot's ``started_at`` (server ms, turned into ours with
        ``offset_ms``), else from ``now``."""
        self.game = Game.from_message(msg)
        self.screen = SOLO
        self.daily = self.daily_result = None
        self.board = None
        started = msg.get("started_at")
        if isinstance(started, int) and not isinstance(started, bool) and started > 0:
            self.clock_from = min(started - self.offset_ms, now)
        else:
            self.clock_from = now
        self.clock_to = self._ended(msg, now) if self.game.over else None
        self.changed()

    def _ended(self, msg: Mapping[str, Any], now: int) -> int:
        """When a game over ended, in our ms: the server's ``finished_at`` where the
        message has it (the game's time is the server's), else ``now``."""
        at = _int(msg.get("finished_at"))
        return min(at - self.offset_ms, now) if at > 0 else now

    def set_daily(self, msg: Mapping[str, Any], now: int) -> None:
        """A ``daily`` reply: the day's game to play (ranked or practice), and the day, the
        reset and the streaks to show beside it."""
        self.set_solo(msg, now)
        streak = msg.get("streak")
        self.daily = {
            "day": clean(msg.get("day", ""), 10),
            "ranked": msg.get("ranked") is True,
            "note": clean(msg.get("note") or "", 200),
            "reset_at": _int(msg.get("reset_at")),
            "streak": streaks(streak),
            #: practice: the ranked attempt's result line (for one who missed the event)
            "ranked_result": clean(msg.get("ranked_result") or "", 200),
            #: the day's commitment to the deal (docs/commitments.md): 64 hex digits
            "commitment": clean(msg.get("commitment") or "", 64),
            #: the day's deal's grade and what it was measured from, or None
            "difficulty": difficulty_of(msg.get("difficulty")),
        }
        self.daily_result = None
        self.board = BoardRace.from_message(msg)
        self.changed()

    def apply_ghosts_result(self, msg: Mapping[str, Any]) -> bool:
        """The ``ghosts_result`` event: the practice raced against the board has ended
        and is placed among the ghosts. Whether it was taken (one of another game is
        not)."""
        board = self.board
        if board is None or clean(msg.get("game", ""), 32) != board.gid:
            return False
        board.result = dict(msg)
        self.changed()
        return True

    @property
    def against_board(self) -> BoardRace | None:
        """The daily practice on the table, where it races the board."""
        board, game = self.board, self.game
        if board is None or game is None or self.daily_kind != PRACTICE:
            return None
        return board if board.gid == game.gid else None

    @property
    def placed(self) -> bool:
        """The practice on the table raced ghosts, has ended, and its place among them
        has come."""
        board, game = self.against_board, self.game
        return bool(board and board.ghosts and board.result and game is not None and game.over)

    def apply_daily_result(self, msg: Mapping[str, Any], now: int | None = None) -> None:
        """The ``daily_result`` event: the ranked attempt on the table has ended (others,
        say of a game played from another client, are not shown). A game still taken for
        one in play ends as it says (``now``: when the event came; see
        :func:`.daily_end.end_by_result`)."""
        game = self.game
        if game is None or clean(msg.get("game", ""), 32) != game.gid:
            return
        self.daily_result = result_of(msg, game.gid)
        if self.daily is not None:
            self.daily["streak"] = self.daily_result["streak"]
        end_by_result(self, now)
        self.changed()

    @property
    def daily_kind(self) -> str | None:
        """``daily`` (the ranked attempt) or ``practice`` when the game on the table is a
        daily challenge's, else None."""
        game = self.game
        if self.screen != SOLO or game is None or game.kind not in (DAILY, PRACTICE):
            return None
        return game.kind

    @property
    def result_shown(self) -> bool:
        """The ranked daily on the table has ended and its result line has come."""
        game = self.game
        return bool(self.daily_result and game is not None and game.over)

    def apply_reply(self, msg: Mapping[str, Any], now: int) -> None:
        """A ``moved``, ``undone`` or ``homed`` reply to a request of ours."""
        game = self.game
        if game is None or clean(msg.get("game", ""), 32) != game.gid:
            return
        was_over = game.over
        game.update(msg)
        self.picked = None
        if game.over and not was_over:
            self.clock_to = self._ended(msg, now)
        elif was_over and not game.over:  # a loss undone: the clock runs on
            self.clock_to = None
        self.changed()

    def apply_stuck(self, msg: Mapping[str, Any]) -> bool:
        """The ``stuck`` event: the game on the table, as it stands (its ``moves``), has
        no way forward. Whether it was taken (an event about another game, or a
        position since left, is not)."""
        game = self.game
        if game is None or game.over or clean(msg.get("game", ""), 32) != game.gid:
            return False
        if msg.get("moves") != game.view.get("moves"):
            return False
        game.stuck = True
        self.changed()
        return True

    def apply_resigned(self, msg: Mapping[str, Any], now: int) -> None:
        game = self.game
        if game is not None and clean(msg.get("game", ""), 32) == game.gid:
            game.status = clean(msg.get("status", "resigned"), 16)
            game.legal = []
            self.clock_to = self._ended(msg, now)
            self.changed()

    def take_challenge(self, msg: Mapping[str, Any], now: int) -> None:
        """A challenge taken (its ``challenge_taken`` reply, or ``welcome.resume.challenge``
        before its start): the countdown to its start, then its game."""
        self.screen = CHALLENGE
        self.challenge = ChallengeRace.from_message(msg)
        self.game = None
        self.daily = self.daily_result = None
        self.board = None
        self.clock_from = self.clock_to = None
        if isinstance(msg.get("view"), Mapping):  # taken up after its start
            self.apply_challenge_start(msg, now)
        self.changed()

    def apply_challenge_start(self, msg: Mapping[str, Any], now: int) -> None:
        """``challenge_start`` (or ``welcome.resume.challenge`` after the start): the
        challenge's game, its clock from the start."""
        race = self.challenge
        if race is None or clean(msg.get("game", ""), 32) != race.gid:
            return
        self.game = Game.from_message(msg)
        self.game.kind = "challenge"
        start = msg.get("start_at")
        if isinstance(start, int) and not isinstance(start, bool):
            race.start_at = start
        self.clock_from = race.start_at - self.offset_ms
        self.clock_to = self._ended(msg, now) if self.game.over else None
        self.changed()

    def apply_challenge_result(self, msg: Mapping[str, Any]) -> None:
        """``challenge_result``: the race against the ghost is over."""
        race = self.challenge
        shown = msg.get("challenge")
        if race is None or not isinstance(shown, Mapping) or shown.get("id") != race.cid:
            return
        race.result = dict(msg)
        race.shown = dict(shown)
        self.changed()

    def enter_room(self, msg: Mapping[str, Any], screen: str = ROOM) -> None:
        """The room we created, joined or watch (its ``room`` reply): from now on only its
        messages count."""
        self.screen = screen
        self.room = None
        self.room_code = clean(msg.get("code", ""), 16)
        self.apply_room(msg)

    def apply_room(self, msg: Mapping[str, Any]) -> None:
        """A ``room`` message, reply or event: the room's full state. Messages of any other
        room are ignored (signing in announces the room the player was in, which is not
        the one a new ``race new`` creates)."""
        room = dict(msg)
        if self.room_code is None or room.get("code") != self.room_code:
            return
        old = self.room
        made, shown = room.get("now"), (old or {}).get("now")
        if isinstance(made, int) and isinstance(shown, int) and made < shown:
            return  # older than what we show (a resume overtaken by events)
        state = room.get("state")
        if state == RACING:  # (those who left the race on are in it still)
            room["players"] = with_left(room.get("players"), room.get("left"))
        if state == RACING and old is not None and old.get("race") == room.get("race"):
            room["players"] = with_leavers(old.get("players"), room.get("players"))
        self.room = room
        if state in (LOBBY, COUNTDOWN) and self.game is not None and self.game.kind == "race":
            self.game = None  # a rematch: the old race's board goes away
        self._ended_by_results()
        self.changed()

    def apply_race_start(self, msg: Mapping[str, Any]) -> None:
        if self.room is not None and msg.get("code") != self.room.get("code"):
            return
        self.game = Game.from_message(msg)
        self.game.kind = "race"
        if self.room is not None:
            if self.room.get("state") in (LOBBY, COUNTDOWN):  # the room event follows
                self.room = {**self.room, "state": RACING}
            else:
                self.room = dict(self.room)
            for key in ("start_at", "end_at", "race"):
                if key in msg:
                    self.room[key] = msg[key]
        self.changed()

    def apply_progress(self, msg: Mapping[str, Any]) -> None:
        room = self.room
        if room is None or msg.get("code") != room.get("code"):
            return
        name = msg.get("player")
        for player in room.get("players") or []:
            if isinstance(player, dict) and player.get("name") == name:
                for key in ("home", "total", "moves", "status", "forfeited"):
                    if key in msg:
                        player[key] = msg[key]
        self.changed()

    def apply_results(self, msg: Mapping[str, Any]) -> None:
        room = self.room
        if room is None or msg.get("code") != room.get("code"):
            return
        self.room = {**room, "state": FINISHED, "results": msg.get("results")}
        self._ended_by_results()
        self.changed()

    def _ended_by_results(self) -> None:
        """Our race game, still taken for one being played when the race's results come,
        ends as they say (``timeout``: the time limit passed, told by nothing else)."""
        game, room = self.game, self.room or {}
        if game is None or game.kind != "race" or game.over or room.get("state") != FINISHED:
            return
        status = own_status(room.get("results"), game.gid, self.me)
        if status is not None and status != "playing":
            game.status, game.legal = status, []

    # -- what the screen shows ---------------------------------------------------------

    def server_now(self, now: int) -> int:
        return now + self.offset_ms

    @property
    def room_state(self) -> str | None:
        return clean(self.room.get("state", ""), 16) if self.room else None

    @property
    def is_host(self) -> bool:
        return bool(self.room and self.me and self.room.get("host") == self.me)

    @property
    def hints_allowed(self) -> bool:
        """Whether the game on the table may ask for hints: always solo and daily; in a
        race only when its room was made with them; in a challenge as in the game raced."""
        if self.screen == ROOM:
            return (self.room or {}).get("hints") is True
        if self.screen == CHALLENGE and self.challenge is not None:
            return self.challenge.shown.get("hints") is not False
        return True

    @property
    def racing(self) -> bool:
        """A race game of ours is on the table and the race is running."""
        return (
            self.screen == ROOM
            and self.room_state == RACING
            and self.game is not None
            and self.game.kind == "race"
        )

    def open_page(self, title: str, text: str | Callable[[int], list[str]]) -> None:
        """Show a page over the table, from its top: its text, or its lines for a width."""
        self.page = Page(title, fixed(text) if isinstance(text, str) else text)
        self.help = False
        self.message = ""  # what was said of the table is not said of the page
        self.changed()

    def scroll_page(self, lines: int, height: int) -> None:
        """Move the page by ``lines`` (negative: back), within its length for a screen of
        ``height`` lines of page."""
        if self.page is not None:
            self.page.scroll(lines, height)
            self.changed()

    def close_page(self) -> None:
        self.page = None
        self.changed()

    def context(self) -> str:
        """What typed lines mean now: see :func:`client_cli.commands.interpret`."""
        if self.confirm:
            return "confirm"
        if self.screen == WATCH:
            return "watch"
        if self.screen == CHALLENGE:
            race = self.challenge
            if self.game is None:
                return "challenge-countdown"
            if not self.game.over:
                return "play"
            return "challenge-over" if race is not None and race.result else "challenge-wait"
        if self.screen == ROOM:
            state = self.room_state
            if state == RACING and self.game is not None and self.game.kind == "race":
                return "waiting" if self.game.over else "play"
            if state == RACING:
                return "spectating"  # in the room, not in this race
            return state or "lobby"
        if self.game is None:
            return "idle"
        return "over" if self.game.over else "play"
