"""Already-encoded msgpack values, kept apart from :mod:`server.protocol.codec` so that
module can be compiled (``server.native``) while this ``bytes`` subclass stays a Python
class.

>>> import msgpack
>>> from server.protocol.codec import decode, encode
>>> decode(encode({"type": "x", "view": Encoded(msgpack.packb({"a": [1]}))}))
{'type': 'x', 'view': {'a': [1]}}
"""

from __future__ import annotations


class Encoded(bytes):
    """A value already encoded as msgpack (one whole value). Put in a message's top-level
    map, :func:`~server.protocol.codec.encode` writes it as it is: the server keeps a
    game's view encoded between moves and re-encodes only the piles a move changed."""

    __slots__ = ()
