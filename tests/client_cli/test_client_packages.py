"""``pip install .`` installs the server's packages alone, and with them the
``patience-race`` command, which then ended in a traceback (``No module named 'rich'``).
The command now says what to install, and exits with 1."""

from __future__ import annotations

import subprocess
import sys

from client_cli.cli import CLIENT_PACKAGES, missing_packages


def test_the_client_packages_are_here_for_the_tests() -> None:
    assert missing_packages() == [] and CLIENT_PACKAGES == ("rich", "prompt_toolkit")


def test_a_client_without_its_packages_says_what_to_install() -> None:
    # (a package that is nowhere stands for one pip install . left out)
    code = (
        "import client_cli.cli as cli;"
        " cli.CLIENT_PACKAGES = ('rich', 'no_such_package_here');"
        " raise SystemExit(cli.main(['games', '--server', 'ws://127.0.0.1:9']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1, done
    assert done.stderr == (
        "patience-race: the terminal client needs no_such_package_here, not installed here:"
        " pip install 'patience-race[client]' (in a checkout: pip install '.[client]')\n"
    )
    assert "Traceback" not in done.stderr
