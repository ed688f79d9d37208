"""Every link between the project's Markdown pages leads somewhere: the file exists, and
the anchor after ``#`` is one of its headings as GitHub names them (server.md linked to
``protocol.md#error-codes`` for a section called "Errors")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted(
    p
    for p in [ROOT / "README.md", *ROOT.glob("docs/**/*.md"), *ROOT.glob("deploy/**/*.md")]
    if "node_modules" not in p.parts
)
LINK = re.compile(r"\]\(([^)\s]*?)(?:#([^)\s]+))?\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives ``page``'s headings (lower case, punctuation dropped,
    spaces to hyphens, a repeated one numbered), and any ``id``/``name`` set by hand."""
    text = FENCE.sub("", page.read_text())
    seen: dict[str, int] = {}
    found = set(re.findall(r"""<a (?:name|id)=["']([^"']+)["']""", text))
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", text, re.M):
        plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
        slug = re.sub(r"[^\w\- ]", "", plain.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_somewhere(page: Path) -> None:
    broken = []
    for target, anchor in LINK.findall(FENCE.sub("", page.read_text())):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        goes_to = (page.parent / target).resolve() if target else page
        if not goes_to.exists():
            broken.append(f"{target}: no such file")
        elif anchor and goes_to.suffix == ".md" and anchor not in anchors(goes_to):
            broken.append(f"{target}#{anchor}: no such heading")
    assert not broken, broken


def test_the_readmes_layout_names_every_page_in_docs() -> None:
    """The README's code layout says what each of docs/'s pages is (it named five of
    twelve)."""
    layout = (ROOT / "README.md").read_text().split("\ndocs/ ", 1)[1].split("```", 1)[0]
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert page.name in layout, page.name


def test_web_md_says_what_each_browser_module_is() -> None:
    """docs/web.md's table of the browser client's modules has a row for each of
    ``client_web/app/`` (five were missing)."""
    text = (ROOT / "docs" / "web.md").read_text()
    rows = set(re.findall(r"^\| `app/([a-z_]+\.js)` \|", text, re.M))
    modules = {p.name for p in (ROOT / "client_web" / "app").glob("*.js")}
    assert modules <= rows, sorted(modules - rows)


def test_the_architectures_tree_names_every_module_of_the_app() -> None:
    """docs/architecture.md's tree of the code says what each module of server/app is
    (ten were missing, among them ``moves.py``, the move path its walk begins with)."""
    tree = (ROOT / "docs" / "architecture.md").read_text().split("```")[1]
    modules = [
        p
        for p in sorted((ROOT / "server" / "app").rglob("*.py"))
        if p.name != "__init__.py" and "__pycache__" not in p.parts
    ]
    missing = [str(p.relative_to(ROOT)) for p in modules if p.name not in tree]
    assert not missing, missing


def test_the_logs_section_names_everything_that_can_fail() -> None:
    """docs/server.md's Logs section names every ``<what>`` of a ``<what> failed`` line
    the server can write (``closing the weekly leagues`` and a dozen more were not)."""
    text = " ".join((ROOT / "docs" / "server.md").read_text().split())
    said = text.split("`<what>` is one of:")[1].split("Besides these JSON lines")[0]
    names = set()
    for source in (ROOT / "server" / "app").rglob("*.py"):
        code = source.read_text()
        names |= set(re.findall(r"\.failed\(\s*\"([^\"]+)\"", code))
        names |= set(re.findall(r"Periodic\(\s*\"([^\"]+)\"", code))
    assert len(names) > 25
    missing = sorted(name for name in names if f"`{name}`" not in said)
    assert not missing, missing


def test_the_logs_section_names_every_logger() -> None:
    """docs/server.md's ``logger`` field names every logger the server writes with
    (``patience.bus``, whose lines an operator sees when Redis goes away, was not)."""
    text = (ROOT / "docs" / "server.md").read_text()
    [row] = [line for line in text.splitlines() if line.startswith("| `logger` |")]
    loggers = set()
    for source in (ROOT / "server").rglob("*.py"):
        loggers |= set(re.findall(r"getLogger\(\"(patience\.[a-z]+)\"\)", source.read_text()))
    assert len(loggers) >= 7
    missing = sorted(name for name in loggers if f"`{name}`" not in row)
    assert not missing, missing
