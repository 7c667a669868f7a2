"""What every game package shares: the skeleton of a game, and the pieces its rules use.

The skeleton (issue 14), which every game declares itself against instead of writing it:
    snapshot.py  its state's basics: clone, dump and load, one generic copy (GameState, SHARED)
    moments.py   whose decision it is and what may be done, as data (Moments, Moment,
                 Refusal), and the one gate that applies it
    rules.py     how decide() opens and runs, declared per game (Rules): its decide and gate
    ruleset()    below: the game's modules assembled into a domain.ruleset.Ruleset
and here: Section (the one way a rule is cited), Draft (what decide() works on), content
loading and checking, the first event (setup_event), deals for dry runs. Beside them:
    results.py   the one result shape every game's status() gives a finished game
    printed.py   what every game's check of printed content shares (reading content, citing)
Nothing here knows any game's rules.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable
from importlib import resources

import jsonschema

from ..ruleset import Rejected, Ruleset
from .snapshot import SHARED, GameState, clone, dump, load, loader  # noqa: F401  (re-exported: the state basics)


class Section(str):
    """A section of a rulebook that a check enforces: the one way every game cites its rules.

    It is the text a refusal shows (Rejected.rule, the problem's `section`), built from its
    parts, so a citation reads the same in every game and can be looked up in the rulebook:
    `Section("Re-roll Dice")`, `Section("Slay a Monster", book="BR", page="9")` (the base
    game's rulebook, page 9, in a game that cites two books), `Section("Phase 3: Run the Loop")`.
    A str, so it serializes and compares as the text it renders."""

    book: str
    page: str
    heading: str  # the section's own title (not `title`: str has a method of that name)

    def __new__(cls, title: str, *, book: str = "", page: str = "") -> Section:
        text = " ".join(part for part in (book, f"p.{page}" if page else "", title) if part)
        self = super().__new__(cls, text)
        self.book, self.page, self.heading = book, page, title
        return self


def setup_event(ruleset_id: str, version: str, players: list[str], options: dict, content: dict,
                chance, **rest) -> dict:
    """The first event of every game (domain/ruleset.py, setup): what the game was created with,
    so a log is self-contained. `rest` holds what a game adds to it (League's starting points)."""
    return {"type": "GameSetUp", "ruleset": ruleset_id, "ruleset_version": version, "players": list(players),
            **rest, "options": options, "content": content, "content_key": content_key(content),
            "chance": {"mode": chance.mode, "commitment": chance.commitment}}


class GameOver(Exception):
    """The game ended inside a command; nothing after that event happens."""


# The most events one command (or a game's setup) may set off. The reference contents never
# come near it (the most seen in random games of every ruleset is in docs/performance.md); it is
# the backstop under the content bounds (CONTENT_MAX_*, Chrono's MOST_STEPS, Valeria's
# MOST_WAYS) for whatever custom content they let through: a command past it is refused, with
# nothing stored, before its events cost more CPU, storage and every reader's time.
MAX_EVENTS = 5000
COMMANDS_RULE = Section("Parley: commands")


class TooManyEvents(Rejected):
    """A command (or setup) that would set off more than MAX_EVENTS events."""

    def __init__(self):
        super().__init__("TOO_MANY_EVENTS", COMMANDS_RULE,
                         f"This would set off more than {MAX_EVENTS:,} events at once, more than Parley adjudicates "
                         "in one command; only custom content can ask for that. Nothing was stored.")


class Draft:
    """decide() works on a draft: a clone of the state to which each event is applied as soon
    as it is emitted, so later steps of a command see earlier ones. The real state changes
    only when the service stores the events."""

    def __init__(self, state, chance, evolve: Callable):
        self.s = state.clone()
        self.chance = chance
        self.events: list[dict] = []
        self._evolve = evolve

    def emit(self, type_: str, **data) -> None:
        if len(self.events) >= MAX_EVENTS:
            raise TooManyEvents()
        event = {"type": type_, **data}
        self.events.append(event)
        self._evolve(self.s, event)


def load_json(package: str, name: str) -> dict:
    return json.loads(resources.files(package).joinpath("content", name).read_text(encoding="utf-8"))


class LRU:
    """A bounded map: at most `size` entries, the least recently used dropped first.

    Caches keyed by a content fingerprint use it so that a worker fed endless distinct custom
    contents keeps only the last few (and whatever its live states hold); an entry dropped
    is rebuilt from the content on the next use.

    Safe from any thread without a lock: each step is one call on the OrderedDict, which
    CPython makes atomic (the keys are strings, whose hashing calls no Python code), and a step
    that finds its key gone meanwhile (another thread dropped it) is skipped. Under gevent a
    lock was a hazard, not a guard: threading.Lock is then a gevent lock, and the native
    threads that verifications run in (service/serving.py offload) waited on it for ever when
    it was contended (an outside audit, 2026-12-04: 9 of a worker's 10 pool threads stuck).
    Two threads racing may both build a value, and the LRU order may be off by one use."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key) -> bool:
        return key in self._items

    def get(self, key):
        """The value, now the most recently used; KeyError when absent."""
        value = self._items[key]
        with contextlib.suppress(KeyError):   # dropped by another thread since: still a good value
            self._items.move_to_end(key)
        return value

    def setdefault(self, key, value):
        """Keep `value` unless the key is present (the first value stays); returns the kept one."""
        kept = self._items.setdefault(key, value)
        with contextlib.suppress(KeyError):
            self._items.move_to_end(key)
        while len(self._items) > self.size:
            try:
                self._items.popitem(last=False)
            except KeyError:   # emptied by another thread meanwhile
                break
        return kept

    def get_or_build(self, key, build: Callable[[], object]):
        """The value for key, built (outside the lock) and kept if absent."""
        try:
            return self.get(key)
        except KeyError:
            return self.setdefault(key, build())


def content_key(content: dict) -> str:
    """A fingerprint of content, so compiled forms of it can be cached across clones."""
    return hashlib.sha256(json.dumps(content, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


# The most custom content a game may be created with, serialized as compact UTF-8 JSON. The
# schemas bound every string, list and map in it, but some content nests (Chrono's effects),
# so only a total bounds it; the reference contents are 5 to 27 KB. Validating nested effects
# costs CPU (crafted Chrono content: about 1.5 s at 55 KB, 3.3 s at 88 KB on the 2-core machine),
# so the cap is four times the largest reference content, not more. Documented in docs/api.md.
CONTENT_MAX_BYTES = 128 * 1024
# The bytes do not bound validation by themselves: a crafted Chrono content of 127 KB, its
# effects nested 27 deep around 6,000 objects, took 26 s of CPU to validate (jsonschema tries each
# kind of effect at every level, and the cost per object grows with the depth). So content is
# also bounded in its depth and in how many objects and arrays it holds, both checked before
# validation: the reference contents nest at most 13 deep and hold 134 to 729 of them.
CONTENT_MAX_DEPTH = 20
CONTENT_MAX_CONTAINERS = 2500

_TOO_BIG = {"maxLength": "characters", "maxItems": "items", "maxProperties": "properties"}


def content_size(content) -> int:
    return len(json.dumps(content, separators=(",", ":"), ensure_ascii=False).encode())


def content_shape(content) -> tuple[int, int]:
    """How deep the content nests (a scalar 0, an empty object or array 1) and how many objects
    and arrays it holds, walked without recursion."""
    deepest = containers = 0
    stack = [(content, 1)]
    while stack:
        value, depth = stack.pop()
        children: Iterable
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        containers += 1
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest, containers


def content_size_problems(content, where: str = "content") -> list[str]:
    """The content's problems when it is over CONTENT_MAX_BYTES: the total, and its largest
    parts (so the refusal says where the bulk is without validating it all first); or over
    CONTENT_MAX_DEPTH or CONTENT_MAX_CONTAINERS."""
    size = content_size(content)
    if size <= CONTENT_MAX_BYTES:
        depth, containers = content_shape(content)
        out = []
        if depth > CONTENT_MAX_DEPTH:
            out.append(f"{where}: nested {depth} deep; custom content may nest at most {CONTENT_MAX_DEPTH} deep "
                       "(objects and arrays within one another)")
        if containers > CONTENT_MAX_CONTAINERS:
            out.append(f"{where}: {containers} objects and arrays; custom content may hold at most "
                       f"{CONTENT_MAX_CONTAINERS}")
        return out
    out = [f"{where}: {size} bytes as JSON; custom content may have at most {CONTENT_MAX_BYTES}"]
    if isinstance(content, dict):
        parts = sorted(((content_size(v), k) for k, v in content.items()), reverse=True)[:3]
        out += [f"{where}.{k}: {n} bytes as JSON" for n, k in parts if n > CONTENT_MAX_BYTES // 4]
    return out


def _python_literal(value) -> bool:
    """A value Python spells otherwise than JSON: true, false, null, and any array or object
    (['a', 'b'] for ["a", "b"]). A lone string keeps jsonschema's quotes ('x'), as the
    messages quote names."""
    return value is None or isinstance(value, bool | list | dict)


def _as_json(value) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def spelled(value) -> str:
    """A value a client sent, quoted in a refusal: a string in quotes ('x'), as names are quoted,
    anything else as JSON writes it (true, null, ["a"]), never as Python does; cut at 60."""
    shown = repr(value) if isinstance(value, str) else _as_json(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _unknown_fields(err: jsonschema.ValidationError) -> str:
    """An object with fields its schema does not have, named as a client spells them and followed
    by the fields it may have (jsonschema's own words quote a Python tuple: "('a', 'b' were unexpected)")."""
    known = err.schema.get("properties", {})
    patterns = err.schema.get("patternProperties", {})
    extra = sorted(k for k in err.instance if k not in known and not any(re.search(p, k) for p in patterns))
    if not extra:
        return err.message
    names = ", ".join(spelled(k) for k in extra[:5]) + (f" and {len(extra) - 5} more" if len(extra) > 5 else "")
    message = f"has no field{'s' if len(extra) > 1 else ''} {names}"
    if known:
        message += f"; its fields are {', '.join(spelled(k) for k in sorted(known))}"
    return message if len(message) <= 300 else message[:300] + "..."


def fitting(err: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """For a value that fits none of an anyOf's or oneOf's choices: the error of the one choice
    its JSON type fits, when only one does (a list with a name twice, where a name or a list is
    asked, is told that its name is there twice, not that it matches no choice); else err."""
    if err.validator not in ("anyOf", "oneOf") or not err.context:
        return err
    by_choice: dict = {}
    for sub in err.context:
        by_choice.setdefault(sub.relative_schema_path[0], []).append(sub)
    fits = [subs for subs in by_choice.values()
            if not any(sub.validator == "type" and not sub.relative_path for sub in subs)]
    if len(fits) != 1 or len(by_choice) != len(err.validator_value):
        return err
    return fitting(min(fits[0], key=lambda sub: list(map(str, sub.relative_path))))


def _twice(err: jsonschema.ValidationError) -> str:
    """A list whose items must differ, in words naming the first item listed again."""
    seen = set()
    for item in err.instance:
        key = json.dumps(item, sort_keys=True, default=repr)
        if key in seen:
            return f"lists {spelled(item)} more than once: each may be listed once"
        seen.add(key)
    return err.message


def error_message(err: jsonschema.ValidationError) -> str:
    """A schema error in words that never echo a long value back (a refusal stays small)."""
    if err.validator == "uniqueItems" and isinstance(err.instance, list):
        return _twice(err)
    if err.validator in _TOO_BIG:
        return f"is too long: at most {err.validator_value} {_TOO_BIG[err.validator]}"
    if err.validator == "additionalProperties" and err.validator_value is False and isinstance(err.instance, dict):
        return _unknown_fields(err)
    message = err.message
    # jsonschema writes values as Python does (True, None): a JSON client sent true, null
    if err.validator == "const" and _python_literal(err.validator_value):
        message = f"{_as_json(err.validator_value)} was expected"
    if err.validator == "enum" and any(_python_literal(v) for v in err.validator_value):
        message = message.replace(repr(err.validator_value), _as_json(err.validator_value))
    if _python_literal(err.instance):
        spelled = repr(err.instance)
        if message.startswith(spelled):
            message = _as_json(err.instance) + message[len(spelled):]
    return message if len(message) <= 300 else message[:300] + "..."


def schema_problems(validator: jsonschema.Validator, data, where: str) -> list[str]:
    """Every way data breaks its JSON Schema, as 'where.path: message' lines."""
    out = []
    for err in sorted(map(fitting, validator.iter_errors(data)), key=lambda e: list(map(str, e.absolute_path))):
        path = ".".join(str(p) for p in err.absolute_path)
        out.append(f"{where}{'.' + path if path else ''}: {error_message(err)}")
    return out


# Custom contents checked against a schema lately: (schema identity, content fingerprint) -> the
# problems found (none when valid). The service checks a creation's content (in a native thread,
# service/serving.py offload) before setup() checks it again, and validating the same content
# against the same schema twice would only double its cost; a repeated invalid content costs one
# validation too.
_CHECKED = LRU(64)
CHECKED_PROBLEMS_KEPT = 50  # content with more problems is validated again by setup(), not kept


def check_custom_content(schema: dict, content) -> list[str]:
    """custom_content_problems against `schema` (the ruleset's content schema, the same dict
    object its setup() validates with), remembered for setup()."""
    return custom_content_problems(jsonschema.Draft202012Validator(schema), content)


def custom_content_problems(validator: jsonschema.Validator, content) -> list[str]:
    """Custom content's problems at creation: content over the byte cap is refused on its size
    alone, before a validation whose cost grows with it (nested effects cost seconds per
    hundred KiB); otherwise every way it breaks its schema, validated once for the same
    content and schema (the second asker gets what the first found)."""
    too_big = content_size_problems(content)
    if too_big:
        return too_big
    # Keyed by the content as sent, key order included: the schema's problems at one path follow
    # the order of the content's keys, so content equal but for that order must not get the
    # other's list (a golden fingerprint differed by the test run before it).
    as_sent = json.dumps(content, separators=(",", ":"), ensure_ascii=False, default=repr)
    key = (id(validator.schema), hashlib.sha256(as_sent.encode("utf-8", "surrogatepass")).hexdigest())
    try:
        return list(_CHECKED.get(key))
    except KeyError:
        pass
    found = schema_problems(validator, content, "content")
    if len(found) <= CHECKED_PROBLEMS_KEPT:  # a few lines each: 64 entries stay small
        _CHECKED.setdefault(key, tuple(found))
    return found


def check_shipped(validator: jsonschema.Validator, content: dict, problems: Callable[[dict], list[str]]) -> None:
    """Shipped reference content is checked once, when its package loads."""
    found = schema_problems(validator, content, "content") + problems(content)
    if found:
        raise RuntimeError(f"the reference content is broken: {found}")


def apply(handlers: dict, state, event: dict):
    """evolve(): the handler for the event's type changes the state; unknown types change nothing."""
    handler = handlers.get(event["type"])
    if handler is not None:
        handler(state, event)
    return state


def fold(state, evolve: Callable, events: Iterable[dict]):
    """The state these events make from `state` (a setup that runs the rules on the state it
    has made so far: Chrono's first round, Tesoros' Events in the draw-off)."""
    for event in events:
        state = evolve(state, event)
    return state


def canonical(items) -> list:
    """The items in an order that depends only on what they are (not where they were)."""
    return sorted(items, key=lambda x: json.dumps(x, sort_keys=True))


def deal(rng, pool) -> list:
    """The pool in a uniformly random order drawn from rng (ruleset.redeal): a Fisher-Yates
    shuffle of its canonical order, so the result depends on the pool's contents and rng
    alone, never on the order (or the places) the cards were in."""
    out = canonical(pool)
    for i in range(len(out) - 1, 0, -1):
        j = rng.draw(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def deal_into(rng, pool, sizes: list[int]) -> list[list]:
    """The pool re-dealt into piles of these sizes (which must add up to its size)."""
    if sum(sizes) != len(pool):
        raise ValueError(f"piles of {sizes} cannot hold {len(pool)} items")
    dealt, out = deal(rng, pool), []
    for size in sizes:
        out.append(dealt[:size])
        dealt = dealt[size:]
    return out


def printed_id(card: str) -> str:
    """The printed card a copy id stands for: `fabrics#2` -> `fabrics`; an id with no copy number
    is its own."""
    return card.split("#", 1)[0]


def pool_listing(pools: dict[str, list], nameable: dict[str, list]) -> dict:
    """What the host sees of the face-down pools (docs/rulings.md TM-2, docs/api.md table
    mode): `pools`, each pool's cards as counts by printed id (a copy `<type>#<k>` counted
    under its type), and `nameable`, the ids a table report may name from each pool it draws
    from. Both depend on what the pools hold, never on their order."""
    counts = {}
    for name, ids in pools.items():
        tally: dict[str, int] = {}
        for card in ids:
            tally[printed_id(card)] = tally.get(printed_id(card), 0) + 1
        counts[name] = dict(sorted(tally.items()))
    return {"pools": counts, "nameable": {name: sorted(ids) for name, ids in nameable.items()}}


def nothing_hidden(state, seat, rng):
    """ruleset.redeal of a game that hides nothing from a seat: the state as it is."""
    return state.clone()


def with_defaults(options: dict, schema: dict) -> dict:
    out = dict(options)
    for k, spec in schema["properties"].items():
        if "default" in spec:   # an option without one is absent unless sent (Valeria's preselected Events)
            out.setdefault(k, spec["default"])
    return out


def ruleset(*, setup, state, rules, legal, view, status, command_schemas, hidden, **identity) -> Ruleset:
    """Assemble a game package's modules into the Ruleset domain/ruleset.py describes.

    `rules` is the package's rules.py, whose decide and gate are its kit.Rules'; `hidden` is
    its hidden.py (its redeal, for dry runs), None only for a game that hides nothing from
    any seat. It has no default, so that no game forgets it."""
    return Ruleset(
        **identity,
        options_schema=setup.OPTIONS_SCHEMA,
        content_schema=setup.CONTENT_SCHEMA,
        default_content=setup.DEFAULT_CONTENT,
        command_schemas=command_schemas,
        setup=setup.setup,
        initial_state=state.initial_state,
        evolve=state.evolve,
        decide=rules.decide,
        gate=rules.gate,
        legal_commands=legal.legal_commands,
        table_inputs=legal.table_inputs,
        drawn_fields=legal.DRAWN_FIELDS,
        view=view.view,
        redact=view.redact,
        redact_command=view.redact_command,
        redeal=hidden.redeal if hidden is not None else nothing_hidden,
        status=status,
        dump_state=state.dump_state,
        load_state=state.load_state,
    )


# The skeleton the games share (issue 14), after what its modules import from here.
from .moments import NOT_YOUR_DECISION, WRONG_MOMENT, Moment, Moments, Refusal, nobody  # noqa: E402, F401
from .results import named, ranked  # noqa: E402, F401
from .rules import Rules, run  # noqa: E402, F401


class Dealing:
    """A table-chance game's setup, dealt on past a report it cannot accept, so that one refused
    creation lists every wrong report at once (docs/api.md: a 422 lists everything wrong).

    It stands for the game's TableChance while setup deals: a pick, shuffle or roll the table
    reported wrongly is remembered in `refused` and answered with a stand-in outcome (the
    first items, the faces' first) so the deal goes on; setup then refuses the creation with
    every one of them. The stand-ins are never stored: a creation with any refusal is refused.
    A report from the wrong token (TM-1) is refused at once, as the game's other refusals are."""

    def __init__(self, chance):
        self._chance = chance
        self.refused: list = []

    def __getattr__(self, name: str):
        return getattr(self._chance, name)

    def pick(self, items, count: int, supplied, field: str, where: str = "") -> list:
        try:
            return self._chance.pick(items, count, supplied, field, where)
        except Rejected as r:
            self._remember(r)
            return list(items)[:min(count, len(items))]

    def shuffle(self, items, supplied, field: str) -> list:
        try:
            return self._chance.shuffle(items, supplied, field)
        except Rejected as r:
            self._remember(r)
            return list(items)

    def roll(self, count: int, faces, supplied, field: str) -> list:
        try:
            return self._chance.roll(count, faces, supplied, field)
        except Rejected as r:
            self._remember(r)
            return [faces[0]] * count

    def _remember(self, r: Rejected) -> None:
        if r.code not in ("TABLE_OUTCOME_INVALID", "TABLE_OUTCOME_REQUIRED"):
            raise r
        self.refused.append(r)


def dealing(chance):
    """The chance setup deals with: a Dealing for a table-chance game, the chance itself otherwise."""
    return Dealing(chance) if chance.mode == "table" else chance


def refused_reports(chance) -> list:
    """What a Dealing remembered (nothing for any other chance)."""
    return list(chance.refused) if isinstance(chance, Dealing) else []


def report_problem(r: Rejected) -> str:
    """A refusal of the chance layer while setup deals, as a creation problem naming its field
    ("setup.domains: 'x' cannot have been drawn from there."), with its ruling where it has one."""
    detail = r.detail
    if detail.startswith("'setup") and "'" in detail[1:]:  # TableChance quotes the field it refuses
        field, rest = detail[1:].split("'", 1)
        detail = f"{field}: {rest.removeprefix(':').strip()}"
    elif not detail.startswith("setup"):
        detail = f"setup: {detail}"
    return detail + (f" ({r.ruling})" if r.ruling and f"({r.ruling})" not in detail else "")
