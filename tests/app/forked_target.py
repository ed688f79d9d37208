"""What a forked process sees of itself, for ``tests/test_forked.py``: it prints its
arguments, one variable of its environment, its working folder, whether its standard
streams are a terminal and the terminal's size, then exits with the status asked for
(or waits for a signal)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys


def main() -> int:
    said = {
        "argv": sys.argv,
        "probe": os.environ.get("FORKED_PROBE"),
        "others": sorted(k for k in os.environ if k.startswith("PYTEST")),
        "cwd": os.getcwd(),
        "tty": sys.stdout.isatty(),
        "size": list(shutil.get_terminal_size((0, 0))) if sys.stdout.isatty() else None,
        "pid": os.getpid(),
        "session": os.getsid(0) == os.getpid(),
    }
    print(json.dumps(said), flush=True)
    if "--wait" in sys.argv:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(7))
        print("waiting", flush=True)
        signal.pause()
    if "--line" in sys.argv:
        print("typed:", input(), flush=True)
    return int(os.environ.get("FORKED_EXIT", "0"))


if __name__ == "__main__":
    sys.exit(main())
