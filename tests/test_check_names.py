"""docs/check_names.py, the lint that every code name the text cites exists: run on a small
tree of its own, as ``make lint`` runs it on the project."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHECKER = Path(__file__).resolve().parents[1] / "docs" / "check_names.py"

MODULE = '''"""The rooms: see :class:`~server.rooms.Room` and ``Room.take_newer()``."""

LIMIT_SECONDS = 3


class Room:
    """A room. {cited}"""

    def __init__(self) -> None:
        self.held_since = 0.0

    def take_newer(self, state: dict[str, int]) -> bool:
        # keeps ``self.held_since`` (`LIMIT_SECONDS` apart)
        return bool(state)
'''

PAGE = """# Rooms

`server.rooms.Room.held_since`, `str.partition`, `asyncio.get_running_loop()`, `make test`,
`docs/rooms.md`, `compose.yaml`, `--room-limit`, `a b`, `take_newer(state)`. {cited}

```python
`fenced_away` is code, not text
```
"""


def run(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECKER), "--root", str(root)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def tree(root: Path, module_cites: str = "", page_cites: str = "") -> Path:
    (root / "server").mkdir()
    (root / "server" / "__init__.py").write_text("")
    (root / "server" / "rooms.py").write_text(MODULE.format(cited=module_cites))
    (root / "docs").mkdir()
    (root / "docs" / "rooms.md").write_text(PAGE.format(cited=page_cites))
    return root


def test_names_that_exist_pass(tmp_path: Path) -> None:
    done = run(tree(tmp_path, "See ``Room.take_newer``.", "`Room.__init__`, `LIMIT_SECONDS`."))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


def test_a_docstring_citing_a_missing_name_fails_naming_it(tmp_path: Path) -> None:
    done = run(tree(tmp_path, "See ``Room._reload_room`` and ``take_older``."))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "server/rooms.py:7: `Room._reload_room` names nothing in the project",
        "server/rooms.py:7: `take_older` names nothing in the project",
    ]


def test_a_page_citing_a_missing_name_or_member_fails_naming_it(tmp_path: Path) -> None:
    done = run(tree(tmp_path, page_cites="`server.rooms.Lobby`, `Room.board`."))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "docs/rooms.md:4: `server.rooms.Lobby` names nothing in the project",
        "docs/rooms.md:4: `Room.board` names nothing in the project",
    ]


def test_a_comment_and_a_role_are_checked(tmp_path: Path) -> None:
    root = tree(tmp_path)
    module = root / "server" / "rooms.py"
    text = module.read_text().replace("`LIMIT_SECONDS`", "`LIMIT_MINUTES`")
    text = text.replace(":class:`~server.rooms.Room`", ":class:`~server.rooms.Hall`")
    module.write_text(text)
    done = run(root)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "server/rooms.py:1: `server.rooms.Hall` names nothing in the project",
        "server/rooms.py:13: `LIMIT_MINUTES` names nothing in the project",
    ]
