"""League of Pirates: what each seat may see.

Hidden: a league chosen before both are chosen (the other seat sees only that a choice was
made); which coins a blind draw produced and which went back (the drawer's alone, LP-A18);
the contents of a Homeport Bag (its owner sees them, the other seat a count).
"""
from __future__ import annotations

from .. import kit
from ..ruleset import ARBITER
from .rules import challenge_score, to_move
from .state import CREW_SLOTS, LeagueState


def _sees(viewer, seat: int) -> bool:
    return viewer in (ARBITER, seat)


def _coin(s: LeagueState, coin: str | None) -> dict | None:
    if coin is None:
        return None
    c = s.coins[coin]
    return {"id": coin, "name": c["name"], "role": c["role"], "color": c["color"], "cunning": c["cunning"],
            "skills": c["skills"], "traitor": coin in s.traitors}


def view(s: LeagueState, viewer) -> dict:
    if not s.seats:
        return {}
    revealed = all(x.league is not None for x in s.seats) and s.phase != "leagues"
    seats = []
    for i, x in enumerate(s.seats):
        seat = {"seat": i, "name": x.name, "coin_set": x.coin_set, "points": x.points,
                "league": x.league if (revealed or _sees(viewer, i)) else None,
                "league_chosen": x.league is not None,
                # LP-A15: the colour bonus follows the Captain now aboard, which may differ
                "bonus_color": s.coins[x.crew["captain"]]["color"] if x.crew["captain"] else None,
                "crew": {slot: _coin(s, x.crew[slot]) for slot in CREW_SLOTS},
                "brig": [_coin(s, c) for c in x.brig],
                "bag_count": len(x.bag)}
        if _sees(viewer, i):
            seat["bag"] = sorted(x.bag)   # a bag has no order
        seats.append(seat)
    challenge = None
    if s.challenge is not None:
        c = s.challenge
        challenge = {"purpose": c.purpose, "round": c.round,
                     "players": [{"seat": i, "throws": c.throws[i], "dice": c.dice[i], "banked": c.banked[i],
                                  "ended": c.ended[i], "score": challenge_score(c.dice[i], c.banked[i])}
                                 for i in (0, 1)]}
    pending = None
    if s.pending is not None:
        pending = {k: v for k, v in s.pending.items() if k != "drawn"}
        if s.pending.get("kind") == "draw":
            pending["count"] = len(s.pending["drawn"])
            if _sees(viewer, s.pending["seat"]) or s.options["reveal_drawn_coins"]:
                pending["drawn"] = [_coin(s, c) for c in s.pending["drawn"]]
    out = {
        "seats": seats,
        "phase": s.phase,
        "turn": s.turn,
        "to_move": to_move(s),
        "actor": s.actor,
        "challenge": challenge,
        "pending": pending,
        "set_sail_by": s.set_sail_by,
        "walked_the_plank": list(s.removed),
        "skill_names": s.content.get("skillNames"),
        "options": s.options,
        "content": {"id": s.content.get("id"), "printed": s.content.get("printed"), "notice": s.content.get("notice")},
    }
    if viewer == ARBITER:
        out.update(pools(s))
    return out


def pools(s: LeagueState) -> dict:
    """The host's listing of the face-down pools (TM-2): each Homeport Bag ([Press Gang],
    [Recruit] 'blindly pull'), whose coins 'coins' may name. The coins drawn and not yet
    placed or returned are out of the bag (the view's `pending` shows them to who may see)."""
    bags = {f"homeport_bag_{i}": list(x.bag) for i, x in enumerate(s.seats)}
    return kit.pool_listing(bags, bags)


def redact(event: dict, viewer) -> dict:
    t = event["type"]
    if t == "LeagueChosen" and not _sees(viewer, event["seat"]):
        return {"type": t, "seat": event["seat"]}
    if t == "LeaguesRevealed" and viewer != ARBITER:
        bags = [b if viewer == i else len(b) for i, b in enumerate(event["bags"])]
        return {**event, "bags": bags}
    if t in ("CoinsDrawn", "CoinsReturned") and not _sees(viewer, event["seat"]) and not event.get("revealed"):
        # the placed coin becomes public in CoinPlaced; the others stay the drawer's secret
        return {k: v for k, v in event.items() if k != "coins"}
    return event


def redact_command(command: dict, actor: int, viewer) -> dict:
    """The sealed league is its chooser's until revealed; the coins the table drew from a bag
    (`coins`) are the host's report, in no seat's copy of the command, the actor's included
    (TM-3): each seat reads its own draws in the events."""
    if viewer == ARBITER:
        return command
    if command.get("type") == "choose_league" and not _sees(viewer, actor):
        return {"type": "choose_league"}
    if command.get("type") in ("press_gang", "recruit"):
        return {k: v for k, v in command.items() if k != "coins"}
    return command
