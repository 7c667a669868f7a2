"""Valeria: Card Kingdoms, the Solo Variant [BR p.16-18]: one player against the Dark Lord.

"In the solo game, you play against a virtual player." The Dark Lord is a Duke placed face
down above the Monster stacks at setup (setup._deal, VP-19), hidden from the seat until the
game ends (view.py, hidden.py). Each round is the base game's Roll, Harvest (the LEFT side, you
being the Active Player) and Action Phases, then:

- the Monsters Phase: each die activates the Monster stack in its position (a 6 a stack of
  your choice, not an exhausted one; doubles the same stack twice; an exhausted rolled stack
  nothing); an activated stack takes a card of one of the two Citizen stacks of its column
  (your choice), or with both empty the column's Domain, to the Dark Lord; a column with
  nothing left loses the game (VP-20 the columns, VP-22 the phase);
- the Second Harvest Phase: the RIGHT side of every activated Citizen, those recruited this
  turn included (VP-23);
- the End Phase: the endings checked; else the next round.

The three endings [BR p.17] end the game at once (VP-25): every Monster slain (you win), a
Monster attacking an empty column (you lose), five stacks exhausted (scored against the Dark
Lord, VP-26; an equal score is a draw). "Take from a single player" takes from the Bank, "take
a Monster" the top of the leftmost Monster stack (effects.py, VP-24). The Dark Lord is not a
seat: the result says `solo` (won, lost or draw) and shows him apart (VP-27).
"""
from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING

from .. import kit
from ..kit import Section
from ..ruleset import Rejected
from . import rules
from .state import Seat, ValeriaState

if TYPE_CHECKING:
    from .rules import Draft

SOLO = Section("Solo Variant", book="BR", page="16")
MONSTERS = Section("Solo Variant: Monsters Phase", book="BR", page="17")
SECOND_HARVEST = Section("Solo Variant: Second Harvest Phase", book="BR", page="17")
SOLO_END = Section("Solo Variant: Ending the Game", book="BR", page="17-18")
FIVE_STACKS = 5   # [BR p.17] 'if five card stacks are exhausted'


def columns(s: ValeriaState) -> list[dict]:
    """VP-20: the five columns of the Center [BR p.4 'a grid of four rows by five columns']: the
    k-th Monster stack as laid out, the k-th and (k+5)-th Citizen stacks in activation order (the
    top and bottom Citizen rows, 'in sequential order'), the k-th Domain stack."""
    monsters = list(s.monsters)
    citizens = sorted(s.citizens, key=lambda st: (min(s.activation(st)), st))   # mixed stacks too (VP-49)
    domains = sorted(s.domains)
    return [{"monster": monsters[k], "citizens": [citizens[k], citizens[k + 5]], "domain": domains[k]}
            for k in range(len(monsters))]


def _column(s: ValeriaState, k: int, col: dict, fields: dict) -> list[tuple[dict, tuple]]:
    """What an activated Monster stack of column k takes [BR p.17]: a Citizen of one of the two
    stacks (your choice when both hold one), else the Domain, else nothing: the game is lost."""
    full = [st for st in col["citizens"] if s.citizens[st]]
    if len(full) == 2:
        return [({**fields, "citizen": st}, ("capture", col["monster"], k, st)) for st in full]
    if full:
        return [(fields, ("capture", col["monster"], k, full[0]))]
    if s.top(col["domain"]) is not None:
        return [(fields, ("capture", col["monster"], k, col["domain"]))]
    return [(fields, ("overrun", col["monster"], k, None))]


def targets(s: ValeriaState, attack: dict) -> list[tuple[dict, tuple]]:
    """Every way one die's Monster activation may go now, as (the command's fields, outcome):
    outcome is (kind, Monster stack, column 1-5, the stack a card is taken from)."""
    cols = columns(s)
    if attack["value"] != 6:
        col = cols[attack["value"] - 1]
        if s.top(col["monster"]) is None:  # [BR p.17] 'If a rolled stack is exhausted, ... not activated'
            return [({}, ("idle", col["monster"], attack["value"], None))]
        return _column(s, attack["value"], col, {})
    out = []
    for k, col in enumerate(cols, start=1):  # [BR p.17] a 6: a stack of your choice, not Exhausted (VP-51)
        if s.top(col["monster"]) is not None:
            out += _column(s, k, col, {"stack": col["monster"]})
    return out or [({}, ("idle", None, None, None))]


def monsters_phase(d: Draft) -> None:
    """[BR p.17] after the Action Phase: each die as announced in the Roll Phase (VP-22)."""
    s = d.s
    assert s.dice is not None, "the Monsters Phase follows a roll"
    d.emit("MonstersPhaseBegan", dice=list(s.dice), attacks=[{"die": i, "value": v} for i, v in enumerate(s.dice)])
    _settle_monsters(d)


def _settle_monsters(d: Draft) -> None:
    """An activation with one possible outcome resolves by itself, die by die; one with a choice
    waits for `activate_monster` (VP-22). Then the Second Harvest."""
    s = d.s
    while s.attacks:
        lone = next((a for a in s.attacks if len(targets(s, a)) == 1), None)
        if lone is None:
            return
        _attack(d, lone, targets(s, lone)[0][1])
    _second_harvest(d)


def _attack(d: Draft, attack: dict, outcome: tuple) -> None:
    kind, stack, column, target = outcome
    if kind == "idle":
        d.emit("MonsterNotActivated", die=attack["die"], value=attack["value"], stack=stack)
        return
    d.emit("MonsterActivated", die=attack["die"], value=attack["value"], stack=stack, column=column)
    if kind == "overrun":  # [BR p.17] 'a Monster attacks and there are no Citizen or Domain cards in that column'
        game_over(d, "column_overrun")
    d.emit("CardCaptured", stack=target, card=d.s.top(target), column=column)
    rules._after_taken(d, target)  # the next Domain turned up; an emptied stack exhausted (VA-B6)
    check_end(d)


def activate_monster(d: Draft, seat: int, cmd: dict) -> None:
    s = d.s
    die = cmd.get("die")
    attack = next((a for a in s.attacks if a["die"] == die and rules._count(die)), None)
    if attack is None:
        raise Rejected("NO_SUCH_DIE", MONSTERS, "Name a die whose Monster stack is still to activate: "
                       f"{[a['die'] for a in s.attacks]} (0 the first die, 1 the second).")
    fields = {k: cmd[k] for k in ("stack", "citizen") if k in cmd}
    options = targets(s, attack)
    chosen = next((outcome for f, outcome in options if f == fields), None)
    if chosen is None:
        if attack["value"] == 6 and cmd.get("stack") in s.monsters and s.top(cmd["stack"]) is None:
            raise Rejected("STACK_EXHAUSTED", MONSTERS, "You may not choose an Exhausted Monster stack.")
        raise Rejected("ACTIVATION_NOT_ALLOWED", MONSTERS,
                       f"{_what_the_die_names(attack)}; when both Citizen stacks of the column hold a card, name "
                       "the one a card is removed from ('citizen'); nothing else. Send one of: "
                       f"{json.dumps([f for f, _ in options])}.", ruling="VP-22")
    _attack(d, attack, chosen)
    _settle_monsters(d)


def _what_the_die_names(attack: dict) -> str:
    """[BR p.17] 'The value on each die ... activates a Monster stack in that respective
    position'; 'In the case of 6, a Monster stack of your choice is activated.'"""
    if attack["value"] == 6:
        return f"Die {attack['die']} shows a 6: it names the Monster stack of your choice ('stack')"
    return f"Die {attack['die']} shows a {attack['value']}: it activates the Monster stack of column {attack['value']}"


def _second_harvest(d: Draft) -> None:
    """[BR p.17] 'Harvest all Resources from the RIGHT side of all of your activated Citizens,
    including Citizens you just recruited during this turn's Action Phase' (VP-23)."""
    s = d.s
    assert s.dice is not None, "the Second Harvest follows a roll"
    a, b = s.dice
    values = [a, b, a + b]
    items: list[dict] = []
    for c in s.seats[s.active].citizens:
        card = s.card(c)
        for _ in range(sum(1 for v in values if v in card["activation"])):  # each die and the sum; doubles twice
            items.append(rules._item(len(items), s.active, c, card["off_turn"]))
    if not items:  # [BR p.8] none activated: any one Resource, as for a player who is not active (VP-23)
        items.append(rules._item(0, s.active, "no_activation", {"wild": 1}))
    d.emit("SecondHarvestBegan", dice=[a, b], values=values, items=items)
    rules._settle_harvest(d)


def end_phase(d: Draft) -> None:
    """[BR p.17 End Phase] 'Check the end-game conditions. If they have not been met, pick up the
    dice to start the next round.'"""
    check_end(d)
    s = d.s
    d.emit("TurnEnded", seat=s.active, end_triggered=False, conditions=[])
    rules._start_turn(d, s.active, s.turn + 1)


def ending(s: ValeriaState) -> str | None:
    """[BR p.17] the endings met now: all Monsters slain first (which leaves their five stacks
    exhausted too), then five stacks exhausted (VP-25)."""
    if all(not pile for pile in s.monsters.values()):
        return "all_monsters_slain"
    if len(s.exhausted) >= FIVE_STACKS:
        return "exhausted_stacks"
    return None


def check_end(d: Draft) -> None:
    """[BR p.17] 'The game ends immediately': at the end of each action, Monster activation and
    phase (VP-25)."""
    why = ending(d.s)
    if why is not None:
        game_over(d, why)


def game_over(d: Draft, reason: str) -> None:
    s = d.s
    if reason == "exhausted_stacks" and getattr(s, "dark_lord_unnamed", False) and s.dark_lord is None:
        # [BR p.17] "After counting your points, reveal the face of the Dark Lord": a table that
        # placed it unseen turns it up now and names it, the last card this command turns up (VP-55)
        d.emit("DarkLordRevealed", duke=d.reveal(list(getattr(s, "dark_lord_may_be", [])), "the Dark Lord, turned face up to be "
                                                 "scored: one of nameable.dark_lord"))
    d.emit("GameEnded", result=result(s, reason), seed=d.chance.reveal(), dukes=[x.duke for x in s.seats],
           dark_lord=s.dark_lord)
    raise kit.GameOver


def dark_lord_points(s: ValeriaState) -> dict:
    """[BR p.17] the Dark Lord's score: the surviving Monsters (still in their stacks), the Domains
    captured, and his Duke's instructions applied to the surviving Monsters, the captured Citizens
    and Domains, as if they were his tableau and Victory stack; he has no tokens (VP-26)."""
    surviving = [c for pile in s.monsters.values() for c in pile]
    dark = copy.copy(s)
    dark.seats = [Seat(name="Dark Lord", victory=surviving, duke=getattr(s, "dark_lord", None),
                       citizens=[c for c in getattr(s, "captured", []) if s.card(c)["kind"] == "citizen"],
                       domains=[c for c in getattr(s, "captured", []) if s.card(c)["kind"] == "domain"])]
    me = dark.seats[0]
    parts = {"monsters": sum(s.card(m)["vp"] for m in me.victory), "domains": sum(s.card(x)["vp"] for x in me.domains),
             "duke": rules.duke_points(dark, 0)}
    parts["total"] = sum(parts.values())
    return parts


def your_points(s: ValeriaState) -> dict:
    """[BR p.17] "Total your score as follows": your slain Monsters, built Domains and Duke. The
    base game's list [BR p.8] also counts Victory Point tokens; the Solo Variant's does not, so they
    count only with the option `solo_vp_tokens` (VP-26)."""
    parts = rules.points(s, 0)
    if s.options.get("solo_vp_tokens"):
        return parts
    parts = {k: v for k, v in parts.items() if k not in ("tokens", "total")}
    return {**parts, "total": sum(parts.values())}


def result(s: ValeriaState, reason: str) -> dict:
    """VP-27: the seat wins or loses; an equal score is a draw (VP-26). The Dark Lord is not a
    seat: his Duke (and, when scored, his points) are shown apart. Your points are shown as they
    stand; they decide only the scored ending."""
    mine = your_points(s)
    out: dict = {"winners": [], "reason": reason, "solo": "lost", "standings": [0], "tie_breaks": [],
                 "totals": [mine["total"]], "points": [mine], "cards": [rules.cards_in_tableau(s, 0)],
                 "dark_lord": {"duke": getattr(s, "dark_lord", None)}}
    if reason == "all_monsters_slain":
        out.update(winners=[0], solo="won")
    elif reason == "exhausted_stacks":
        his = dark_lord_points(s)
        outcome = "won" if mine["total"] > his["total"] else "lost" if mine["total"] < his["total"] else "draw"
        out.update(winners=[0] if outcome == "won" else [], solo=outcome)
        out["dark_lord"]["points"] = his
    return out


def ranked(r: dict) -> dict:
    """The one result shape (domain/kit/results.py) of a solo game's GameEnded result: its one seat
    ranks 1 only when it won, else 2, a draw included (no win, VP-26; rank 1 is for the winners);
    the Dark Lord is not a seat and has no entry; its score, its points (VP-27)."""
    details = {k: v for k, v in r.items() if k not in kit.results.SHAPE}
    return {**details, "reason": r["reason"], "winners": list(r["winners"]),
            "ranking": [{"seat": 0, "rank": 1 if r["winners"] else 2, "score": r["totals"][0]}],
            "tie_breaks": [], "details": details}
