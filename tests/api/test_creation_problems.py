"""A refused creation lists everything wrong at once, the request's form and the rules together,
and each problem names its field and, where the rulebook has one, the section it enforces."""
from __future__ import annotations

import copy

import pytest

from domain.chrono import RULESET as CHRONO
from domain.ruleset import cause


def refused(client, body: dict) -> dict:
    response = client.post("/games", json=body)
    assert response.status_code == 422, response.get_json()
    problem = response.get_json()
    assert problem["code"] == "INVALID_GAME"
    assert len(problem["causes"]) == len(problem["problems"])
    return problem


def test_a_form_problem_does_not_hide_a_rules_problem(corsairs_client):
    content = copy.deepcopy(CHRONO.default_content)
    content["forgoReward"] = 3  # the rulebook prints 1 [Phase 3]
    problem = refused(corsairs_client, {"ruleset": CHRONO.id, "players": [{"name": "Ann"}, {"name": "Bo"}],
                               "options": {"max_reward_places": 9}, "content": content})
    fields = {c["field"]: c for c in problem["causes"]}
    # the options' form, citing the option's section and ruling...
    assert (fields["options.max_reward_places"]["section"], fields["options.max_reward_places"]["ruling"]) == \
        ("Phase 4: Find Treasure", "CA-10")
    # ...and the printed number, at once, citing the rulebook's heading as the rules' rejections do
    assert (fields["content.forgoReward"]["section"], fields["content.forgoReward"]["ruling"]) == \
        ("Phase 3: Run the Loop", "CP-14")
    assert "1 Doubloon" in fields["content.forgoReward"]["detail"]


def test_players_options_and_content_form_are_all_listed(corsairs_client):
    content = copy.deepcopy(CHRONO.default_content)
    content["forgoReward"] = "one"
    problem = refused(corsairs_client, {"ruleset": CHRONO.id, "players": [{"name": f"P{i}"} for i in range(6)],
                               "options": {"no_such_option": True}, "content": content})
    assert [c["field"] for c in problem["causes"]][:1] == ["players"]
    assert {"options", "content.forgoReward"} <= {c["field"] for c in problem["causes"]}


def test_each_cause_is_the_problem_line_read_back(corsairs_client):
    problem = refused(corsairs_client, {"ruleset": "corsairs-of-valeria", "players": [{"name": "Ann"}],
                               "options": {"first_player": "nobody"}})
    for line, parts in zip(problem["problems"], problem["causes"], strict=True):
        assert parts == cause(line)
        assert parts["field"] and line.startswith(parts["field"] + ": ")


@pytest.mark.parametrize("line, parts", [
    ("content.monsters[the_deep]: an Area has 6 Monsters [BR p.4, p.16] (ZZ-25)",
     {"field": "content.monsters[the_deep]", "detail": "an Area has 6 Monsters [BR p.4, p.16] (ZZ-25)",
      "section": "BR p.4, p.16", "ruling": "ZZ-25"}),
    ("content: coins[captain_skull].skills: needs a value for each face",
     {"field": "content.coins[captain_skull].skills", "detail": "needs a value for each face"}),
    ("content.goods: '24 Goods Tokens' [CS Components] of 4 types [CS Goods Tokens]",
     {"field": "content.goods", "detail": "'24 Goods Tokens' [CS Components] of 4 types [CS Goods Tokens]",
      "section": "CS Components; CS Goods Tokens"}),
    ("a problem without a field", {"field": "", "detail": "a problem without a field"}),
    ("options.max_reward_places: 9 is not one of [3, 4]",  # a schema problem quotes a list: no section
     {"field": "options.max_reward_places", "detail": "9 is not one of [3, 4]"}),
    ("options.variant: ['solo', True] is not valid under any of the given schemas",
     {"field": "options.variant", "detail": "['solo', True] is not valid under any of the given schemas"}),
    # a card id (a Tesoros card's) may have a ruling id's shape: only the rulings cited in
    # parentheses are rulings
    ("setup.draw_off: 'ZZ-3' cannot have been drawn from there. [Starting the Game] (ZZ-5)",
     {"field": "setup.draw_off", "detail": "'ZZ-3' cannot have been drawn from there. [Starting the Game] (ZZ-5)",
      "section": "Starting the Game", "ruling": "ZZ-5"}),
    ("setup.hands: each card dealt is a different card (not one: 'ZZ-7') [Setup 3] (ZZ-40, ZZ-46)",
     {"field": "setup.hands", "detail": "each card dealt is a different card (not one: 'ZZ-7') [Setup 3] (ZZ-40, ZZ-46)",
      "section": "Setup 3", "ruling": "ZZ-40, ZZ-46"}),
])
def test_a_problem_line_is_read_into_its_parts(line, parts):
    assert cause(line) == parts


def test_valeria_lists_a_changed_printed_number_with_the_option_problems(corsairs_client):
    from domain.valeria import RULESET as VALERIA
    content = copy.deepcopy(VALERIA.default_content)
    content["starting_resources"]["gold"] = 3  # the rulebook prints 2 Gold [BR p.5]
    problem = refused(corsairs_client, {"ruleset": VALERIA.id, "players": [{"name": "Ann"}, {"name": "Bo"}],
                                        "options": {"variant": "solo", "edition": "second"}, "content": content})
    fields = {c["field"]: c for c in problem["causes"]}
    assert fields["content.starting_resources"]["section"] == "BR p.5"
    assert fields["options.variant"]["section"] == "BR p.16" and fields["options.variant"]["ruling"] == "VP-21"
    assert "options.edition" in fields


def test_valeria_content_missing_a_citizen_number_is_refused_with_the_options_checked(corsairs_client):
    from domain.valeria import RULESET as VALERIA
    content = copy.deepcopy(VALERIA.default_content)
    content["citizens"] = [c for c in content["citizens"] if c["activation"] != [1]]
    problem = refused(corsairs_client, {"ruleset": VALERIA.id, "players": [{"name": "Ann"}, {"name": "Bo"}],
                                        "options": {"first_player": 4}, "content": content})
    details = [c["detail"] for c in problem["causes"]]
    assert any("no Citizen type for activation 1" in d for d in details)
    assert any(c["field"] == "options.first_player" for c in problem["causes"])
