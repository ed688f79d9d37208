"""Challenges: the challenge, its takers and table, and each player's list and news."""

from __future__ import annotations

#: table and the replays it races are kept from its making
CHALLENGE_TTL = 30 * 24 * 3600


def challenge_key(cid: str) -> str:
    return f"ch:{{{cid}}}"


def challenge_takers_key(cid: str) -> str:
    return f"ch:{{{cid}}}:takers"


def challenge_table_key(cid: str) -> str:
    return f"ch:{{{cid}}}:t"


def player_challenges_key(pid: str) -> str:
    return f"pch:{pid}"


def challenge_news_key(pid: str) -> str:
    return f"pchn:{pid}"


def challenge_game_key(pid: str) -> str:
    return f"pchg:{pid}"
