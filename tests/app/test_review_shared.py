"""A deal's reviews share the shortest winning line any of them found (``dln:...``,
``store/reviews.DealLines``): a won game's par where the deal has no book line, so that
two players' wins of one deal are told one par, and a lost game's winning continuation
counts too. Each review's own search, bounded by its player's line, had found each
player "on par", whatever a shorter line another review had found."""

from __future__ import annotations

from server.app.store.keys import deal_line_key
from server.app.store.reviews import DealLines
from server.engine import GAMES
from server.solver import check_line, solve

from .client import player
from .conftest import Running
from .test_review import play

SEED = 3
VERSION = GAMES["gate"].rules_version
#: a win of The Gate on seed 3 in 112 moves (A* from the solver's 114, given 8 s)
SHORT = (  # noqa: SIM905 (a line as the notation writes it)
    "t1>t4 b3>b2 b1>b2 deal t4>f t4>t3 deal b1>f t3>f deal deal deal deal deal deal deal "
    "deal deal w>b1 b4>b1 deal deal w>b1 t3>b1 deal b1>t3 deal deal w>b1 l>b1 b3>b1 deal "
    "l>t2 deal deal deal w>b2 deal w>f t4>f deal t4>f deal t4>t1 t3>t1 deal w>t4 b1>t3 "
    "t4>t3 t2>t3 t3>b3 deal w>b1 w>t3 w>b2 w>b1 w>b2 t2>t3 b1>t4 b4>t4 deal l>b1 l>b4 "
    "l>b2 l>t1 t3>f t1>f t3>f t1>f b3>f t1>f t3>f b3>f b1>f t2>f t1>b4 t4>f b3>f r>t1 "
    "b4>t1 r>t2 r>t2 r>f t1>f b3>f r>f t1>f t1>f b2>f t4>f b2>f t4>f b3>f t1>f b2>f t4>f "
    "b3>f t1>f b2>f b3>f t1>f b2>f b3>f b3>f t4>f t1>f t2>f b2>f t1>f t2>f b2>f b3>f"
).split()


async def test_two_wins_of_one_deal_are_told_one_par(server: Running) -> None:
    server.service.reviewing.budget_s = 0.5  # (too little for A* to better 114 alone)
    check_line("gate", SHORT, seed=SEED)
    longer = list(solve("gate", seed=SEED, budget_s=10).line or [])
    assert len(longer) > len(SHORT)
    bob, ann = await player(server.url, "bob"), await player(server.url, "ann")
    # bob's win in 112: par at most his moves, kept for the deal
    gid = (await bob.call("new_game", game="gate", seed=SEED))["game"]
    assert (await play(bob, SHORT))["status"] == "won"
    review = await bob.call("review", game=gid)
    assert review["found"] == "over_par" and review["par"] <= len(SHORT)
    lines = DealLines(server.redis)
    kept = await lines.shortest("gate", VERSION, SEED)
    assert kept is not None and len(kept) == review["par"]
    # ann's win in 114 is told the same par: over it (she was told "on par", 114)
    gid = (await ann.call("new_game", game="gate", seed=SEED))["game"]
    assert (await play(ann, longer))["status"] == "won"
    review = await ann.call("review", game=gid)
    assert review["par"] == len(kept) and review["over"] == len(longer) - len(kept) > 0
    check_line("gate", review["par_line"], seed=SEED)
    # a line kept that does not win (other rules, tampered with) is not trusted
    await server.redis.hset(deal_line_key("gate", VERSION, SEED), "moves", 3)
    assert await lines.offer("gate", VERSION, SEED, ["deal", "deal"])
    assert await server.service.reviewing.known_line("gate", VERSION, SEED) is None


async def test_a_lost_games_winning_continuation_is_kept_for_the_deal(server: Running) -> None:
    server.service.reviewing.budget_s = 2.0
    cy = await player(server.url, "cy")
    gid = (await cy.call("new_game", game="gate", seed=SEED))["game"]
    await play(cy, SHORT[:5])
    await cy.call("resign")
    review = await cy.call("review", game=gid)
    assert review["found"] == "still_winnable", review
    kept = await DealLines(server.redis).shortest("gate", VERSION, SEED)
    assert kept is not None and kept[:5] == SHORT[:5]
    check_line("gate", kept, seed=SEED)
    # a longer line found later leaves it as it was
    assert not await DealLines(server.redis).offer("gate", VERSION, SEED, [*kept, "deal"])
