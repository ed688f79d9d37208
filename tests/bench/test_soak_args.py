"""The soak's command line (``bench/soak_args.py``): what ``--quick`` makes of it."""

from __future__ import annotations

from bench.soak_args import parse


def test_quick_certifies_no_deals_unless_told() -> None:
    """A short run leaves the server's worker pool idle (certifying at each start took
    most of its CPU); a full run leaves the server's own setting, and a number given
    is kept either way."""
    assert parse(["--quick"], "").certify_ahead == 0
    assert parse(["--quick", "--certify-ahead", "2"], "").certify_ahead == 2
    assert parse([], "").certify_ahead is None
    assert parse(["--certify-ahead", "3"], "").certify_ahead == 3


def test_quick_caps_the_rest() -> None:
    args = parse(["--quick", "--frames", "9000000", "--ballast", "60"], "")
    assert (args.frames, args.racers, args.fuzzers) == (3000, 5, 4)
    assert (args.stall, args.seconds, args.ballast) == (10, 120, 20)
