"""A Valeria legal-commands listing holds every way of every power waiting at once, so custom
content is bounded on what its powers could offer together (MOST_WAYS_AT_ONCE), not only one
power at a time (MOST_WAYS). A probe within MOST_WAYS alone reached 500,000 entries (56 MB,
18-25 s of CPU) in one harvest: 19 Domains of four harvest powers, twelve Citizens and both
Starters activated three times, every power of 5,000 ways. The same arrangement with powers
small enough to be accepted is played here to that harvest, and its listing stays within the
bound the content was accepted under."""
from __future__ import annotations

import copy
import re

import pytest

from domain.registry import all_rulesets
from domain.valeria.effects import MOST_WAYS
from domain.valeria.setup import MOST_WAYS_AT_ONCE, ways_at_once

REFERENCE = all_rulesets()["valeria-card-kingdoms"].default_content
TARGET, FINAL_DICE, QUIET_DICE = 0, [3, 3], [4, 5]   # (4, 5) activates no card anyone holds here
HEAVY_CITIZENS = ("cit_3", "cit_6")


def _may() -> dict:
    return {"may": {"may": {"wild": 1}}}                                    # 1 + 1 + 3 = 5 ways


def _power(big: bool) -> dict:
    if big:    # 5^4 x 8 = 5,000 ways: exactly MOST_WAYS
        return {"all": [_may(), _may(), _may(), _may(), {"choose": [{"wild": 1}, _may()]}]}
    return {"all": [_may(), {"choose": [{"wild": 1}, _may()]}]}             # 5 x 8 = 40 ways


def heavy_content(big: bool) -> dict:
    """Cost-0 Domains that each grant a build and a recruit and carry four harvest powers, the
    Citizens for 3 and 6 and both Starters (activated by 3 and 6) carrying the same power."""
    citizens = [{"id": f"cit_{'_'.join(map(str, slot))}", "name": f"Citizen {slot}", "activation": slot,
                 "cost": 0, "roles": [], "copies": 6,
                 **({"on_turn": _power(big), "off_turn": _power(big)} if slot in ([3], [6])
                    else {"on_turn": {"gain": {"gold": 1}}, "off_turn": {"gain": {"gold": 1}}})}
                for slot in ([1], [2], [3], [4], [5], [6], [7], [8], [9, 10], [11, 12])]
    grant = {"all": [{"gain": {"gold": 5}}, {"may": {"action": "build"}}, {"may": {"action": "recruit"}}]}
    domains = [{"id": f"dom_{k:02d}", "name": f"Domain {k}", "cost": 0, "roles": {}, "vp": 0,
                **({"immediate": grant, "ongoing": [{"when": "harvest", "effect": _power(big)} for _ in range(4)]}
                   if k < 19 else {})}
               for k in range(20)]
    starters = [{"id": f"st_{x}", "name": f"Starter {x}", "activation": [3, 6], "on_turn": _power(big),
                 "off_turn": _power(big)} for x in "ab"]
    return {"id": "heavy_listing", "game": "valeria-card-kingdoms", "edition": "first", "printed": False,
            "notice": "a test's content", "starters": starters, "starting_resources": REFERENCE["starting_resources"],
            "citizens": citizens, "monsters": REFERENCE["monsters"], "domains": domains, "dukes": REFERENCE["dukes"]}


def create(client, content: dict):
    dukes = [d["id"] for d in content["dukes"]]
    heavy = sorted(d["id"] for d in content["domains"] if d.get("ongoing"))
    return client.post("/games", json={
        "ruleset": "valeria-card-kingdoms", "players": [{"name": f"P{i}"} for i in range(5)], "chance": "table",
        "content": content, "setup": {"domains": heavy[:5], "dukes": [dukes[2 * i:2 * i + 2] for i in range(5)],
                                      "first_player": TARGET}})


def test_content_whose_powers_together_could_list_half_a_million_ways_is_refused(corsairs_client):
    content = heavy_content(big=True)
    assert ways_at_once(content, 5) > 100 * MOST_WAYS     # every power alone is within MOST_WAYS
    refused = create(corsairs_client, content)
    assert refused.status_code == 422
    (problem,) = refused.get_json()["problems"]
    assert problem.startswith("content: its powers could offer ") and f"more than {MOST_WAYS_AT_ONCE:,}" in problem


@pytest.mark.parametrize("rid", ["valeria-card-kingdoms", "crimson-seas"])
def test_the_reference_content_is_well_within_the_bound_at_every_player_count(rid):
    content = all_rulesets()[rid].default_content
    assert max(ways_at_once(content, n) for n in range(1, 6)) <= MOST_WAYS_AT_ONCE // 4


def test_the_worst_harvest_of_content_within_the_bound_lists_no_more_than_it(corsairs_client):
    """Seat 0 builds all 19 heavy Domains and recruits the twelve heavy Citizens (each Domain's
    reward grants a build and a recruit), then rolls double 3s: every power it holds waits."""
    content = heavy_content(big=False)
    bound = ways_at_once(content, 5)
    assert bound <= MOST_WAYS_AT_ONCE
    created = create(corsairs_client, content)
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    url, host = f"/games/{game['id']}", {"Authorization": f"Bearer {game['host_token']}"}
    heavy = sorted(d["id"] for d in content["domains"] if d.get("ongoing"))
    light = sorted(d["id"] for d in content["domains"] if not d.get("ongoing"))

    def state() -> dict:
        return corsairs_client.get(url, headers=host).get_json()["state"]

    def send(body: dict) -> None:
        answer = corsairs_client.post(f"{url}/commands", json=body, headers=host)
        if answer.status_code == 422 and answer.get_json()["code"] == "TABLE_OUTCOME_REQUIRED":
            needed = re.search(r"(\d+) (?:are|is) needed", answer.get_json()["detail"])
            pool = state()["domain_pool"]
            order = [d for d in heavy + light if d in pool]
            body = {**body, "revealed": order[:int(needed.group(1)) if needed else 1]}
            answer = corsairs_client.post(f"{url}/commands", json=body, headers=host)
        assert answer.status_code == 200, (body, answer.get_json())

    turns = 0
    for _ in range(2000):
        st = state()
        if st["phase"] == "harvest" and st["harvest"] and not (st["active"] == TARGET and turns >= 3):
            item = st["harvest"][0]
            choice = ["gold"] if "wild" in item["effect"] else [False, 0, "gold"]
            send({"type": "harvest", "item": item["id"], "choice": choice, "seat": item["seat"]})
            continue
        commands = corsairs_client.get(f"{url}/legal-commands", headers=host).get_json()["commands"]
        kinds = {c["type"] for c in commands}
        if "keep_duke" in kinds or "harvest" in kinds:
            send(commands[0])
        elif "roll_dice" in kinds:
            seat = commands[0]["seat"]
            turns += seat == TARGET
            send({"type": "roll_dice", "seat": seat, "dice": FINAL_DICE if seat == TARGET and turns >= 3 else QUIET_DICE})
        elif "announce_roll" in kinds:
            send(next(c for c in commands if c["type"] == "announce_roll"))
            if st["active"] == TARGET and turns >= 3:
                break
        else:
            me = st["seats"][TARGET]
            built = sum(d in heavy for d in me["domains"])
            recruited = sum(c.split("#")[0] in HEAVY_CITIZENS for c in me["citizens"])
            if "resolve" in kinds:
                want = [built + st["granted_actions"].count("build") < len(heavy),
                        recruited + st["granted_actions"].count("recruit") < 12]
                send(next((c for c in commands if c.get("choice") == want), commands[0]))
                continue
            builds = [c for c in commands if c["type"] == "build" and c.get("magic", 0) == 0
                      and st["domain_stacks"][c["stack"]]["up"] in heavy]
            recruits = [c for c in commands if c["type"] == "recruit" and c["stack"] in HEAVY_CITIZENS
                        and c.get("magic", 0) == 0]
            if st["active"] == TARGET and builds and built < len(heavy):
                send(builds[0])
            elif st["active"] == TARGET and recruits and recruited < 12:
                send(recruits[0])
            else:
                send(next(c for c in commands if c["type"] == "gain_resource"))
    else:
        pytest.fail("the game did not reach seat 0's third roll")
    st = state()
    me = st["seats"][TARGET]
    assert sum(d in heavy for d in me["domains"]) == 19
    assert sum(c.split("#")[0] in HEAVY_CITIZENS for c in me["citizens"]) == 12
    # every power seat 0 holds waits: 12 Citizens (the 3s twice), 2 Starters thrice, 76 Domain powers
    assert len([i for i in st["harvest"] if i["seat"] == TARGET]) == 100
    listed = corsairs_client.get(f"{url}/legal-commands", headers=host).get_json()["commands"]
    # each power's 40 ways come to 13 outcomes (nothing, one resource, or two in order), each listed
    # once (docs/api.md section 4): a 'may' declined at either level is the same move
    assert 100 * 13 <= len(listed) <= bound, len(listed)


def test_one_domain_reward_of_most_ways_is_not_counted_in_every_seat(corsairs_client):
    """A Domain's reward waits once, for the one seat that built it: the reference content with one
    reward of MOST_WAYS ways is within the bound at 5 players (counted in every seat, it was not)."""
    for rid in ("valeria-card-kingdoms", "crimson-seas"):
        content = copy.deepcopy(all_rulesets()[rid].default_content)
        content["domains"][0]["immediate"] = _power(big=True)
        assert MOST_WAYS <= ways_at_once(content, 5) <= MOST_WAYS_AT_ONCE
        players = [{"name": f"P{i}"} for i in range(5)]
        assert corsairs_client.post("/games", json={"ruleset": rid, "players": players, "content": content}
                                    ).status_code == 201


# -- the ways to pay: a listing past MOST_LISTED is refused, never cut short --------------------

def test_a_listing_past_the_most_is_refused_whole_and_the_command_is_still_judged(corsairs_client, monkeypatch):
    """Each way to pay is a command of its own, so content with high prices and many Tomes
    multiplies them (an outside audit listed 417,044: 33 MB, 64 MB in table mode, seconds of
    CPU). Past MOST_LISTED the listing is 422 TOO_MANY_COMMANDS for every reader, host included,
    and the commands themselves are judged as before. The bound is lowered here so that the
    reference content meets it."""
    from domain.valeria import legal
    created = corsairs_client.post("/games", json={"ruleset": "valeria-card-kingdoms",
                                                   "players": [{"name": "Kira"}, {"name": "Ben"}]}).get_json()
    game, host = f"/games/{created['id']}", {"Authorization": f"Bearer {created['host_token']}"}
    for _ in range(40):   # to an Action Phase, where every way to pay is listed
        listed = corsairs_client.get(f"{game}/legal-commands", headers=host).get_json()["commands"]
        if any(c["type"] in ("recruit", "build", "slay") for c in listed):
            break
        command = next((c for c in listed if c["type"] != "change_die"), listed[0])
        assert corsairs_client.post(f"{game}/commands", json=command, headers=host).status_code == 200
    purchases = [c for c in listed if c["type"] in ("recruit", "build", "slay")]
    assert purchases, listed
    monkeypatch.setattr(legal, "MOST_LISTED", 2)
    acting = purchases[0]["seat"]
    for token, refused in ((created["host_token"], True),
                           *((s["token"], s["seat"] == acting) for s in created["seats"])):
        answer = corsairs_client.get(f"{game}/legal-commands", headers={"Authorization": f"Bearer {token}"})
        if not refused:     # the seat not acting lists nothing: nothing to refuse
            assert answer.status_code == 200 and answer.get_json()["commands"] == [], answer.get_json()
            continue
        assert answer.status_code == 422 and answer.content_type == "application/problem+json", answer.get_json()
        problem = answer.get_json()
        assert problem["code"] == "TOO_MANY_COMMANDS" and "More than 2 commands" in problem["detail"], problem
    dry = corsairs_client.post(f"{game}/commands?dry_run=true", json=purchases[0], headers=host)
    assert dry.status_code == 200, dry.get_json()
    assert corsairs_client.post(f"{game}/commands", json=purchases[0], headers=host).status_code == 200


def test_a_granted_action_with_more_ways_than_a_listing_holds_is_not_taken_for_impossible(monkeypatch):
    """VP-6 lets a granted action lapse when there is no way to take it; the check asks the
    listing, and a listing refused as too long means there are ways (TooManyToList)."""
    from domain.ruleset import TooManyToList
    from domain.valeria import legal, rules
    from tests.domain.valeria.table import Table
    t = Table()
    t.to_actions()
    t.purse(0, gold=20)
    monkeypatch.setattr(legal, "MOST_LISTED", 1)
    with pytest.raises(TooManyToList):
        legal.legal_commands(t.state, t.state.active)
    assert rules._may_take(t.state, "recruit")
