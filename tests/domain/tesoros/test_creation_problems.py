"""Los Tesoros del Rey Pirata at creation: content keeps what the rulebook prints (TP-12), a
refusal lists every problem at once, each citing its rulebook section, and variants that cannot
apply together are refused (TP-13, TP-14)."""
import re

import pytest

from domain.chance import ServerChance, TableChance
from domain.ruleset import InvalidCreation
from domain.tesoros import RULESET as R
from tests.domain.creation import SEED, Creation, cited

_CREATION = Creation(R, ("Ana", "Diego"))
content, problems, created = _CREATION.content, _CREATION.problems, _CREATION.created
CITED = cited()


def card(cid):
    return lambda c: next(x for x in c["playCards"] if x["id"] == cid)


def every(subtype, die, to):
    def change(c):
        for x in c["playCards"]:
            if x["subtype"] == subtype and x["die"] == die:
                x["die"] = to
    return change


def treason_as_protection(c):
    card("MUT-3")(c).update(kind="protection", subtype="walk_the_plank", name="Walk the Plank")


PRINTED = [
    # change, field, what the rulebook prints, section
    (lambda c: c.update(handSize=6), "content.handSize", "5 cards dealt to each player, not 6", "[Setup 3]"),
    (lambda c: c.update(handLimit=7), "content.handLimit", "a hand limit of 8 cards, not 7", "[Player Turn]"),
    (lambda c: c.update(openMaps=4), "content.openMaps", "3 Map Cards revealed, not 4", "[Setup 5]"),
    (lambda c: c.update(playCards=c["playCards"][1:]), "content.playCards", "42 cards", "[Contents]"),
    (lambda c: c.update(maps=c["maps"][1:]), "content.maps", "12 Map cards, not 11", "[Contents]"),
    (treason_as_protection, "content.playCards", "12 Treason, 8 Protection", "[Contents]"),
    (lambda c: card("SMOOTH-a")(c).update(die=5), "content.playCards.38.die",
     "Smooth Sailing as a die with a 6, not 5", "[Cards with Dice]"),
    (lambda c: card("FAVOR-b")(c).update(die=6), "content.playCards.41.die",
     "Pirate King's Favor as a die with a 7, not 6", "[Cards with Dice]"),
    (lambda c: card("SIREN-a")(c).update(die=2), "content.playCards.36.die", "Siren's Song as a die with a 1",
     "[Cards with Dice]"),
    (lambda c: card("MS-2")(c).update(name="Cutlasses"), "content.playCards.20.name",
     '"Machetes & Swords", not "Cutlasses"', "[Contents]"),
    (every("sabotage", 3, 4), "content.playCards", "a Sabotage card printed with a 3",
     "[Treason and Protection Cards]"),
    (every("walk_the_plank", 1, 4), "content.playCards", "a Walk the Plank card printed with a 1",
     "[Treason and Protection Cards]"),
    (every("mutiny", 6, 4), "content.playCards", "a Mutiny card printed with a 6", "[Treason and Protection Cards]"),
    (every("mutiny", 2, 4), "content.playCards", "a Mutiny card printed with a 2", "[Example of Play]"),
    (lambda c: c["treasureTypes"][0].update(name="Doubloons"), "content.treasureTypes.0.name",
     'Treasure "Gold", not "Doubloons"', "[Claim Treasure]"),
    (lambda c: c["events"][1].update(name="Tempest"), "content.events", "missing: Storm", "[Event Cards]"),
    (lambda c: c.update(colors=["brown", "white", "grey", "red"]), "content.colors",
     "Ships are brown, white, grey, black", "[Fire Cannons and Challenge to Duel]"),
    (lambda c: c["board"]["islands"][0].update(name="Isla Nueva"), "content.board.islands",
     "missing: Tortuga Island", "[Example of Play]"),
    (lambda c: c["board"].update(compassRose=[5, 6]), "content.board.compassRose",
     "in the center of the Board, not at [5, 6] of a 13 x 13 board", "[Setup 5]"),
]


@pytest.mark.parametrize(("change", "field", "printed", "section"), PRINTED,
                         ids=[f"{p[1]}-{i}" for i, p in enumerate(PRINTED)])
def test_content_that_changes_what_the_rulebook_prints_is_refused_naming_it(change, field, printed, section):
    found = problems(custom=content(change))
    named = [p for p in found if p.startswith(f"{field}: ") and printed in p]
    assert len(named) == 1, found
    assert re.search(re.escape(section) + r" \((TP-12|TA-32|TA-34)\)$", named[0]), named[0]


def test_what_the_rulebook_does_not_print_stays_free():
    # the die of a card that is not a Die card, the Victory Points, a Blank Event card of one's own
    free = content(lambda c: (card("MS-2")(c).update(die=7), c["treasureTypes"][0].update(vpByCount=[0, 4, 8, 12]),
                              c["events"].append({"id": "kraken", "name": "The Kraken", "effect": "storm"})))
    assert created(custom=free)[1]["count"] == 6


def test_a_creation_with_several_things_wrong_lists_them_all_at_once_each_cited():
    found = problems(options={"sudden_death_max_turns": 0, "first_player": 3, "scanning_the_horizon": True,
                              "chaos_on_the_high_seas": True},
                     custom=content(lambda c: card("SMOOTH-a")(c).update(die=5)), chance=TableChance(),
                     table_setup={"hands": [["MUT-2a"] * 5, ["NOPE"] * 5], "maps": ["MAP-tortuga"] * 3})
    fields = [p.split(": ", 1)[0] for p in found]
    assert fields == ["options.sudden_death_max_turns", "options.first_player", "options.chaos_on_the_high_seas",
                      "content.playCards.38.die", "setup.hands", "setup.maps"], found
    assert all(CITED.match(p) for p in found), found


def test_scanning_the_horizon_with_chaos_on_the_high_seas_is_refused_citing_the_variants():
    """[Variants] The pact of the waves "may be combined with the next two"; the next two are not
    combined with each other (TP-13)."""
    for chance, setup in ((ServerChance(SEED, 0), None), (TableChance(), {"hands": [[], []], "maps": []})):
        found = problems(options={"scanning_the_horizon": True, "chaos_on_the_high_seas": True},
                         chance=chance, table_setup=setup)
        assert any(p.startswith("options.chaos_on_the_high_seas: cannot be played with scanning_the_horizon")
                   and p.endswith("[Variants] (TP-13)") for p in found), found
    # each of them with the pact is printed, and accepted
    created(options={"pact_of_the_waves": 3, "scanning_the_horizon": True})
    created(options={"pact_of_the_waves": 3, "chaos_on_the_high_seas": True})


@pytest.mark.parametrize("variant", ["scanning_the_horizon", "chaos_on_the_high_seas"])
def test_scanning_or_chaos_with_no_event_card_is_refused(variant):
    found = problems(options={"pact_of_the_waves": 0, variant: True})
    assert found == [f"options.{variant}: with pact_of_the_waves 0 there is no Event card "
                     f"{'to turn face up' if variant == 'scanning_the_horizon' else 'to shuffle in'} [Variants] (TP-14)"]
    created(options={"pact_of_the_waves": 0})


def test_at_a_table_scanning_needs_the_face_up_event_and_chaos_does_not_use_it():
    served = created(options={"scanning_the_horizon": True})
    under, dealt = served[1], served[2]
    table = {"hands": dealt["hands"], "maps": next(e for e in served if e["type"] == "MapsRevealed")["maps"]}
    assert problems(options={"scanning_the_horizon": True}, chance=TableChance(), table_setup=table) == \
        ["setup.face_up_event: required with these options [Variants] (TA-29)"]
    created(options={"scanning_the_horizon": True}, chance=TableChance(),
            table_setup=table | {"face_up_event": under["face_up"]})
    assert problems(options={"chaos_on_the_high_seas": True}, chance=TableChance(),
                    table_setup=table | {"face_up_event": under["face_up"]}) == \
        ["setup.face_up_event: not used with these options [Variants] (TA-29)"]


def test_at_a_table_a_pact_of_no_event_needs_no_events_listed():
    """[Variants] "The players may decide how many event cards will be present in the match":
    with none there is nothing to name, so a table leaves 'events' out (or sends [])."""
    served = created(options={"pact_of_the_waves": 0})
    dealt = served[2]
    table = {"hands": dealt["hands"], "maps": next(e for e in served if e["type"] == "MapsRevealed")["maps"]}
    for setup in (table, table | {"events": []}):
        at_table = created(options={"pact_of_the_waves": 0}, chance=TableChance(), table_setup=setup)
        assert next(e for e in at_table if e["type"] == "EventsPlacedUnderAnchor")["count"] == 0
    an_event = R.default_content["events"][0]["id"]
    with pytest.raises(InvalidCreation) as listed_one:   # the table names an Event the game does not have
        created(options={"pact_of_the_waves": 0}, chance=TableChance(), table_setup=table | {"events": [an_event]})
    assert str(listed_one.value) == "setup.events: must list exactly what was drawn: 0 items. [Variants] (TA-31)"
    # with some in play, a table may leave them out too (taken blind, TP-22), with Chaos too
    for chaos in (False, True):
        blind = created(options={"pact_of_the_waves": 2, "chaos_on_the_high_seas": chaos}, chance=TableChance(),
                        table_setup=table)
        assert next(e for e in blind if e["type"] == "EventsPlacedUnderAnchor")["unnamed"] is True


def test_too_many_events_for_the_content_is_named_with_the_other_problems():
    found = problems(players=["Ana", "Diego"], options={"pact_of_the_waves": 7, "first_player": 2})
    assert [p.split(": ", 1)[0] for p in found] == ["options.first_player", "options.pact_of_the_waves"], found


def test_all_three_variants_with_no_event_name_each_option_once():
    found = problems(options={"pact_of_the_waves": 0, "scanning_the_horizon": True, "chaos_on_the_high_seas": True})
    assert [(p.split(": ", 1)[0], p[-7:]) for p in found] == [
        ("options.chaos_on_the_high_seas", "(TP-13)"), ("options.scanning_the_horizon", "(TP-14)")], found


def test_each_player_chooses_a_ship_color():
    """[Setup 1] "Each Player choses a Ship color" (TP-20): the colors in seat order, one each,
    of the content's; without the option the content's order, as before."""
    chosen = R.setup(["Juan", "Diego", "Ana"], {"ship_colors": ["black", "brown", "grey"]}, None,
                     ServerChance(SEED, 0), None)
    state = R.initial_state()
    for e in chosen:
        state = R.evolve(state, e)
    assert [(s.name, s.color) for s in state.seats] == [("Juan", "black"), ("Diego", "brown"), ("Ana", "grey")]
    assert R.setup(["Juan", "Diego"], None, None, ServerChance(SEED, 0), None)[0]["colors"] == ["brown", "white"]
    for options, field, words in (({"ship_colors": ["black"]}, "options.ship_colors", "is too short"),
                                  ({"ship_colors": ["black", "brown", "grey"]}, "options.ship_colors",
                                   "one color for each of the 2 players"),
                                  ({"ship_colors": ["black", "pink"]}, "options.ship_colors.1",
                                   "'pink' is not a Ship color of this content (brown, white, grey, black)"),
                                  ({"ship_colors": ["black", "black"]}, "options.ship_colors",
                                   "lists 'black' more than once: each may be listed once")):
        with pytest.raises(InvalidCreation) as refused:
            R.setup(["Juan", "Diego"], options, None, ServerChance(SEED, 0), None)
        (problem,) = refused.value.problems
        assert problem.startswith(f"{field}: ") and words in problem and problem.endswith("[Setup 1] (TP-20)"), problem


def test_at_a_table_a_pact_of_every_event_may_list_them_or_leave_them_out():
    """[Variants] "The players may decide how many event cards will be present in the match": a pact
    of all five keeps every Event, nothing is drawn, so the table may list them (in any order) or
    leave 'events' out (TA-31); a list short of one is refused (an audit's pact of 5 with its list was
    refused 'not used')."""
    every = [e["id"] for e in R.default_content["events"]]
    served = created(options={"pact_of_the_waves": len(every)})
    dealt = served[2]
    table = {"hands": dealt["hands"], "maps": next(e for e in served if e["type"] == "MapsRevealed")["maps"]}
    for setup in (table, table | {"events": every[::-1]}):
        at_table = created(options={"pact_of_the_waves": len(every)}, chance=TableChance(), table_setup=setup)
        assert next(e for e in at_table if e["type"] == "EventsPlacedUnderAnchor")["count"] == len(every)
    with pytest.raises(InvalidCreation) as short:
        created(options={"pact_of_the_waves": len(every)}, chance=TableChance(), table_setup=table | {"events": every[1:]})
    assert "setup.events" in str(short.value)


def test_a_table_setup_naming_a_wrong_card_says_which():
    """A hand with a card the Play Deck has not, or one dealt twice, is refused naming the card
    (an audit met 'each card dealt is a different card' with no word of which)."""
    served = created()
    hands = [list(h) for h in served[2]["hands"]]
    maps = next(e for e in served if e["type"] == "MapsRevealed")["maps"]
    hands[1][0] = hands[0][0]          # dealt twice
    hands[1][1] = "NOT-A-CARD"         # not one of the Play Deck
    found = problems(chance=TableChance(), table_setup={"hands": hands, "maps": [maps[0], maps[0], "MAP-nowhere"]})
    (dealt,) = [p for p in found if p.startswith("setup.hands")]
    assert f"(not one: 'NOT-A-CARD'; named twice: {hands[0][0]!r})" in dealt, dealt
    (mapped,) = [p for p in found if p.startswith("setup.maps")]
    assert f"(not one: 'MAP-nowhere'; named twice: {maps[0]!r})" in mapped, mapped


@pytest.mark.parametrize("table", [[0, 0, 0, 0], [0, 3, 3, 3], [0, 3, 6, 6]])
def test_a_victory_point_table_that_does_not_rise_with_each_treasure_is_refused(table):
    """[Claim Treasure] 'The more Treasures of the same type you collect, the more Victory Points you
    will gain.' A flat table (all zero: every game a tie to the sudden-death limit) was accepted
    (outside review); only a decreasing one was refused. Entries past the Treasures a type has are
    never read and only need not fall (TA-52)."""
    found = problems(custom=content(lambda c: c["treasureTypes"][0].update(vpByCount=table)))
    field = f"content.treasureTypes[{R.default_content['treasureTypes'][0]['id']}].vpByCount: "
    (named,) = [p for p in found if p.startswith(field)]
    assert "the more Victory Points you will gain" in named and named.endswith("[Claim Treasure] (TA-52)")
    assert created(custom=content(lambda c: c["treasureTypes"][0].update(vpByCount=[0, 3, 6, 9, 9])))


def test_an_island_in_two_pieces_is_refused():
    """TA-24: an island is one space, so its cells touch side by side; one cell apart from the
    rest was accepted, and the island was entered and fired from in either piece (outside review)."""
    found = problems(custom=content(lambda c: c["board"]["islands"][0]["cells"].append([12, 0])))
    island = R.default_content["board"]["islands"][0]["id"]
    (named,) = [p for p in found if p.startswith(f"content.board.islands[{island}]: ")]
    assert "must touch, side by side, as one island" in named and "(TA-24)" in named
    assert created(custom=content(lambda c: c["board"]["islands"][0]["cells"].append(
        [c["board"]["islands"][0]["cells"][0][0] - 1, c["board"]["islands"][0]["cells"][0][1]])))
