"""The contract every game implements, and the vocabulary shared by all of them.

A ruleset is a Ruleset, the frozen dataclass at the end of this module, with these members
(one per game package, assembled by kit.ruleset; a test's fake builds one too); the service
knows nothing else about a game. Its callables are typed over the game's state S, so a type
checker can hold each game to this contract.

Identity and documentation
    id, version, name, min_players, max_players, summary
    options_schema   JSON Schema (draft 2020-12) of the creation options, with defaults
    content_schema   JSON Schema of the component content the rulebook does not print
    default_content  the reference content shipped by default (labelled as not printed)
    command_schemas  {command type: JSON Schema of its body, "type" included}; the service
                     checks bodies against them before decide(), so they must admit every legal
                     command and say nothing secret. Every property, at any depth, has a
                     'description' (for a table field: what it carries)
    table_setup_schema  JSON Schema of what a table-chance game states at creation, or None
    public_setup_fields the fields of that setup every seat sees on the table (cards dealt face
                     up, tiles laid out): a seat's copy of the creation keeps only these
    variants         the variants the rulebook prints, each chosen by creation options (Variant)

Lifecycle (all pure; nothing here does I/O or reads a clock)
    setup(players, options, content, chance, table_setup) -> list[Event]
        players: list of display names in seat order (seat = index). options/content may be
        None (defaults apply). Raises InvalidCreation listing every problem. The first event
        records ruleset id and version, seats, options, content and the chance commitment,
        so a log is self-contained.
    initial_state() -> State
    evolve(state, event) -> State      applies one event; never checks, never fails, never rolls.
                                       Stored events are forever: evolve must keep applying every
                                       event any released version of the ruleset stored (reshape
                                       an event only with an upcaster, never in place)
    decide(state, seat, command, chance) -> list[Event]   or raises Rejected; an accepted
                                       command always yields at least one event
    gate(state, seat, command) -> None  raises what decide() refuses before it reads the
                                       command's body: the game is over, it has no such
                                       command, no such seat, not at this moment, not this
                                       seat's decision (kit.Rules, kit.Moments). decide()
                                       applies it too, after refusing outcome fields a server
                                       game was sent (so a command gate() admits may still be
                                       refused by decide, never the other way round)
    legal_commands(state, seat) -> list[dict]             agrees exactly with decide
    table_inputs(state, seat) -> dict  chance fields a table-mode client must add, by command type:
                                       {type: {field: spec}}, each spec with a 'description'
                                       of what the field carries (issue 17)
    view(state, viewer) -> dict        what that viewer may see: an int seat, None (a spectator)
                                       or ARBITER (sees everything: the host, an export). The
                                       ARBITER's view adds `pools` (each face-down pool's cards
                                       as counts by printed id, never the order) and `nameable`
                                       (the ids a table report may name from each pool): kit.
                                       pool_listing, docs/rulings.md TM-2
    redact(event, viewer) -> Event     the event as that viewer may see it
    redact_command(command, actor, viewer) -> dict   a stored command as that viewer may see it
    redeal(state, seat, rng) -> State  the state as `seat` may imagine it, for a dry run
                                       (domain/dry_run.py): everything the seat cannot see
                                       (other hands, sealed choices, the contents and order of
                                       face-down piles) re-dealt at random, consistently with
                                       what it can see, drawing only rng.draw(n). The result
                                       depends on nothing but what the seat can see and rng:
                                       two states that differ only in what the seat cannot see
                                       give equal results for the same rng (pools are put in a
                                       canonical order before they are dealt: kit.deal).
                                       Everything the seat can see is unchanged; `state` is
                                       not mutated. A game that hides nothing returns a clone.
    status(state) -> Status
    dump_state(state) -> dict, load_state(dict) -> State   (snapshots; JSON-safe. Stored
                                       snapshots must keep loading: kit.dump and kit.load)

A state has clone(), a copy sharing nothing evolve() changes (kit.GameState): decide()
drafts on one, and the service's game cache hands each request one.

Events are plain JSON-safe dicts {"type": "PastTense", ...}; a game ends with exactly one
event of type "GameEnded" (the game list relies on it). Commands are plain dicts
{"type": "imperative_snake_case", ...} without the acting seat, which is passed apart.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:  # kit imports this module; a Section is a str at run time
    from .kit import Section

ARBITER = "arbiter"

Event = dict[str, Any]
Command = dict[str, Any]
Viewer = int | str | None   # a seat, ARBITER, or None (a spectator)
S = TypeVar("S")            # a game's state


class Rejected(Exception):
    """The rules say no. Nothing is stored.

    code    stable machine code, e.g. "INSUFFICIENT_GROG"
    rule    the rulebook section enforced, a kit.Section: Section("Re-roll Dice") reads
            "Re-roll Dice", Section("Slay a Monster", book="BR", page="9") "BR p.9 Slay a
            Monster"; a str, so it serializes as that text
    detail  words a player understands; never reveals what the seat may not know
    ruling  id in docs/rulings.md when the rule is ours (the rulebook is silent)
    """

    rule: Section

    def __init__(self, code: str, rule: Section, detail: str, ruling: str | None = None):
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.rule = rule
        self.detail = detail
        self.ruling = ruling


class TooManyToList(Exception):
    """legal_commands (or table_inputs) would list more than a listing may hold: raised, not
    answered in part, so that a listing is whole or refused (docs/api.md, TOO_MANY_COMMANDS)."""

    def __init__(self, most: int):
        super().__init__(most)
        self.most = most


class InvalidCreation(Exception):
    """A game cannot be created as asked: every problem is listed.

    Each problem is one line, "field: what is wrong [Section]": the part of the request at
    fault, the words a player understands, and, where the rulebook has one, the section it
    enforces in square brackets (the id of a ruling it applies may follow, in parentheses). `causes` reads
    those parts back for the answer, so every game writes its problems one way."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems

    @property
    def causes(self) -> list[dict]:
        return [cause(p) for p in self.problems]


_FIELD = re.compile(r"^([A-Za-z_][\w.\[\]\-+]*): ")
_CITATION = re.compile(r"(?<![\w\]\[])\[([^\[\]]+)\]")  # "[BR p.4]", not the index of "monsters[the_deep]"
_RULING = re.compile(r"\b([A-Z]{2}-[A-Z]{0,2}\d+)\b")
# A problem cites its rulings in parentheses, "(XY-31)", "(XY-40, XY-46)": a card id it quotes
# (a Tesoros card, 'C' 'P' '-3') has the same shape and is not one.
_RULINGS_CITED = re.compile(r"\(((?:[A-Z]{2}-[A-Z]{0,2}\d+)(?:(?:,\s*|\s+and\s+)[A-Z]{2}-[A-Z]{0,2}\d+)*)\)")


def _is_literal(text: str) -> bool:
    """A list a schema problem quotes ("9 is not one of [3, 4]"), not a citation."""
    try:
        ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return False
    return True


def cause(problem: str) -> dict:
    """One creation problem's parts: field, detail and, where cited, section and ruling."""
    match = _FIELD.match(problem)
    field_, detail = (match.group(1), problem[match.end():]) if match else ("", problem)
    inner = _FIELD.match(detail) if field_ == "content" else None
    if inner:  # "content: coins[x].skills: ..." names a field inside the content
        field_, detail = f"content.{inner.group(1)}", detail[inner.end():]
    out = {"field": field_, "detail": detail}
    sections = [c for c in _CITATION.findall(detail) if not _is_literal(f"[{c}]")]
    if sections:
        out["section"] = "; ".join(dict.fromkeys(sections))
    rulings = [r for cited in _RULINGS_CITED.findall(detail) for r in _RULING.findall(cited)]
    if rulings:
        out["ruling"] = ", ".join(dict.fromkeys(rulings))
    return out


@dataclass(frozen=True)
class Status:
    finished: bool
    to_move: list[int] = field(default_factory=list)  # seats whose decision it is now
    phase: str = ""
    result: dict | None = None  # when finished: winners, reason, standings, tie_breaks


@dataclass(frozen=True)
class Variant:
    """A way to play that the rulebook prints beside its standard game, and how a creation
    chooses it: `options` are the creation options that turn it on (with the values shown; a
    number stands for any the option's schema admits), for `min_players`..`max_players`."""

    name: str
    section: str  # the rulebook section that prints it (a kit.Section)
    options: Mapping[str, Any]
    min_players: int
    max_players: int
    summary: str


@dataclass(eq=False, repr=False)
class Ruleset(Generic[S]):
    """A game as the service sees it: the members the module docstring describes.

    Nothing assigns to a ruleset's members but tests, which patch one (monkeypatch) to show a
    check would catch a leak; so it is not frozen. Rulesets compare and hash by identity."""

    id: str
    version: str
    name: str
    min_players: int
    max_players: int
    summary: str
    options_schema: dict
    content_schema: dict
    default_content: dict
    command_schemas: Mapping[str, dict]
    table_setup_schema: dict | None
    # The table_inputs fields drawn or turned up from a hidden pool, which only the host
    # token may report (docs/rulings.md TM-1); the others (dice) the acting seat reports.
    drawn_fields: frozenset[str]
    setup: Callable[[list[str], dict | None, dict | None, Any, dict | None], list[Event]]
    initial_state: Callable[[], S]
    evolve: Callable[[S, Event], S]
    decide: Callable[[S, int, Command, Any], list[Event]]
    gate: Callable[[S, int, Command], None]
    legal_commands: Callable[[S, int], list[Command]]
    table_inputs: Callable[[S, int], dict]
    view: Callable[[S, Viewer], dict]
    redact: Callable[[Event, Viewer], Event]
    redact_command: Callable[[Command, int, Viewer], dict]
    redeal: Callable[[S, int, Any], S]
    status: Callable[[S], Status]
    dump_state: Callable[[S], dict]
    load_state: Callable[[dict], S]
    variants: tuple[Variant, ...] = ()  # the printed variants, each a creation option
    public_setup_fields: frozenset[str] = frozenset()  # of table_setup_schema: what every seat sees

    def public_setup(self, table_setup: dict | None) -> dict | None:
        """The table's setup as every seat sees it on the table: its public fields only (TM-4)."""
        if table_setup is None:
            return None
        return {k: v for k, v in table_setup.items() if k in self.public_setup_fields}

    def __repr__(self) -> str:
        return f"Ruleset({self.id!r}, version {self.version!r})"
