"""Anonymous work is bounded (issue 15, item 3): custom content is refused, naming the field,
when any string or list in it is over its schema's maximum, and whatever its shape, when it
serializes to more than domain.kit.CONTENT_MAX_BYTES (docs/api.md, "Create a game")."""
from __future__ import annotations

import copy
import json

import pytest

from domain import kit
from domain.chrono.setup import MOST_LAID_OUT, MOST_STEPS
from domain.kit import CONTENT_MAX_BYTES, CONTENT_MAX_CONTAINERS, CONTENT_MAX_DEPTH, content_shape
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


# -- depth, objects and arrays, steps, events (an adversarial probe, 2026-12-04) ---------------
# 127 KB of Chrono effects nested 27 deep took 26 s of CPU to validate; a `gain` of 10^6 Artifacts
# in an Anomaly hung a worker until gunicorn killed it; repeats nested 17 deep stored 310 KB a step.

def _create(client, content) -> tuple[int, dict]:
    response = client.post("/games", json={"ruleset": "chrono-corsairs", "players": PLAYERS, "content": content})
    return response.status_code, response.get_json()


def _nested(levels: int, leaf=None) -> dict:
    effect = leaf or {"op": "noEffect"}
    for _ in range(levels):
        effect = {"seq": [effect]}
    return effect


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_every_reference_content_is_within_the_depth_and_container_caps(rid):
    depth, containers = content_shape(RULESETS[rid].default_content)
    assert depth <= CONTENT_MAX_DEPTH - 5 and containers * 3 <= CONTENT_MAX_CONTAINERS, (depth, containers)


def test_content_nested_past_the_depth_cap_is_refused_on_its_shape_before_it_is_validated(corsairs_client):
    content = _chrono()
    content["plans"][0]["effect"] = _nested(12)    # a plan's effect sits 4 deep; a seq level is 2
    depth, _ = content_shape(content)
    assert depth > CONTENT_MAX_DEPTH
    status, body = _create(corsairs_client, content)
    assert status == 422, body
    assert body["problems"] == [f"content: nested {depth} deep; custom content may nest at most {CONTENT_MAX_DEPTH} "
                                "deep (objects and arrays within one another)"], body["problems"]


def test_content_with_too_many_objects_and_arrays_is_refused_on_its_shape(corsairs_client):
    content = _chrono()
    for plan in content["plans"][:10]:
        plan["effect"] = {"seq": [{"op": "noEffect"}] * 200}
    status, body = _create(corsairs_client, content)
    assert status == 422, body
    depth, containers = content_shape(content)
    assert containers > CONTENT_MAX_CONTAINERS and len(json.dumps(content)) < CONTENT_MAX_BYTES
    assert body["problems"] == [f"content: {containers} objects and arrays; custom content may hold at most "
                                f"{CONTENT_MAX_CONTAINERS}"], body["problems"]


@pytest.mark.parametrize("effect, steps", [
    ({"op": "gain", "artifacts": 1000000}, 1000001),
    ({"op": "advanceCube", "n": 10000000}, 10000001),    # a review: the cube loop ran 10^7 times at setup
    ({"op": "move", "piece": "pirate", "owner": "any", "steps": 100000, "to": {"not": "board"}}, 100001),
    (_nested(1, {"repeat": {"n": 10, "do": {"repeat": {"n": 10, "do": {"repeat": {"n": 10, "do": {"op": "noEffect"}}}}}}}),
     1 + 1 + 10 * (1 + 10 * (1 + 10))),
])
def test_an_effect_that_could_take_more_than_most_steps_is_refused_naming_it(corsairs_client, effect, steps):
    content = _chrono()
    content["anomalies"][0]["effects"]["OPENING"] = effect
    status, body = _create(corsairs_client, content)
    assert status == 422, body
    where = f"content.anomalies[{content['anomalies'][0]['id']}].OPENING"
    assert [p for p in body["problems"] if "steps" in p] == [
        f"{where}: this effect could take {steps:,} steps or more; custom content may take at most {MOST_STEPS:,} "
        "(a repeat counts its body n times, forEachSpace once a space, forEachPlayer five times, an Artifact "
        "gained or lost one each) [Phase 1: Destabilization and Anomalies]"], body["problems"]


def test_an_effect_of_a_thousand_steps_is_still_accepted(corsairs_client):
    content = _chrono()
    content["plans"][0]["effect"] = {"op": "gain", "artifacts": 999}   # the op and 999 draws
    status, body = _create(corsairs_client, content)
    assert status == 201, body


def test_a_command_past_max_events_is_refused_and_stores_nothing(corsairs_client, monkeypatch):
    """The backstop under the content bounds, shown with a lower cap: a Corsairs command whose
    events pass it is refused 422 TOO_MANY_EVENTS citing 'Parley: commands', and the game does
    not move."""
    created = corsairs_client.post("/games", json={"ruleset": "corsairs-of-valeria", "players": PLAYERS}).get_json()
    auth = {"Authorization": f"Bearer {created['host_token']}"}
    game = f"/games/{created['id']}"
    before = corsairs_client.get(game, headers=auth).get_json()["version"]
    monkeypatch.setattr(kit, "MAX_EVENTS", 0)
    response = corsairs_client.post(f"{game}/commands", json={"type": "roll_dice", "seat": 0}, headers=auth)
    assert response.status_code == 422, response.get_json()
    body = response.get_json()
    assert body["code"] == "TOO_MANY_EVENTS" and body["section"] == "Parley: commands", body
    monkeypatch.undo()
    assert corsairs_client.get(game, headers=auth).get_json()["version"] == before


def test_a_large_effect_repeated_is_refused_for_what_it_would_lay_out_at_every_step(corsairs_client):
    content = _chrono()
    bulky = {"op": "gain", "doubloons": 1, "note": [["x" * 90] * 20] * 15}   # parameters: bounded, but 28 KB
    content["anomalies"][0]["effects"]["OPENING"] = {"repeat": {"n": 10, "do": bulky}}
    status, body = _create(corsairs_client, content)
    assert status == 422, body
    where = f"content.anomalies[{content['anomalies'][0]['id']}].OPENING"
    laid = [p for p in body["problems"] if "lay out" in p]
    assert len(laid) == 1 and laid[0].startswith(f"{where}: this effect's ") and f"{MOST_LAID_OUT:,}" in laid[0], body
    content["anomalies"][0]["effects"]["OPENING"] = bulky   # once: 1 step of 28 KB
    status, body = _create(corsairs_client, content)
    assert status == 201, body
    # Like an outside audit's program: 3.7 KB repeated 10 times, 41 KB stored with every command
    # while it runs (the audit's stored 251 KB under the 256 KiB bound before Chrono 1.5.0): refused now.
    content["anomalies"][0]["effects"]["OPENING"] = {"repeat": {"n": 10, "do": {
        "op": "gain", "doubloons": 1, "note": [["x" * 90] * 20] * 2}}}
    status, body = _create(corsairs_client, content)
    assert status == 422 and any("lay out" in p for p in body["problems"]), body["problems"]
