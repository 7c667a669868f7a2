"""Player names follow a real profile (issue 15, item 4): PRECIS Nickname (RFC 8266).

A name with no visible character is a 400 that says so; names are stored as enforced (NFC
and more); names in any script, and emoji, are taken; two players may not share a nickname.
"""
from __future__ import annotations

import pytest

PROBLEM = "application/problem+json"


def create(client, *names: str):
    return client.post("/games", json={"ruleset": "hidden-hoard",
                                       "players": [{"name": n} for n in names]})


INVISIBLE = {
    "zero-width joiner": "\u200d",
    "zero-width non-joiner": "\u200c",
    "Hangul filler U+3164": "\u3164",
    "halfwidth Hangul filler U+FFA0": "\uffa0",
    "Hangul choseong filler U+115F": "\u115f",
    "soft hyphen": "\u00ad",
    "tag characters": "\U000E0041\U000E0042\U000E0043",
    "variation selector 16": "\ufe0f",
    "a lone combining acute": "\u0301",
    "only spaces": "   ",
    "no-break space": "\u00a0",
    "ideographic space": "\u3000",
    "Braille blank": "\u2800",
    "mixed invisibles": "\u200d\u00ad\u3164\ufe0f",
}


@pytest.mark.parametrize("label", list(INVISIBLE))
def test_a_name_with_no_visible_character_is_a_400_that_says_so(client, label):
    response = create(client, "Kira", INVISIBLE[label])
    assert response.status_code == 400, (label, response.get_json())
    assert response.content_type == PROBLEM
    body = response.get_json()
    assert body["code"] == "MALFORMED_REQUEST"
    assert body["detail"] == "Player 2's name has no visible character.", body
    assert body["errors"] == {"players": {"1": {"name": ["This name has no visible character."]}}}


def test_nothing_is_stored_when_a_name_is_refused(app, client):
    create(client, "\u3164", "Kira")
    assert client.get("/games").get_json()["games"] == []


@pytest.mark.parametrize("name, why", [
    ("Ki\u200dra", "U+200D ZERO WIDTH JOINER"),       # a joiner between letters, not emoji
    ("Kira\u00ad", "U+00AD SOFT HYPHEN"),
    ("Kira\U000E0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
    ("Kira\U0010FFFE", "U+10FFFE unassigned"),
    ("Kira\u3164", "U+1160 HANGUL JUNGSEONG FILLER"),    # NFKC maps U+3164 to U+1160
    ("Kira\U000F0000", "U+F0000 private use"),
    ("\u2122\u200d\u2620", "a joiner outside an emoji sequence"),  # NFKC: the symbol becomes TM
])
def test_a_name_holding_what_a_nickname_may_not_is_a_400_naming_the_character(client, name, why):
    response = create(client, name, "David")
    assert response.status_code == 400, response.get_json()
    detail = response.get_json()["detail"]
    assert detail.startswith("Player 1's name is not a valid nickname (RFC 8266): "), detail
    assert why in detail


@pytest.mark.parametrize("sent, stored", [
    ("Jose\u0301", "Jos\u00e9"),             # NFC: e + combining acute is é
    ("  Kira  ", "Kira"),                    # trimmed
    ("Anne  Marie", "Anne Marie"),           # inner runs of spaces become one
    ("Ana\u00a0Lu\u3000", "Ana Lu"),         # every space is U+0020
    ("\uff2b\uff49\uff52\uff41", "Kira"),    # fullwidth letters: NFKC
    ("D\u00e1vid", "D\u00e1vid"),            # case is kept: it is shown
    ("\u00b2\u2bd2S", "2\u2bd2S"),            # a symbol the service uses internally stays itself
])
def test_names_are_stored_as_the_nickname_profile_enforces_them(app, client, sent, stored):
    response = create(client, sent, "Someone")
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["seats"][0]["name"] == stored
    game = app.extensions["parley"].get_game(response.get_json()["id"])
    assert list(game.seats) == [stored, "Someone"]


@pytest.mark.parametrize("names", [
    ("Kira", "David"),                                   # Latin
    ("Zo\u00eb", "Bj\u00f6rn", "\u0141ucja"),            # accented Latin
    ("\u039a\u03af\u03c1\u03b1", "\u0394\u03b1\u03b2\u03af\u03b4"),  # Greek
    ("\u5f20\u4f1f", "\u5c71\u7530"),                    # CJK
    ("\u0645\u062d\u0645\u062f", "\u05d3\u05d5\u05d3"),  # Arabic, Hebrew
    ("\ud55c\uad6d", "\u0939\u093f\u0928\u094d\u0926\u0940"),  # Hangul syllables, Devanagari
    ("\U0001F600", "Kira \U0001F3F4\u200d\u2620\ufe0f"),  # emoji, and a pirate flag (ZWJ sequence)
    ("\U0001F469\U0001F3FD\u200d\U0001F4BB", "\U0001F44D\U0001F3FD"),  # skin tones
])
def test_names_in_any_script_and_emoji_are_taken(client, names):
    response = create(client, *names)
    assert response.status_code == 201, response.get_json()
    assert [s["name"] for s in response.get_json()["seats"]] == list(names)


def test_a_name_is_1_to_64_characters(client):
    assert create(client, "K", "D").status_code == 201
    assert create(client, "K" * 64, "D").status_code == 201
    assert create(client, "K" * 65, "D").status_code == 400
    empty = create(client, "", "D")
    assert empty.status_code == 400
    # told its length only: an empty name holds no forbidden character
    assert empty.get_json()["errors"]["players"]["0"]["name"] == ["Length must be between 1 and 64."]


def test_a_name_that_normalization_lengthens_past_64_is_a_400(client):
    # U+FDFA is one character; NFKC spells it out in 18.
    response = create(client, "\ufdfa" * 4, "David")
    assert response.status_code == 400
    assert response.get_json()["detail"] == ("Player 1's name is 72 characters once normalized; "
                                             "at most 64.")


@pytest.mark.parametrize("names", [("Kira", "KIRA"), ("Kira", " kira "), ("Kira", "\uff2b\uff49\uff52\uff41"),
                                   ("Jos\u00e9", "JOSE\u0301")])
def test_two_players_may_not_share_a_nickname(client, names):
    response = create(client, *names)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["detail"] == "Player 2's name is the same nickname as player 1's."


def test_every_refused_name_is_listed(client):
    response = create(client, "\u200d", "Kira", "kira")
    body = response.get_json()
    assert response.status_code == 400
    assert body["detail"] == ("Player 1's name has no visible character. "
                              "Player 3's name is the same nickname as player 2's.")
    assert set(body["errors"]["players"]) == {"0", "2"}
