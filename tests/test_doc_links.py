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


def tree_blocks(tree: str) -> dict[str, str]:
    """Each folder of the architecture's tree (``server/app/domain/``), with the text of
    its own lines: its entry's and those indented under it, less its folders' lines."""
    blocks: dict[str, str] = {}
    path: list[tuple[int, str]] = []  # (indent, folder) of the entries around a line
    for line in tree.splitlines():
        found = re.match(r"^(\s*)([a-z_]+/)(\s|$)", line)
        indent = len(line) - len(line.lstrip())
        if found:
            while path and path[-1][0] >= indent:
                path.pop()
            path.append((indent, found.group(2)))
        elif line.strip() and path and indent <= path[-1][0]:
            while path and path[-1][0] >= indent:
                path.pop()
        if path:
            folder = "".join(name for _, name in path)
            blocks[folder] = blocks.get(folder, "") + line + "\n"
    return blocks


def test_the_architectures_tree_names_every_module_in_its_folder() -> None:
    """docs/architecture.md's tree of the code says what each module of server/app and
    server/protocol is, in its own folder's entry (ten were missing, among them
    ``moves.py``; a new developer found domain/devices.py, domain/names.py and five more
    missing, unseen while a module of the same name stood elsewhere in the tree)."""
    tree = (ROOT / "docs" / "architecture.md").read_text().split("```")[1]
    blocks = tree_blocks(tree)
    missing = []
    for top in ("server/app", "server/protocol"):
        for p in sorted((ROOT / top).rglob("*.py")):
            if p.name == "__init__.py" or "__pycache__" in p.parts:
                continue
            parts = p.relative_to(ROOT).parts
            # (a package two folders down, as store/keys/, is named whole in its folder's)
            folder, name = (
                ("/".join(parts[:3]) + "/", parts[3] + "/")
                if len(parts) > 4
                else (
                    "/".join(parts[:-1]) + "/",
                    p.name,
                )
            )
            named = re.search(rf"(?<![\w/]){re.escape(name)}", blocks.get(folder, ""))
            if not named and folder + name not in blocks:
                missing.append(str(p.relative_to(ROOT)))
    assert not missing, missing


def test_the_tree_blocks_are_read_by_folder() -> None:
    tree = "server/\n  app/   a.py\n         b.py\n    domain/  c.py\n  protocol/  d.py\n"
    blocks = tree_blocks(tree)
    assert "b.py" in blocks["server/app/"] and "c.py" in blocks["server/app/domain/"]
    assert "c.py" not in blocks["server/protocol/"] and "b.py" not in blocks["server/app/domain/"]
    assert "c.py" not in blocks["server/app/"]


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


#: a doc's section cited in code: ``docs/protocol.md, "review"`` (backticks around the path
#: or not)
SECTION_CITED = re.compile(r"([a-z_]+\.md)`{0,2}, \"([^\"]{2,60})\"")


def headings(doc: Path) -> list[str]:
    """A markdown file's headings, as read: no marks, no backticks, lower case."""
    return [
        line.lstrip("#").strip().replace("`", "").lower()
        for line in doc.read_text().splitlines()
        if line.startswith("#")
    ]


def test_every_section_the_code_cites_is_there() -> None:
    """A new developer followed ``docs/protocol.md, "review"`` from four modules and
    found no such heading (it is ``review``), and "The reset" nowhere."""
    bad = []
    cited = 0
    for top in ("server", "client_cli", "client_web/app", "tests", "bench", "deploy"):
        for source in sorted((ROOT / top).rglob("*")):
            if source.suffix not in (".py", ".js") or "node_modules" in source.parts:
                continue
            for doc, said in SECTION_CITED.findall(source.read_text()):
                # (a citation over two comment lines: their marks left out)
                words = [w for w in said.split() if w not in ("//", "#", "*", "#:")]
                section = " ".join(words).removesuffix("...").removesuffix("…")
                found = next((p for p in (ROOT / "docs").rglob(doc)), None)
                cited += 1
                if found is None or not any(h.startswith(section.lower()) for h in headings(found)):
                    bad.append(f"{source.relative_to(ROOT)}: {doc}, {section!r}")
    assert cited > 10
    assert not bad, bad
