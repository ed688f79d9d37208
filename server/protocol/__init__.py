"""The wire protocol: msgpack frames, typed request records, error codes. No I/O.

``docs/protocol.md`` is the contract; this package is its code.
"""

from .codec import FrameError, decode, encode
from .errors import ErrorCode, ProtocolError, refuse
from .messages import PROTOCOL_VERSION, REQUESTS, Request, parse_request

__all__ = [
    "PROTOCOL_VERSION",
    "REQUESTS",
    "ErrorCode",
    "FrameError",
    "ProtocolError",
    "Request",
    "decode",
    "encode",
    "parse_request",
    "refuse",
]
