"""Anonymous work is bounded (issue 15, item 3): custom content is refused, naming the field,
when any string or list in it is over its schema's maximum, and whatever its shape, when it
serializes to more than domain.kit.CONTENT_MAX_BYTES (docs/api.md, "Create a game")."""
from __future__ import annotations

import copy
import json

import pytest

from domain.kit import CONTENT_MAX_BYTES
from domain.registry import all_rulesets

PLAYERS = [{"name": "Anne"}, {"name": "Ben"}]
RULESETS = all_rulesets()


def _chrono() -> dict:
    return copy.deepcopy(RULESETS["chrono-corsairs"].default_content)


def test_a_chrono_notice_of_nearly_a_mebibyte_is_refused_422_naming_the_field(corsairs_client):
    content = _chrono()
    content["notice"] = "x" * (1000 * 1000)   # the whole body stays under the 1 MiB request cap
    response = corsairs_client.post("/games", json={"ruleset": "chrono-corsairs", "players": PLAYERS,
                                                    "content": content})
    assert response.status_code == 422, response.status_code
    body = response.get_json()
    assert body["code"] == "INVALID_GAME"
    assert any(p.startswith("content") and "notice" in p for p in body["problems"]), body["problems"]
    # the refusal names the limit, and does not echo the megabyte back
    assert len(response.data) < 4096, len(response.data)


def test_a_notice_within_its_maximum_is_still_accepted(corsairs_client):
    content = _chrono()
    content["notice"] = "Our own print-and-play cards. " * 60
    response = corsairs_client.post("/games", json={"ruleset": "chrono-corsairs", "players": PLAYERS,
                                                    "content": content})
    assert response.status_code == 201, response.get_json()


def _deep_effect(depth: int) -> dict:
    effect = {"op": "gain", "what": "doubloon", "n": 1}
    for _ in range(depth):
        effect = {"seq": [effect, {"op": "gain", "what": "doubloon", "n": 1}]}
    return effect


def test_content_over_the_total_byte_cap_is_refused_even_when_every_field_is_within_bounds(corsairs_client):
    content = _chrono()
    # Chrono's effects nest (seq within seq), so only a total cap bounds them: many plans each
    # with a long (but individually legal) name and nested effects.
    for plan in content["plans"]:
        plan["name"] = "n" * 100
        plan["effect"] = {"seq": [_deep_effect(5)] * 20}
    assert len(json.dumps(content, separators=(",", ":")).encode()) > CONTENT_MAX_BYTES
    response = corsairs_client.post("/games", json={"ruleset": "chrono-corsairs", "players": PLAYERS,
                                                    "content": content})
    assert response.status_code == 422, response.status_code
    problems = response.get_json()["problems"]
    assert any(p.startswith("content") and str(CONTENT_MAX_BYTES) in p for p in problems), problems


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_every_reference_content_is_well_under_the_cap(rid):
    size = len(json.dumps(RULESETS[rid].default_content, separators=(",", ":"), ensure_ascii=False).encode())
    assert size * 4 < CONTENT_MAX_BYTES, size


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_the_domain_refuses_oversized_content_too(rid):
    from domain.chance import ServerChance, new_seed
    from domain.ruleset import InvalidCreation
    content = copy.deepcopy(RULESETS[rid].default_content)
    content["notice"] = "x" * (CONTENT_MAX_BYTES + 1)
    with pytest.raises(InvalidCreation) as refused:
        RULESETS[rid].setup(["Anne", "Ben"], None, content, ServerChance(new_seed(), 0), None)
    assert any("content" in p and str(CONTENT_MAX_BYTES) in p for p in refused.value.problems), refused.value.problems
