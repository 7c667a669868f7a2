"""Los Tesoros del Rey Pirata: decide(), one handler per command.

Every check cites the rulebook section it enforces (../shared/rules/tesoros-del-rey-pirata.txt)
or, where the rulebook is silent, a ruling in docs/rulings.md (TA-n from the rules notes, TP-n
Parley's own). Handlers work on a Draft, a clone to which each event is applied as emitted.

Taking the top card of the Play Deck (a draw, a die value from the deck, a Lamps & Shovels
peek) may reveal the Anchor, whose Event may need the players (Scurvy) before the card is
taken. So every such step is written as a continuation, a small dict `then` saying what the
card is for; Scurvy stores it and the last Pirate to choose resumes it ([Event Cards]: "the
game continues with the action that was occurring before the Anchor card was revealed").

decide() and gate() are kit.Rules' (RULES, at the end): the opening refusals, then the
moments (MOMENTS: for each, the commands it allows, its section, its words and who is to
move), then the handler. Sections are kit.Section.
"""
from __future__ import annotations

from typing import Any

from .. import kit
from ..chance import CHANCE_RULE, needed, not_there
from ..kit import Section
from ..ruleset import Rejected
from .printed import PRINTED_NAMES
from .state import TesorosState, evolve, initial_state

SETUP = Section("Setup")
DICE = Section("Use of the Dice (Assign Die Value)")
TURN = Section("Player Turn")
DRAW = Section("Draw a Card")
COMBAT = Section("Fire Cannons and Challenge to Duel")
TREASON = Section("Treason and Protection Cards")
EQUIPMENT = Section("Equipment Cards")
CLAIM = Section("Claim Treasure")
MOVEMENT = Section("Movement")
ANCHOR = Section("Anchor Card")
EVENTS = Section("Event Cards")
END = Section("Victory and End of Game")

TABLE_FIELDS = {"drawn": "every card taken off the Play Deck, in order",
                "events": "each Event card revealed from under the Anchor or turned face up",
                "stolen": "the cards taken at random from the defender's hand",
                "maps": "the Map card revealed from the bottom of the Map Deck"}

ACTIONS = ("draw_card", "peek_deck", "fire_cannons", "challenge_duel", "play_treason", "equip", "claim_treasure")


class Draft(kit.Draft):
    def __init__(self, state: TesorosState, chance, command: dict):
        super().__init__(state, chance, evolve)
        self.supplied = {f: command.get(f) for f in TABLE_FIELDS}
        self.used = dict.fromkeys(TABLE_FIELDS, 0)
        self.spent = state.deck_top is None and not state.deck   # the Anchor comes before any card
        self.reshuffled = False                                   # the Anchor's reshuffle is behind us
        self.before = state                                       # as the host's view shows it (refusals)

    def pick(self, pool: list, count: int, field: str, where: str | None = None) -> list:
        """count items taken blindly from pool: from the server's seed, or as the table says.
        where: what they are taken from, and where the host's view lists the ids, for a refusal."""
        want = min(count, len(pool))
        if self.chance.mode != "table":
            return self.chance.pick(sorted(pool), want, None, field)
        if want == 0:
            return []
        self.chance.require_host(field)  # TM-1: a seat's token is told to have the host report it, and nothing more
        given = self.supplied[field]
        i = self.used[field]
        where = where or self._where(field, pool)
        if not isinstance(given, list):
            # The count so far too: 'stolen' takes 2 at once, which an app should learn now.
            raise Rejected("TABLE_OUTCOME_REQUIRED", CHANCE_RULE,
                           f"This game is played at a table: send in '{field}' {TABLE_FIELDS[field]}; "
                           + needed(i + want) + f" (item {i + 1}: {where})" + ".")
        if i + want > len(given):
            raise Rejected("TABLE_OUTCOME_REQUIRED", CHANCE_RULE,
                           f"This game is played at a table: '{field}' must list {TABLE_FIELDS[field]}; "
                           + needed(i + want) + f" (item {len(given) + 1}: {where})" + ".")
        left = list(pool)
        for k, item in enumerate(given[i:i + want]):
            if item not in left:
                raise not_there(field, item, i + k + 1, where, "taken from" if field == "stolen" else "drawn from",
                                reported=given)
            left.remove(item)
        got = self.chance.pick(pool, want, given[i:i + want], field)
        self.used[field] += want
        return got

    def _where(self, field: str, pool: list) -> str:
        if field == "drawn":
            if self.reshuffled:
                # TP-16: the pile as it was shuffled, exactly: the discard pile the host's view
                # shows, with the cards this command put on it first (a card shown for a die...).
                listed = "nameable.play_deck" if self.spent else "nameable.play_deck_after_anchor"
                put = sorted(set(pool) - set(self.before.discard))
                return ("the Play Deck the Anchor's reshuffle made of the discard pile: one of 'discard' in the "
                        "host's view" + (f", or {', '.join(put)}, which this command put on it first" if put else "")
                        + f" (nameable: {listed})")
            return "the Play Deck: one of nameable.play_deck"
        return {"events": "the Event cards under the Anchor: one of nameable.events_under_anchor",
                "maps": "the bottom of the Map Deck: one of nameable.map_deck"}[field]


# -- decide: the opening, the moments and the table's outcomes ---------------------------------
# decide() and gate() are kit.Rules' (RULES, below HANDLERS): over, unknown command, no such
# seat, outcomes sent to a server game, the moment (MOMENTS), then the handler.

def _after(d: Draft) -> None:
    """A table reports what the command took: no more."""
    if d.chance.mode == "table":
        for f, given in d.supplied.items():
            if given is not None and (not isinstance(given, list) or len(given) != d.used[f]):
                if given:
                    d.chance.require_host(f)   # TM-1: a seat is refused alike, whatever it drew
                took_known = f == "drawn" and d.before.deck_top is not None and any(
                    e.get("type") == "CardDrawn" and e.get("card") == d.before.deck_top for e in d.events)
                known = (" The top card of the Play Deck was already looked at (Lamps & Shovels): it was reported "
                         "then, and taking it is not reported again.") if took_known else ""
                raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                               f"'{f}' lists more than this command took ({d.used[f]}).{known}")


PHASES = ("draw", "action1", "move", "sail", "action2", "discard")


def moment_of(s: TesorosState) -> str:
    """Before the first turn and after the end, "over"; else Scurvy's choice, a decision some
    seat owes inside the phase, or the phase."""
    if not s.seats:
        return "over"
    if s.scurvy is not None:  # also in the draw-off for the first player (TA-30)
        return "scurvy"
    if s.phase == "setup":
        return "over"
    if s.pending is not None:
        return "pending_" + s.pending["kind"]
    return s.phase if s.phase in PHASES else "over"


def _keepers(s: TesorosState) -> list[int]:
    if s.scurvy is None:
        raise TypeError("no Scurvy choice is being made")   # the "scurvy" moment has one
    return [i for i in s.scurvy["waiting"] if str(i) not in s.scurvy["kept"]]


def _owing(s: TesorosState) -> list[int]:
    if s.pending is None:
        raise TypeError("no decision is pending")   # the "pending_*" moments have one
    return [s.pending["seat"]]


def _active(s: TesorosState) -> list[int]:
    return [s.active]


def _name(s: TesorosState, i: int) -> str:
    return f"{s.seats[i].name} (seat {i})"


def to_move(s: TesorosState) -> list[int]:
    return MOMENTS.to_move(s)


def moment(s: TesorosState) -> str:
    return MOMENTS.words(s)


def _owed(section: Section, words: str, commands) -> kit.Moment:
    return kit.Moment(section, "{pending} " + words, commands, _owing)


def _phase(section: Section, words: str, commands) -> kit.Moment:
    return kit.Moment(section, "{active} " + words, commands, _active)


# -- small readers ------------------------------------------------------------------

def subtype(s: TesorosState, card: str | None) -> str | None:
    return None if card is None else s.cards[card]["subtype"]


def equipped_is(s: TesorosState, seat: int, kind: str) -> bool:
    """TP-21: a benefit acts while its card is equipped, from the moment it is, and stops when it leaves."""
    return subtype(s, s.seats[seat].equipped) == kind


def deck_can_give(s: TesorosState) -> bool:
    """A card can come off the Play Deck: one is above the Anchor, or the discard pile will be
    reshuffled onto it (TP-3: else 'deck' is no die source, so a die value is always a card)."""
    return s.deck_top is not None or bool(s.discard) or any(c in s.cards for c in s.deck)


def vp(s: TesorosState, seat: int) -> int:
    """[Claim Treasure] the more Treasures of the same type, the more Victory Points (content)."""
    table = {t["id"]: t["vpByCount"] for t in s.content["treasureTypes"]}
    counts: dict = {}
    for m in s.seats[seat].treasures:
        t = s.maps[m]["treasure"]
        counts[t] = counts.get(t, 0) + 1
    return sum(table[t][min(k, len(table[t]) - 1)] for t, k in counts.items())


def _other_seat(s: TesorosState, seat: int, target, section: Section) -> int:
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < len(s.seats):
        raise Rejected("NO_SUCH_PIRATE", section, "'target' must be the seat of another Pirate.")
    if target == seat:
        raise Rejected("TARGET_YOURSELF", section, "Choose another Pirate as the target.", ruling="TA-43")
    return target


def die_source(s: TesorosState, seat: int, die, purpose: str, not_card: str | None = None) -> str:
    """[Use of the Dice] a card from your hand or the top card of the Play Deck; [Equipment
    Cards] or your equipped card (TA-15); free 5 with Compass & Sextant (move) or Cannons &
    Pistols (Fire Cannons attack). Returns hand | equipped | deck | free5."""
    me = s.seats[seat]
    if die == "free5":
        if purpose == "move" and equipped_is(s, seat, "compass_sextant"):
            return "free5"
        if purpose == "attack" and s.combat_kind == "cannons" and equipped_is(s, seat, "cannons_pistols"):
            return "free5"
        if purpose == "attack" and s.combat_kind != "cannons":
            detail = "A Duel is never fought with a free 5: its die value comes from a card."
        else:
            detail = ("A die value of 5 without a card needs Compass & Sextant equipped (movement) or Cannons & "
                      "Pistols equipped (Fire Cannons, never when defending).")
        raise Rejected("NO_FREE_FIVE", EQUIPMENT, detail)
    if die == "deck":
        if not deck_can_give(s):
            raise Rejected("DECK_EMPTY", DICE, "The Play Deck and the discard pile hold no card to reveal.",
                           ruling="TP-3")
        return "deck"
    if isinstance(die, str) and die == not_card:
        raise Rejected("SAME_CARD", TREASON, "The die value is changed with another card, not the same one.")
    if isinstance(die, str) and die in me.hand:
        return "hand"
    if isinstance(die, str) and die is not None and die == me.equipped:
        return "equipped"
    raise Rejected("NOT_YOUR_CARD", DICE,
                   "A die value comes from a card in your hand, your equipped card, or 'deck' (the top of the Play Deck).")



# -- taking cards off the Play Deck -------------------------------------------------

def events_remain(s: TesorosState) -> bool:
    return s.face_up_event is not None or bool(s.events_left)


def deck_draws(s: TesorosState) -> list[str]:
    """What the next card off the Play Deck may be: a card of it, or, with Chaos on the high seas
    at a table that took the Events blind (TP-22), while an Event is still in it, any Event not
    yet seen, those the lists hold out of the game too."""
    if s.events_unnamed and any(c in s.events for c in s.deck):
        return sorted(s.deck + s.events_out)
    return s.deck


def under_anchor(s: TesorosState) -> list[str]:
    """The Events the next one turned up from under the Anchor may be: those there, or, where a
    table took them blind (TP-22), while one is still there, any not yet seen, those the lists
    hold out of the game too. None once they are all out (with Chaos, from the start: the Play
    Deck has them, deck_draws)."""
    return sorted(s.events_left + s.events_out) if s.events_unnamed and s.events_left else s.events_left


def need_card(d: Draft, then: dict) -> None:
    """Take the top card of the Play Deck for `then`: [Anchor Card] when the Anchor is the
    top card, its Event and the reshuffle come first; TA-3 the action then takes the new top."""
    s = d.s
    while True:
        if s.deck_top is None and not s.deck:
            if not events_remain(s) and not s.discard:
                finish(d, then, None)  # TA-2: nothing at all to take
                return
            if not anchor(d, then):
                return
            continue
        card = s.deck_top if s.deck_top is not None else d.pick(deck_draws(s), 1, "drawn")[0]
        if card in s.events:  # [Variants: Chaos on the high seas] an Event resolves as it is drawn
            if not run_event(d, card, "deck", then):
                return
            continue
        finish(d, then, card)
        return


def anchor(d: Draft, then: dict) -> bool:
    """[Anchor Card] 1. the first Event under the Anchor; 2. shuffle the discard pile onto it.
    False when an Event waits for the Pirates (the reshuffle follows their choice)."""
    s = d.s
    d.emit("AnchorRevealed", discard=len(s.discard))
    if s.face_up_event is not None:  # [Variants: Scanning the horizon]
        if not run_event(d, s.face_up_event, "anchor", then):
            return False
    elif s.events_left:
        event = d.pick(under_anchor(s), 1, "events")[0]
        if not run_event(d, event, "anchor", then):
            return False
    d.emit("DiscardReshuffled", count=len(s.discard))  # TA-2 (a): with no Event left, only this
    d.reshuffled = True
    return True


def run_event(d: Draft, event: str, source: str, then: dict) -> bool:
    """[Event Cards] carried out at once; affects every Pirate equally."""
    s = d.s
    effect = s.events[event]["effect"]
    d.emit("EventRevealed", event=event, name=s.events[event]["name"], effect=effect, **{"from": source})
    n = len(s.seats)
    if effect == "damned_lighthouse":
        d.emit("ShipsReturned", to=s.board.rose)
    elif effect == "storm":
        d.emit("HandsPassed", direction="right", counts=[len(x.hand) for x in s.seats])
    elif effect == "outrage":
        for i in _from_active(s):
            if s.seats[i].equipped is not None:
                d.emit("EquipmentDiscarded", seat=i, card=s.seats[i].equipped, reason="outrage")
    elif effect == "rumors":
        d.emit("HandsRevealed", hands=[list(x.hand) for x in s.seats])
    elif effect == "scurvy":
        waiting = [i for i in range(n) if len(s.seats[i].hand) > 2]
        if waiting:  # TA-27: each Pirate chooses their own 2, all at once
            d.emit("ScurvyBegan", event=event, waiting=waiting, then=then, anchor=source == "anchor")
            return False
    event_done(d, event, source)
    return True


def _from_active(s: TesorosState) -> list[int]:
    n = len(s.seats)
    return [(s.active + k) % n for k in range(n)]


def event_done(d: Draft, event: str, source: str) -> None:
    s = d.s
    d.emit("EventResolved", event=event)
    if source == "anchor" and s.face_up_event is None and s.events_left and s.options["scanning_the_horizon"]:
        d.emit("EventTurnedFaceUp", event=d.pick(under_anchor(s), 1, "events")[0])
    # [Victory and End of Game] the last Event card executed; not with Chaos on the high seas
    if (not s.options["chaos_on_the_high_seas"] and s.events_in_play > 0 and not events_remain(s)
            and len(s.event_discard) == s.events_in_play):
        end_condition(d, "last_event")


def finish(d: Draft, then: dict, card: str | None) -> None:
    seat = then["seat"]
    if then["do"] == "draw":
        if card is None:
            d.emit("DrawFailed", seat=seat, reason=then["reason"])
        else:
            d.emit("CardDrawn", seat=seat, card=card, reason=then["reason"], **{"from": "deck"})
        after_draw(d, then["reason"])
    elif then["do"] == "peek":
        d.emit("DeckPeeked", seat=seat, card=card, reason=then["reason"])
    elif then["do"] == "draw_off":
        draw_off_card(d, then, card)
    else:
        assign(d, seat, then["purpose"], "deck", card)


def assign(d: Draft, seat: int, purpose: str, source: str, card: str | None) -> None:
    """[Use of the Dice] the card is shown and discarded; its die is the value."""
    s = d.s
    value = 5 if source == "free5" else s.cards[card]["die"]
    bonus = 0
    if purpose == "attack" and s.combat_kind == "duel" and source != "equipped" and equipped_is(s, seat, "machetes_swords"):
        # [Equipment Cards: Machetes & Swords] +1 when you Challenge to Duel (TA-19); part of the value
        # assigned, which an Outrage discarding the card later does not lower (TP-19)
        bonus = 1
    d.emit("DieAssigned", seat=seat, purpose=purpose, source=source, card=card, die=value, bonus=bonus,
           value=value + bonus)
    after_die(d, purpose)


def after_die(d: Draft, purpose: str) -> None:
    s = d.s
    c = s.combat
    if purpose == "attack":
        d.emit("DefenceAwaited", seat=c["target"], attack=c["kind"], value=c["attack"])
    elif purpose == "defence":
        resolve_attack(d)
    elif purpose == "treason":
        d.emit("ProtectionAwaited", seat=c["target"], treason=c["kind"], value=c["value"])
    elif purpose == "protection":
        resolve_treason(d, protected=True)


def after_draw(d: Draft, reason: str) -> None:
    if reason == "phase":
        d.emit("PhaseBegan", phase="action1")
    else:
        end_action(d)


def draw_for(d: Draft, seat: int) -> None:
    """A draw by the effect of a card: [Equipment Cards: Lamps & Shovels] applies (TA-40)."""
    if equipped_is(d.s, seat, "lamps_shovels"):
        d.emit("DrawAwaited", seat=seat, reason="effect")
    else:
        need_card(d, {"do": "draw", "seat": seat, "reason": "effect"})


# -- the turn -----------------------------------------------------------------------

def end_action(d: Draft) -> None:
    """[Player Turn] phase 2 is followed by the move, phase 4 by the end of the turn."""
    s = d.s
    if s.phase == "action1":
        d.emit("PhaseBegan", phase="move")
    else:
        end_turn(d)


def end_turn(d: Draft) -> None:
    """[Player Turn] more than 8 cards at the end of your turn: discard down to exactly 8 (TA-1)."""
    s = d.s
    if len(s.seats[s.active].hand) > s.content["handLimit"]:
        d.emit("PhaseBegan", phase="discard")
    else:
        next_turn(d)


def next_turn(d: Draft) -> None:
    s = d.s
    if s.sudden_death and s.turn - s.sudden_death["turn"] >= s.options["sudden_death_max_turns"]:
        end_game(d, "sudden_death_limit", shared=True)  # TA-6: no game runs forever
    d.emit("TurnStarted", seat=(s.active + 1) % len(s.seats), turn=s.turn + 1)  # clockwise


def _draw_reason(s: TesorosState) -> str:
    if s.pending is not None:
        return s.pending["reason"]
    return "phase" if s.phase == "draw" else "action"


def draw_card(d: Draft, seat: int, command: dict) -> None:
    """[Draw a Card] the top card of the Play Deck into your hand; [Lamps & Shovels] or the top
    card of the discard pile."""
    s = d.s
    source = command.get("from", "deck")
    reason = _draw_reason(s)
    if source == "discard":
        if not equipped_is(s, seat, "lamps_shovels"):  # TP-18: also when an Outrage took it during the look
            raise Rejected("NEEDS_LAMPS_AND_SHOVELS", EQUIPMENT,
                           "Only with Lamps & Shovels equipped may you draw the top card of the discard pile.",
                           ruling="TP-18" if s.pending is not None and s.pending.get("peeked") else None)
        if not s.discard:
            raise Rejected("DISCARD_EMPTY", EQUIPMENT, "The discard pile is empty.")
        d.emit("CardDrawn", seat=seat, card=s.discard[-1], reason=reason, **{"from": "discard"})
        after_draw(d, reason)
    elif source == "deck":
        need_card(d, {"do": "draw", "seat": seat, "reason": reason})
    else:
        raise Rejected("INVALID_COMMAND", DRAW, "'from' must be 'deck' or 'discard'.")


def peek_deck(d: Draft, seat: int, command: dict) -> None:
    """[Equipment Cards: Lamps & Shovels] before drawing, look at the top card of the Play Deck."""
    s = d.s
    if not equipped_is(s, seat, "lamps_shovels"):
        raise Rejected("NEEDS_LAMPS_AND_SHOVELS", EQUIPMENT, "Only with Lamps & Shovels equipped may you look at the top card.")
    if s.pending is not None and s.pending.get("peeked"):
        raise Rejected("ALREADY_PEEKED", EQUIPMENT, "You have looked already: take that card or the top of the discard pile.")
    need_card(d, {"do": "peek", "seat": seat, "reason": _draw_reason(s)})  # TA-4: the Anchor triggers


def fire_cannons(d: Draft, seat: int, command: dict) -> None:
    """[Fire Cannons] a Ship in your square or any of the 8 adjacent ones; steal 2 at random."""
    s = d.s
    target = _other_seat(s, seat, command.get("target"), COMBAT)
    if not s.board.in_cannon_range(s.seats[seat].ship, s.seats[target].ship):
        raise Rejected("OUT_OF_RANGE", COMBAT,
                       "Fire Cannons at a Ship in your square or one of the 8 adjacent squares.", ruling="TA-25")
    _attack(d, seat, target, "cannons", command)


def challenge_duel(d: Draft, seat: int, command: dict) -> None:
    """[Challenge to Duel] a Ship in your own square; win and take 1 Treasure of your choice."""
    s = d.s
    target = _other_seat(s, seat, command.get("target"), COMBAT)
    if s.seats[seat].ship != s.seats[target].ship:
        raise Rejected("NOT_SAME_SQUARE", COMBAT, "Challenge to Duel a Ship located in the same square as yours.")
    _attack(d, seat, target, "duel", command)


def _attack(d: Draft, seat: int, target: int, kind: str, command: dict) -> None:
    s = d.s
    d.emit("AttackDeclared", seat=seat, target=target, attack=kind)
    die = command.get("die")
    source = die_source(s, seat, die, "attack")
    if source == "deck":
        need_card(d, {"do": "die", "seat": seat, "purpose": "attack"})
    else:
        assign(d, seat, "attack", source, None if source == "free5" else die)


def defend(d: Draft, seat: int, command: dict) -> None:
    """[Fire Cannons and Challenge to Duel] the defender assigns a die value, from the hand or
    the Deck (TA-15: or the equipped card); no free 5 (Cannons & Pistols "does not apply when
    defending"); defending is not optional (TA-17)."""
    s = d.s
    die = command.get("die")
    if die == "free5":
        raise Rejected("NO_FREE_FIVE", EQUIPMENT, "Equipment benefits do not apply when defending.")
    source = die_source(s, seat, die, "defence")
    if source == "deck":
        need_card(d, {"do": "die", "seat": seat, "purpose": "defence"})
    else:
        assign(d, seat, "defence", source, die)


def resolve_attack(d: Draft) -> None:
    """Attack equal to or greater than the defence succeeds; a greater defence misses."""
    s = d.s
    c = s.combat
    success = c["attack"] >= c["defence"]
    d.emit("AttackResolved", seat=c["attacker"], target=c["target"], attack=c["kind"], attack_value=c["attack"],
           defence_value=c["defence"], success=success)
    if success and c["kind"] == "cannons":
        target = c["target"]
        hand = s.seats[target].hand
        # Where the host's view (as it was before this command) lists the hand: a Storm revealed in
        # this command passed each hand to the right (TA-26), so the defender now holds what the
        # view lists for the seat on its left; and what this command took from that hand first
        # (the card shown for the defence's die), which the view still lists, is said apart.
        passes = sum(1 for e in d.events if e["type"] == "HandsPassed")
        listed = (target + passes) % len(s.seats)
        gone = sorted(set(d.before.seats[listed].hand) - set(hand))
        less = f", but not {', '.join(gone)}, which this command took from it first" if gone else ""
        held = (f"seat {target}'s hand: one of seats[{target}].hand" if not passes else
                f"seat {target}'s hand, which the Storm passed from seat {listed}: one of seats[{listed}].hand")
        # TA-11: fewer when the hand holds fewer
        stolen = d.pick(hand, 2, "stolen", held + less)
        d.emit("CardsStolen", seat=c["attacker"], cards=sorted(stolen), count=len(stolen), **{"from": c["target"]})
    elif success and s.seats[c["target"]].treasures:  # TA-12: a Duel on a Pirate with none wins nothing
        d.emit("TreasureChoiceAwaited", seat=c["attacker"], **{"from": c["target"]})
        return
    end_action(d)


def take_treasure(d: Draft, seat: int, command: dict) -> None:
    """[Challenge to Duel] you choose 1 Treasure card from the defending Pirate."""
    s = d.s
    victim = s.pending["from"]
    m = command.get("map")
    if m not in s.seats[victim].treasures:
        raise Rejected("NOT_THEIR_TREASURE", COMBAT, "Choose one of the defending Pirate's Treasure cards.")
    d.emit("TreasureTaken", seat=seat, map=m, **{"from": victim})
    sudden_death_check(d)
    end_action(d)


def play_treason(d: Draft, seat: int, command: dict) -> None:
    """[Treason and Protection Cards] choose another Pirate, show and discard the Treason card;
    its printed value, or the value of one more card (hand or Deck) which counts even if lower."""
    s = d.s
    card = command.get("card")
    if not isinstance(card, str) or card not in s.seats[seat].hand:
        raise Rejected("NOT_YOUR_CARD", TREASON, "Play a Treason card (Mutiny or Sabotage) from your hand: "
                       "that card is not in it.")
    if s.cards[card]["kind"] != "treason":
        raise Rejected("NOT_A_TREASON_CARD", TREASON, "Play a Treason card (Mutiny or Sabotage) from your hand.")
    target = _other_seat(s, seat, command.get("target"), TREASON)  # TA-44: any other Pirate
    replace = command.get("replace")
    source = None if replace is None else _replacement(s, seat, replace, card)
    d.emit("TreasonPlayed", seat=seat, target=target, card=card, treason=s.cards[card]["subtype"],
           printed=s.cards[card]["die"])
    _value(d, seat, "treason", source, replace)


def _replacement(s: TesorosState, seat: int, replace, card: str) -> str:
    if replace == "free5":
        raise Rejected("NO_FREE_FIVE", EQUIPMENT, "Equipment gives a free 5 only to move or to Fire Cannons.",
                       ruling="TP-6")
    return die_source(s, seat, replace, "replace", not_card=card)  # TA-15: one replacement


def _value(d: Draft, seat: int, purpose: str, source: str | None, replace) -> None:
    if source is None:
        after_die(d, purpose)
    elif source == "deck":
        need_card(d, {"do": "die", "seat": seat, "purpose": purpose})
    else:
        assign(d, seat, purpose, source, replace)


def accept_treason(d: Draft, seat: int, command: dict) -> None:
    """The targeted Pirate plays no Walk the Plank (TA-18: always asked, never skipped)."""
    resolve_treason(d, protected=False)


def walk_the_plank(d: Draft, seat: int, command: dict) -> None:
    """[Treason and Protection Cards] show and discard a Protection card; printed value or one
    replacement, as for Treason."""
    s = d.s
    card = command.get("card")
    if not isinstance(card, str) or card not in s.seats[seat].hand or s.cards[card]["kind"] != "protection":
        raise Rejected("NOT_A_PROTECTION_CARD", TREASON, "Answer with a Walk the Plank card from your hand.")
    replace = command.get("replace")
    source = None if replace is None else _replacement(s, seat, replace, card)
    d.emit("ProtectionPlayed", seat=seat, card=card, printed=s.cards[card]["die"])
    _value(d, seat, "protection", source, replace)


def resolve_treason(d: Draft, protected: bool) -> None:
    """Treason equal or greater succeeds; a higher Protection cancels it and its player draws."""
    s = d.s
    c = s.combat
    success = not protected or c["value"] >= c["protection"]
    d.emit("TreasonResolved", seat=c["attacker"], target=c["target"], treason=c["kind"], value=c["value"],
           protection=c["protection"] if protected else None, success=success)
    if not success:
        draw_for(d, c["target"])  # [Walk the Plank] the Protection's player draws
    elif c["kind"] == "mutiny":
        hand = s.seats[c["target"]].hand
        if hand:  # [Mutiny] look at the hand, choose a card (TA-14: nothing to take from none)
            d.emit("HandShown", seat=c["attacker"], target=c["target"], cards=list(hand))
        else:
            end_action(d)
    else:
        equipped = s.seats[c["target"]].equipped
        if equipped is not None:  # [Sabotage] the target discards the equipped card ...
            d.emit("EquipmentDiscarded", seat=c["target"], card=equipped, reason="sabotage")
        draw_for(d, c["attacker"])  # ... and then you draw (TA-13: even if none was equipped)


def take_card(d: Draft, seat: int, command: dict) -> None:
    """[Mutiny] choose a card from the targeted Pirate's hand and put it in yours."""
    s = d.s
    victim = s.pending["from"]
    card = command.get("card")
    if card not in s.seats[victim].hand:
        raise Rejected("NOT_IN_THEIR_HAND", TREASON, "Choose one of the cards in the targeted Pirate's hand.")
    d.emit("CardTaken", seat=seat, card=card, **{"from": victim})
    end_action(d)


def equip(d: Draft, seat: int, command: dict) -> None:
    """[Equipment Cards] show and place it; only one at a time, the previous one goes back to hand."""
    s = d.s
    card = command.get("card")
    if card not in s.seats[seat].hand or s.cards[card]["kind"] != "equipment":
        raise Rejected("NOT_AN_EQUIPMENT_CARD", EQUIPMENT, "Equip an Equipment card from your hand.")
    d.emit("Equipped", seat=seat, card=card, returned=s.seats[seat].equipped)
    end_action(d)


def claim_treasure(d: Draft, seat: int, command: dict) -> None:
    """[Claim Treasure] your Ship at the island of a revealed Map; discard the Equipment it
    names (from hand or equipped); take the Map; reveal another from the bottom."""
    s = d.s
    m = command.get("map")
    if m not in s.open_maps:
        raise Rejected("NOT_A_REVEALED_MAP", CLAIM, "Claim the Treasure of one of the revealed Map cards.")
    wanted = s.maps[m]
    if s.seats[seat].ship != wanted["island"]:
        raise Rejected("NOT_AT_THE_ISLAND", CLAIM, "Your Ship must be at the island this Map card indicates.")
    card = command.get("card")
    me = s.seats[seat]
    source = "hand" if card in me.hand else "equipped" if card is not None and card == me.equipped else None
    if source is None or subtype(s, card) != wanted["equipment"]:
        raise Rejected("WRONG_EQUIPMENT", CLAIM,
                       f"This Map asks for a {PRINTED_NAMES[wanted['equipment']]} card: discard one from your hand or "
                       "your equipped one.")
    d.emit("TreasureClaimed", seat=seat, map=m, card=card, source=source)
    if s.map_deck:
        d.emit("MapRevealed", map=d.pick(s.map_deck, 1, "maps")[0])
    if not s.map_deck and not s.open_maps:
        end_condition(d, "last_treasure")  # TA-7: the twelfth claim
    else:
        sudden_death_check(d)
    end_action(d)


def assign_move_die(d: Draft, seat: int, command: dict) -> None:
    """[Movement] Ships are moved by assigning a die value; [Compass & Sextant] or a free 5."""
    s = d.s
    die = command.get("die")
    source = die_source(s, seat, die, "move")
    if source == "deck":
        need_card(d, {"do": "die", "seat": seat, "purpose": "move"})
    else:
        assign(d, seat, "move", source, None if source == "free5" else die)


def move_ship(d: Draft, seat: int, command: dict) -> None:
    """[Movement] at least one square, at most the value, orthogonally, islands only through
    their arrows, never ending in the square where the turn began."""
    s = d.s
    to = command.get("to")
    here = s.seats[seat].ship
    if to == s.turn_start:
        raise Rejected("SAME_SQUARE", MOVEMENT, "A ship cannot end its movement in the square where it began the turn.")
    reach = s.board.moves(here, s.move_value)
    if to == here and to not in reach:  # TP-4: an Event moved the Ship home this turn; a 1 cannot bring it back
        raise Rejected("MUST_MOVE", MOVEMENT, f"Your Ship must move at least one square: with {s.move_value} it "
                       "cannot sail out and back to where it is.", ruling="TP-4")
    if not isinstance(to, str) or to not in reach:
        squares = "1 square" if s.move_value == 1 else f"1 to {s.move_value} squares"
        raise Rejected("NOT_REACHABLE", MOVEMENT,
                       f"Your Ship cannot get there with {s.move_value}: it moves {squares} "
                       "orthogonally, entering and leaving islands only through their arrows.", ruling="TA-23")
    d.emit("ShipMoved", seat=seat, to=to, steps=reach[to], **{"from": here})
    d.emit("PhaseBegan", phase="action2")


def discard_card(d: Draft, seat: int, command: dict) -> None:
    """[Player Turn] more than 8 cards at the end of your turn: discard until exactly 8."""
    s = d.s
    card = command.get("card")
    if card not in s.seats[seat].hand:
        raise Rejected("NOT_IN_HAND", TURN, "Discard a card from your hand.")
    d.emit("CardsDiscarded", seat=seat, cards=[card], reason="hand_limit")
    if len(s.seats[seat].hand) <= s.content["handLimit"]:
        next_turn(d)


def keep_cards(d: Draft, seat: int, command: dict) -> None:
    """[Event Cards: Scurvy] reduce your hand to 2 cards, discarding the rest (TA-27)."""
    s = d.s
    cards = command.get("cards")
    hand = s.seats[seat].hand
    if (not isinstance(cards, list) or len(cards) != 2 or len(set(map(str, cards))) != 2
            or not all(c in hand for c in cards)):
        raise Rejected("KEEP_TWO", EVENTS, "Name the 2 cards of your hand you keep.", ruling="TA-27")
    d.emit("ScurvyKept", seat=seat, cards=sorted(cards), count=2)
    sc = s.scurvy
    if any(str(i) not in sc["kept"] for i in sc["waiting"]):
        return
    for i in _from_active(s):  # TA-27: the discards land in seat order from the active Pirate
        kept = sc["kept"].get(str(i))
        if kept is not None:
            d.emit("CardsDiscarded", seat=i, cards=[c for c in s.seats[i].hand if c not in kept], reason="scurvy")
    then, from_anchor = sc["then"], sc["anchor"]
    event_done(d, sc["event"], "anchor" if from_anchor else "deck")
    if from_anchor:
        d.emit("DiscardReshuffled", count=len(s.discard))
        d.reshuffled = True
    need_card(d, then)


# -- the draw-off for the first player ------------------------------------------------

def draw_off_after(contenders: list[int], round_: list[dict], die: dict) -> tuple[str, Any]:
    """[Starting the Game] "Whoever gets the highest die value starts the game"; TA-5: tied
    Pirates reveal again. After the dice of a round so far ({"seat", "card"}): ("draw", seat)
    for the next contender to reveal, ("again", tied seats), or ("first", the starting seat)."""
    if len(round_) < len(contenders):
        return "draw", contenders[len(round_)]
    best = max(die[x["card"]] for x in round_)
    tied = [x["seat"] for x in round_ if die[x["card"]] == best]
    return ("first", tied[0]) if len(tied) == 1 else ("again", tied)


def draw_off_card(d: Draft, then: dict, card: str | None) -> None:
    """The draw-off after Scurvy stopped it at the game's setup (setup._first_player, TA-30):
    each card the Pirates reveal after their choices, until one has the highest die."""
    s = d.s
    if card is None:  # TA-2: nothing at all to reveal: the first contender starts, as at setup
        d.emit("TurnStarted", seat=then["contenders"][0], turn=1)
        return
    step = {"seat": then["seat"], "card": card}
    d.emit("DrawOffRevealed", cards=[step])
    round_ = then["round"] + [step]
    kind, who = draw_off_after(then["contenders"], round_, {c: x["die"] for c, x in s.cards.items()})
    if kind == "first":
        d.emit("TurnStarted", seat=who, turn=1)
    elif kind == "draw":
        need_card(d, {**then, "seat": who, "round": round_})
    else:
        need_card(d, {"do": "draw_off", "seat": who[0], "contenders": who, "round": []})


def evolve_all(events: list[dict]) -> TesorosState:
    """The state these events make, from the start (the setup's, for an Event in the draw-off)."""
    return kit.fold(initial_state(), evolve, events)


# -- the end ------------------------------------------------------------------------

def totals(s: TesorosState) -> list[int]:
    return [vp(s, i) for i in range(len(s.seats))]


def end_condition(d: Draft, reason: str) -> None:
    """[Victory and End of Game] the game ends as soon as (TA-8) the condition is met; a tie
    continues in sudden death until one Pirate has more Victory Points than any other."""
    s = d.s
    t = totals(s)
    if t.count(max(t)) == 1:
        end_game(d, reason)
    if s.sudden_death is None:
        d.emit("SuddenDeathBegan", reason=reason, totals=t, tied=[i for i, v in enumerate(t) if v == max(t)])


def sudden_death_check(d: Draft) -> None:
    """TA-6: in sudden death the game ends as soon as one Pirate leads alone."""
    t = totals(d.s)
    if d.s.sudden_death is not None and t.count(max(t)) == 1:
        end_game(d, "sudden_death")


def end_game(d: Draft, reason: str, shared: bool = False) -> None:
    s = d.s
    t = totals(s)
    best = max(t)
    winners = [i for i, v in enumerate(t) if v == best]
    breakdown = [{"seat": i, "treasures": list(x.treasures), "vp": t[i]} for i, x in enumerate(s.seats)]
    d.emit("GameEnded", reason=reason, winners=winners, totals=t, breakdown=breakdown,
           tie_breaks=(["shared_after_sudden_death_limit"] if shared and len(winners) > 1 else []),
           seed=d.chance.reveal() if d.chance is not None else None)
    raise kit.GameOver


HANDLERS = {
    "draw_card": draw_card,
    "peek_deck": peek_deck,
    "fire_cannons": fire_cannons,
    "challenge_duel": challenge_duel,
    "defend": defend,
    "take_treasure": take_treasure,
    "play_treason": play_treason,
    "accept_treason": accept_treason,
    "walk_the_plank": walk_the_plank,
    "take_card": take_card,
    "equip": equip,
    "claim_treasure": claim_treasure,
    "assign_move_die": assign_move_die,
    "move_ship": move_ship,
    "discard_card": discard_card,
    "keep_cards": keep_cards,
}

WORDS = {
    "draw_card": "draw a card", "peek_deck": "look at the top card", "fire_cannons": "Fire Cannons",
    "challenge_duel": "Challenge to Duel", "defend": "defend", "take_treasure": "take a Treasure",
    "play_treason": "play a Treason card", "accept_treason": "answer a Treason",
    "walk_the_plank": "play Walk the Plank", "take_card": "take a card by Mutiny", "equip": "equip a card",
    "claim_treasure": "claim a Treasure", "assign_move_die": "assign a die value to move",
    "move_ship": "move your Ship", "discard_card": "discard to the hand limit", "keep_cards": "choose cards for Scurvy",
}

MOMENTS = kit.Moments(of=moment_of, command_words=WORDS, moments={
    "scurvy": kit.Moment(EVENTS, "Scurvy: each Pirate with more than 2 cards chooses the 2 to keep", {"keep_cards"},
                         _keepers),
    "pending_defend": _owed(COMBAT, "assigns a die value to the defence", {"defend"}),
    "pending_protect": _owed(TREASON, "may answer the Treason with Walk the Plank", {"walk_the_plank", "accept_treason"}),
    "pending_take_treasure": _owed(COMBAT, "chooses the Treasure won in the Duel", {"take_treasure"}),
    "pending_take_card": _owed(TREASON, "chooses a card from the Mutiny's target", {"take_card"}),
    "pending_draw": _owed(EQUIPMENT, "draws a card (Lamps & Shovels)", {"draw_card", "peek_deck"}),
    "draw": _phase(TURN, "draws a card (phase 1)", {"draw_card", "peek_deck"}),
    "action1": _phase(TURN, "chooses an action (phase 2)", ACTIONS),
    "move": _phase(MOVEMENT, "assigns a die value to move the Ship (phase 3)", {"assign_move_die"}),
    "sail": kit.Moment(MOVEMENT, "{active} moves the Ship (phase 3)", {"move_ship"}, _active, refusals={
        "assign_move_die": kit.Refusal(
            "DIE_VALUE_FINAL", "A die value is already assigned to move this turn, and an assigned die value is "
            "final: move the Ship, up to that many squares. The free 5 of Compass & Sextant is final too: no card "
            "replaces it.", EQUIPMENT, ruling="TA-16")}),
    "action2": _phase(TURN, "chooses an action (phase 4)", ACTIONS),
    "discard": _phase(TURN, "discards down to the hand limit of 8", {"discard_card"}),
    "over": kit.Moment(TURN, "the game is over"),
}, fields={"active": lambda s, seat: _name(s, s.active), "pending": lambda s, seat: _name(s, s.pending["seat"])})

RULES = kit.Rules(game="Los Tesoros del Rey Pirata", handlers=HANDLERS, moments=MOMENTS, draft=Draft,
                  over=END, unknown=TURN, seats=SETUP, table_fields=TABLE_FIELDS, server_words="draws and shuffles",
                  after=_after)
decide = RULES.decide
gate = RULES.gate
