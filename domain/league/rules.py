"""League of Pirates: decide(), one handler per command.

Every check cites the rulebook section it enforces (../shared/rules/league-of-pirates.txt)
or, where the rulebook is silent, a ruling in docs/rulings.md (LP-A.., LP-P..).
Handlers work on a Draft, a clone to which each event is applied as it is emitted.

decide() and gate() are kit.Rules' (RULES, at the end): the opening refusals, then the
moments (MOMENTS: for each, the commands it allows, its section, its words and who is to
move), then the handler. Sections are kit.Section.
"""
from __future__ import annotations

from .. import kit
from ..chance import CHANCE_RULE
from ..kit import Section
from ..ruleset import Rejected
from .state import CREW_SLOTS, LEAGUES, ROLE_OF_SLOT, LeagueState, evolve

SET_UP = Section("Set Up")
CHALLENGE = Section("Dice Challenge")
ACTIONS = Section("Actions")
PRESS_GANG = Section("Press Gang")
RECRUIT = Section("Recruit")
RESUPPLY = Section("Resupply")
TURNING = Section("Turning")
PLANK = Section("Walk the Plank")
RAIDING = Section("Raiding")
ENLISTMENT = Section("Enlistment")
RESCUE = Section("Rescue")
SET_SAIL = Section("Set Sail")
WINNING = Section("Winning")

COSTS = {"press_gang": 1, "recruit": 3, "turn_coin": 2, "raid": 2, "enlist": 1, "rescue": 2, "set_sail": 2}
PLANK_FEE = 1
SUBSTITUTE_COST = 2
LEAGUE_NAMES = {"blue": "Nobles (blue)", "red": "Rogues (red)", "yellow": "Independents (yellow)"}


class Draft(kit.Draft):
    def __init__(self, state: LeagueState, chance):
        super().__init__(state, chance, evolve)

    def pay(self, seat: int, amount: int, reason: str, section: Section) -> None:
        """[Actions] actions cost points; LP-A11: points never go below 0."""
        have = self.s.seats[seat].points
        if have < amount:
            raise Rejected("INSUFFICIENT_POINTS", section,
                           f"This costs {amount} point{'s' if amount != 1 else ''} and you have {have}.",
                           ruling="LP-A11")
        self.emit("PointsPaid", seat=seat, amount=amount, reason=reason)

    def gain(self, seat: int, amount: int, reason: str) -> None:
        cap = self.s.options["points_max"] if self.s.options["points_max"] is not None else self.s.content["pointsMax"]
        have = self.s.seats[seat].points
        got = amount if cap is None else max(0, min(amount, cap - have))
        self.emit("PointsGained", seat=seat, amount=got, reason=reason)

    def next_turn(self) -> None:
        """[Actions] "Once a single action has been completed, continue game play by rolling
        another Dice Challenge." """
        self.emit("TurnStarted", turn=self.s.turn + 1)
        self.emit("ChallengeStarted", purpose="turn", round=1)


# -- decide: the opening and the moments -------------------------------------------------------
# decide() and gate() are kit.Rules' (RULES, below HANDLERS): over, unknown command, no such
# seat, the moment (MOMENTS), then the handler.

def moment_of(s: LeagueState) -> str:
    """The phase; the coins drawn by a Recruit are placed under its own section."""
    if s.phase == "draw" and s.pending and s.pending.get("action") == "recruit":
        return "recruit_draw"
    return s.phase


def _choosers(s: LeagueState) -> list[int]:
    return [i for i, seat in enumerate(s.seats) if seat.league is None]


def _throwers(s: LeagueState) -> list[int]:
    assert s.challenge is not None, "ChallengeStarted sets it with the phase"
    return [i for i in (0, 1) if not s.challenge.ended[i]]


def _actor(s: LeagueState) -> list[int]:
    assert s.actor is not None, "ChallengeResolved sets it with the phase; only ChallengeStarted clears it"
    return [s.actor]


def _placer(s: LeagueState) -> list[int]:
    # A stored version may fall inside one command's batch: the drawn or rescued coins are
    # placed or back in a bag (CoinsReturned, CoinPlaced, RescuedCoinReturned) and the next
    # turn's events of the same batch are still to come. Nothing is left to decide.
    if s.pending is None:
        return []
    assert s.actor is not None, "a coin is drawn or rescued by the actor"
    return [s.actor]


def _defender(s: LeagueState) -> list[int]:
    assert s.actor is not None, "a raid or a rescue is declared by the actor"
    return [1 - s.actor]


def to_move(s: LeagueState) -> list[int]:
    return MOMENTS.to_move(s)


# -- Set Up -------------------------------------------------------------------------

def choose_league(d: Draft, seat: int, command: dict) -> None:
    """[Set Up] Secretly choose the league you wish to play; both are revealed at once."""
    s = d.s
    league = command.get("league")
    if league not in LEAGUES:
        raise Rejected("INVALID_COMMAND", SET_UP, "'league' must be blue (Nobles), red (Rogues) or yellow (Independents).")
    d.emit("LeagueChosen", seat=seat, league=league)
    if all(x.league is not None for x in s.seats):
        leagues = [x.league for x in s.seats]
        captains: list[str] = []
        bags: list[list[str]] = [[], []]
        for i, x in enumerate(s.seats):
            mine = [c for c in s.content["coins"] if c["set"] == x.coin_set]
            captain = next(c["id"] for c in mine if c["color"] == leagues[i] and c["role"] == "captain")
            captains.append(captain)
            # [Set Up] the rest of your league into your bag, the other two leagues into the opponent's.
            bags[i] += [c["id"] for c in mine if c["color"] == leagues[i] and c["id"] != captain]
            bags[1 - i] += [c["id"] for c in mine if c["color"] != leagues[i]]
        d.emit("LeaguesRevealed", leagues=leagues, captains=captains, bags=[sorted(b) for b in bags])
        d.next_turn()


# -- Dice Challenge -----------------------------------------------------------------

def _bank(dice: list, banked: dict, eligible: list[int]) -> dict:
    """Set aside 1, then 2, then 3, in that order, from the eligible dice. [Dice Challenge]"""
    banked = dict(banked)
    used = set(banked.values())
    for need in (1, 2, 3):
        key = str(need)
        if key in banked:
            continue
        found = next((i for i in eligible if dice[i] == need and i not in used), None)
        if found is None:
            break
        banked[key] = found
        used.add(found)
    return banked


def challenge_score(dice: list, banked: dict) -> int | None:
    """[Dice Challenge] with 1-2-3 the score is the sum of the other two dice."""
    if len(banked) < 3:
        return None
    return sum(v for i, v in enumerate(dice) if i not in banked.values())


def throw_dice(d: Draft, seat: int, command: dict) -> None:
    """[Dice Challenge] three rolls to roll 1-2-3 in order; keep or pick up any dice per throw."""
    s = d.s
    c = s.challenge
    keep = command.get("keep", [])
    if (not isinstance(keep, list) or len(set(map(repr, keep))) != len(keep)
            or not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 5 for i in keep)):
        raise Rejected("INVALID_COMMAND", CHALLENGE, "'keep' must list distinct dice positions 0 to 4.")
    if c.throws[seat] == 0 and keep:
        raise Rejected("FIRST_THROW_ALL_DICE", CHALLENGE, "The first throw rolls all five dice.", ruling="LP-P4")
    if len(keep) == 5:
        raise Rejected("NOTHING_TO_THROW", CHALLENGE, "Pick up at least one die to throw, or stop throwing.",
                       ruling="LP-P4")
    banked = c.banked[seat]
    if not set(banked.values()) <= set(keep):
        missing = sorted(set(banked.values()) - set(keep))
        raise Rejected("MUST_KEEP_BANKED", CHALLENGE, "Dice set aside for 1-2-3 stay set aside: add position"
                       + ("s " if len(missing) > 1 else " ") + ", ".join(map(str, missing)) + " to 'keep'.",
                       ruling="LP-A5")
    mode = s.options["challenge_qualification"]
    if mode == "scc" and len(banked) < 3 and set(keep) != set(banked.values()):
        raise Rejected("HOLD_NOT_ALLOWED", CHALLENGE,
                       "Until you have 1-2-3 you re-throw every die not set aside (house rule 'scc').", ruling="LP-A4")
    thrown = [i for i in range(5) if i not in keep]
    values = d.chance.roll(len(thrown), [1, 2, 3, 4, 5, 6], command.get("values"), "values")
    dice = list(c.dice[seat])
    for i, v in zip(thrown, values, strict=False):
        dice[i] = v
    eligible = [i for i in range(5)] if mode == "presence" else thrown
    new_banked = _bank(dice, banked, eligible)
    d.emit("DiceThrown", seat=seat, throw=c.throws[seat] + 1, kept=sorted(keep), values=values, dice=dice,
           banked=new_banked, score=challenge_score(dice, new_banked))
    _maybe_resolve(d)


def stop_throwing(d: Draft, seat: int, command: dict) -> None:
    """[Dice Challenge] a player may stop before using all three throws (LP-A8)."""
    if d.s.challenge.throws[seat] == 0:
        raise Rejected("THROW_FIRST", CHALLENGE, "Throw at least once before you stop.", ruling="LP-P4")
    d.emit("ThrowingStopped", seat=seat)
    _maybe_resolve(d)


def _maybe_resolve(d: Draft) -> None:
    """[Dice Challenge] highest score wins; equal: most ship points; nobody: another round."""
    s = d.s
    c = s.challenge
    if not all(c.ended):
        return
    scores = [challenge_score(c.dice[i], c.banked[i]) for i in (0, 1)]
    points = [x.points for x in s.seats]
    winner, tie_break = None, None
    if scores[0] is None and scores[1] is None:
        tie_break = "nobody_qualified"
    elif scores[1] is None or (scores[0] is not None and scores[0] > scores[1]):
        winner = 0
    elif scores[0] is None or scores[1] > scores[0]:
        winner = 1
    elif points[0] != points[1]:
        winner, tie_break = (0 if points[0] > points[1] else 1), "ship_points"
    else:
        tie_break = "full_tie"
    full_tie_no_action = tie_break == "full_tie" and s.options["full_tie"] == "no_action" and c.purpose == "turn"
    d.emit("ChallengeResolved", purpose=c.purpose, round=c.round, scores=scores, points=points, winner=winner,
           tie_break=tie_break)
    if c.purpose == "turn":
        if winner is None and full_tie_no_action:  # LP-A9 house rule: nobody acts this turn
            d.next_turn()
        elif winner is None:
            d.emit("ChallengeStarted", purpose="turn", round=c.round + 1)
        return
    # Set Sail challenge [Set Sail]
    setter = s.set_sail_by
    if winner is None:  # LP-A31: roll off until somebody wins
        d.emit("ChallengeStarted", purpose="set_sail", round=c.round + 1)
    elif winner == setter:
        end_game(d, setter)
    else:
        d.emit("SetSailFailed", seat=setter)
        if s.options["set_sail_loser_grants_action"]:
            d.emit("ChallengeResolved", purpose="turn", round=0, scores=scores, points=points, winner=winner,
                   tie_break="set_sail_won_by_opponent")
        else:
            d.next_turn()


# -- Actions ------------------------------------------------------------------------

def _coin(s: LeagueState, coin_id: object) -> str:
    """The id of a pirate coin of this game, checked."""
    if not isinstance(coin_id, str) or coin_id not in s.coins:
        raise Rejected("NO_SUCH_COIN", ACTIONS, "There is no such pirate coin in this game.")
    return coin_id


def _slot_for(s: LeagueState, seat: int, coin_id: str, slot, section: Section, paying: int) -> dict | None:
    """[Press Gang] coins go in their proper slots, mates in any mate slot; a coin of the same
    type replaces the occupant; a replaced Traitor walks the plank for 1 point [Walk the Plank]."""
    coin = s.coins[coin_id]
    if slot not in CREW_SLOTS:
        raise Rejected("INVALID_COMMAND", section, f"'slot' must be one of {', '.join(CREW_SLOTS)}.")
    if ROLE_OF_SLOT[slot] != coin["role"]:
        raise Rejected("SLOT_ROLE_MISMATCH", section,
                       f"{coin['name']} is a {coin['role']} and cannot go in the {slot.replace('_', ' ')} slot.")
    if slot == "captain" and not s.options["captain_replaceable"]:
        raise Rejected("CAPTAIN_NOT_REPLACEABLE", PRESS_GANG,
                       "This table plays that your Captain cannot be replaced (house rule).", ruling="LP-A15")
    occupant = s.seats[seat].crew[slot]
    if occupant is None:
        return None
    if occupant in s.traitors:
        if s.seats[seat].points < paying + PLANK_FEE:
            raise Rejected("INSUFFICIENT_POINTS_FOR_PLANK", PLANK,
                           "Replacing a Traitor costs 1 more point to make it walk the plank, and you cannot pay it.",
                           ruling="LP-A12")
        return {"coin": occupant, "to": "plank"}
    return {"coin": occupant, "to": "bag", "bag": _return_bag(s, seat, occupant)}


def _return_bag(s: LeagueState, replacer: int, coin: str) -> int:
    """[Press Gang] "Return any replaced coin to the corresponding player's Homeport Bag" (LP-A14)."""
    mode = s.options["replaced_coin_return"]
    if mode == "replacer_bag":
        return replacer
    if mode == "set_owner_bag":
        return next(i for i, x in enumerate(s.seats) if x.coin_set == s.coins[coin]["set"])
    return s.origin[coin]


def _place(d: Draft, seat: int, coin: str, slot: str, source: str, replaced: dict | None) -> None:
    if replaced and replaced["to"] == "plank":
        d.emit("PointsPaid", seat=seat, amount=PLANK_FEE, reason="walk_the_plank")
    d.emit("CoinPlaced", seat=seat, coin=coin, slot=slot, source=source, replaced=replaced)


def press_gang(d: Draft, seat: int, command: dict) -> None:
    """[Press Gang] pay 1 point to blindly pull one coin from your Homeport Bag."""
    _draw(d, seat, command, 1, "press_gang", PRESS_GANG)


def recruit(d: Draft, seat: int, command: dict) -> None:
    """[Recruit] pay 3 points to pull three coins and choose one to keep (LP-A17: fewer if fewer are left)."""
    _draw(d, seat, command, 3, "recruit", RECRUIT)


def _draw(d: Draft, seat: int, command: dict, n: int, action: str, section: Section) -> None:
    s = d.s
    bag = s.seats[seat].bag
    if not bag:
        raise Rejected("BAG_EMPTY", section, "Your Homeport Bag is empty.", ruling="LP-A17")
    d.pay(seat, COSTS[action], action, section)   # LP-A13: pay, then draw
    coins = d.chance.pick(bag, n, command.get("coins"), "coins",
                          f"seat {seat}'s Homeport Bag: one of nameable.homeport_bag_{seat}")
    d.emit("CoinsDrawn", seat=seat, action=action, coins=coins, count=len(coins),
           revealed=s.options["reveal_drawn_coins"])


def place_coin(d: Draft, seat: int, command: dict) -> None:
    """[Press Gang] / [Recruit] place the drawn coin (one of them) on your ship; the rest go back."""
    s = d.s
    coin = command.get("coin")
    section = MOMENTS.section(s)
    if coin not in s.pending["drawn"] or not isinstance(coin, str):   # the drawn are coin ids: never true
        raise Rejected("NOT_DRAWN", section, "That coin is not one you drew.")
    replaced = _slot_for(s, seat, coin, command.get("slot"), section, 0)
    _place(d, seat, coin, command["slot"], "draw", replaced)
    rest = list(s.pending["drawn"])
    d.emit("CoinsReturned", seat=seat, coins=rest, count=len(rest), revealed=s.options["reveal_drawn_coins"])
    d.next_turn()


def return_coins(d: Draft, seat: int, command: dict) -> None:
    """[Press Gang] return it to the bag; [Recruit] "you can also choose to return all three"."""
    s = d.s
    coins = list(s.pending["drawn"])
    d.emit("CoinsReturned", seat=seat, coins=coins, count=len(coins), revealed=s.options["reveal_drawn_coins"])
    d.next_turn()


def resupply(d: Draft, seat: int, command: dict) -> None:
    """[Resupply] increase the points on your Ship Card by 2."""
    d.gain(seat, 2, "resupply")
    d.next_turn()


def turn_coin(d: Draft, seat: int, command: dict) -> None:
    """[Turning] pay 2 to turn a coin on your opponent's ship into a Traitor; not a Captain."""
    s = d.s
    coin = command.get("coin")
    _coin(s, coin)
    where, owner, slot = s.where(coin)
    if where != "crew" or owner != 1 - seat:
        raise Rejected("NOT_ON_OPPONENT_SHIP", TURNING, "You can only turn a coin in a crew slot of your opponent's ship.",
                       ruling="LP-A19")
    if slot == "captain":
        raise Rejected("CAPTAIN_PROTECTED", TURNING, "Captains cannot be turned.")
    if coin in s.traitors:
        raise Rejected("ALREADY_TRAITOR", TURNING, "That coin is already a Traitor.", ruling="LP-A19")
    d.pay(seat, COSTS["turn_coin"], "turn_coin", TURNING)
    d.emit("CoinTurned", seat=seat, coin=coin, owner=1 - seat, slot=slot)
    d.next_turn()


def _fighter(s: LeagueState, seat: int, coin, section: Section) -> None:
    """[Raiding 1] a non-traitor coin from your own ship (crew, not brig; Captain allowed, LP-A22)."""
    _coin(s, coin)
    where, owner, _ = s.where(coin)
    if where != "crew" or owner != seat:
        raise Rejected("NOT_YOUR_CREW", section, "Your fighting coin must be one of the crew on your own ship.",
                       ruling="LP-A22")
    if coin in s.traitors:
        raise Rejected("TRAITOR_CANNOT_RAID", RAIDING, "A Traitor cannot fight for you in a raid.")


def raid(d: Draft, seat: int, command: dict) -> None:
    """[Raiding] with an empty Brig slot, pay 2 to raid a coin of the opponent's ship."""
    s = d.s
    target, raider = command.get("target"), command.get("raider")
    if None not in s.seats[seat].brig:
        raise Rejected("NO_EMPTY_BRIG_SLOT", RAIDING, "You need an empty Brig slot to raid.")
    _coin(s, target)
    where, owner, slot = s.where(target)
    if where != "crew" or owner != 1 - seat:
        raise Rejected("NOT_ON_OPPONENT_SHIP", RAIDING, "You can only raid a coin in a crew slot of your opponent's ship.",
                       ruling="LP-A22")
    if slot == "captain":
        raise Rejected("CAPTAIN_PROTECTED", RAIDING, "A player cannot choose an opponent's Captain to raid against.")
    _fighter(s, seat, raider, RAIDING)
    d.pay(seat, COSTS["raid"], "raid", RAIDING)
    d.emit("RaidDeclared", seat=seat, kind="raid", target=target, raider=raider)


def defend_raid(d: Draft, seat: int, command: dict) -> None:
    """[Raiding 4] before the dice are rolled the defender may pay 2 to fight with another coin."""
    s = d.s
    pending = s.pending
    sub = command.get("with")
    if sub is not None:
        _coin(s, sub)
        where, owner, slot = s.where(sub)
        if where != "crew" or owner != seat or sub == pending["target"]:
            raise Rejected("NOT_YOUR_CREW", RAIDING, "Choose a different coin from the crew on your own ship.")
        if slot == "captain" and not s.options["captain_may_defend"]:
            raise Rejected("CAPTAIN_MAY_NOT_DEFEND", RAIDING, "This table plays that Captains do not defend (house rule).",
                           ruling="LP-A23")
        d.pay(seat, SUBSTITUTE_COST, "defender_substitution", RAIDING)
        d.emit("DefenderChosen", seat=seat, coin=sub, paid=SUBSTITUTE_COST)
    _roll_raid(d, command)


def rescue(d: Draft, seat: int, command: dict) -> None:
    """[Rescue] pay 2 to raid against your coin in the opponent's Brig (no Brig slot needed, LP-A28)."""
    s = d.s
    prisoner, raider = command.get("prisoner"), command.get("raider")
    _coin(s, prisoner)
    where, holder, _ = s.where(prisoner)
    if where != "brig" or holder != 1 - seat or s.captured.get(prisoner, {}).get("from") != seat:
        raise Rejected("NOT_YOUR_PRISONER", RESCUE,
                       "You can only rescue a coin captured from you that is still in your opponent's Brig.",
                       ruling="LP-A30")
    _fighter(s, seat, raider, RESCUE)
    if not rescue_defenders(s, 1 - seat):
        raise Rejected("NO_DEFENDER", RESCUE,
                       "Your opponent has no coin allowed to defend the prisoner, so there is no raid to fight.",
                       ruling="LP-A37")
    d.pay(seat, COSTS["rescue"], "rescue", RESCUE)
    d.emit("RaidDeclared", seat=seat, kind="rescue", target=prisoner, raider=raider)


def rescue_defenders(s: LeagueState, holder: int) -> list[str]:
    """[Rescue] a coin on the holder's ship, not in the Brig (Captains unless the house rule says no)."""
    return [c for slot, c in s.seats[holder].crew.items()
            if c is not None and (slot != "captain" or s.options["captain_may_defend"])]


def choose_rescue_defender(d: Draft, seat: int, command: dict) -> None:
    """[Rescue] the holder chooses a coin on their ship, not in the Brig, to defend; free."""
    s = d.s
    coin = command.get("coin")
    _coin(s, coin)
    where, owner, slot = s.where(coin)
    if where != "crew" or owner != seat:
        raise Rejected("NOT_YOUR_CREW", RESCUE, "Choose a coin of the crew on your own ship (not the Brig).")
    if slot == "captain" and not s.options["captain_may_defend"]:
        raise Rejected("CAPTAIN_MAY_NOT_DEFEND", RESCUE, "This table plays that Captains do not defend (house rule).",
                       ruling="LP-A23")
    d.emit("DefenderChosen", seat=seat, coin=coin, paid=0)
    _roll_raid(d, command)


def _skill_total(s: LeagueState, coin: str, skills: list[str], defending: bool) -> int:
    """[Raiding 2] the coin's values for the skills on both Skill Dice (once if the same);
    a defending Traitor subtracts two from each."""
    total = 0
    for sk in dict.fromkeys(skills):
        v = s.coins[coin]["skills"].get(sk, 0)
        if defending and coin in s.traitors:
            v -= 2
            if s.options["traitor_skill_floor_zero"]:
                v = max(0, v)
        total += v
    return total


def _roll_raid(d: Draft, command: dict) -> None:
    """[Raiding 2-3] each player rolls a Skill Die and a Standard Die; the raider wins ties."""
    s = d.s
    p = s.pending
    faces = s.content["skillDie"]["faces"]
    rolls = command.get("rolls")
    if rolls is not None and not (isinstance(rolls, dict) and set(rolls) == {"skills", "dice"}):
        raise Rejected("TABLE_OUTCOME_INVALID", CHANCE_RULE,
                       "'rolls' must be {'skills': [raider's, defender's skill die], 'dice': [raider's, defender's die]}.")
    if rolls is None and d.chance.mode == "table":
        raise Rejected("TABLE_OUTCOME_REQUIRED", CHANCE_RULE,
                       "This game is played at a table: send the raid's dice in 'rolls': 'skills', the raider's "
                       "then the defender's Skill Die face, and 'dice', the raider's then the defender's die "
                       + ("[Raiding]." if s.phase == "raid_defence" else "[Rescue]."))
    skills = d.chance.roll(2, faces, None if rolls is None else rolls["skills"], "rolls.skills")
    dice = d.chance.roll(2, [1, 2, 3, 4, 5, 6], None if rolls is None else rolls["dice"], "rolls.dice")
    raider_total = _skill_total(s, p["raider"], skills, False) + dice[0]
    defender_total = _skill_total(s, p["defender"], skills, True) + dice[1]
    won = raider_total >= defender_total
    actor = p["seat"]
    kind, target = p["kind"], p["target"]
    d.emit("RaidRolled", seat=actor, kind=kind, skills=skills, dice=dice, raider=p["raider"], defender=p["defender"],
           totals=[raider_total, defender_total], winner="raider" if won else "defender")
    if won and kind == "raid":
        # [Raiding 3-4] the originally chosen coin goes to an empty Brig slot (LP-A38: the first)
        _, owner, slot = s.where(target)
        # LP-A20: a captured Traitor lies face up in the Brig, unless the table keeps it a Traitor
        d.emit("CoinCaptured", seat=actor, coin=target, from_seat=owner, from_slot=slot,
               brig_slot=s.seats[actor].brig.index(None),
               traitor_cleared=target in s.traitors and s.options["traitor_on_capture"] == "clear")
    elif won:
        original = s.captured[target]["slot"]
        if s.seats[actor].crew[original] is None:
            d.emit("CoinPlaced", seat=actor, coin=target, slot=original, source="rescue", replaced=None)
        else:  # LP-A29: the rescuer decides what happens with the occupied original slot
            d.emit("RescuePlacementAwaited", seat=actor, coin=target, slot=original)
            return
    d.next_turn()


def place_rescued_coin(d: Draft, seat: int, command: dict) -> None:
    """[Rescue] back "in its original position" (LP-A29: replacing its occupant, or a Mate
    into an empty mate slot), or into its Homeport Bag when it cannot or should not go back."""
    s = d.s
    coin, original = s.pending["coin"], s.pending["slot"]
    if command.get("to_bag") is True:
        if "slot" in command:
            raise Rejected("INVALID_COMMAND", RESCUE, "Send either 'slot' or 'to_bag', not both.")
        d.emit("RescuedCoinReturned", seat=seat, coin=coin, to_bag=s.origin[coin],
               traitor_cleared=coin in s.traitors)  # in a bag it is nobody's Traitor
        d.next_turn()
        return
    slot = command.get("slot")
    if slot is None or (slot != original and not (ROLE_OF_SLOT.get(slot) == "mate" and s.coins[coin]["role"] == "mate"
                                                  and s.seats[seat].crew[slot] is None)):
        raise Rejected("NOT_ORIGINAL_POSITION", RESCUE,
                       "A rescued coin goes back to its original position (a Mate may take an empty mate slot), "
                       "or into the Homeport Bag with 'to_bag'.", ruling="LP-A29")
    replaced = _slot_for(s, seat, coin, slot, RESCUE, 0)
    _place(d, seat, coin, slot, "rescue", replaced)
    d.next_turn()


def enlist(d: Draft, seat: int, command: dict) -> None:
    """[Enlistment] pay 1 to move a coin from your Brig onto your ship, in its slot."""
    s = d.s
    coin = _coin(s, command.get("coin"))
    where, owner, _ = s.where(coin)
    if where != "brig" or owner != seat:
        raise Rejected("NOT_IN_YOUR_BRIG", ENLISTMENT, "You can only enlist a coin from your own Brig.")
    replaced = _slot_for(s, seat, coin, command.get("slot"), ENLISTMENT, COSTS["enlist"])
    d.pay(seat, COSTS["enlist"], "enlist", ENLISTMENT)
    _place(d, seat, coin, command["slot"], "brig", replaced)
    d.next_turn()


def set_sail(d: Draft, seat: int, command: dict) -> None:
    """[Set Sail] with a complete crew pay 2, then roll off in a Dice Challenge."""
    s = d.s
    crew = s.seats[seat].crew
    missing = [slot for slot in CREW_SLOTS if crew[slot] is None]
    traitors = [] if s.options["traitors_count_for_crew"] else [sl for sl in CREW_SLOTS if crew[sl] in s.traitors]
    if missing or traitors:
        raise Rejected("CREW_INCOMPLETE", SET_SAIL,
                       "You need a complete crew to Set Sail; missing: "
                       + ", ".join([m.replace("_", " ") for m in missing]
                                   + [f"{m.replace('_', ' ')} (a Traitor)" for m in traitors]) + ".",
                       ruling="LP-A32" if traitors else None)
    d.pay(seat, COSTS["set_sail"], "set_sail", SET_SAIL)   # LP-A31: paid before the challenge
    d.emit("SetSailAttempted", seat=seat)
    d.emit("ChallengeStarted", purpose="set_sail", round=1)


def pass_turn(d: Draft, seat: int, command: dict) -> None:
    if not d.s.options["allow_pass"]:
        raise Rejected("MUST_ACT", ACTIONS, "The winner of the Dice Challenge performs one action.", ruling="LP-A10")
    d.emit("ActionPassed", seat=seat)
    d.next_turn()


# -- The end ------------------------------------------------------------------------

def score(s: LeagueState, seat: int) -> dict:
    """[Winning] points left + Cunning of the crew, +2 per crewmember of the Captain's league;
    a Traitor is worth 2 less and gets no bonus [Turning]; brig coins score nothing (LP-A33)."""
    x = s.seats[seat]
    captain_color = s.coins[x.crew["captain"]]["color"]
    lines = []
    for slot in CREW_SLOTS:
        coin = x.crew[slot]
        if coin is None:
            continue
        c = s.coins[coin]
        traitor = coin in s.traitors
        bonus = 2 if (c["color"] == captain_color and not traitor
                      and (slot != "captain" or s.options["captain_self_bonus"])) else 0
        lines.append({"slot": slot, "coin": coin, "cunning": c["cunning"], "traitor": traitor,
                      "value": c["cunning"] - (2 if traitor else 0) + bonus})
    brig = [{"coin": coin, "value": s.coins[coin]["cunning"]} for coin in x.brig
            if coin is not None and s.options["brig_scoring"] == "face"]
    total = x.points + sum(line["value"] for line in lines) + sum(b["value"] for b in brig)
    return {"seat": seat, "points": x.points, "crew": lines, "brig": brig, "total": total}


def end_game(d: Draft, setter: int) -> None:
    s = d.s
    breakdown = [score(s, i) for i in (0, 1)]
    totals = [b["total"] for b in breakdown]
    if totals[0] != totals[1]:
        winners, tie_breaks = [0 if totals[0] > totals[1] else 1], ["total"]
    else:  # [Winning] in the event of a tied score, the player that Set Sail wins
        winners, tie_breaks = [setter], ["total", "set_sail"]
    d.emit("GameEnded", reason="set_sail", winners=winners, totals=totals, breakdown=breakdown,
           tie_breaks=tie_breaks, set_sail_by=setter,
           seed=d.chance.reveal() if d.chance is not None else None)
    raise kit.GameOver


HANDLERS = {
    "choose_league": choose_league,
    "throw_dice": throw_dice,
    "stop_throwing": stop_throwing,
    "press_gang": press_gang,
    "recruit": recruit,
    "place_coin": place_coin,
    "return_coins": return_coins,
    "resupply": resupply,
    "turn_coin": turn_coin,
    "raid": raid,
    "defend_raid": defend_raid,
    "rescue": rescue,
    "choose_rescue_defender": choose_rescue_defender,
    "place_rescued_coin": place_rescued_coin,
    "enlist": enlist,
    "set_sail": set_sail,
    "pass_turn": pass_turn,
}

ACTION_COMMANDS = ("press_gang", "recruit", "resupply", "turn_coin", "raid", "rescue", "enlist", "set_sail", "pass_turn")
WORDS = {
    "choose_league": "choose a league", "throw_dice": "throw dice", "stop_throwing": "stop throwing",
    "press_gang": "Press Gang", "recruit": "Recruit", "resupply": "Resupply", "turn_coin": "turn a coin",
    "raid": "raid", "rescue": "rescue", "enlist": "enlist", "set_sail": "Set Sail", "pass_turn": "pass",
    "place_coin": "place a drawn coin", "return_coins": "return drawn coins",
    "defend_raid": "choose a raid defender", "choose_rescue_defender": "choose a rescue defender",
    "place_rescued_coin": "place a rescued coin",
}

_PLACING = "the drawn coins are being placed or returned"
MOMENTS = kit.Moments(of=moment_of, command_words=WORDS, moments={
    "leagues": kit.Moment(SET_UP, "both players are secretly choosing their league", {"choose_league"}, _choosers),
    "challenge": kit.Moment(CHALLENGE, "a Dice Challenge is being rolled", {"throw_dice", "stop_throwing"}, _throwers,
                            not_yours=kit.Refusal("THROWS_DONE", "Your throws in this Dice Challenge are done; "
                                                                 "waiting for {other} to finish theirs.")),
    "action": kit.Moment(ACTIONS, "the winner of the Dice Challenge is choosing an action", ACTION_COMMANDS, _actor),
    "draw": kit.Moment(PRESS_GANG, _PLACING, {"place_coin", "return_coins"}, _placer),
    "recruit_draw": kit.Moment(RECRUIT, _PLACING, {"place_coin", "return_coins"}, _placer),
    "raid_defence": kit.Moment(RAIDING, "the defender may pay to choose a different defending coin", {"defend_raid"},
                               _defender),
    "rescue_defence": kit.Moment(RESCUE, "the holder of the prisoner is choosing its defender", {"choose_rescue_defender"},
                                 _defender),
    "rescue_placement": kit.Moment(RESCUE, "the rescued coin is being placed", {"place_rescued_coin"}, _placer),
    # Between a raid's or a rescue's roll and its outcome, inside one command's batch: only a
    # stored version stops there (decide() never meets it), and nobody is to move.
    "resolved": kit.Moment(RAIDING, "a raid or a rescue is being resolved"),
    "over": kit.Moment(WINNING, "the game is over"),
}, fields={"other": lambda s, seat: s.seats[1 - seat].name})

RULES = kit.Rules(game="League of Pirates", handlers=HANDLERS, moments=MOMENTS,
                  draft=lambda state, chance, command: Draft(state, chance),
                  over=WINNING, unknown=ACTIONS, seats=SET_UP, no_seat="There is no seat {seat}: this game is for two players.")
decide = RULES.decide
gate = RULES.gate
