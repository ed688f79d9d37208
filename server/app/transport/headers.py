"""What a request's headers ask of an answer's form (RFC 9110): may it come gzipped
(``Accept-Encoding``), and does the client hold it already (``If-None-Match``). Pure
parsing, for :mod:`.web`."""

from __future__ import annotations

import re

#: a q-value (RFC 9110, 12.4.2): 0 to 1, with at most three decimals
QVALUE = re.compile(r"0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?")


def codings(accept_encoding: str) -> dict[str, float]:
    """The content codings an ``Accept-Encoding`` names, each with its weight (RFC 9110,
    12.5.3): names in lower case, ``x-gzip`` as ``gzip``; an element whose weight is not
    a q-value is passed over.

    >>> codings("gzip;q=0.5, BR, *;q=0, x-gzip; q=0.7")
    {'gzip': 0.7, 'br': 1.0, '*': 0.0}
    """
    weights: dict[str, float] = {}
    for element in accept_encoding.split(","):
        name, *params = (part.strip() for part in element.split(";"))
        weight: float | None = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                value = value.strip()
                weight = float(value) if QVALUE.fullmatch(value) else None
        if name and weight is not None:
            weights[{"x-gzip": "gzip"}.get(name.lower(), name.lower())] = weight
    return weights


def gzip_accepted(accept_encoding: str) -> bool:
    """Whether to send gzip to a request with this ``Accept-Encoding``: gzip's weight
    (its own, else ``*``'s, else 0) is above 0, and at least that of no coding at all
    where the request weighs that (``identity``, else ``*``). No header, or an empty
    one: no gzip.

    >>> [gzip_accepted(v) for v in ("gzip;q=0.5", "gzip;q=0", "*", "*, gzip;q=0", "")]
    [True, False, True, False, False]
    >>> gzip_accepted("gzip;q=0.5, identity")
    False
    """
    weights = codings(accept_encoding)
    anything = weights.get("*")
    packed = weights.get("gzip", 0.0 if anything is None else anything)
    plain = weights.get("identity", anything)
    return packed > 0 and (plain is None or packed >= plain)


#: an entity tag in an ``If-None-Match`` list: its opaque part, ``W/`` or not
ENTITY_TAG = re.compile(r'(?:W/)?("[^"]*")')


def none_match(if_none_match: str, etag: str | None) -> bool:
    """Whether ``If-None-Match`` fails for a representation there is, with entity tag
    ``etag`` (None: it has none), so that a GET or HEAD gets 304 (RFC 9110, 13.1.2):
    ``*``, or a tag in its list that matches ``etag`` weakly (``W/`` set aside on both).

    >>> [none_match(v, '"a"') for v in ('"b", "a"', "*", 'W/"a"', 'W/"b"', "a", "")]
    [True, True, True, False, False, False]
    """
    if if_none_match.strip() == "*":
        return True
    if etag is None:
        return False
    mine = etag.removeprefix("W/")
    return any(tag == mine for tag in ENTITY_TAG.findall(if_none_match))
