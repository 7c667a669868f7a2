"""Valeria: Card Kingdoms: the state of a game and evolve(), which applies one event.

evolve never checks and never draws: every choice and outcome is in the event (rules.py).
Face-down Domains and the Dukes nobody holds are kept as sorted pools (`domain_pool`,
`duke_pool`): their order is nobody's, so the state holds none; a Domain is chosen from the
pool when one is flipped face up (server seed or table, in decide). Each copy of a card has
its own id: `<type>#<k>` for Citizens and Monsters, `<starter>@<seat>` for Starters.

In the Mixed Citizen Variant [BR p.18] a Citizen stack is `mixed_<activation>` (`mixed_1`,
`mixed_9_10`) and its face-down cards are FACE_DOWN, a placeholder: which Citizen lies there is
nobody's (VP-40), so the state holds no identity and no order. The Citizens of that Activation
number not in sight are `citizen_pool(stack)`, computed from the content and what is in sight;
one is chosen when the card above is taken (server seed, or the table's `revealed`).

clone(), dump_state and load_state are kit's (domain/kit/snapshot.py): the copy goes as deep
as each field's type says, so the types must stay true; the content and options are shared.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import kit
from .effects import RESOURCES

FACE_DOWN = "face_down"   # a face-down Citizen of a mixed stack [BR p.18] (a Citizen's id has a '#')
MIXED = "mixed_"          # the prefix of a mixed stack's id


@dataclass
class Seat:
    name: str
    gold: int = 0
    strength: int = 0
    magic: int = 0
    vp: int = 0
    citizens: list[str] = field(default_factory=list)   # Starters and Citizens, in the order gained
    domains: list[str] = field(default_factory=list)
    victory: list[str] = field(default_factory=list)    # slain Monsters
    duke: str | None = None
    offer: list[str] = field(default_factory=list)      # the two Dukes dealt, until one is kept
    # Crimson Seas
    maps: int = 0
    goods: list[str] = field(default_factory=list)
    tomes: list[str] = field(default_factory=list)      # face up
    tomes_down: list[str] = field(default_factory=list)
    nobles: list[str] = field(default_factory=list)
    flipped: list[str] = field(default_factory=list)    # Citizens turned face down by the Skeleton Army


@dataclass
class ValeriaState(kit.GameState):
    seats: list[Seat] = field(default_factory=list)
    options: dict = field(default_factory=dict, metadata=kit.SHARED)
    content: dict = field(default_factory=dict, metadata=kit.SHARED)
    content_key: str = ""
    chance_mode: str = ""
    commitment: str | None = None
    monsters: dict[str, list[str]] = field(default_factory=dict)   # area -> cards, last = top
    citizens: dict[str, list[str]] = field(default_factory=dict)   # citizen type -> cards, last = top
    # domain_1..5 -> {"up": card | None, "down": n}
    domains: dict[str, dict[str, str | int | None]] = field(default_factory=dict)
    domain_pool: list[str] = field(default_factory=list)  # every Domain not face up or taken (face down or boxed)
    duke_pool: list[str] = field(default_factory=list)    # Dukes not held and not offered
    box: list[str] = field(default_factory=list)          # set aside at setup, public
    banished: list[str] = field(default_factory=list)
    exhausted_pile: int = 0
    exhausted: list[str] = field(default_factory=list)    # Center positions that are exhausted
    exhausted_cards: list[str] = field(default_factory=list)  # those of them holding an Exhausted card (VA-B2)
    phase: str = "setup"        # dukes | roll | harvest | action | over
    first: int = 0
    active: int = 0
    turn: int = 0
    resting: int | None = None
    dice: list[int] | None = None
    changers_used: list[str] = field(default_factory=list)
    items: list[dict[str, Any]] = field(default_factory=list)   # harvest activations still to resolve
    next_item: int = 0
    activated: bool = False                          # the Citizens have been activated this Harvest
    pending: list[dict[str, Any]] = field(default_factory=list)   # rewards the active player still resolves
    actions_left: int = 0
    granted: list[str] = field(default_factory=list)      # additional actions a reward granted, not one of the two [BR p.15]
    reveals_waiting: list[str] = field(default_factory=list)   # stacks turned up once the granted actions are done (VP-53)
    end_triggered: bool = False
    finished: bool = False
    result: dict[str, Any] | None = None
    seed: str | None = None
    # Crimson Seas (empty in the base game)
    expansion: str = ""
    araby: list[str | None] = field(default_factory=list)   # 3 slots, top (dearest) first; None = empty
    goods_supply: list[str] = field(default_factory=list)
    nae: list[str | None] = field(default_factory=list)
    tome_supply: list[str] = field(default_factory=list)
    amarynth: list[str | None] = field(default_factory=list)
    noble_deck: list[str] = field(default_factory=list)
    exekratys: dict[str, int] = field(default_factory=dict)
    bank_maps: int = 0
    event_pool: list[str] = field(default_factory=list)   # Monster Events not revealed (on the Exhausted stack or boxed)
    events_on_top: int = 0                           # face down on top of the Exhausted stack
    event_at: dict[str, str] = field(default_factory=dict)     # Center position -> face-up Monster Event
    event_tokens: dict[str, dict[str, int]] = field(default_factory=dict)   # Monster Event -> tokens on it
    island_failed: list[str] = field(default_factory=list)

    @property
    def cs(self) -> bool:
        return self.expansion == "crimson_seas"

    @property
    def solo(self) -> bool:
        return False

    @property
    def events_on(self) -> bool:
        """Monster Events are played: with Crimson Seas, or on their own [CS Monster Event Cards]."""
        return self.cs or "monster_events" in self.options.get("expansions", [])

    def citizen_pool(self, stack: str) -> list[str]:
        """The Citizens of a mixed stack's Activation number not in sight (face down on it or back
        in the box, VP-40): every copy the content has, less those in the Center, the tableaux,
        the box and banished. Sorted: it has no order."""
        slot = self.activation(stack)
        seen = {c for pile in self.citizens.values() for c in pile} | set(self.box) | set(self.banished)
        seen |= {c for x in self.seats for c in x.citizens} | set(self.elsewhere())
        return sorted(f"{c['id']}#{k}" for c in self.content["citizens"] if c["activation"] == slot
                      for k in range(1, c["copies"] + 1) if f"{c['id']}#{k}" not in seen)

    def activation(self, stack: str) -> list[int]:
        """A Citizen stack's Activation number: its Citizens', or a mixed stack's own (VP-41)."""
        if stack.startswith(MIXED):
            return [int(x) for x in stack.removeprefix(MIXED).split("_")]
        return list(self.card(stack)["activation"])

    def elsewhere(self) -> list[str]:
        """Cards in sight outside the Center, the tableaux, the box and the banished (the solo
        Dark Lord's captures)."""
        return []

    def card(self, card_id: str) -> dict:
        return _cards(self)[card_id.split("#")[0].split("@")[0]]

    def top(self, stack: str) -> str | None:
        if stack in self.event_at:
            return self.event_at[stack]
        if stack in self.domains:
            return self.domains[stack]["up"]  # type: ignore[return-value]  # "up" holds a card or None; "down", the count
        pile = self.monsters.get(stack) or self.citizens.get(stack)
        return pile[-1] if pile else None

    def stack_kind(self, stack: str) -> str | None:
        if stack in self.event_at or stack in self.monsters:
            return "monster"
        if stack in self.citizens:
            return "citizen"
        if stack in self.domains:
            return "domain"
        return None

    def takeable(self, kind: str, max_cost: int | None, name: str | None = None) -> list[str]:
        """The Center stacks whose top card of that kind (and name) may be taken free [BR p.6 '≤']."""
        stacks = self.citizens if kind == "citizen" else self.domains
        out = []
        for st in stacks:
            top = self.top(st)
            if top is None or st in self.event_at:
                continue
            if (max_cost is None or self.card(top)["cost"] <= max_cost) and (name is None or self.card(top)["name"] == name):
                out.append(st)
        return out

    def home(self, card_id: str) -> str | None:
        """The Center stack a Citizen or Monster of this game came from, if it can go back on it
        now (a Starter, a Monster Event or a stack under a Monster Event has none)."""
        card = self.card(card_id)
        stack = card["id"] if card["kind"] == "citizen" else card.get("area") if card["kind"] == "monster" else None
        if card["kind"] == "citizen" and mixed_stack(card["activation"]) in self.citizens:
            stack = mixed_stack(card["activation"])  # [BR p.18] the stack of its Activation number
        if stack is None or stack in self.event_at or (stack not in self.citizens and stack not in self.monsters):
            return None
        return stack



@dataclass
class SoloState(ValeriaState):
    """The solo variant [BR p.16-18]: a game against the Dark Lord, a Duke face down above the
    Monster stacks (VP-19), who keeps the Citizens and Domains his Monsters capture. A class of
    its own, so that the other games' state (and its snapshot form) is unchanged."""
    dark_lord: str | None = None                                   # hidden from the seat until the end
    dark_lord_unnamed: bool = False   # VP-55: placed by a table face down, unseen; named when turned up to score
    dark_lord_may_be: list[str] = field(default_factory=list)   # VP-55: the Dukes not dealt to the player
    captured: list[str] = field(default_factory=list)              # Citizens and Domains next to the Dark Lord
    attacks: list[dict[str, Any]] = field(default_factory=list)    # Monsters Phase: {die, value} still to resolve

    @property
    def solo(self) -> bool:
        return True

    def elsewhere(self) -> list[str]:
        return list(self.captured)   # VP-49: captured from a mixed stack, in sight by the Dark Lord


def variants(options: dict) -> set[str]:
    """The variants an options object asks for: 'variant' is a name or a list of names."""
    v = options.get("variant", "standard")
    return set(v) if isinstance(v, list) else set() if v == "standard" else {v}


def mixed_stack(activation: list[int]) -> str:
    """The id of the mixed stack of an Activation number [BR p.18]: mixed_1 ... mixed_9_10, mixed_11_12."""
    return MIXED + "_".join(map(str, activation))


def lowest_copies(pool: list[str]) -> dict[str, str]:
    """Citizen type -> its lowest copy in the pool: what a table names by type stands for."""
    out: dict[str, str] = {}
    for c in sorted(pool, key=lambda c: (c.split("#")[0], int(c.split("#")[1]))):
        out.setdefault(c.split("#")[0], c)
    return out


# Card indexes by content key, built from the state's own content (never from domain/kit's
# store, which another request thread may have emptied of it meanwhile).
_CARDS = kit.LRU(16)


def _cards(s: ValeriaState) -> dict:
    return _CARDS.get_or_build(s.content_key, lambda: _index_cards(s.content))


def _index_cards(c: dict) -> dict:
    out = {}
    for kind, part in (("starter", "starters"), ("citizen", "citizens"), ("monster", "monsters"),
                       ("domain", "domains"), ("duke", "dukes")):
        for card in c[part]:
            out[card["id"]] = {**card, "kind": kind}
    if "crimson_seas" in c:
        x = c["crimson_seas"]
        out[x["coxswain"]["id"]] = {**x["coxswain"], "kind": "starter", "activation": []}
        for n in x["nobles"]:
            out[n["id"]] = {**n, "kind": "noble"}
        for e in x["monster_events"]:
            out[e["id"]] = {**e, "kind": "monster", "event": True, "area": None}
    for e in c.get("monster_events", []):  # the Monster Events on their own [CS Monster Event Cards]
        out[e["id"]] = {**e, "kind": "monster", "event": True, "area": None}
    return out


def initial_state() -> ValeriaState:
    return ValeriaState()


dump_state = kit.dump
_load_base = kit.loader(ValeriaState)
_load_solo = kit.loader(SoloState)


def load_state(data: dict) -> ValeriaState:
    """A ValeriaState, or a SoloState for a solo game's snapshot (kit.load)."""
    return _load_solo(data) if "dark_lord" in data else _load_base(data)


def evolve(state: ValeriaState, event: dict) -> ValeriaState:
    if event["type"] == "GameSetUp" and "solo" in variants(event["options"]) and not state.solo:
        state = SoloState()  # [BR p.16] the solo game: its state has the Dark Lord's part
    return kit.apply(_HANDLERS, state, event)


def _add(s, seat, got: dict, sign: int = 1) -> None:
    me = s.seats[seat]
    for r, n in got.items():
        if r == "map":     # Maps come from and go back to the Bank [CS Game Setup]
            me.maps += sign * n
            s.bank_maps -= sign * n
        elif r == "tomes":  # Tomes flipped face down to pay [CS Tome Tokens]
            for tome in n:
                me.tomes.remove(tome)
                me.tomes_down.append(tome)
        else:
            setattr(me, r, getattr(me, r) + sign * n)


def _remove_top(s, stack: str, card: str) -> None:
    if stack in s.event_at:
        del s.event_at[stack]  # its tokens stay counted until its reward is resolved
    elif stack in s.domains:
        s.domains[stack]["up"] = None
    else:
        (s.monsters.get(stack) if stack in s.monsters else s.citizens[stack]).pop()


def _game_set_up(s, e):
    s.seats = [Seat(name=p) for p in e["players"]]
    s.options = e["options"]
    s.content = e["content"]
    s.content_key = e["content_key"]
    s.chance_mode = e["chance"]["mode"]
    s.commitment = e["chance"]["commitment"]


def _center_laid_out(s, e):
    s.monsters = {k: list(v) for k, v in e["monsters"].items()}
    s.citizens = {k: list(v) for k, v in e["citizens"].items()}
    s.domains = {k: {"up": up, "down": e["face_down"][k]} for k, up in e["domains"].items()}
    s.domain_pool = list(e["domain_pool"]) if isinstance(e["domain_pool"], list) else []
    s.box = list(e["box"])
    s.exhausted_pile = e["exhausted"]


def _kingdoms_founded(s, e):
    for seat, cards in enumerate(e["starters"]):
        s.seats[seat].citizens = list(cards)
        _add(s, seat, e["resources"])


def _dukes_dealt(s, e):
    for seat, offer in enumerate(e["offers"]):
        s.seats[seat].offer = list(offer) if isinstance(offer, list) else []
    s.duke_pool = list(e["pool"]) if isinstance(e["pool"], list) else []
    s.phase = "dukes"


def _first_player_chosen(s, e):
    s.first = e["seat"]


def _duke_kept(s, e):
    me = s.seats[e["seat"]]
    me.duke = e.get("duke", "hidden")
    if "returned" in e:
        s.duke_pool = sorted(s.duke_pool + [e["returned"]])
    me.offer = []


def _turn_started(s, e):
    s.active = e["seat"]
    s.turn = e["turn"]
    s.resting = e["resting"]
    s.phase = "roll"
    s.dice = None
    s.changers_used = []
    s.items = []
    s.pending = []
    s.actions_left = 0
    s.granted = []


def _dice_rolled(s, e):
    s.dice = list(e["dice"])


def _die_changed(s, e):
    s.dice[e["die"]] = e["to"]
    s.changers_used.append(e["domain"])


def _harvest_began(s, e):
    s.phase = "harvest"
    s.items = [dict(i) for i in e["items"]]
    s.next_item = len(e["items"])
    s.activated = False


def _citizens_activated(s, e):
    s.items += [dict(i) for i in e["items"]]
    s.next_item += len(e["items"])
    s.activated = True


def _activation_resolved(s, e):
    s.items = [i for i in s.items if i["id"] != e["item"]]


def _gained(s, e):
    _add(s, e["seat"], e["gained"])


def _paid(s, e):
    _add(s, e["seat"], e["paid"], -1)


def _taken(s, e):
    _add(s, e["from"], {e["resource"]: e["amount"]}, -1)
    _add(s, e["seat"], {e["resource"]: e["amount"]})


def _card_gained(s, e):
    _remove_top(s, e["stack"], e["card"])
    me = s.seats[e["seat"]]
    if "paid" in e:
        _add(s, e["seat"], e["paid"], -1)
    kind = s.card(e["card"])["kind"]
    (me.victory if kind == "monster" else me.domains if kind == "domain" else me.citizens).append(e["card"])


def _card_banished(s, e):
    _remove_top(s, e["stack"], e["card"])
    s.banished.append(e["card"])


def _domain_revealed(s, e):
    st = s.domains[e["stack"]]
    st["up"] = e["card"]
    st["down"] -= 1
    if e["card"] in s.domain_pool:
        s.domain_pool.remove(e["card"])


def _stack_exhausted(s, e):
    s.exhausted.append(e["stack"])
    if e["card_placed"]:
        s.exhausted_pile -= 1
        s.exhausted_cards.append(e["stack"])


def _monster_taken(s, e):
    s.seats[e["from"]].victory.remove(e["card"])
    s.seats[e["seat"]].victory.append(e["card"])


def _card_returned(s, e):
    me = s.seats[e["seat"]]
    for pile in (me.citizens, me.victory, me.flipped):
        if e["card"] in pile:
            pile.remove(e["card"])
    (s.citizens if e["stack"] in s.citizens else s.monsters)[e["stack"]].append(e["card"])
    if e["stack"] in s.exhausted:
        s.exhausted.remove(e["stack"])
    if e["stack"] in s.exhausted_cards:  # VP-17: the Exhausted card goes back under the Exhausted stack
        s.exhausted_cards.remove(e["stack"])
        s.exhausted_pile += 1


def _action_phase_began(s, e):
    s.phase = "action"
    s.items = []
    s.actions_left = e["actions"]


def _action_taken(s, e):
    if e.get("granted"):  # [BR p.15] the additional action is part of the one that granted it
        s.granted.pop(0)
    else:
        s.actions_left -= 1


def _action_granted(s, e):
    s.granted.append(e["action"])


def _grant_lapsed(s, e):
    s.granted.pop(0)


def _reveal_postponed(s, e):
    s.reveals_waiting.append(e["stack"])


def _reveal_due(s, e):
    s.reveals_waiting.remove(e["stack"])


def _reward_awaited(s, e):
    s.pending.append({"source": e["source"], "effect": e["effect"],
                      **({"then_reveal": e["then_reveal"]} if "then_reveal" in e else {})})   # VP-47


def _reward_resolved(s, e):
    s.pending.pop(e.get("reward", 0))
    s.event_tokens.pop(e["source"], None)  # VA-29: tokens left on a slain card go back to the Bank


def _islands_laid_out(s, e):
    s.expansion = "crimson_seas"
    s.araby, s.nae, s.amarynth = list(e["araby"]), list(e["nae_aerie"]), list(e["amarynth"])
    for name, key in (("goods_supply", "goods_supply"), ("tome_supply", "tome_supply"), ("noble_deck", "noble_deck"),
                      ("event_pool", "event_pool")):
        setattr(s, name, list(e[key]) if isinstance(e[key], list) else [])
    s.exekratys = dict(e["exekratys"])
    s.bank_maps = e["bank_maps"]
    s.events_on_top = e["events_on_top"]
    for seat, x in enumerate(s.seats):
        x.citizens.append(e["coxswains"][seat])
        x.maps = e["maps_each"]


def _monster_events_set_out(s, e):
    s.event_pool = list(e["event_pool"]) if isinstance(e["event_pool"], list) else []
    s.events_on_top = e["events_on_top"]


def _citizen_revealed(s, e):
    s.citizens[e["stack"]][-1] = e["card"]   # [BR p.18] the Citizen under the one taken turns face up


def _offered(s, e):
    _add(s, e["seat"], {e["resource"]: 1}, -1)
    s.exekratys[e["resource"]] += 1


def _tokens_added(s, e):
    s.event_tokens.setdefault(e["card"], {})
    s.event_tokens[e["card"]][e["resource"]] = s.event_tokens[e["card"]].get(e["resource"], 0) + e["amount"]
    if e.get("seat") is not None:
        _add(s, e["seat"], {e["resource"]: e["amount"]}, -1)


def _citizen_flipped(s, e):
    s.seats[e["target"]].flipped.append(e["card"])


def _event_revealed(s, e):
    s.event_at[e["stack"]] = e["card"]
    s.event_pool.remove(e["card"])
    s.events_on_top -= 1
    if e["stack"] not in s.exhausted:
        s.exhausted.append(e["stack"])


def _exhausted_card_placed(s, e):
    s.exhausted_pile -= 1
    s.exhausted_cards.append(e["stack"])


def _island_bought(s, e):
    me = s.seats[e["seat"]]
    slots = s.araby if e["island"] == "araby" else s.nae if e["island"] == "nae_aerie" else s.amarynth
    for slot in e["slots"]:
        item = slots[slot]
        slots[slot] = None
        (me.goods if e["island"] == "araby" else me.tomes if e["island"] == "nae_aerie" else me.nobles).append(item)
    _add(s, e["seat"], e.get("paid", {}), -1)


def _exekratys_taken(s, e):
    _add(s, e["seat"], {e["resource"]: e["amount"]})
    s.exekratys[e["resource"]] = 0


def _island_refreshed(s, e):
    slots = s.araby if e["island"] == "araby" else s.nae if e["island"] == "nae_aerie" else s.amarynth
    slots[:] = e["slots"]
    supply = s.goods_supply if e["island"] == "araby" else s.tome_supply if e["island"] == "nae_aerie" else s.noble_deck
    for item in e["drawn"]:
        supply.remove(item)
    if e["failed"] and e["island"] not in s.island_failed:
        s.island_failed.append(e["island"])


def _tomes_restored(s, e):
    me = s.seats[e["seat"]]
    me.tomes += me.tomes_down
    me.tomes_down = []


def _turn_ended(s, e):
    s.end_triggered = e["end_triggered"]  # [BR p.19] met or not at the end of each turn: a returned card extends the game
    s.phase = "end"


def _game_ended(s, e):
    s.finished = True
    s.phase = "over"
    s.result = e["result"]
    s.seed = e.get("seed")
    for seat, duke in enumerate(e["dukes"]):
        s.seats[seat].duke = duke
    if "dark_lord" in e:  # [BR p.17] 'reveal the face of the Dark Lord'
        s.dark_lord = e["dark_lord"]


# -- the solo variant [BR p.16-18] (a SoloState)

def _dark_lord_placed(s, e):
    if e.get("unnamed"):   # VP-55: nobody knows it, the host included, until it is turned up to score
        # one of the Dukes not dealt to the player [BR p.5, p.16]: the pool as dealt, before the
        # Duke the player does not keep goes back to it
        s.dark_lord, s.dark_lord_unnamed, s.dark_lord_may_be = None, True, sorted(s.duke_pool)
        return
    s.dark_lord = e.get("duke", "hidden")  # as a seat reads it, the Duke is not in the event (view.redact)


def _dark_lord_revealed(s, e):
    """[BR p.17] 'reveal the face of the Dark Lord', named by the table that placed it unseen (VP-55)."""
    s.dark_lord = e["duke"]
    if e["duke"] in s.duke_pool:   # a seat's copy of the log holds the pool as a count only (view.redact)
        s.duke_pool.remove(e["duke"])


def _monsters_phase_began(s, e):
    s.phase = "monsters"
    s.attacks = [dict(a) for a in e["attacks"]]


def _monster_activated(s, e):
    s.attacks = [a for a in s.attacks if a["die"] != e["die"]]


def _card_captured(s, e):
    _remove_top(s, e["stack"], e["card"])
    s.captured.append(e["card"])


def _second_harvest_began(s, e):
    s.phase = "second_harvest"
    s.items = [dict(i) for i in e["items"]]
    s.next_item = len(e["items"])
    s.activated = True


_HANDLERS = {
    "GameSetUp": _game_set_up,
    "CenterLaidOut": _center_laid_out,
    "KingdomsFounded": _kingdoms_founded,
    "DukesDealt": _dukes_dealt,
    "FirstPlayerChosen": _first_player_chosen,
    "DukeKept": _duke_kept,
    "TurnStarted": _turn_started,
    "DiceRolled": _dice_rolled,
    "DieChanged": _die_changed,
    "HarvestBegan": _harvest_began,
    "CitizensActivated": _citizens_activated,
    "ActivationResolved": _activation_resolved,
    "Gained": _gained,
    "Paid": _paid,
    "Taken": _taken,
    "CardGained": _card_gained,
    "CardBanished": _card_banished,
    "DomainRevealed": _domain_revealed,
    "StackExhausted": _stack_exhausted,
    "CardReturned": _card_returned,
    "MonsterTaken": _monster_taken,
    "ActionPhaseBegan": _action_phase_began,
    "ActionTaken": _action_taken,
    "ActionGranted": _action_granted,
    "RevealPostponed": _reveal_postponed,
    "RevealDue": _reveal_due,
    "GrantLapsed": _grant_lapsed,
    "RewardAwaited": _reward_awaited,
    "RewardResolved": _reward_resolved,
    "TurnEnded": _turn_ended,
    "IslandsLaidOut": _islands_laid_out,
    "Offered": _offered,
    "TokensAdded": _tokens_added,
    "CitizenFlipped": _citizen_flipped,
    "EventRevealed": _event_revealed,
    "MonsterEventsSetOut": _monster_events_set_out,
    "CitizenRevealed": _citizen_revealed,
    "ExhaustedCardPlaced": _exhausted_card_placed,
    "IslandBought": _island_bought,
    "ExekratysTaken": _exekratys_taken,
    "IslandRefreshed": _island_refreshed,
    "TomesRestored": _tomes_restored,
    "GameEnded": _game_ended,
    "DarkLordPlaced": _dark_lord_placed,
    "DarkLordRevealed": _dark_lord_revealed,
    "MonstersPhaseBegan": _monsters_phase_began,
    "MonsterActivated": _monster_activated,
    "MonsterNotActivated": _monster_activated,
    "CardCaptured": _card_captured,
    "SecondHarvestBegan": _second_harvest_began,
}

assert set(RESOURCES) <= set(Seat.__dataclass_fields__)
