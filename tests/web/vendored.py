"""The browser client's vendored msgpack library (``client_web/vendor/msgpack/``): the
published ES module build of ``@msgpack/msgpack`` (its ``dist.esm/``), committed so that
the server serves the browser client without npm, and what records it
(``vendored.json``: the package, the version and the integrity the lockfile names, and
each file's sha256).

To move to another version: change ``client_web/package.json``, run ``npm install`` in
``client_web/`` (the lockfile), then ``make vendor``, which runs this module: it copies
the build npm installed and records it.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WEB_ROOT = ROOT / "client_web"
PACKAGE = "@msgpack/msgpack"
LOCKFILE = WEB_ROOT / "package-lock.json"
#: where npm installs it (development only; ``make web``)
INSTALLED = WEB_ROOT / "node_modules" / PACKAGE
#: the folder of the package whose files are vendored, and which of them
BUILD, ENDING = "dist.esm", ".mjs"
VENDORED = WEB_ROOT / "vendor" / "msgpack"
RECORD = VENDORED / "vendored.json"
#: the files of the vendored folder that are not the package's
OWN = {"vendored.json", "README.md"}


def locked() -> dict[str, str]:
    """The version and integrity (the published tarball's hash) the lockfile names."""
    lock = json.loads(LOCKFILE.read_text())
    entry = lock["packages"][f"node_modules/{PACKAGE}"]
    return {"version": entry["version"], "integrity": entry["integrity"]}


def record() -> dict[str, Any]:
    """What ``vendored.json`` says."""
    found: dict[str, Any] = json.loads(RECORD.read_text())
    return found


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def package_files(package: Path) -> dict[str, Path]:
    """The files of an installed package that are vendored, by their name in the vendored
    folder: its build's modules (``utils/int.mjs``) and its licence."""
    build = package / BUILD
    files = {p.relative_to(build).as_posix(): p for p in sorted(build.rglob(f"*{ENDING}"))}
    files["LICENSE"] = package / "LICENSE"
    return files


def vendored_files() -> dict[str, Path]:
    """The vendored folder's files that came from the package."""
    return {
        p.relative_to(VENDORED).as_posix(): p
        for p in sorted(VENDORED.rglob("*"))
        if p.is_file() and p.relative_to(VENDORED).as_posix() not in OWN
    }


def refresh() -> None:
    """Vendor the version npm installed, which must be the lockfile's."""
    lock = locked()
    installed = json.loads((INSTALLED / "package.json").read_text())["version"]
    if installed != lock["version"]:
        sys.exit(f"{PACKAGE} {installed} is installed, the lockfile names {lock['version']}")
    for name in vendored_files():
        (VENDORED / name).unlink()
    sums = {}
    for name, source in package_files(INSTALLED).items():
        target = VENDORED / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        sums[name] = sha256(target)
    note = {"package": PACKAGE, **lock, "from": f"{BUILD}/", "sha256": sums}
    RECORD.write_text(json.dumps(note, indent=2) + "\n")
    print(f"vendored {PACKAGE} {lock['version']}: {len(sums)} files in {VENDORED}")


if __name__ == "__main__":
    refresh()
