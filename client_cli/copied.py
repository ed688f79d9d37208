"""A command to copy on a full screen that is narrower than the command.

The full screen cuts a line at its edge, and a line break inside a command makes a shell
run half of it (``patience-race replay ID --server`` / ``ws://...``, the results screen at
60 columns: the command printed to copy is 67 columns with a ``--server``). Where a
command does not fit on a line even of its own, it is broken between its words with a
shell's line continuation (`` \\`` at a line's end): its lines, copied together and pasted,
run it whole. An option stays with its value (``--server URL`` on one line).
"""

from __future__ import annotations

import re

#: a shell's line continuation, at the end of a line a command goes on from
CONTINUED = " \\"


def tokens(command: str) -> list[str]:
    """The pieces ``command`` is broken between: its words, an option with its value.

    >>> tokens("patience-race replay 6f29 --server ws://h:1")
    ['patience-race', 'replay', '6f29', '--server ws://h:1']
    """
    out: list[str] = []
    for word in command.split():
        if out and out[-1].startswith("--") and " " not in out[-1] and not word.startswith("-"):
            out[-1] += f" {word}"
        else:
            out.append(word)
    return out


def continued(head: str, command: str, width: int, indent: int = 2, hang: int = 2) -> list[str]:
    """``head`` (the words before the command, ``Replay: ``) and ``command`` after it,
    ``indent`` columns in, in lines of ``width`` at most: broken between the command's
    pieces with a shell's line continuation, each further line ``hang`` columns further in;
    the head on a line of its own where not even the command's first piece fits beside
    it. (A single piece wider than the screen is left as it is.)

    >>> for row in continued("Replay: ", "patience-race replay 6f2942c2 --server ws://h:1", 44):
    ...     print(row)
      Replay: patience-race replay 6f2942c2 \\
        --server ws://h:1
    >>> for row in continued("Others (ID from the table): ", "patience-race replay ID", 40):
    ...     print(row)
      Others (ID from the table):
        patience-race replay ID
    """
    pieces = tokens(command)
    rows: list[str] = []
    line = " " * indent + head
    if head.strip() and pieces and len(line) + len(pieces[0]) + len(CONTINUED) > width:
        rows.append(line.rstrip())
        line = " " * (indent + hang)
    for n, piece in enumerate(pieces, start=1):
        room = width - (0 if n == len(pieces) else len(CONTINUED))
        if n == 1 or not line.strip() or len(line) + 1 + len(piece) <= room:
            line += piece if n == 1 or not line.strip() else f" {piece}"
        else:
            rows.append(line + CONTINUED)
            line = " " * (indent + hang) + piece
    rows.append(line.rstrip())
    return rows


def command_in(line: str) -> tuple[str, str, str] | None:
    """``line``'s words before a command that names its server, the command (to the end
    of its ``--server URL``), and the words after it; None for a line without one (a
    command of the default server is short: it fits).

    >>> command_in("Race again: patience-race quick gate --server ws://h:1 (or not).")
    ('Race again: ', 'patience-race quick gate --server ws://h:1', ' (or not).')
    >>> command_in("Replay: patience-race replay 6f29") is None
    True
    """
    at = line.find("patience-race ")
    found = re.search(r" --server \S+", line[at:]) if at >= 0 else None
    if found is None:
        return None
    end = at + found.end()
    return line[:at], line[at:end], line[end:]
