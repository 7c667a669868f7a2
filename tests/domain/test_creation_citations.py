"""Every creation problem about custom content names the rulebook section behind the field it is
about, in every ruleset (docs/api.md: 'field: what is wrong [Section]'), and custom content of
any form is refused with problems, never an error of Parley's own.

Fields of each game's shipped content (and of the first and last item of each list) are given a
value of the wrong form in turn: every field two deep, and a spread sample of the deeper ones. The content's metadata (`id`, `game`, `edition`, `printed`, `notice`)
describes the file rather than the game, so no rulebook section stands behind it."""
from __future__ import annotations

import copy

import pytest

from domain.chance import ServerChance
from domain.registry import all_rulesets
from domain.ruleset import InvalidCreation
from tests.domain.creation import SEED, cited

RULESETS = all_rulesets()
CITED = cited("+#'")
METADATA = ("id", "game", "edition", "printed", "notice")
WRONG = ("zz", None)
SPREAD = 9


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list) and value:
        for i in sorted({0, len(value) - 1}):
            yield from _paths(value[i], (*path, i))


def _with(content: dict, path: tuple, value) -> dict:
    changed = copy.deepcopy(content)
    changed["id"] = "our-table"
    at = changed
    for part in path[:-1]:
        at = at[part]
    at[path[-1]] = value
    return changed


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_every_content_problem_cites_its_section(rid):
    ruleset = RULESETS[rid]
    players = [f"P{i}" for i in range(max(2, ruleset.min_players))]
    uncited, refused = [], 0
    paths = [p for p in _paths(ruleset.default_content) if p and p[0] not in METADATA]
    # Every field two deep, and every SPREADth one deeper: a Chrono creation with content of the
    # wrong form takes 0.3 s (the schema's errors are searched), and it has some 350 fields.
    for k, path in enumerate(p for i, p in enumerate(paths) if len(p) <= 2 or i % SPREAD == 0):
        for value in WRONG[k % 2:] if len(path) > 2 else WRONG:
            try:
                ruleset.setup(players, None, _with(ruleset.default_content, path, value), ServerChance(SEED, 0), None)
            except InvalidCreation as problem:
                refused += 1
                uncited += [(path, p) for p in problem.problems if not CITED.match(p)]
    assert refused > 20, refused  # the wrong values were refused, so the check above saw problems
    assert not uncited, uncited[:10]


def test_a_compass_rose_of_the_wrong_form_is_refused_not_an_error():
    """It was a TypeError (500) before: the printed check read the cell before its form was checked."""
    tesoros = RULESETS["tesoros-del-rey-pirata"]
    content = _with(tesoros.default_content, ("board", "compassRose", 0), [])
    with pytest.raises(InvalidCreation) as refused:
        tesoros.setup(["P0", "P1"], None, content, ServerChance(SEED, 0), None)
    assert any(p.startswith("content.board.compassRose.0: ") for p in refused.value.problems), refused.value.problems
