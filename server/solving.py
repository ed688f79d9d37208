"""The solver's two commands, ``patience-race-server solve`` and ``winnability``: the I/O
around :mod:`server.solver` (processes, the results file, the progress line).

``winnability`` appends one JSON line per deal to its results file as each deal is
decided, so an interrupted run started again with the same file carries on where it
stopped: a deal already in the file (the same game and budget) is not searched again.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, TextIO

from server.engine import GAMES
from server.engine.deal import MAX_SEED
from server.solver import DEFAULT_BUDGET_S, solve
from server.solver.stats import summarize


class UsageError(ValueError):
    """Bad arguments: said on standard error, exit status 2."""


def _game(name: str) -> str:
    if name not in GAMES:
        raise UsageError(f"no such game: {name!r} (games: {', '.join(GAMES)})")
    return name


def _budget(value: float) -> float:
    if not value > 0:
        raise UsageError(f"the budget must be more than 0 seconds, not {value:g}")
    return value


def cmd_solve(args: argparse.Namespace) -> int:
    try:
        game = _game(args.game)
        budget = _budget(args.budget)
        result = solve(game, seed=args.seed, budget_s=budget, shortest=args.shortest)
    except (UsageError, ValueError) as exc:
        print(f"solve: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print(f"{GAMES[game].name}, seed {args.seed}: {result.verdict}", end="")
    if result.verdict == "unknown":
        print(f" (the budget ran out: {result.why})", end="")
    print(f" · {result.nodes:,} positions in {result.seconds:.2f} s")
    if result.line:
        if result.shortest:
            what = "the shortest line"
        elif args.shortest:
            what = "the shortest line found (not proved the shortest)"
        else:
            what = "a winning line"
        print(f"{what}, {len(result.line)} moves (checked through the engine):")
        print(" ".join(result.line))
    return 0


def _done(path: Path, game: str, budget: float) -> dict[int, dict[str, Any]]:
    """The deals already decided in a results file, for this game and budget."""
    done: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return done
    with path.open() as lines:
        for line in lines:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short when a run was stopped
            if row.get("game") == game and row.get("budget_s") == budget:
                done[int(row["seed"])] = row
    return done


def _one(game: str, seed: int, budget: float) -> dict[str, Any]:
    result = solve(game, seed=seed, budget_s=budget)
    row = result.to_json()
    row["budget_s"] = budget
    row["moves"] = len(result.line)
    del row["line"]  # the line is checked; the file keeps the verdict and its cost
    return row


def _progress(out: TextIO, done: int, total: int, won: int, started: float) -> None:
    width = 30
    filled = width * done // max(1, total)
    rate = done / max(1e-9, time.monotonic() - started)
    out.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals · {won} won · "
        f"{rate:.1f} deals/s "
    )
    out.flush()


def _seeds(first: int, deals: int) -> Iterator[int]:
    return iter(range(first, first + deals))


def cmd_winnability(args: argparse.Namespace) -> int:
    try:
        game = _game(args.game)
        budget = _budget(args.budget)
        if args.deals < 1:
            raise UsageError(f"--deals must be at least 1, not {args.deals}")
        if not 0 <= args.first <= MAX_SEED - args.deals + 1:
            raise UsageError("the seeds must lie between 0 and 2**64-1")
        if args.jobs < 1:
            raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    except UsageError as exc:
        print(f"winnability: {exc}", file=sys.stderr)
        return 2
    path = Path(args.out or f"winnability-{game}.jsonl")
    try:
        path.open("a").close()  # (a folder missing, or not writable: said before any solve)
    except OSError as exc:
        print(f"winnability: --out {path}: {exc.strerror}", file=sys.stderr)
        return 2
    done = _done(path, game, budget)
    wanted = list(_seeds(args.first, args.deals))
    rows = {seed: done[seed] for seed in wanted if seed in done}
    todo = [seed for seed in wanted if seed not in done]
    if rows:
        print(f"{len(rows)} of the {len(wanted)} deals already in {path}", file=sys.stderr)
    started = time.monotonic()
    quiet = args.quiet or not sys.stderr.isatty()
    with path.open("a") as results, ProcessPoolExecutor(args.jobs) as pool:
        if path.stat().st_size and not path.read_bytes().endswith(b"\n"):
            results.write("\n")  # end the line a stopped run cut short, so ours start afresh
        pending: set[Future[dict[str, Any]]] = set()
        queue = iter(todo)
        for seed in queue:
            pending.add(pool.submit(_one, game, seed, budget))
            if len(pending) >= 4 * args.jobs:
                break
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                row = future.result()
                rows[row["seed"]] = row
                results.write(json.dumps(row) + "\n")
                results.flush()
                nxt = next(queue, None)
                if nxt is not None:
                    pending.add(pool.submit(_one, game, nxt, budget))
            if not quiet:
                won = sum(1 for r in rows.values() if r["verdict"] == "won")
                _progress(sys.stderr, len(rows), len(wanted), won, started)
    if not quiet:
        sys.stderr.write("\n")
    ordered = [rows[seed] for seed in wanted]
    summary = summarize(r["verdict"] for r in ordered)
    decided = sorted(r["seconds"] for r in ordered if r["verdict"] != "unknown")
    print(
        f"{GAMES[game].name}, seeds {args.first} to {args.first + args.deals - 1}, "
        f"{budget:g} s a deal: {summary.line()}"
    )
    if decided:
        p95 = decided[min(len(decided) - 1, int(0.95 * len(decided)))]
        print(
            f"time to a verdict: median {_ms(statistics.median(decided))}, p95 {_ms(p95)}; "
            f"results in {path}"
        )
    return 0


def _ms(seconds: float) -> str:
    """``0.4 ms``, ``12.5 ms``, ``3.20 s``."""
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def add_commands(sub: Any) -> None:
    """The ``solve`` and ``winnability`` subcommands, on ``patience-race-server``'s parser."""
    solve_p = sub.add_parser("solve", help="search a deal for a win (or prove there is none)")
    solve_p.add_argument("game", metavar="GAME")
    solve_p.add_argument("--seed", type=seed_arg, required=True)
    solve_p.add_argument(
        "--budget", type=float, default=DEFAULT_BUDGET_S, help="seconds (default 10)"
    )
    solve_p.add_argument("--json", action="store_true", help="the result as one JSON line")
    solve_p.add_argument(
        "--shortest",
        action="store_true",
        help="after a win, look for a shorter line (A*) with the budget left",
    )
    solve_p.set_defaults(func=cmd_solve)
    win = sub.add_parser("winnability", help="solve many deals: the share that can be won")
    win.add_argument("game", metavar="GAME")
    win.add_argument("--deals", type=int, required=True)
    win.add_argument("--first", type=seed_arg, default=0, help="the first seed (default 0)")
    win.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S, help="seconds a deal")
    win.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    win.add_argument("--out", help="results file, one JSON line a deal (resumed if present)")
    win.add_argument("--quiet", action="store_true", help="no progress line")
    win.set_defaults(func=cmd_winnability)


def seed_arg(text: str) -> int:
    """A seed on the command line: decimal, or hex with ``0x``."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a seed: {text!r}") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError("a seed is an integer from 0 to 2**64-1")
    return value
