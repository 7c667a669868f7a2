"""Corsairs of Valeria: decide(), one handler per command.

Every check cites the rulebook section it enforces (../shared/rules/corsairs-of-valeria.txt)
or, where the rulebook is silent, the ruling in docs/rulings.md (CV-A.., CV-P..).

A handler works on a Draft: a clone of the state to which each event is applied as soon as
it is emitted, so later steps of the same command see earlier ones (a Treasure exchange in
the middle of a move, the 6th Treasure ending the game at once). Nothing reaches the real
state until the service stores the events.

decide() and gate() are kit.Rules' (RULES, at the end): the opening refusals, then the
moments (MOMENTS: for each, the commands it allows, its section, its words and who is to
move), then the handler. Sections are kit.Section.
"""
from __future__ import annotations

from .. import kit
from ..kit import Section
from ..ruleset import Rejected
from .board import BACKWARD, FORWARD, SKULL
from .state import GROUPS, MAX_GROG, SILVER_PER_TREASURE, WINNING_TREASURE, CorsairsState, evolve

SKULL_FACES = ("SKULL", "SKULL_GROG")
GROG_FACES = ("GROG", "SKULL_GROG")

# Rulebook sections, as headed in the rulebook.
SETUP = Section("Game Setup")
FLOW = Section("Game Flow")
ROLL = Section("Roll Dice")
REROLL = Section("Re-roll Dice")
EXECUTE = Section("Execute Dice Actions")
CURSED = Section("Cursed Dice")
GROG = Section("Acquire Grog")
SILVER = Section("Collect Silver Coins")
MOVE = Section("Move Your Ship")
CANNONS = Section("Use Your Cannons")
END_TURN = Section("End Your Turn")
SKULL_ISLAND = Section("Reaching Skull Island")
ENDING = Section("Ending the Game")
CAPTAINS = Section("Captain Cards")

CAPTAIN_NAMES = {
    "WILLEM": "Willem the Artificer", "LUTHOR": "Luthor the Sea Artist",
    "MISTRESS": "Mistress of the Skull", "PRINCE": "Captain Prince of Bella Ire",
    "REO": "Reo the Cartographer", "HOOK": "Captain Hook", "JAGER": "Jäger Knot the Half-Orc",
    "BONES": "Mister Bones", "JAXN": "Captain Lucky Jax'n", "HASAN": "Hasan the Merchant",
}


def captain_rule(captain: str) -> Section:
    return Section(f"{CAPTAINS}: {CAPTAIN_NAMES[captain]}")


class Draft(kit.Draft):
    def __init__(self, state: CorsairsState, chance):
        super().__init__(state, chance, evolve)

    @property
    def limited(self) -> bool:
        return self.s.options["silver_supply"] == "limited"

    # -- resources -------------------------------------------------------------------

    def gain_silver(self, seat: int, amount: int, source: str, **extra) -> None:
        """Silver from the supply (or Skull Island, or another ship). [Collect Silver Coins]"""
        if amount <= 0:
            return
        if source in ("skull_island", "plunder") or not self.limited or amount <= self.s.supply:
            self.emit("SilverGained", seat=seat, amount=amount, requested=amount, source=source, **extra)
            self.exchange(seat)
            return
        # CV-A17: the 35 coins are all there is, and every 5 collected go back to the supply at
        # once ('This exchange may interrupt other actions or instructions in the game until it
        # is resolved'): a gain larger than the supply is taken up to each exchange, the coins
        # it returns serving the rest, until it is paid, the supply is empty or the game is won.
        owed = amount
        while owed > 0 and self.s.supply > 0 and not self.s.finished:
            p = self.s.players[seat]
            got = owed if owed <= self.s.supply else min(self.s.supply, SILVER_PER_TREASURE - p.silver)
            self.emit("SilverGained", seat=seat, amount=got, requested=owed, source=source, **extra)
            self.exchange(seat)
            owed -= got
        if owed == amount:  # the supply was empty: the gain is recorded as nothing taken
            self.emit("SilverGained", seat=seat, amount=0, requested=amount, source=source, **extra)

    def exchange(self, seat: int) -> None:
        """[Collect Silver Coins] "when you've collected 5 Silver you must immediately return
        them to the supply and gain 1 Treasure"; [Ending the Game] the 6th ends it at once."""
        p = self.s.players[seat]
        while p.silver >= SILVER_PER_TREASURE:
            self.emit("TreasureExchanged", seat=seat, treasure=p.treasure + 1)
            if p.treasure >= WINNING_TREASURE:
                self.end_game("sixth_treasure", [seat])

    def gain_grog(self, seat: int, amount: int, source: str) -> None:
        """[Acquire Grog] at most 4 Grog on the dial; the rest is ignored."""
        if amount <= 0:
            return
        p = self.s.players[seat]
        got = max(0, min(amount, MAX_GROG - p.grog))
        self.emit("GrogGained", seat=seat, amount=got, requested=amount, source=source)

    # -- movement --------------------------------------------------------------------

    def step(self, seat: int, to: str, direction: str, cause: str, rewards: bool = True) -> None:
        """One space; island rewards only moving forward [Move Your Ship "Important"]."""
        p = self.s.players[seat]
        frm = p.position
        self.emit("ShipMoved", seat=seat, **{"from": frm}, to=to, direction=direction, cause=cause)
        if direction == FORWARD and rewards:
            found = self.s.board.crossing_rewards(frm, to)
            silver = sum(a for r, a in found if r == "silver")
            grog = sum(a for r, a in found if r == "grog")
            self.gain_silver(seat, silver, "island")
            self.gain_grog(seat, grog, "island")
        if to == SKULL:
            self.reach_skull_island(seat)

    def reach_skull_island(self, seat: int) -> None:
        """[Reaching Skull Island] take all its Silver; the 1st reach resets the race after
        this turn, the 2nd ends the game after this turn (reaches are counted for the whole
        game, CV-A37)."""
        self.emit("SkullIslandReached", seat=seat, reach=self.s.skull_reaches + 1)
        self.gain_silver(seat, self.s.skull_silver, "skull_island")

    def hazard(self, seat: int, cause: str) -> None:
        """[Move Your Ship] Whirlpool, Sea Monster, Cutthroats act where a movement ends."""
        p = self.s.players[seat]
        kind = self.s.board.hazard.get(p.position)
        if kind == "whirlpool":
            self.emit("ShipMoved", seat=seat, **{"from": p.position}, to=self.s.board.start,
                      direction=BACKWARD, cause="whirlpool")
        elif kind == "seaMonster":
            self.emit("SilverLost", seat=seat, amount=p.silver, cause="sea_monster")
        elif kind == "cutthroat":
            self.emit("GrogLost", seat=seat, amount=p.grog, cause="cutthroats")

    # -- the end ---------------------------------------------------------------------

    def end_game(self, reason: str, winners: list[int] | None = None) -> None:
        standings, tie_breaks, best = rank(self.s)
        self.emit("GameEnded", reason=reason, winners=winners if winners is not None else best,
                  standings=standings, tie_breaks=tie_breaks if winners is None else [],
                  seed=self.chance.reveal() if self.chance is not None else None)
        raise kit.GameOver


def rank(s: CorsairsState) -> tuple[list[dict], list[str], list[int]]:
    """[Ending the Game] most Treasure; tie: most Silver; tie: most Grog; still tied: shared."""
    keys = ("treasure", "silver", "grog")
    order = sorted(range(len(s.players)),
                   key=lambda i: tuple(-getattr(s.players[i], k) for k in keys) + (i,))
    standings = [{"seat": i, **{k: getattr(s.players[i], k) for k in keys}} for i in order]
    top = [order[0]]
    used: list[str] = []
    for depth, k in enumerate(keys):
        used.append(k)
        lead = tuple(getattr(s.players[order[0]], kk) for kk in keys[:depth + 1])
        top = [i for i in order if tuple(getattr(s.players[i], kk) for kk in keys[:depth + 1]) == lead]
        if len(top) == 1:
            break
    else:
        used.append("shared")
    return standings, used, sorted(top)


# ----------------------------------------------------------------------------------
# decide: kit.Rules' (RULES, below HANDLERS): over, unknown command, no such seat, the
# moment (MOMENTS: a decision some seat owes, or the active player's turn), then the handler.
# The turn's phases (A to D) are each handler's to check, among its other checks.
# ----------------------------------------------------------------------------------

def moment_of(s: CorsairsState) -> str:
    if not s.players:
        return "setup"
    return s.turn.pending["kind"] if s.turn.pending is not None else "turn"


def _owing(s: CorsairsState) -> list[int]:
    assert s.turn.pending is not None, "the moment is the pending decision's"
    return [s.turn.pending["seat"]]


def _active(s: CorsairsState) -> list[int]:
    return [s.active]


def to_move(s: CorsairsState) -> list[int]:
    return MOMENTS.to_move(s)


def _owed(words: str, command: str) -> kit.Moment:
    """A decision a seat owes before play goes on: only it, and only that command."""
    return kit.Moment(FLOW, words, {command}, _owing, seat_first=True,
                      not_yours=kit.Refusal("NOT_YOUR_DECISION", "Play waits for {owner} to {moment}."),
                      wrong_command=kit.Refusal("DECISION_PENDING", f"First {{moment}} ('{command}')."))


def _phase(s: CorsairsState, wanted: str, section: Section, action: str) -> None:
    names = {"roll": "A (Roll Dice)", "reroll": "B (Re-roll Dice)", "actions": "C (Execute Dice Actions)"}
    if s.turn.phase != wanted:
        raise Rejected("WRONG_PHASE", section,
                       f"You can {action} only in phase {names[wanted]}; the turn is in phase {names[s.turn.phase]}.")


def _captain(s: CorsairsState, seat: int, captain: str, what: str) -> None:
    if s.players[seat].captain != captain:
        raise Rejected("NOT_YOUR_CAPTAIN", captain_rule(captain),
                       f"Only {CAPTAIN_NAMES[captain]} may {what}.")


def _flag(command: dict, name: str) -> bool:
    value = command.get(name, False)
    if not isinstance(value, bool):
        raise Rejected("INVALID_COMMAND", FLOW, f"'{name}' must be true or false.")
    return value


def _seat_arg(s: CorsairsState, seat: int, command: dict, name: str, section: Section) -> int:
    target = command.get(name)
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < len(s.players):
        raise Rejected("INVALID_COMMAND", section, f"'{name}' must be the seat number of another player.")
    if target == seat:
        raise Rejected("NOT_ANOTHER_PLAYER", section, "You must choose another player, not yourself.")
    return target


# -- Phase A ------------------------------------------------------------------------

def preset_die(d: Draft, seat: int, command: dict) -> None:
    """[Captain Cards] Willem: pay 1 Grog to set 1 die to Cannon; Luthor: to Map; before rolling."""
    s = d.s
    face = command.get("face", "")   # missing, it is no face (refused below, as a null one is)
    captain = {"CANNON": "WILLEM", "MAP": "LUTHOR"}.get(face)
    if captain is None:
        raise Rejected("INVALID_COMMAND", CAPTAINS, "'face' must be CANNON (Willem) or MAP (Luthor).")
    _phase(s, "roll", captain_rule(captain), "set a die before rolling")
    _captain(s, seat, captain, f"set a die to the {face.title()} face")
    if s.turn.preset >= 1:
        raise Rejected("POWER_ALREADY_USED", captain_rule(captain),
                       "You have already set a die before this roll.", ruling="CV-A8")
    if s.players[seat].grog < 1:
        raise Rejected("INSUFFICIENT_GROG", captain_rule(captain), "Setting a die costs 1 Grog and you have none.")
    d.emit("DiePreset", seat=seat, face=face, grog_paid=1)


def roll_dice(d: Draft, seat: int, command: dict) -> None:
    """[Roll Dice] take all 5 dice and roll them (a die set by a captain is not rolled)."""
    s = d.s
    _phase(s, "roll", ROLL, "roll the dice")
    n = 5 - s.turn.preset
    rolled = d.chance.roll(n, s.content["dice"]["faces"], command.get("faces"), "faces")
    d.emit("DiceRolled", seat=seat, rolled=rolled, dice=s.turn.dice[:s.turn.preset] + rolled)


# -- Phase B ------------------------------------------------------------------------

def reroll_dice(d: Draft, seat: int, command: dict) -> None:
    """[Re-roll Dice] re-roll any or all dice; every re-roll costs 1 Grog.
    [Captain Cards] Prince of Bella Ire may pay Silver instead."""
    s = d.s
    _phase(s, "reroll", REROLL, "re-roll dice")
    dice = command.get("dice")
    if (not isinstance(dice, list) or not dice or len(set(map(repr, dice))) != len(dice)
            or not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 5 for i in dice)):
        raise Rejected("INVALID_COMMAND", REROLL,
                       "'dice' must list the dice to re-roll: distinct positions 0 to 4, at least one.",
                       ruling="CV-A42" if dice == [] else None)
    pay = command.get("pay_with", "grog")
    p = s.players[seat]
    if pay == "grog":
        if p.grog < 1:
            hint = " (you may pay with Silver instead)" if p.captain == "PRINCE" and p.silver >= 1 else ""
            raise Rejected("INSUFFICIENT_GROG", REROLL,
                           f"Re-roll Dice: every re-roll costs 1 Grog and you have none{hint}.")
    elif pay == "silver":
        _captain(s, seat, "PRINCE", "pay for a re-roll with Silver")
        if p.silver < 1:
            raise Rejected("INSUFFICIENT_SILVER", captain_rule("PRINCE"),
                           "Paying for a re-roll with Silver costs 1 Silver and you have none.")
    else:
        raise Rejected("INVALID_COMMAND", REROLL, "'pay_with' must be grog or silver.")
    faces = d.chance.roll(len(dice), s.content["dice"]["faces"], command.get("faces"), "faces")
    new = list(s.turn.dice)
    for i, f in zip(dice, faces, strict=False):
        new[i] = f
    d.emit("DiceRerolled", seat=seat, rerolled=list(dice), faces=faces, dice=new, paid_with=pay)


def lock_dice(d: Draft, seat: int, command: dict) -> None:
    """[Re-roll Dice] stop re-rolling: the dice are locked as the "last roll".
    [Captain Cards] Mistress of the Skull / Reo convert faces at the end of phase B."""
    s = d.s
    _phase(s, "reroll", REROLL, "lock the dice")
    dice = list(s.turn.dice)
    converted = {}
    if _flag(command, "skull_grog_to_grog"):
        _captain(s, seat, "MISTRESS", "turn Skull-and-Grog faces into Grog faces")
        k = dice.count("SKULL_GROG")
        if k == 0:
            raise Rejected("NOTHING_TO_CONVERT", captain_rule("MISTRESS"), "You have no Skull-and-Grog faces to turn.")
        dice = ["GROG" if f == "SKULL_GROG" else f for f in dice]  # CV-A34: all of them
        converted["SKULL_GROG->GROG"] = k
    maps = command.get("maps_to_silver", 0)
    if not isinstance(maps, int) or isinstance(maps, bool) or not 0 <= maps <= 3:
        raise Rejected("INVALID_COMMAND", captain_rule("REO"), "'maps_to_silver' must be 0, 1, 2 or 3.")
    if maps:
        _captain(s, seat, "REO", "change Maps into Silver faces")
        if dice.count("MAP") < maps:
            raise Rejected("NOT_ENOUGH_MAPS", captain_rule("REO"),
                           f"You have only {map_faces(dice.count('MAP'))} to change.")
        left = maps
        for i, f in enumerate(dice):
            if f == "MAP" and left:
                dice[i] = "SILVER"
                left -= 1
        converted["MAP->SILVER"] = maps
    d.emit("DiceLocked", seat=seat, dice=dice, converted=converted)
    skulls = sum(1 for f in dice if f in SKULL_FACES)
    p = s.players[seat]
    if skulls == 0:
        if p.captain == "BONES":  # [Captain Cards] Mister Bones: no Skulls rolled: gain 1 Silver
            d.gain_silver(seat, 1, "bones")
    elif skulls < 5 and p.captain != "BONES":
        # [Execute Dice Actions] Skulls are executed first; with no choice to make they are
        # executed at once.
        _curse(d, seat, skulls, 0, received=False)


# -- Phase C: Skulls ----------------------------------------------------------------

def _skulls_first(s: CorsairsState) -> None:
    if not s.turn.skulls_resolved:
        raise Rejected("SKULLS_FIRST", EXECUTE, "You must execute all Skull Dice Actions first.")


def _curse(d: Draft, seat: int, skulls: int, ignored: int, received: bool) -> None:
    """[Cursed Dice] 1 Silver to Skull Island per Skull face, as your Silver allows."""
    lost = min(d.s.players[seat].silver, skulls - ignored)
    d.emit("SilverCursed", seat=seat, skulls=skulls, ignored=ignored, silver_lost=lost, received=received)


def resolve_skulls(d: Draft, seat: int, command: dict) -> None:
    """[Cursed Dice]; [Captain Cards] Mister Bones may ignore one Skull."""
    s = d.s
    _phase(s, "actions", CURSED, "execute Skulls")
    if s.turn.skulls_resolved:
        raise Rejected("SKULLS_DONE", CURSED, "Your Skulls have already been executed this roll.")
    skulls = s.count(*SKULL_FACES)
    ignore = _flag(command, "ignore_one")
    if ignore:
        _captain(s, seat, "BONES", "ignore a Skull")
    _curse(d, seat, skulls, 1 if ignore else 0, received=False)


def give_skull_dice(d: Draft, seat: int, command: dict) -> None:
    """[Cursed Dice] 5-of-a-kind: give all the dice to the other players as you wish; they
    execute them (Skull first, then Grog); you lose no Silver and your turn is over."""
    s = d.s
    _phase(s, "actions", CURSED, "give away Skull dice")
    if s.turn.skulls_resolved:
        raise Rejected("SKULLS_DONE", CURSED, "Your Skulls have already been executed this roll.")
    if s.count(*SKULL_FACES) != 5:
        raise Rejected("NOT_FIVE_SKULLS", CURSED,
                       "Only with all 5 dice showing Skull or Skull-and-Grog may you give the dice away.")
    to = command.get("to")
    if not isinstance(to, list) or len(to) != 5:
        raise Rejected("INVALID_COMMAND", CURSED, "'to' must name the seat receiving each of the 5 dice, in dice order.")
    for t in to:
        _seat_arg(s, seat, {"to": t}, "to", CURSED)
    d.emit("SkullDiceGiven", seat=seat, to=list(to), dice=list(s.turn.dice))
    n = len(s.players)
    queue = []
    for k in range(1, n):  # CV-A13: recipients execute clockwise from the giver
        r = (seat + k) % n
        faces = [f for f, t in zip(s.turn.dice, to, strict=False) if t == r]
        if faces:
            queue.append([r, faces])
    _run_recipients(d, queue)


def _run_recipients(d: Draft, queue: list) -> None:
    s = d.s
    while queue:
        r, faces = queue[0]
        if s.players[r].captain == "BONES" and s.options["recipient_captain_powers"] == "bones_only":
            # CV-A10: a recipient executes the dice "as if it were their turn": Mister Bones may
            # ignore one of them.
            d.emit("DecisionAwaited", decision={"kind": "received_skulls", "seat": r, "dice": faces,
                                                "queue": queue[1:]})
            return
        _resolve_received(d, r, faces, ignore=False)
        queue = queue[1:]
    if s.options["five_skull_skips_phase_d"]:
        _end_turn(d, s.active)


def _resolve_received(d: Draft, r: int, faces: list, ignore: bool) -> None:
    _curse(d, r, len(faces), 1 if ignore else 0, received=True)
    d.gain_grog(r, faces.count("SKULL_GROG"), "received_dice")


def resolve_received_skulls(d: Draft, seat: int, command: dict) -> None:
    s = d.s
    pending = s.turn.pending
    ignore = _flag(command, "ignore_one")
    d.emit("DecisionTaken", seat=seat, kind="received_skulls", choice={"ignore_one": ignore})
    _resolve_received(d, seat, pending["dice"], ignore)
    _run_recipients(d, pending["queue"])


# -- Phase C: Grog and Silver -------------------------------------------------------

def _group(s: CorsairsState, group: str, section: Section) -> int:
    _phase(s, "actions", section, f"execute {group.title()} dice")
    _skulls_first(s)
    if group in s.turn.done:
        raise Rejected("ALREADY_EXECUTED", EXECUTE,
                       f"Your {group.title()} dice have already been executed this roll "
                       "(all faces of one symbol are executed at once)."
                       if (s.count(*GROG_FACES) if group == "grog" else s.count(group.upper()))
                       else f"You have no {group.title()} dice to execute.")
    return s.count(*GROG_FACES) if group == "grog" else s.count(group.upper())


def acquire_grog(d: Draft, seat: int, command: dict) -> None:
    """[Acquire Grog] +1 Grog per Grog or Skull-and-Grog face, at most 4 on the dial.
    5-of-a-kind: gain what there is room for, then begin the turn again from Roll Dice."""
    s = d.s
    n = _group(s, "grog", GROG)
    optional = s.options["five_grog_restart_optional"]
    if "restart" in command and not (optional and n == 5):
        raise Rejected("INVALID_COMMAND", GROG,
                       "'restart' is only for a 5-of-a-kind Grog when the table plays the restart as optional.",
                       ruling="CV-A14")
    restart = _flag(command, "restart") if optional and n == 5 else n == 5
    d.emit("DiceExecuted", seat=seat, symbol="grog", faces=n)
    d.gain_grog(seat, n, "dice")
    if restart:  # CV-A15: the restart happens even when no Grog fitted
        d.emit("TurnRestarted", seat=seat, **{"pass": s.turn.pass_no + 1})


def collect_silver(d: Draft, seat: int, command: dict) -> None:
    """[Collect Silver Coins] +1 Silver per Silver face; every 5 Silver become 1 Treasure."""
    n = _group(d.s, "silver", SILVER)
    d.emit("DiceExecuted", seat=seat, symbol="silver", faces=n)
    d.gain_silver(seat, n, "dice")


# -- Phase C: Maps ------------------------------------------------------------------

def _walk(s: CorsairsState, start: str, steps: list, allow_back: bool, section: Section) -> list[tuple[str, str]]:
    """Validate a path of steps from start; returns [(space, direction)] up to Skull Island."""
    board = s.board
    pos = start
    path = []
    for i, st in enumerate(steps, start=1):
        if not isinstance(st, dict) or set(st) - {"direction", "lane"}:
            raise Rejected("INVALID_COMMAND", section, f"Step {i} must be {{'direction': ..., 'lane': ...}}.")
        direction = st.get("direction")
        if direction not in (FORWARD, BACKWARD):
            raise Rejected("INVALID_COMMAND", section, f"Step {i}: 'direction' must be forward or backward.")
        if direction == BACKWARD and not allow_back:
            raise Rejected("FORWARD_ONLY", section,
                           "Maps move you forward; only with all 5 Maps may you move backward.")
        if pos == SKULL:
            raise Rejected("MAPS_IGNORED_AFTER_SKULL_ISLAND", SKULL_ISLAND,
                           f"Step {i}: once you reach Skull Island all other Maps are ignored; send only the steps up to it.")
        options = board.neighbours(pos, direction)
        if not options:
            raise Rejected("NO_SPACE_BEHIND", MOVE, f"Step {i}: there is no space behind the Start space.",
                           ruling="CV-A20")
        lane = st.get("lane")
        if "lane" in st and lane not in ("L", "R"):
            raise Rejected("INVALID_COMMAND", section, f"Step {i}: 'lane' must be L or R.")
        if len(options) == 2:
            if lane not in ("L", "R"):
                raise Rejected("LANE_REQUIRED", MOVE,
                               f"Step {i} enters a track split by an island: choose the side, lane L or R.")
            pos = next(o for o in options if board.lane_of[o] == lane)
        else:
            if lane is not None:
                here, there = board.lane_of[pos], board.lane_of[options[0]]
                if here in ("L", "R") and there == here and lane != here:
                    raise Rejected("LANE_BLOCKED", MOVE,
                                   f"Step {i}: your ship is on the {here} side of the island and cannot cross to the other side.")
                if here in ("L", "R") and there == here:
                    raise Rejected("NO_LANE_HERE", MOVE, f"Step {i} stays on the {here} side of the island, the "
                                   "only way on: there is no side to choose, so send no 'lane'.", ruling="CV-P14")
                raise Rejected("NO_LANE_HERE", MOVE,
                               f"Step {i} does not enter a split section; there is no side to choose.", ruling="CV-P14")
            pos = options[0]
        path.append((pos, direction))
    return path


def map_faces(n: int) -> str:
    """'1 Map', '3 Maps': a count of Map faces in a player's words."""
    return f"{n} Map" + ("" if n == 1 else "s")


def _how_many_steps(s: CorsairsState, start: str, n: int) -> str:
    """A move's wrong number of steps, in a player's words: one step for each Map, except
    that [Reaching Skull Island] ignores the Maps left once the ship is there (CV-A45), so a
    ship that can reach it says how far it is."""
    if start == SKULL:  # CV-A36
        return "Your ship is on Skull Island: all Maps are ignored, send no steps."
    ahead = len(s.board.rows) - 1 - s.board.row_of[start]  # each step forward is one row up
    if ahead > n:
        return f"You have {map_faces(n)}: send one step for each."
    away = f"{ahead} step{'' if ahead == 1 else 's'} ahead"
    if n == 5:  # with 5 Maps a step may go back, and then the ship stops short of Skull Island
        return (f"You have 5 Maps: send one step for each, unless you reach Skull Island ({away} "
                "going forward): the Maps left are ignored there, so send only the steps up to it.")
    return (f"You have {map_faces(n)} and Skull Island is {away}: send the {ahead} "
            f"step{'' if ahead == 1 else 's'} up to it; the Maps left are ignored there.")


def move_ship(d: Draft, seat: int, command: dict) -> None:
    """[Move Your Ship] each Map moves your ship 1 space toward Skull Island; 5 Maps: each
    step forward or backward as you wish. Hazards act where the movement ends.
    [Reaching Skull Island] the remaining Maps are ignored."""
    s = d.s
    n = _group(s, "map", MOVE)
    steps = command.get("steps")
    if not isinstance(steps, list):
        raise Rejected("INVALID_COMMAND", MOVE, "'steps' must list one step per Map.")
    p = s.players[seat]
    start = p.position
    if len(steps) > n:  # [Move Your Ship] "For each Map, move your Ship 1 space"
        raise Rejected("WRONG_NUMBER_OF_STEPS", MOVE, f"You have {map_faces(n)}: at most one step for each.")
    path = _walk(s, start, steps, allow_back=(n == 5), section=MOVE)
    reached = bool(path) and path[-1][0] == SKULL
    expected = len(steps) if reached else n   # [Reaching Skull Island] the other Maps are ignored
    if start == SKULL:  # CV-A36: a ship on Skull Island stays there for the rest of the turn
        expected = 0
    if len(steps) != expected:
        raise Rejected("WRONG_NUMBER_OF_STEPS", MOVE, _how_many_steps(s, start, n), ruling="CV-A45")
    d.emit("DiceExecuted", seat=seat, symbol="map", faces=n)
    for to, direction in path:
        d.step(seat, to, direction, "map")
    if len(path) < n:
        d.emit("MapsIgnored", seat=seat, count=n - len(path))
    if path and p.position != SKULL:
        d.hazard(seat, "map")


def jaxn_move(d: Draft, seat: int, command: dict) -> None:
    """[Captain Cards] Lucky Jax'n: with no Maps in the last roll, move 1 space forward and
    gain 1 Grog (never the Grog alone). Ruled a Map step (CV-A32)."""
    s = d.s
    rule = captain_rule("JAXN")
    _phase(s, "actions", rule, "use Lucky Jax'n's move")
    _captain(s, seat, "JAXN", "move 1 space and gain 1 Grog this way")
    _skulls_first(s)
    if s.turn.dice_given_away:
        raise Rejected("TURN_OVER", CURSED, "You gave your dice away: your turn is over.")
    if s.count("MAP"):
        raise Rejected("HAD_MAPS", rule, "Lucky Jax'n moves only when your last roll had no Maps.")
    if s.turn.jaxn_used:
        raise Rejected("POWER_ALREADY_USED", rule, "You have already used Lucky Jax'n's move this roll.",
                       ruling="CV-A16")
    if s.players[seat].position == SKULL:
        raise Rejected("SHIP_ON_SKULL_ISLAND", SKULL_ISLAND, "Your ship is on Skull Island and moves no further.",
                       ruling="CV-A36")
    step = {"direction": FORWARD, **({"lane": command["lane"]} if "lane" in command else {})}
    (to, _), = _walk(s, s.players[seat].position, [step], False, rule)
    d.step(seat, to, FORWARD, "jaxn", rewards=s.options["jaxn_island_rewards"])
    if s.players[seat].position != SKULL and s.options["hazards_on_jaxn_move"]:
        d.hazard(seat, "jaxn")  # CV-P4: the movement ends before the Grog is gained
    d.gain_grog(seat, 1, "jaxn")


# -- Phase C: Cannons ---------------------------------------------------------------

def _cannons(s: CorsairsState, section: Section) -> int:
    """The Cannons still to use this roll. None rolled is not 'already executed': each use of
    Cannons then refuses as too few, saying how many it needs [Use Your Cannons]."""
    if not s.count("CANNON"):
        _phase(s, "actions", section, "execute Cannon dice")
        _skulls_first(s)
        return 0
    _group(s, "cannon", section)
    return s.count("CANNON") - s.turn.cannons_spent


def _no_attack_yet(s: CorsairsState) -> None:
    """[Use Your Cannons] one attack a turn. Asked first: an attack executes the roll's Cannons,
    so the Cannons' own check would otherwise answer a second attack 'already executed'."""
    if s.turn.attacked:
        raise Rejected("ALREADY_ATTACKED", CANNONS,
                       "You may attack only once a turn: a player or a Merchant ship, not both.", ruling="CV-A27")


def hook_move(d: Draft, seat: int, command: dict) -> None:
    """[Captain Cards] Captain Hook: use two Cannons to move to the space of any other player."""
    s = d.s
    rule = captain_rule("HOOK")
    _captain(s, seat, "HOOK", "use two Cannons to move")
    left = _cannons(s, rule)
    target = _seat_arg(s, seat, command, "target", rule)
    if s.turn.hook_used >= s.options["hook_max_uses"]:
        raise Rejected("POWER_ALREADY_USED", rule, "You have already used Captain Hook's move this roll.",
                       ruling="CV-A29")
    if left < 2:
        raise Rejected("NOT_ENOUGH_CANNONS", rule, f"Captain Hook's move needs two Cannons; you have {left}.")
    here = s.players[seat].position
    if here == SKULL:
        raise Rejected("SHIP_ON_SKULL_ISLAND", SKULL_ISLAND, "Your ship is on Skull Island and moves no further.",
                       ruling="CV-A36")
    to = s.players[target].position
    d.emit("ShipMoved", seat=seat, **{"from": here}, to=to, direction="hook", cause="hook")
    if s.options["hazards_on_hook_move"] and to != here:  # CV-P13: no movement, no hazard
        d.hazard(seat, "hook")


def attack_player(d: Draft, seat: int, command: dict) -> None:
    """[Use Your Cannons] with at least 3 Cannons attack one other player: they give you all
    their Silver and move back 1 space per Cannon above 3; with all 5 Cannons you may steal
    1 Treasure instead. [Captain Cards] Jäger Knot may then move 1 space forward."""
    s = d.s
    _no_attack_yet(s)   # before the Cannons: an attack executed them all (CV-A27)
    left = _cannons(s, CANNONS)
    target = _seat_arg(s, seat, command, "target", CANNONS)
    mode = command.get("mode", "plunder")
    if mode == "plunder":
        if left < 3:
            raise Rejected("NOT_ENOUGH_CANNONS", CANNONS, f"Attacking a player needs at least 3 Cannons; you have {left}.")
    elif mode == "steal_treasure":
        if s.count("CANNON") != 5 or s.turn.cannons_spent:
            raise Rejected("NOT_FIVE_CANNONS", CANNONS, "Only with all 5 Cannons may you steal a Treasure.",
                           ruling="CV-A29" if s.turn.cannons_spent else None)
        if s.players[target].treasure < 1:
            raise Rejected("TARGET_HAS_NO_TREASURE", CANNONS,
                           f"{s.players[target].name} has no Treasure to steal.", ruling="CV-A28")
    else:
        raise Rejected("INVALID_COMMAND", CANNONS, "'mode' must be plunder or steal_treasure.")
    jager = _flag(command, "jager_step")
    lane = command.get("jager_lane")
    if "jager_lane" in command and lane not in ("L", "R"):
        raise Rejected("INVALID_COMMAND", captain_rule("JAGER"), "'jager_lane' must be L or R.")
    jager_to = None
    if jager:
        rule = captain_rule("JAGER")
        _captain(s, seat, "JAGER", "move 1 space forward when attacking")
        if s.players[seat].position == SKULL:
            raise Rejected("SHIP_ON_SKULL_ISLAND", SKULL_ISLAND, "Your ship is on Skull Island and moves no further.",
                           ruling="CV-A36")
        (jager_to, _), = _walk(s, s.players[seat].position,
                               [{"direction": FORWARD, **({"lane": lane} if lane is not None else {})}], False, rule)
    elif lane is not None:
        raise Rejected("INVALID_COMMAND", CANNONS, "'jager_lane' goes only with 'jager_step': true.")
    d.emit("PlayerAttacked", seat=seat, target=target, mode=mode, cannons=left)
    if mode == "plunder":
        d.gain_silver(seat, s.players[target].silver, "plunder", from_seat=target)
    else:
        d.emit("TreasureStolen", seat=seat, target=target)
        if s.players[seat].treasure >= WINNING_TREASURE:
            d.end_game("sixth_treasure", [seat])
    if jager_to is not None:  # CV-A30: resolved exactly like a Map step, before the push-back
        d.step(seat, jager_to, FORWARD, "jager")
        if s.players[seat].position != SKULL:
            d.hazard(seat, "jager")
    if mode == "plunder" and left > 3:
        _push_back(d, target, left - 3, moved=False)


def _push_back(d: Draft, target: int, steps: int, moved: bool) -> None:
    """[Use Your Cannons] 1 space backward per Cannon above 3; no rewards; hazards act where
    the backward motion ends. The owner chooses the side of a split (CV-A21); there is no
    space behind Start (CV-A20)."""
    s = d.s
    board = s.board
    while steps:
        pos = s.players[target].position
        options = board.neighbours(pos, BACKWARD)
        if not options:
            d.emit("PushBackStopped", seat=target, steps_lost=steps)
            break
        if len(options) == 2:
            d.emit("DecisionAwaited", decision={"kind": "lane", "seat": target, "space": pos,
                                                "options": list(options), "steps_left": steps})
            return
        d.step(target, options[0], BACKWARD, "push_back")
        moved = True
        steps -= 1
    if moved:
        d.hazard(target, "push_back")


def choose_lane(d: Draft, seat: int, command: dict) -> None:
    s = d.s
    pending = s.turn.pending
    lane = command.get("lane")
    if lane not in ("L", "R"):
        raise Rejected("LANE_REQUIRED", MOVE, "Choose the side of the island: lane L or R.", ruling="CV-A21")
    to = next(o for o in pending["options"] if s.board.lane_of[o] == lane)
    d.emit("DecisionTaken", seat=seat, kind="lane", choice={"lane": lane})
    d.step(seat, to, BACKWARD, "push_back")
    _push_back(d, seat, pending["steps_left"] - 1, moved=True)


def attack_merchant(d: Draft, seat: int, command: dict) -> None:
    """[Use Your Cannons] instead of a player, attack a Merchant ship in your ship's current
    space: its reward once for each Cannon."""
    s = d.s
    _no_attack_yet(s)   # before the Cannons: an attack executed them all (CV-A27)
    left = _cannons(s, CANNONS)
    mid = command.get("merchant")
    here = s.board.merchants.get(s.players[seat].position, ())
    found = next((m for m in here if m[0] == mid), None)
    if found is None:
        raise Rejected("NO_MERCHANT_HERE", CANNONS,
                       f"There is no Merchant ship '{mid}' in your ship's space." if isinstance(mid, str)
                       else "'merchant' must name a Merchant ship in your ship's space.")
    need = s.options["merchant_min_cannons"]
    if left < need:
        raise Rejected("NOT_ENOUGH_CANNONS", CANNONS,
                       f"Attacking a Merchant ship needs at least {need} Cannon{'s' if need > 1 else ''}; you have {left}.",
                       ruling="CV-A25")
    d.emit("MerchantAttacked", seat=seat, merchant=mid, cannons=left)
    silver = sum(a for r, a in found[1] if r == "silver") * left
    grog = sum(a for r, a in found[1] if r == "grog") * left
    d.gain_silver(seat, silver, "merchant")
    d.gain_grog(seat, grog, "merchant")


def hold_fire(d: Draft, seat: int, command: dict) -> None:
    """[Use Your Cannons] attacking is allowed, not required (CV-A9)."""
    _group(d.s, "cannon", CANNONS)   # with no Cannon rolled there is nothing to hold
    d.emit("DiceExecuted", seat=seat, symbol="cannon", faces=d.s.count("CANNON"))


# -- Phase D ------------------------------------------------------------------------

def end_turn(d: Draft, seat: int, command: dict) -> None:
    """[Execute Dice Actions] all Dice Actions first; [End Your Turn] hand the dice on.
    [Captain Cards] Hasan: at the start of phase D pay 1 Grog, then each Grog left becomes 1 Silver."""
    s = d.s
    _phase(s, "actions", END_TURN, "end your turn")
    _skulls_first(s)
    missing = [g for g in GROUPS if g not in s.turn.done]
    if missing:
        raise Rejected("ACTIONS_LEFT", EXECUTE,
                       "You must execute all Dice Actions before ending your turn; still to do: "
                       + ", ".join(g.title() for g in missing) + ".")
    if _flag(command, "hasan_convert"):
        rule = captain_rule("HASAN")
        _captain(s, seat, "HASAN", "turn Grog into Silver")
        p = s.players[seat]
        if p.grog < 1:
            raise Rejected("INSUFFICIENT_GROG", rule, "Hasan's exchange costs 1 Grog and you have none.")
        d.emit("GrogLost", seat=seat, amount=1, cause="hasan_payment")
        k = p.grog
        if k:
            d.emit("GrogLost", seat=seat, amount=k, cause="hasan_exchange")
            d.gain_silver(seat, k, "hasan")
    _end_turn(d, seat)


def _end_turn(d: Draft, seat: int) -> None:
    s = d.s
    d.emit("TurnEnded", seat=seat)
    if s.end_after_turn:  # [Reaching Skull Island] the 2nd reach ends the game after this turn
        d.end_game("second_skull_island_reach")
    if s.race_reset_pending:  # [Reaching Skull Island] another race starts
        flipped = [{"tile": x["tile"], "side": "B" if x["side"] == "A" else "A"} for x in s.slots]
        add = 2 if s.options["skull_reset_mode"] == "add_2" else max(0, 2 - s.skull_silver)
        if d.limited:
            add = min(add, s.supply)
        d.emit("RaceReset", slots=flipped, start=s.board.start, silver_added=add)
    nxt = (seat + 1) % len(s.players)  # [End Your Turn] the player on your left
    d.emit("TurnStarted", seat=nxt, turn=s.turn.number + 1)


HANDLERS = {
    "preset_die": preset_die,
    "roll_dice": roll_dice,
    "reroll_dice": reroll_dice,
    "lock_dice": lock_dice,
    "resolve_skulls": resolve_skulls,
    "give_skull_dice": give_skull_dice,
    "resolve_received_skulls": resolve_received_skulls,
    "acquire_grog": acquire_grog,
    "collect_silver": collect_silver,
    "move_ship": move_ship,
    "jaxn_move": jaxn_move,
    "hook_move": hook_move,
    "attack_player": attack_player,
    "attack_merchant": attack_merchant,
    "hold_fire": hold_fire,
    "choose_lane": choose_lane,
    "end_turn": end_turn,
}

PENDING_COMMANDS = ("resolve_received_skulls", "choose_lane")
MOMENTS = kit.Moments(of=moment_of, moments={
    "received_skulls": _owed("execute the Skull dice given to them", "resolve_received_skulls"),
    "lane": _owed("choose which side of the island their pushed-back ship enters", "choose_lane"),
    "turn": kit.Moment(FLOW, "it is {active}'s turn", set(HANDLERS) - set(PENDING_COMMANDS), _active,
                       wrong_command=kit.Refusal("NO_DECISION_PENDING", "Nobody is being asked to choose anything right now."),
                       not_yours=kit.Refusal("NOT_YOUR_TURN", "It is {active}'s turn; players take turns clockwise.")),
    "setup": kit.Moment(SETUP, "the game is being set up"),
}, fields={"owner": lambda s, seat: s.players[s.turn.pending["seat"]].name,
           "active": lambda s, seat: s.players[s.active].name})

RULES = kit.Rules(game="Corsairs of Valeria", handlers=HANDLERS, moments=MOMENTS,
                  draft=lambda state, chance, command: Draft(state, chance),
                  over=ENDING, unknown=FLOW, seats=FLOW, seats_of=lambda s: s.players)
decide = RULES.decide
gate = RULES.gate
