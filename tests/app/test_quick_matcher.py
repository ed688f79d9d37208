"""The matcher's script (``QUICK_MATCH``, run in Redis) against its rule written in Python
(``domain/quick.py``'s :func:`match`): on random queues, the same groups, and nobody in
two of them."""

from __future__ import annotations

import random

from server.app.domain import quick as q
from server.app.settings import Settings
from server.app.store.connect import open_redis
from server.app.store.keys import quick_joined_key
from server.app.store.queue import QuickQueue, Window

RULE = q.Rule(base=3.0, widen=2.0, every_ms=5000, most=8, gather_ms=3000)


async def test_the_script_matches_as_the_rule_says(settings: Settings) -> None:
    assert settings.redis_url is not None
    redis = open_redis(settings.redis_url)
    queue = QuickQueue(redis)
    window = Window(RULE.base, RULE.widen, RULE.every_ms, RULE.most, RULE.gather_ms, 10**9)
    rng = random.Random(37)
    try:
        for trial in range(40):
            game = f"g{trial}"
            waiting = [
                q.Waiting(f"p{n:03}", rng.randrange(0, 8_000), round(rng.uniform(0, 40), 1))
                for n in range(rng.randrange(1, 60))
            ]
            for w in waiting:
                await queue.join(w.pid, game, w.rating, w.joined_ms, 0)
            now = 8_000
            groups, gone = await queue.match(game, now, window)
            got = [[w.pid for w in group] for group in groups]
            want = [[w.pid for w in group] for group in q.match(waiting, now, RULE)]
            assert got == want, trial
            assert not gone
            taken = [pid for group in got for pid in group]
            assert len(taken) == len(set(taken))
            assert all(2 <= len(group) <= RULE.most for group in got)
            assert await redis.zcard(quick_joined_key(game)) == len(waiting) - len(taken)
        # crowded windows (more than 64 in one): the nearest on each side are read, and
        # with no two ratings alike the groups are the rule's all the same
        for trial in range(10):
            game = f"crowd{trial}"
            ratings = rng.sample(range(0, 4000), 150)
            waiting = [
                q.Waiting(f"p{n:03}", rng.randrange(0, 8_000), r / 1000)
                for n, r in enumerate(ratings)
            ]
            for w in waiting:
                await queue.join(w.pid, game, w.rating, w.joined_ms, 0)
            groups, _ = await queue.match(game, 8_000, window)
            got = [[w.pid for w in group] for group in groups]
            want = [[w.pid for w in group] for group in q.match(waiting, 8_000, RULE)]
            assert got == want, trial
            assert all(len(group) == RULE.most for group in got[:-1])
    finally:
        await redis.aclose()
