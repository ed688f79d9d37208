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
