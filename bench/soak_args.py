"""The soak's command line (``bench/soak.py``): its options, and what ``--quick`` makes
of them."""

from __future__ import annotations

import argparse
from pathlib import Path


def parse(argv: list[str] | None, description: str) -> argparse.Namespace:
    """The soak's options (``bench/soak.py``'s docstring says what each phase does)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--frames", type=int, default=200_000, help="fuzz frames to send")
    parser.add_argument("--racers", type=int, default=8, help="racers beside the fuzz")
    parser.add_argument("--fuzzers", type=int, default=6, help="fuzzing connections")
    parser.add_argument("--seed", type=int, default=1, help="the run's random seed")
    parser.add_argument("--seconds", type=float, default=900, help="the whole run's cap")
    parser.add_argument("--stall", type=float, default=30, help="seconds before a request "
                        "with no reply counts as unanswered, or a race as stranded")  # fmt: skip
    parser.add_argument("--server-tree", type=Path, help="a checkout whose server to run")
    parser.add_argument("--no-kills", action="store_true", help="fuzz and race only")
    parser.add_argument(
        "--ballast", type=float, default=60, metavar="MB",
        help="junk keys for Redis to load at each restart, in MB of its append-only file "
        "(60: about a second; 0: none)",
    )  # fmt: skip
    parser.add_argument(
        "--certify-ahead", type=int, metavar="DAYS",
        help="the server's PATIENCE_CERTIFY_AHEAD (default: the server's own, so that it "
        "certifies days of deals in its worker pool at each start, as a new server does)",
    )  # fmt: skip
    parser.add_argument(
        "--quick", action="store_true",
        help="a short run: 3,000 frames, --stall 10, --ballast 20 at most, --seconds 120, "
        "--certify-ahead 0",
    )  # fmt: skip
    parser.add_argument("--json-out", type=Path, help="write the figures as JSON here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args(argv)
    if args.quick:
        args.frames, args.racers, args.fuzzers = min(args.frames, 3000), 5, 4
        # (a deadline, not a length: a run ends when its phases are done, about 70 s; a
        # loaded machine, Redis loading its ballast in 4 s rather than 2, left the last
        # phase, both restarted, no time within 90 s)
        args.stall, args.seconds = min(args.stall, 10), min(args.seconds, 120)
        args.ballast = min(args.ballast, 20)
        # (certifying took 19 of the short run's 27 CPU-seconds, on a machine the run
        # shares with the tests beside it: its figures need no deals certified)
        if args.certify_ahead is None:
            args.certify_ahead = 0
    return args
