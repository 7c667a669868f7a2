"""League of Pirates: every command a seat may send now, as complete bodies.

Checked against decide() by random playouts. In table-chance games the commands that roll
or draw are listed without their outcome fields; table_inputs() says what to add.
"""
from __future__ import annotations

from itertools import combinations

from .rules import COSTS, PLANK_FEE, SUBSTITUTE_COST, rescue_defenders, to_move
from .state import CREW_SLOTS, LEAGUES, ROLE_OF_SLOT, LeagueState

# table_inputs fields that are drawn from a hidden pool, which only the host token reports
# (docs/rulings.md TM-1): coins from a Homeport Bag. Dice and Skill Dice are the seat's.
DRAWN_FIELDS = frozenset({"coins"})


def legal_commands(s: LeagueState, seat: int) -> list[dict]:
    if seat not in to_move(s):
        return []
    me, _other = s.seats[seat], s.seats[1 - seat]
    if s.phase == "leagues":
        return [{"type": "choose_league", "league": c} for c in LEAGUES]
    if s.phase == "challenge":
        return _challenge(s, seat)
    if s.phase == "action":
        return _actions(s, seat)
    if s.phase == "draw":
        assert s.pending is not None, "to_move is nobody without the drawn coins"
        out: list[dict] = [{"type": "return_coins"}]
        for coin in s.pending["drawn"]:
            for slot in _slots(s, seat, coin, 0):
                out.append({"type": "place_coin", "coin": coin, "slot": slot})
        return out
    if s.phase == "raid_defence":
        assert s.pending is not None, "RaidDeclared sets it with the phase"
        out = [{"type": "defend_raid"}]
        if me.points >= SUBSTITUTE_COST:
            out += [{"type": "defend_raid", "with": c} for slot, c in me.crew.items()
                    if c is not None and c != s.pending["target"]
                    and (slot != "captain" or s.options["captain_may_defend"])]
        return out
    if s.phase == "rescue_defence":
        return [{"type": "choose_rescue_defender", "coin": c} for c in rescue_defenders(s, seat)]
    if s.phase == "rescue_placement":
        assert s.pending is not None, "to_move is nobody without the rescued coin"
        coin, original = s.pending["coin"], s.pending["slot"]
        out = [{"type": "place_rescued_coin", "to_bag": True}]
        slots = [original] + ([sl for sl in ("mate1", "mate2", "mate3") if me.crew[sl] is None]
                              if s.coins[coin]["role"] == "mate" else [])
        for slot in dict.fromkeys(slots):
            if slot in _slots(s, seat, coin, 0):
                out.append({"type": "place_rescued_coin", "slot": slot})
        return out
    return []


def _slots(s: LeagueState, seat: int, coin: str, paying: int) -> list[str]:
    """Slots this coin may go into, the plank fee for a replaced Traitor being payable."""
    me = s.seats[seat]
    out = []
    for slot in CREW_SLOTS:
        if ROLE_OF_SLOT[slot] != s.coins[coin]["role"]:
            continue
        if slot == "captain" and not s.options["captain_replaceable"]:
            continue
        occupant = me.crew[slot]
        if occupant in s.traitors and me.points < paying + PLANK_FEE:
            continue
        out.append(slot)
    return out


def _challenge(s: LeagueState, seat: int) -> list[dict]:
    c = s.challenge
    assert c is not None, "ChallengeStarted sets it with the phase"
    banked = set(c.banked[seat].values())
    if c.throws[seat] == 0:
        return [{"type": "throw_dice", "keep": []}]
    out = []
    free = [i for i in range(5) if i not in banked]
    scc = s.options["challenge_qualification"] == "scc" and len(banked) < 3
    for k in range(len(free)):  # keep fewer than all free dice: at least one is thrown
        for extra in combinations(free, k):
            if scc and extra:
                continue
            out.append({"type": "throw_dice", "keep": sorted(banked | set(extra))})
    out.append({"type": "stop_throwing"})
    return out


def _actions(s: LeagueState, seat: int) -> list[dict]:
    me, other = s.seats[seat], s.seats[1 - seat]
    out = []
    if me.bag and me.points >= COSTS["press_gang"]:
        out.append({"type": "press_gang"})
    if me.bag and me.points >= COSTS["recruit"]:
        out.append({"type": "recruit"})
    out.append({"type": "resupply"})
    fighters = [c for c in me.crew.values() if c is not None and c not in s.traitors]
    if me.points >= COSTS["turn_coin"]:
        out += [{"type": "turn_coin", "coin": c} for slot, c in other.crew.items()
                if c is not None and slot != "captain" and c not in s.traitors]
    if me.points >= COSTS["raid"] and None in me.brig:
        out += [{"type": "raid", "target": t, "raider": r} for slot, t in other.crew.items()
                if t is not None and slot != "captain" for r in fighters]
    if me.points >= COSTS["rescue"] and rescue_defenders(s, 1 - seat):
        out += [{"type": "rescue", "prisoner": p, "raider": r} for p in other.brig
                if p is not None and s.captured.get(p, {}).get("from") == seat for r in fighters]
    if me.points >= COSTS["enlist"]:
        out += [{"type": "enlist", "coin": c, "slot": slot} for c in me.brig if c is not None
                for slot in _slots(s, seat, c, COSTS["enlist"])]
    crew_full = all(me.crew[sl] is not None and (s.options["traitors_count_for_crew"] or me.crew[sl] not in s.traitors)
                    for sl in CREW_SLOTS)
    if crew_full and me.points >= COSTS["set_sail"]:
        out.append({"type": "set_sail"})
    if s.options["allow_pass"]:
        out.append({"type": "pass_turn"})
    return out


def table_inputs(s: LeagueState, seat: int) -> dict:
    if s.chance_mode != "table" or seat not in to_move(s):
        return {}
    if s.phase == "challenge":
        throws = [c for c in legal_commands(s, seat) if c["type"] == "throw_dice"]
        return {"throw_dice": {"values": {"count": "one for each die not kept, in position order",
                                          "one_of": list(range(1, 7)), "description": THROWN,
                                          "by_command": [{"command": c, "count": 5 - len(c["keep"])} for c in throws]}}}
    if s.phase == "action":
        # Only the draws this seat may send now: a Press Gang or a Recruit it cannot pay for, or
        # from an empty bag, takes no coin and is not offered ([Press Gang], [Recruit]).
        n = len(s.seats[seat].bag)
        legal = {c["type"] for c in legal_commands(s, seat)}
        specs = {"press_gang": (1, PULLED_ONE), "recruit": (3, PULLED_THREE)}
        return {kind: {"coins": {"count": min(most, n), "from": f"seat {seat}'s Homeport Bag",
                                 "description": words.replace("<seat>", str(seat))}}
                for kind, (most, words) in specs.items() if kind in legal}
    section = "[Raiding]" if s.phase == "raid_defence" else "[Rescue]"
    rolls = {"rolls": {"skills": {"count": 2, "one_of": s.content["skillDie"]["faces"],
                                  "order": "raider's Skill Die, defender's Skill Die",
                                  "description": f"The raider's then the defender's Skill Die face {section}."},
                       "dice": {"count": 2, "one_of": list(range(1, 7)), "order": "raider's die, defender's die",
                                "description": f"The raider's then the defender's Standard Die value {section}."},
                       "description": ROLLS.format(section=section)}}
    if s.phase == "raid_defence":
        return {"defend_raid": rolls}
    if s.phase == "rescue_defence":
        return {"choose_rescue_defender": rolls}
    return {}


# What each table input carries (the 'description' of its spec, and of the command schema's field).
THROWN = ("The value each die thrown shows, in position order: every die not kept [Dice Challenge]; the "
          "throwing seat reports them.")
HOST_REPORTS = ("; only the host token reports them (TM-1), naming coins the host's view lists under "
        "nameable.homeport_bag_<seat>.")
PULLED_ONE = "The coin pulled blindly from the seat's Homeport Bag [Press Gang]" + HOST_REPORTS
PULLED_THREE = ("The coins pulled blindly from the seat's Homeport Bag: three, or all it holds if fewer "
                "[Recruit]" + HOST_REPORTS)
ROLLS = ("The raid's dice: 'skills' the raider's then the defender's Skill Die face, 'dice' the raider's then "
         "the defender's Standard Die {section}; the seat sending the command reports them.")
