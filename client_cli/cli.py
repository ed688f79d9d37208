"""``patience-race``: the terminal client people race with.

The client talks to a race server; until the network server exists there is nothing for
it to connect to, and it says so rather than pretend.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    print(
        "patience-race: the race server is not available yet. "
        "Try the rules at a local console: patience-race-server play gate",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
