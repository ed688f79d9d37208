"""The shared machinery of every game: piles, moves, the journal behind undo, views, keys
and snapshots.

A game is a list of piles (lists of card numbers, top card last) and a few integer
counters. Every change a move makes is a *transfer* of the top ``n`` cards of one pile
onto another, order kept, written to the move's journal entry; undo replays the entry's
transfers backwards and puts the counters back. A move that took a card out of a hidden
pile (the stock, Nestor's reserve) brought hidden cards into view, and ``undo`` refuses
to go back past it.

Exceptions, all ``ValueError``::

    IllegalMove        a move that is not legal now (the message says why)
     +-- InvalidMove   text that is not a move of this game at all
    UndoRefused        undo with nothing to undo, or past a move that showed hidden cards
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from . import positions
from .cards import CODE, parse_card
from .deal import MAX_SEED, Shuffler, sorted_deck
from .snapshots import Reader, pack_snapshot

PLAYING: Final = "playing"
WON: Final = "won"
LOST: Final = "lost"


class IllegalMove(ValueError):
    """A move that is not legal in the current position."""


class InvalidMove(IllegalMove):
    """Text that does not name a move of this game."""


class UndoRefused(ValueError):
    """``undo`` with nothing to take back, or past a move that brought hidden cards into view."""


class DealFailed(Exception):
    """Raised by a game's ``_setup`` when a deck cannot be laid out under its rules."""


class Move:
    """A move, named by its notation text.

    Moves are interned: each game class builds every move its notation can name once (or,
    where they are too many, on first use: :meth:`Game._lazy_move`), and ``parse`` and
    ``legal_moves`` hand out those same objects, so moves compare by identity.
    ``kind``, ``a`` and ``b`` are the game's own decoding of the text (pile indexes).
    """

    __slots__ = ("a", "b", "kind", "text")

    def __init__(self, text: str, kind: int, a: int = -1, b: int = -1) -> None:
        self.text = text
        self.kind = kind
        self.a = a
        self.b = b

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move, (self.text, self.kind, self.a, self.b))


@dataclass(frozen=True)
class PileSpec:
    """Where a pile sits and how it shows: the layout a client draws every game from.

    ``x`` and ``y`` are table columns and rows (y grows downwards); ``fan`` is the way its
    cards spread (``down``, ``right`` or ``none`` for a squared pile showing its top card).
    """

    label: str
    kind: str
    x: int
    y: int
    fan: str = "none"
    hidden: bool = False
    home: bool = False


Op = tuple[int, int, int]
Entry = tuple[Move, list[Move], tuple[int, ...], list[Op], bool]


class Game:
    """Base class of every game. Subclasses declare their piles and fill in a few methods:

    - ``_setup(deck)``: lay out the deal (no journal); raise :class:`DealFailed` if it cannot.
    - ``_generate()``: the legal moves, in a fixed order.
    - ``_apply(move)``: carry out a legal move with :meth:`_mv` and the counters.
    - ``_auto()``: the automatic steps the rules take after every move (optional).
    - ``_why(move)``: why an illegal move is illegal, naming no face-down card.
    - ``_all_moves()``: every move the notation can name, legal or not (or ``_lazy_move``).
    """

    id: ClassVar[str]
    name: ClassVar[str]
    packs: ClassVar[int] = 1
    summary: ClassVar[str]
    #: the version of this game's rules: it goes up whenever what is legal changes, and a
    #: game, its log and its replay carry the version they were played under
    rules_version: ClassVar[int] = 1
    PILES: ClassVar[tuple[PileSpec, ...]]
    #: names of the integer counters kept in ``self.sc`` (redeals left, ...)
    COUNTERS: ClassVar[tuple[str, ...]] = ()
    #: other spellings accepted by ``parse`` (``"d"`` for ``"deal"``)
    ALIASES: ClassVar[dict[str, str]] = {}
    NOTATION_HINT: ClassVar[str] = ""
    #: the kinds of move that play a card home: onto a foundation, or (the pairing games)
    #: a pair onto the discard (:meth:`goes_home`)
    HOME_KINDS: ClassVar[frozenset[int]] = frozenset()
    #: the kinds of move that deal or turn cards from the stock or a reserve
    DEAL_KINDS: ClassVar[frozenset[int]] = frozenset()

    MOVES: ClassVar[dict[str, Move]]
    LABELS: ClassVar[dict[str, int]]
    HIDDEN: ClassVar[frozenset[int]]
    HOME: ClassVar[tuple[int, ...]]
    #: HOME_KINDS and DEAL_KINDS together (:meth:`plain_progress`)
    PROGRESS_KINDS: ClassVar[frozenset[int]]
    _TEMPLATES: ClassVar[tuple[dict[str, Any], ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "id" not in vars(cls):
            return  # a shared base, not a game
        cls._declare()
        labels = [s.label for s in cls.PILES]
        if len(set(labels)) != len(labels):
            raise TypeError(f"{cls.__name__}: pile labels must be unique")
        cls.LABELS = {label: i for i, label in enumerate(labels)}
        cls.HIDDEN = frozenset(i for i, s in enumerate(cls.PILES) if s.hidden)
        cls.HOME = tuple(i for i, s in enumerate(cls.PILES) if s.home)
        cls.PROGRESS_KINDS = cls.HOME_KINDS | cls.DEAL_KINDS
        cls._TEMPLATES = tuple(
            {"label": s.label, "kind": s.kind, "x": s.x, "y": s.y, "fan": s.fan} for s in cls.PILES
        )
        moves: dict[str, Move] = {}
        for move in cls._all_moves():
            if move.text in moves:
                raise TypeError(f"{cls.__name__}: two moves named {move.text!r}")
            moves[move.text] = move
        cls.MOVES = moves
        cls._interned()

    @classmethod
    def _declare(cls) -> None:
        """Set class-level layout constants (``PILES``, pile indexes) before the tables
        are built from them."""

    @classmethod
    def _interned(cls) -> None:
        """Keep direct references to interned moves, once ``MOVES`` is built."""

    @classmethod
    def _lazy_move(cls, key: str) -> Move | None:
        """The move a key not in ``MOVES`` names, or None: for moves too many to intern up
        front, built and kept on first use (``_generate`` must hand out the same object)."""
        return None

    # -- construction -------------------------------------------------------------------

    def __init__(self, deck: Sequence[int] | None, seed: int | None) -> None:
        """The deal of ``deck``; with None, an empty table for a caller to fill (a
        layout or a snapshot)."""
        self.seed = seed
        self.p: list[list[int]] = [[] for _ in self.PILES]
        self.sc: list[int] = [0] * len(self.COUNTERS)
        self.moves = 0
        self._journal: list[Entry] = []
        self._legal: list[Move] | None = None
        #: cards home, counted when first asked for after a change (None: not yet)
        self._home: int | None = None
        self._ops: list[Op] = []
        self._revealed = False
        self._low: dict[int, int] = {}
        if deck is not None:
            self._setup(list(deck))
            self._ops = []

    @classmethod
    def deck_cards(cls) -> list[int]:
        """The cards an explicit deck must hold, in canonical order."""
        return sorted_deck(cls.packs)

    @classmethod
    def _deck_from_shuffle(cls, shuffled: list[int]) -> list[int]:
        """The deck in dealing order, from a shuffle of ``packs`` whole packs."""
        return shuffled

    @classmethod
    def from_seed(cls, seed: int) -> Game:
        """The deal of ``seed``: see ``docs/deals.md``."""
        if not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be an integer from 0 to 2**64-1, not {seed!r}")
        shuffler = Shuffler(seed, cls.packs)
        while True:
            deck = cls._deck_from_shuffle(shuffler.next_deck())
            try:
                return cls(deck, seed)
            except DealFailed:
                continue

    @classmethod
    def from_deck(cls, deck: Iterable[int | str]) -> Game:
        """A game dealt from an explicit deck: card numbers or codes, in the order the game's
        own deal consumes them (each game's doc states it)."""
        cards = [parse_card(c) if isinstance(c, str) else int(c) for c in deck]
        if Counter(cards) != Counter(cls.deck_cards()):
            want = Counter(cls.deck_cards())
            got = Counter(cards)
            missing = [CODE[c] for c in sorted((want - got).elements())]
            extra = [CODE[c] for c in sorted((got - want).elements())]
            raise ValueError(
                f"a {cls.id} deck holds {want.total()} cards; "
                f"missing {' '.join(missing) or 'none'}, extra {' '.join(extra) or 'none'}"
            )
        try:
            return cls(cards, None)
        except DealFailed as exc:
            raise ValueError(f"this deck cannot be dealt: {exc}") from None

    @classmethod
    def from_layout(cls, piles: dict[str, str], counters: dict[str, int] | None = None) -> Game:
        """A position built by hand, for tests and analysis: pile label -> card codes from
        the bottom up (:func:`server.engine.positions.from_layout`)."""
        return positions.from_layout(cls, piles, counters)

    @classmethod
    def unseen_cards(cls, view: Mapping[str, Any]) -> list[int]:
        """The cards a player's :meth:`view` does not show, in card order: the face-down
        ones (:func:`server.engine.positions.unseen_cards`)."""
        return positions.unseen_cards(cls, view)

    @classmethod
    def from_view(cls, view: Mapping[str, Any], hidden: Sequence[int] | None = None) -> Game:
        """The position a player's view shows, its face-down cards ``hidden`` (an order of
        :meth:`unseen_cards`) or stand-ins (:func:`server.engine.positions.from_view`)."""
        return positions.from_view(cls, view, hidden)

    @classmethod
    def _counters_from_view(cls, view: Mapping[str, Any]) -> list[int]:
        """The counters a view tells (:meth:`from_view`): each, by default, under its
        own name (``rows``, ``redeals``); a game whose view says it otherwise reads it."""
        return [int(view[name]) for name in cls.COUNTERS]

    @classmethod
    def new(cls, seed: int | None = None, deck: Iterable[int | str] | None = None) -> Game:
        if deck is not None:
            return cls.from_deck(deck)
        return cls.from_seed(secrets.randbits(64) if seed is None else seed)

    # -- hooks for subclasses ------------------------------------------------------------

    @classmethod
    def _all_moves(cls) -> Iterable[Move]:
        raise NotImplementedError

    def _setup(self, deck: list[int]) -> None:
        raise NotImplementedError

    def _generate(self) -> list[Move]:
        raise NotImplementedError

    def _apply(self, move: Move) -> None:
        raise NotImplementedError

    def _auto(self) -> None:
        """Automatic steps after a move; none by default."""

    def _why(self, move: Move) -> str:
        return "not legal now"

    def _normalize(self, text: str) -> str:
        """Text to the canonical notation key: lower case, no spaces, aliases resolved."""
        key = "".join(text.split()).lower()
        return self.ALIASES.get(key, key)

    # -- transfers -----------------------------------------------------------------------

    def _mv(self, src: int, dst: int, n: int = 1) -> None:
        """Move the top ``n`` cards of pile ``src`` onto pile ``dst``, in order, journaled."""
        p = self.p
        if src in self.HIDDEN or dst in self.HIDDEN:
            self._watch_hidden(src, dst, n)
        if n == 1:
            p[dst].append(p[src].pop())
        else:
            s = p[src]
            p[dst].extend(s[-n:])
            del s[-n:]
        self._ops.append((src, dst, n))

    def _watch_hidden(self, src: int, dst: int, n: int) -> None:
        """Mark the move as revealing when it takes out of a hidden pile a card that was
        already there when the move began (cards a move itself put there, like a garden
        gathered up for a redeal, were in view and show nothing new)."""
        low = self._low
        p = self.p
        hidden = self.HIDDEN
        from_hidden = src in hidden
        to_hidden = dst in hidden
        if from_hidden and src not in low:
            low[src] = len(p[src])
        if to_hidden and dst not in low:
            low[dst] = len(p[dst])
        if from_hidden and not to_hidden:
            remaining = len(p[src]) - n
            if remaining < low[src]:
                self._revealed = True
                low[src] = remaining

    # -- the public surface --------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move now, in a fixed order."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def goes_home(self, move: Move) -> bool:
        """Whether ``move`` (a legal one) plays a card home: onto a foundation, or in the
        pairing games a pair onto the discard."""
        return move.kind in self.HOME_KINDS

    def home_moves(self) -> list[Move]:
        """The legal moves now that play a card home, in the order of :meth:`legal_moves`."""
        home = self.HOME_KINDS
        return [move for move in self.legal_moves() if move.kind in home]

    def plain_progress(self) -> bool:
        """Whether a legal move now plainly gets the game on: one plays a card home or
        deals or turns a card (:attr:`HOME_KINDS`, :attr:`DEAL_KINDS`). Cheap (the legal
        moves, as every move's reply lists them anyway): the server asks it after every
        move, and looks further (``server.solver.stuck``) only when it is False."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        kinds = self.PROGRESS_KINDS
        return any(move.kind in kinds for move in legal)

    def parse(self, text: str | Move) -> Move:
        """The move a notation text names (legal or not). Raises :class:`InvalidMove`."""
        if isinstance(text, Move):
            found = self.MOVES.get(text.text) or self._lazy_move(text.text)
            if found is None:
                raise InvalidMove(f"{text.text!r} is not a move of {self.name}")
            return found
        if not isinstance(text, str):
            raise InvalidMove(f"a move is text, not {type(text).__name__}")
        moves = self.MOVES
        move = moves.get(text)
        if move is not None and text not in self.ALIASES:
            return move  # already canonical, as a client's move from a legal list is
        key = self._normalize(text)
        move = moves.get(key) or self._lazy_move(key)
        if move is None:
            a, plus, b = key.partition("+")
            if plus and a == b and a in self.LABELS:  # (a pairing game's pile twice)
                raise InvalidMove(
                    f"{key} is no move: a pile cannot pair with itself. {self.NOTATION_HINT}"
                )
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise InvalidMove(
                f"cannot read {shown!r} as a move of {self.name}. {self.NOTATION_HINT}"
            )
        return move

    def play(self, move: Move | str) -> Move:
        """Play a legal move (a :class:`Move` or its text) and the automatic steps after it.

        Raises :class:`IllegalMove` saying why, and then changes nothing.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if move.__class__ is not Move or move not in legal:
            move = self.parse(move)
            if move not in legal:
                raise IllegalMove(f"illegal move {move.text!r}: {self._explain(move)}")
        ops: list[Op] = []
        self._ops = ops
        self._revealed = False
        self._low = {}
        counters = tuple(self.sc)
        self._apply(move)
        self._auto()
        self._journal.append((move, legal, counters, ops, self._revealed))
        self._legal = None
        self._home = None
        self.moves += 1
        return move

    def _explain(self, move: Move) -> str:
        status = self.status
        if status != PLAYING:
            return f"the game is over ({status})"
        return self._why(move)

    def undo(self) -> Move:
        """Take back the last move. Refused (:class:`UndoRefused`) when there is none, or when
        it brought hidden cards into view: in a race that would let a player peek."""
        if not self._journal:
            raise UndoRefused("nothing to undo")
        move, *_, revealed = self._journal[-1]
        if revealed:
            raise UndoRefused(f"cannot undo {move.text!r}: it brought hidden cards into view")
        return self.pop()

    def pop(self) -> Move:
        """Take back the last move whatever it showed. For solvers and tests only: a server
        never offers it to a player."""
        if not self._journal:
            raise UndoRefused("nothing to undo")
        move, legal, counters, ops, _ = self._journal.pop()
        p = self.p
        for src, dst, n in reversed(ops):
            if n == 1:
                p[src].append(p[dst].pop())
            else:
                d = p[dst]
                p[src].extend(d[-n:])
                del d[-n:]
        if counters:
            self.sc[:] = counters
        self._legal = None if legal is _LAZY else legal
        self._home = None
        self.moves -= 1
        return move

    def copy(self) -> Game:
        """The position alone, for solvers that keep many: the piles and counters copied,
        no undo journal (the copy cannot go back past where it was made)."""
        game = type(self)(None, self.seed)
        game.p = [list(pile) for pile in self.p]
        game.sc = list(self.sc)
        game.moves = self.moves
        return game

    def can_undo(self) -> bool:
        return bool(self._journal) and not self._journal[-1][4]

    @property
    def total(self) -> int:
        return 52 * self.packs

    def cards_home(self) -> int:
        home = self._home
        if home is None:
            p = self.p
            home = 0
            for i in self.HOME:  # (a loop: compiled, cheaper than a list and sum())
                home += len(p[i])
            self._home = home
        return home

    @property
    def progress(self) -> tuple[int, int]:
        """(cards home, total cards)."""
        return self.cards_home(), self.total

    @property
    def status(self) -> str:
        """``won`` with every card home; ``lost`` when no legal move remains; else ``playing``."""
        if self.cards_home() == self.total:
            return WON
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return PLAYING if legal else LOST

    def key(self) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """A hashable canonical key of the position (hidden cards included: for solvers)."""
        return tuple(map(tuple, self.p)), tuple(self.sc)

    def counters(self) -> dict[str, int]:
        return dict(zip(self.COUNTERS, self.sc, strict=True))

    def _view_extra(self) -> dict[str, Any]:
        """Game-specific public fields of the view."""
        return {}

    def _shown(self) -> Iterable[int]:
        """The piles a view shows, in order: all by default (grid games leave out the rows
        not dealt yet)."""
        return range(len(self.PILES))

    def view(self) -> dict[str, Any]:
        """Everything a player may see, as plain msgpack-able data. Hidden piles show only
        how many cards they hold; their cards and order never appear."""
        piles: list[dict[str, Any]] = []
        hidden = self.HIDDEN
        templates = self._TEMPLATES
        p = self.p
        for i in self._shown():
            pile = dict(templates[i])
            cards = p[i]
            if i in hidden:
                pile["cards"] = []
                pile["down"] = len(cards)
            else:
                pile["cards"] = [CODE[c] for c in cards]
                pile["down"] = 0
            piles.append(pile)
        home, total = self.progress
        view: dict[str, Any] = {
            "game": self.id,
            "piles": piles,
            "status": self.status,
            "home": home,
            "total": total,
            "moves": self.moves,
            "can_undo": self.can_undo(),
        }
        view.update(self._view_extra())
        return view

    def text(self) -> str:
        """The position as text, one pile a line: the form golden tests pin."""
        shown = list(self._shown())
        width = max(len(self.PILES[i].label) for i in shown)
        lines = []
        for i in shown:
            spec, cards = self.PILES[i], self.p[i]
            if spec.hidden:
                body = f"[{len(cards)} face down]"
            else:
                body = " ".join(CODE[c] for c in cards)
            lines.append(f"{spec.label:<{width}} {body}".rstrip())
        lines.extend(f"{name} {value}" for name, value in self.counters().items())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} moves={self.moves} {self.status}>"

    # -- snapshots -----------------------------------------------------------------------

    def snapshot(self) -> bytes:
        """The position as compact versioned bytes, with the moves that can still be undone
        (nothing before the last move that showed hidden cards is kept)."""
        keep: list[Entry] = []
        for entry in reversed(self._journal):
            if entry[4]:
                break
            keep.append(entry)
        undoable = [(move.text, counters, ops) for move, _legal, counters, ops, _ in reversed(keep)]
        return pack_snapshot(
            self.id, self.rules_version, self.seed, self.moves, self.sc, self.p, undoable
        )

    @classmethod
    def _restore(cls, reader: Reader, seed: int | None, moves: int) -> Game:
        game = cls(None, seed)
        game.moves = moves
        game.sc = reader.ints()
        if len(game.sc) != len(cls.COUNTERS):
            raise ValueError("snapshot does not match this game's counters")
        npiles = reader.u8()
        if npiles != len(cls.PILES):
            raise ValueError("snapshot does not match this game's piles")
        game.p = [list(reader.take(reader.u8())) for _ in range(npiles)]
        game._journal = []
        for text, counters, ops in reader.journal():
            move = cls.MOVES.get(text) or cls._lazy_move(text)
            if move is None:
                raise ValueError(f"snapshot names no move of {cls.id}: {text!r}")
            # the legal moves before a restored move are recomputed if it is undone
            game._journal.append((move, _LAZY, counters, ops, False))
        if not reader.done():
            raise ValueError("snapshot has trailing bytes")
        return game


#: marks a journal entry whose legal-move list must be recomputed after an undo
_LAZY: Final[list[Move]] = []
