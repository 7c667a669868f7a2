"""Every variant a rulebook prints is listed by GET /rulesets/{id}, with its section, and the
options it lists create a game with every player count it lists."""
from __future__ import annotations

import pytest

from domain.registry import all_rulesets

LISTED = [(r.id, v) for r in all_rulesets().values() for v in r.variants]


def test_the_printed_variants_are_listed(corsairs_client):
    names = {r["id"]: [v["name"] for v in corsairs_client.get(f"/rulesets/{r['id']}").get_json()["variants"]]
             for r in corsairs_client.get("/rulesets").get_json()["rulesets"]}
    assert names["tesoros-del-rey-pirata"] == ["The pact of the waves", "Scanning the horizon",
                                               "Chaos on the high seas"]


@pytest.mark.parametrize("ruleset_id, variant", LISTED, ids=[f"{r}:{v.name}" for r, v in LISTED])
def test_a_listed_variant_creates_a_game_with_each_player_count(corsairs_client, ruleset_id, variant):
    listed = next(v for v in corsairs_client.get(f"/rulesets/{ruleset_id}").get_json()["variants"]
                  if v["name"] == variant.name)
    assert listed["section"] and listed["section"] == str(variant.section)
    for n in range(variant.min_players, variant.max_players + 1):
        response = corsairs_client.post("/games", json={
            "ruleset": ruleset_id, "players": [{"name": f"Player {i + 1}"} for i in range(n)],
            "options": listed["options"]})
        assert response.status_code == 201, (n, response.get_json())
        options = corsairs_client.get(f"{response.headers['Location']}/export",
                                      headers={"Authorization": f"Bearer {response.get_json()['host_token']}"}
                                      ).get_json()["creation"]["options"]
        for key, value in listed["options"].items():
            assert options[key] == value
