"""docs/rulings.md can be navigated and says truly where each ruling lives (issue 14, part 6).

scripts/rulings_index.py writes the document's contents, its index of ids and, under every
ruling heading, where the code enforces and tests the ruling (from the ids the code cites).
These tests fail when the code cites an id the document does not have, when two rulings
share an id, when a ruling is neither cited, an option nor marked documentation only, and
when the generated parts are out of date: then run `python scripts/rulings_index.py`.

This file is not scanned for citations (rulings_index.NOT_CITATIONS): the ids below are about
the document, not rules the tests check.
"""
from __future__ import annotations

import collections
import difflib
import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rulings.md"


def _load():
    spec = importlib.util.spec_from_file_location("rulings_index", ROOT / "scripts" / "rulings_index.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


ri = _load()

# Rulings that no file of domain/, service/, disputes/ or tests/ names, that no creation option
# changes and that are not documentation only, as found when the index was first generated
# (issue 14). Most are enforced by code that does not cite them. The list may only shrink: cite
# the id where the ruling is enforced or tested (then take it out of this list), or, if no
# program could check it, mark it `- **Documentation only:** <why>` under its heading.
KNOWN_UNCITED = set("""
    CV-A5 CV-A7 CV-A11 CV-A18 CV-A19 CV-A24 CV-A26 CV-A31 CV-A33 CV-A38 CV-A39
    CV-A40 CV-A41 CV-A44 CV-A47 CV-P1 CV-P2 CV-P3 CV-P5 CV-P6 CV-P9 CV-P10 CV-P11
    CV-P12 CV-P15
    LP-A7 LP-A16 LP-A25 LP-A35 LP-P9
    TA-10 TA-20 TA-21 TA-28 TA-33 TA-38 TA-41 TA-42 TA-45 TA-46 TA-47
    TA-48 TA-49 TA-50 TA-51 TA-55 TP-1 TP-5 TP-7 TP-8 TP-9 TP-10
    CA-8 CA-14 CA-22 CA-26 CA-29 CA-31 CA-32 CA-35 CA-36 CA-39 CA-40 CA-41 CA-44
    CP-5 CP-6 CP-7 CP-8 CP-9 CP-11 CP-13
    VA-1 VA-3 VA-5 VA-7 VA-16 VA-20 VA-21 VA-28 VA-30 VA-33 VP-3 VP-5
    VP-16
""".split())  # noqa: SIM905 (a block of ids reads better than a list of strings)


@pytest.fixture(scope="module")
def result():
    return ri.build(ROOT)


@pytest.fixture(scope="module")
def doc():
    return DOC.read_text(encoding="utf-8")


def _heading_ids(text):
    return [m.group(1) for m in map(ri.RULING_HEADING.match, text.splitlines()) if m]


def test_the_generated_parts_are_up_to_date(result, doc):
    if result.text != doc:
        diff = "".join(list(difflib.unified_diff(doc.splitlines(True), result.text.splitlines(True),
                                                 "docs/rulings.md", "generated"))[:60])
        pytest.fail("docs/rulings.md is out of date: run python scripts/rulings_index.py\n" + diff)


def test_the_generator_changes_nothing_the_second_time(result):
    assert ri.build(ROOT, result.text).text == result.text


def test_ruling_ids_are_unique(doc):
    twice = [rid for rid, n in collections.Counter(_heading_ids(doc)).items() if n > 1]
    assert twice == []


def test_every_id_the_code_cites_is_a_ruling_heading(result, doc):
    headings = set(_heading_ids(doc))
    missing = sorted(f"{c.path}:{c.line}: {c.rid}" for c in result.cites if c.rid not in headings)
    assert missing == []


def test_nothing_that_looks_like_a_ruling_id_is_misspelt(result):
    assert [f"{c.path}:{c.line}: {c.rid!r}" for c in result.near] == []


def test_the_generator_finds_no_problem(result):
    assert result.problems == []


def test_every_ruling_is_cited_an_option_or_documentation_only(result):
    uncited = {r.rid for r in result.rulings
               if not (r.enforced or r.tested or r.options or r.doc_only is not None)}
    assert sorted(uncited - KNOWN_UNCITED, key=ri.id_key) == [], (
        "cite these rulings where the code enforces or tests them, or mark them documentation only")
    assert sorted(KNOWN_UNCITED - uncited, key=ri.id_key) == [], (
        "these rulings are cited, an option or documentation only now: take them out of KNOWN_UNCITED")


def test_every_ruling_says_where_it_lives_right_under_its_heading(doc):
    lines = doc.splitlines()
    bare = [line for i, line in enumerate(lines)
            if ri.RULING_HEADING.match(line) and not ri.STATUS_LINE.match(lines[i + 1])]
    assert bare == []


def test_every_link_inside_the_document_leads_to_a_heading(doc):
    lines = doc.splitlines()
    anchors = {anchor for _i, _level, _text, anchor in ri._anchors(ri._headings(lines))}
    broken = sorted({a for a in re.findall(r"\]\(#([^)]+)\)", doc) if a not in anchors})
    assert broken == []


def test_the_index_lists_every_ruling_once_in_the_order_of_the_document(doc):
    index = doc[doc.index(ri.START_INDEX):doc.index(ri.END_INDEX)]
    listed = re.findall(r"^\| \[([A-Z]{2}-[A-Z]?\d+)\]\(#", index, flags=re.M)
    assert listed == _heading_ids(doc)


def test_the_introduction_names_every_ruleset_served(doc):
    from domain.registry import all_rulesets

    intro = doc[:doc.index(ri.START_CONTENTS)]
    assert [rid for rid in all_rulesets() if f"`{rid}`" not in intro] == []


def _service_sections(root=ROOT) -> dict[str, set[str]]:
    """Each section of Parley's own (`Section("Parley: ...")` in domain/, service/, disputes/),
    with the refusal codes raised citing it (`Rejected("CODE", NAME` or `super().__init__("CODE", NAME`)."""
    sources = [p.read_text(encoding="utf-8") for d in ("domain", "service", "disputes")
               for p in sorted((root / d).rglob("*.py"))]
    names = {m.group(1): m.group(2) for text in sources
             for m in re.finditer(r'^(\w+) = Section\("(Parley: [^"]+)"\)', text, re.M)}
    codes: dict[str, set[str]] = {section: set() for section in names.values()}
    for text in sources:
        for m in re.finditer(r'(?:Rejected|__init__)\(\s*"([A-Z_]+)",\s*(\w+)\b', text):
            if m.group(2) in names:
                codes[names[m.group(2)]].add(m.group(1))
    return codes


def test_every_section_of_parleys_own_is_a_heading_that_names_its_refusals(doc):
    """A refusal citing "Parley: chance" or "Parley: commands" is findable: the document has
    that heading, and the section under it names every code raised citing it."""
    sections = _service_sections()
    assert {"Parley: commands", "Parley: chance", "Parley: table mode"} <= set(sections)
    assert all(codes for codes in sections.values())
    for section, codes in sections.items():
        heading = f"\n## {section}\n"
        assert heading in doc, f"docs/rulings.md has no heading '## {section}'"
        body = doc.split(heading, 1)[1].split("\n## ", 1)[0]
        assert sorted(c for c in codes if f"`{c}`" not in body) == [], section


# --- the checks can fail ------------------------------------------------------------------

def _tree(tmp_path, doc_text, code):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rulings.md").write_text(doc_text, encoding="utf-8")
    (tmp_path / "domain").mkdir()
    (tmp_path / "domain" / "rules.py").write_text(code, encoding="utf-8")
    return ri.build(tmp_path)


def test_a_cited_id_without_a_heading_is_a_problem(tmp_path, doc):
    found = _tree(tmp_path, doc, 'def attack():\n    raise Rejected("X", "S", "m", ruling="CV-A99")\n')
    assert [(c.rid, c.where) for c in found.cites] == [("CV-A99", "attack")]
    assert any("cites CV-A99, which has no heading" in p for p in found.problems)


def test_a_deleted_heading_leaves_its_citations_without_a_ruling(tmp_path, doc):
    text = re.sub(r"^### CV-A25 — .*$", "", doc, flags=re.M)
    found = _tree(tmp_path, text, "LIMIT = 1  # CV-A25\n")
    assert any("cites CV-A25, which has no heading" in p for p in found.problems)


def test_a_repeated_id_and_a_misspelt_citation_are_problems(tmp_path, doc):
    text = doc.replace("### CV-A2 — Faces of the dice", "### CV-A1 — Faces of the dice")
    found = _tree(tmp_path, text, "# as CVA25 and TA_27 say\n")
    assert any("CV-A1 is the id of two rulings" in p for p in found.problems)
    assert sorted(c.rid for c in found.near) == ["CVA25", "TA_27"]


def test_a_tesoros_card_named_like_a_chrono_ruling_is_not_a_citation(tmp_path):
    (tmp_path / "tests" / "domain" / "tesoros").mkdir(parents=True)
    (tmp_path / "tests" / "domain" / "tesoros" / "test_x.py").write_text('def test_x():\n    equip("CP-9")\n')
    found = _tree(tmp_path, "# Rulings\n\n## Chrono Corsairs\n\n### CP-4 — Stopping\n- **Ruling.** Yes.\n",
                  "# CP-4: stop\n")
    assert [c.rid for c in found.cites] == ["CP-4"] and found.problems == []
