"""The view a move's reply carries is kept encoded between moves: it must decode to
exactly what ``game.view()`` says, in every game, after moves, automatic steps, undos
and the end of the game."""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
from redis.asyncio import Redis

from server.app.domain.games import LiveGame
from server.app.domain.lost import report
from server.app.service import Service
from server.app.settings import Settings
from server.engine import GAMES, new_game
from server.protocol import encode
from server.protocol.codec import Encoded


def decode(data: bytes) -> Any:
    """What the server sends, decoded as a client does: not within the bounds the server
    holds requests to (a view has lists longer than any request's)."""
    return msgpack.unpackb(data)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_encoded_view_is_the_view(game_id: str) -> None:
    rng = random.Random(game_id)
    for seed in range(3):
        game = new_game(game_id, seed=seed)
        live = LiveGame(gid="g", game=game, owner="p", kind="solo", created_ms=0)
        assert decode(live.encoded_view()) == game.view()
        for _ in range(300):
            legal = game.legal_moves()
            if not legal:
                break
            if game.can_undo() and rng.random() < 0.2:
                game.undo()
            else:
                game.play(legal[rng.randrange(len(legal))])
            encoded = live.encoded_view()
            assert isinstance(encoded, Encoded)
            assert decode(encoded) == game.view()
        # and inside a reply, as the server sends it
        reply = {"type": "moved", "view": live.encoded_view(), "legal": [], "id": 7}
        assert decode(encode(reply)) == {**reply, "view": game.view()}


def test_a_new_game_object_gets_a_new_encoder() -> None:
    live = LiveGame(gid="g", game=new_game("gate", seed=1), owner="p", kind="solo", created_ms=0)
    live.encoded_view()
    live.game = new_game("gate", seed=2)
    assert decode(live.encoded_view()) == live.game.view()


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_a_moves_reply_is_packed_as_the_codec_packs_it(
    game_id: str, settings: Settings
) -> None:
    """The move path packs its ``moved`` replies by hand: the same bytes as the reply
    ``played`` makes, encoded, in every game, to the end (status and all)."""
    assert settings.redis_url is not None
    redis = Redis.from_url(settings.redis_url)
    path = Service(settings, redis).moves
    rng = random.Random(game_id)
    checked = 0
    try:
        for seed in range(3):
            game = new_game(game_id, seed=seed)
            live = LiveGame(gid=f"g{seed}" * 8, game=game, owner="p", kind="solo", created_ms=0)
            for n in range(400):
                legal = game.legal_moves()
                if not legal:
                    break
                move = game.play(legal[rng.randrange(len(legal))])
                status = game.status
                if status != "playing":
                    live.finish(status, n)
                request_id = rng.choice([n, 200 + n, 70_000 + n, 2**40 + n])
                frame = path.moved_frame(live, move.text, None, request_id)
                assert frame == encode(
                    {**path.played("moved", live, move.text, None), "id": request_id}
                )
                assert decode(frame) == {
                    "type": "moved",
                    "game": live.gid,
                    "move": move.text,
                    "view": game.view(),
                    "legal": [m.text for m in game.legal_moves()],
                    "status": live.status(),
                    # a game over says when it ended
                    **({"finished_at": n} if status != "playing" else {}),
                    # a lost game's reply says why (server/app/domain/lost.py)
                    **({"lost": report(game, undo=game.can_undo())} if status == "lost" else {}),
                    "id": request_id,
                }
                checked += 1
        assert checked >= 20
    finally:
        await redis.aclose()
