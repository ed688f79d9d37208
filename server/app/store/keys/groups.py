"""Groups (``groups.py``; what a group is: ``server.app.domain.groups``)."""

from __future__ import annotations


def group_keys(gid: str) -> list[str]:
    """A group's three keys, as its scripts take them: the group, its members, the
    players removed from it. One hash tag, one slot.

    >>> group_keys("k3v9xq2mab")
    ['grp:{k3v9xq2mab}', 'grp:{k3v9xq2mab}:m', 'grp:{k3v9xq2mab}:out']
    """
    return [f"grp:{{{gid}}}", f"grp:{{{gid}}}:m", f"grp:{{{gid}}}:out"]


def player_groups_key(pid: str) -> str:
    """Set: ids of the groups the player is in (an index; a group's members are the
    truth, and an id in it that is no longer so is dropped when read)."""
    return f"pgrp:{pid}"
