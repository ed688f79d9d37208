"""The README's console sample is what the console prints: the deal it names, the moves it
types, the lines it shows (``...`` standing for lines left out), in that order."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sample() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Playing at the console") :]
    block = re.search(r"```\n(.*?)\n```", section, re.S)
    assert block is not None
    return block.group(1).splitlines()


def test_the_readme_console_sample_is_what_the_console_prints() -> None:
    lines = sample()
    command = lines[0].removeprefix("$ ")
    found = re.fullmatch(r"make console(?: GAME=(\S+))?(?: SEED=(\d+))?", command)
    assert found, f"the sample's command is not make console with a seed: {command!r}"
    game, seed = found.group(1) or "gate", found.group(2)
    assert seed, "a sample without SEED= cannot match a random deal"
    typed = [line.removeprefix("> ") for line in lines if line.startswith("> ")]
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "play", game, "--seed", seed],
        input="\n".join([*typed, "q"]) + "\n",
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
    )
    # the console prompts with "> " and the input is not echoed through a pipe
    printed = [line.removeprefix("> ").rstrip() for line in done.stdout.splitlines()]
    at = 0
    for line in lines[1:]:
        if line == "..." or line.startswith("> "):
            continue
        assert line in printed[at:], f"the README shows {line!r}; the console does not, in order"
        at = printed.index(line, at) + 1
