"""Valeria: Card Kingdoms: what each seat may see.

Everything is face up but the Dukes [BR p.15: "Your Duke is kept secret during the game"]:
each player sees the two dealt to them and the one they keep; nobody else sees either until
the game ends, when every Duke is revealed for scoring. The face-down Domains and the Dukes
nobody holds are nobody's: only their counts are shown (the arbiter sees the pools). With
Crimson Seas so are the Goods and Tome supplies, the Noble deck and the Monster Events face
down on the Exhausted stack; everything on the Island Board and in a tableau is face up.
The Monster Events on their own (options.expansions ["monster_events"]) are shown as with
Crimson Seas: how many lie face down, and those face up with their tokens. In the Mixed Citizen
Variant [BR p.18] a face-down Citizen is shown as "face_down" under the face-up ones, for
everyone, the arbiter too: the state holds no identity for it (VP-40). In the solo variant the
Dark Lord's Duke is face down until the end: only the arbiter sees it (`dark_lord.duke`, and
`DarkLordPlaced` without it); what his Monsters captured is face up.
"""
from __future__ import annotations

from .. import kit
from ..ruleset import ARBITER
from .effects import asks
from .rules import face_down_events, moment, points, to_move
from .solo import columns
from .state import FACE_DOWN, MIXED, SoloState, ValeriaState


def _sees(viewer, seat) -> bool:
    return viewer in (ARBITER, seat)


def _seat(s: ValeriaState, i: int, viewer) -> dict:
    x = s.seats[i]
    seat = {"seat": i, "name": x.name, "gold": x.gold, "strength": x.strength, "magic": x.magic,
            "victory_point_tokens": x.vp, "citizens": list(x.citizens), "domains": list(x.domains),
            "victory": list(x.victory), "has_kept_duke": x.duke is not None}
    if s.finished or _sees(viewer, i):
        seat["duke"] = x.duke
        seat["duke_offer"] = list(x.offer)
    if s.cs:
        seat.update({"maps": x.maps, "goods": list(x.goods), "tomes": list(x.tomes), "tomes_face_down": list(x.tomes_down),
                     "nobles": list(x.nobles), "flipped": list(x.flipped)})
    elif s.events_on:  # [CS Skeleton Army] a Citizen flipped face down
        seat["flipped"] = list(x.flipped)
    if s.finished:
        # as the game was scored when it ended (GameEnded's result), never by rules of a later version
        stored = (s.result or {}).get("points")
        seat["points"] = dict(stored[i]) if isinstance(stored, list) and i < len(stored) else points(s, i)
    return seat


def view(s: ValeriaState, viewer) -> dict:
    if not s.seats:
        return {}
    out = {
        "seats": [_seat(s, i, viewer) for i in range(len(s.seats))],
        "phase": s.phase,
        "turn": s.turn,
        "first_player": s.first,
        "active": s.active,
        "resting": s.resting,
        "to_move": to_move(s),
        "awaiting": moment(s),
        "dice": s.dice,
        "values": None if s.dice is None else [s.dice[0], s.dice[1], sum(s.dice)],
        "domains_used_this_roll": list(s.changers_used),
        "harvest": [dict(i) for i in s.items],
        "pending_rewards": [{**p, "asks": asks(p["effect"])} for p in s.pending],
        "actions_left": s.actions_left,
        "granted_actions": list(s.granted),          # [BR p.15] additional actions to take now (VP-15)
        "reveals_waiting": list(s.reveals_waiting),  # stacks turned up once those are done (VP-53)
        "monster_stacks": {k: list(v) for k, v in s.monsters.items()},
        "citizen_stacks": {k: list(v) for k, v in s.citizens.items()},
        "domain_stacks": {k: dict(v) for k, v in s.domains.items()},
        "face_down_domains": len(s.domain_pool),
        "dukes_unseen": len(s.duke_pool),
        "exhausted_stack": s.exhausted_pile,
        "exhausted_positions": list(s.exhausted),
        "set_aside": list(s.box),
        "banished": list(s.banished),
        "end_triggered": s.end_triggered,
        "result": s.result,
        "options": s.options,
        "content": {"id": s.content.get("id"), "printed": s.content.get("printed"), "notice": s.content.get("notice")},
    }
    if s.cs:
        out["islands"] = {"araby": list(s.araby), "nae_aerie": list(s.nae), "amarynth": list(s.amarynth),
                          "exekratys": dict(s.exekratys), "goods_supply": len(s.goods_supply),
                          "tome_supply": len(s.tome_supply), "noble_deck": len(s.noble_deck),
                          "failed": list(s.island_failed)}
        out["bank_maps"] = s.bank_maps
    if s.events_on:
        out["monster_events_face_down"] = s.events_on_top
        out["monster_events"] = {k: {"card": v, "tokens": dict(s.event_tokens.get(v, {}))} for k, v in s.event_at.items()}
    out.update({"dark_lord": _dark_lord(s, viewer)} if isinstance(s, SoloState) else {})  # [BR p.16] solo
    if viewer == ARBITER:
        out["domain_pool"] = sorted(s.domain_pool)
        out["duke_pool"] = sorted(s.duke_pool)
        out.update(pools(s))
    return out


def pools(s: ValeriaState) -> dict:
    """The host's listing of the face-down pools (TM-2), and the ids 'revealed' may name.

    `domains`: every Domain neither face up nor taken, face down under a Domain stack or back
    in the box: the state holds no split (VP-1), so neither does the listing (VP-46). `dukes`:
    the Dukes nobody holds, never turned up in play (nothing names them). With Crimson Seas the
    Goods and Tome supplies and the Noble deck; with the Monster Events, `monster_events`: those
    face down on the Exhausted stack and those boxed, one pool (VP-1). Goods and Tomes are
    copies (`fabrics#2`): counted by type, each copy still in the supply `nameable`.
    A mixed stack's face-down Citizens [BR p.18] are no pool: which Citizens lie there is
    nobody's, the arbiter's included (VP-40), so they are not listed. 'revealed' names the one
    turned up by its type, which stands for its lowest copy not in sight: `nameable` under the
    stack's id lists those types, never a copy id (VP-40 names no Citizen not in sight, in any
    view; VP-46)."""
    held = {"domains": list(s.domain_pool), "dukes": list(s.duke_pool)}
    named = {"domains": list(s.domain_pool)}
    if getattr(s, "dark_lord_unnamed", False) and getattr(s, "dark_lord", None) is None and not s.finished:
        named["dark_lord"] = list(getattr(s, "dark_lord_may_be", []))   # VP-55: the solo Dark Lord, placed unseen
    if s.cs:
        supplies = {"goods_supply": list(s.goods_supply), "tome_supply": list(s.tome_supply),
                    "noble_deck": list(s.noble_deck)}
        held.update(supplies)
        named.update(supplies)
    if s.events_on:
        held["monster_events"] = list(s.event_pool)
        named["monster_events"] = face_down_events(s)   # only those preselected, once they are all that is left (VP-48)
    for stack, pile in s.citizens.items():
        if stack.startswith(MIXED) and FACE_DOWN in pile:
            named[stack] = sorted({kit.printed_id(c) for c in s.citizen_pool(stack)})
    return kit.pool_listing(held, named)


def _dark_lord(s: SoloState, viewer) -> dict:
    """[BR p.16] the Dark Lord's Duke lies face down until the game is scored ('reveal the face of
    the Dark Lord', p.17); what his Monsters captured lies face up beside it (VP-19, VP-20)."""
    return {"duke": s.dark_lord if s.finished or viewer == ARBITER else None, "captured": list(s.captured),
            "monster_attacks": [dict(a) for a in s.attacks], "columns": columns(s)}


def redact(event: dict, viewer) -> dict:
    if viewer == ARBITER:
        return event
    t = event["type"]
    if t == "CenterLaidOut":
        return {**event, "domain_pool": len(event["domain_pool"])}
    if t == "IslandsLaidOut":  # the supplies, the Noble deck and which Monster Events are set out are nobody's
        return {**event, **{k: len(event[k]) for k in ("goods_supply", "tome_supply", "noble_deck", "event_pool")}}
    if t == "MonsterEventsSetOut":  # which Monster Events are set out is nobody's
        return {**event, "event_pool": len(event["event_pool"])}
    if t == "DukesDealt":
        return {"type": t, "offers": [o if viewer == i else len(o) for i, o in enumerate(event["offers"])],
                "pool": len(event["pool"])}
    if t == "DukeKept" and viewer != event["seat"]:
        return {"type": t, "seat": event["seat"]}
    if t == "DarkLordPlaced":  # [BR p.16] face down (VP-19); placed unseen at a table, nobody's (VP-55)
        return {"type": t, "unnamed": True} if event.get("unnamed") else {"type": t}
    return event


def redact_command(command: dict, actor: int, viewer) -> dict:
    """The Duke kept is its keeper's secret."""
    if _sees(viewer, actor) or command.get("type") != "keep_duke":
        return command
    return {k: v for k, v in command.items() if k != "duke"}
