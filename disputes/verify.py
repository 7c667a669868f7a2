"""Re-adjudicate an export from scratch: the hash chain, the seed, every outcome, every command.

verify(export) walks the log the way the service wrote it: the creation record, the setup the
rules produce from it, then each recorded command through ruleset.decide with the chance the
service used (ServerChance(seed, position=version before the command), or the table's
outcomes carried in the command). It answers "valid", "divergent" with the first divergence,
or "incomplete" when the export withholds what a full check needs (a seat's redacted export,
or a running server-chance game without its seed). It stores nothing and needs no server.
A document that is not a well-formed export (disputes/export.py) is MalformedExport before
anything is checked; a well-formed one whose log the rules disagree with is "divergent".
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from disputes import chain
from disputes.export import FORMAT, MalformedExport, Unverifiable, check
from domain import adjudication
from domain import chance as domain_chance
from domain.adjudication import json_safe
from domain.ruleset import InvalidCreation, Rejected


@dataclass
class Divergence:
    version: int
    check: str  # sequence | hash_chain | seed | setup | rules | events | status
    detail: str
    recorded: Any = None
    expected: Any = None  # what the chain or the rules produce
    rule: dict | None = None  # code, rule, detail, ruling: when the rules refuse the record


@dataclass
class Report:
    verdict: str  # valid | divergent | incomplete
    version: int
    checked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    divergence: Divergence | None = None

    @property
    def valid(self) -> bool:
        return self.verdict == "valid"

    def to_dict(self) -> dict:
        out = asdict(self)
        out["valid"] = self.valid
        return out


@dataclass
class _Entry:
    version: int
    event: dict
    command: dict | None
    salt: str | None
    hash: str | None
    redacted: bool


def _entries(export: dict) -> tuple[dict, list[_Entry], list[_Entry], list[tuple[dict, list[_Entry]]]]:
    """The creation record, setup entries, and (command, entries) pairs; MalformedExport if
    the document is not a well-formed export (disputes/export.py)."""
    check(export)
    creation = export["creation"]

    def entry(raw, command=None) -> _Entry:
        return _Entry(raw["version"], raw["event"], command, raw.get("salt"), raw.get("hash"),
                      bool(raw.get("redacted")))

    batches = []
    for raw in export["commands"]:
        stored_command = {"seat": raw["seat"], "body": raw["body"]}
        events = [entry(e, stored_command if i == 0 else None) for i, e in enumerate(raw["events"])]
        if raw.get("redacted") and events:
            events[0].redacted = True
        batches.append((raw, events))
    return creation, [entry(e) for e in export["setup"]], [e for _, es in batches for e in es], batches


def _creation_hash(creation: dict) -> str | None:
    try:
        content = chain.creation_content(
            creation["ruleset"], creation["ruleset_version"], [s["name"] for s in creation["seats"]],
            creation.get("options"), creation.get("content"), creation.get("table_setup"),
            creation["chance"]["mode"], creation["chance"].get("commitment"))
        content["seats"] = creation["seats"]  # as recorded: a seat's number is hashed too, not rebuilt
        return chain.creation_hash(creation["salt"], content)
    except (TypeError, ValueError, KeyError):
        return None


def check_chain(creation: dict, entries: list[_Entry]) -> tuple[Divergence | None, int]:
    """The first broken link, and how many records could be checked.

    A complete export is checked from the start: each hash is recomputed from the one
    computed before it. A redacted record (no salt) cannot be recomputed; the records after
    it are checked against its recorded hash.
    """
    checked = 0
    previous = creation.get("hash")
    if creation.get("version", 1) != 1:
        return Divergence(1, "sequence", "The creation record must be version 1.",
                          recorded=creation.get("version"), expected=1), checked
    if not creation.get("redacted"):
        computed = _creation_hash(creation)
        if computed != creation.get("hash"):
            return Divergence(1, "hash_chain", "The creation record does not match its hash.",
                              recorded=creation.get("hash"), expected=computed), checked
        checked += 1
    for position, e in enumerate(entries, start=2):
        if e.version != position:
            return Divergence(position, "sequence",
                              f"Record {position} is missing: the log goes on with version {e.version} "
                              "(an event was deleted, inserted or moved).",
                              recorded=e.version, expected=position), checked
        if e.redacted or e.salt is None:
            previous = e.hash
            continue
        try:
            computed = chain.event_hash(previous, e.version, e.salt, e.event, e.command)
        except (TypeError, ValueError):
            computed = None
        if computed != e.hash:
            return Divergence(e.version, "hash_chain",
                              "This record does not match its hash: it, or the one before it, was "
                              "edited, moved or removed.",
                              recorded=e.hash, expected=computed), checked
        checked += 1
        previous = computed
    return None, checked


def _rejection(error: Rejected) -> dict:
    refusal: dict[str, object] = {"code": error.code, "rule": error.rule, "detail": error.detail, "ruling": error.ruling}
    if isinstance(error, adjudication.InvalidCommand):
        refusal["problems"] = error.problems
    return refusal


def _compare(first_version: int, produced: list, recorded: list[_Entry], what: str) -> Divergence | None:
    for i in range(max(len(produced), len(recorded))):
        version = first_version + i
        if i >= len(recorded):
            return Divergence(version, what, "The rules produce an event the log does not record.",
                              recorded=None, expected=produced[i])
        if i >= len(produced):
            return Divergence(version, what, "The log records an event the rules do not produce.",
                              recorded=recorded[i].event, expected=None)
        if not _same(produced[i], recorded[i].event):
            return Divergence(version, what, "The rules produce another event than the one recorded.",
                              recorded=recorded[i].event, expected=produced[i])
    return None


def _same(produced, recorded) -> bool:
    """One event as JSON writes it: `true` is not `1`, nor `5.0` `5` (Python's == says they are),
    and the log records JSON (docs/disputes.md: "exactly the recorded events")."""
    try:
        return chain.canonical(produced) == chain.canonical(recorded)
    except (TypeError, ValueError):
        return False


def _fold(ruleset, state, entries: list[_Entry]):
    for e in entries:
        try:
            state = ruleset.evolve(state, e.event)
        except Exception as error:  # a tampered event the rules cannot even apply
            raise _Stop(Divergence(e.version, "events", f"The rules cannot apply this event ({type(error).__name__}).",
                                   recorded=e.event)) from None
    return state


class _Stop(Exception):
    def __init__(self, divergence: Divergence):
        self.divergence = divergence


def _chance(mode: str, seed: str | None, position: int):
    if mode == "server" and seed is not None:
        return domain_chance.ServerChance(seed, position=position)
    return domain_chance.TableChance()


def readjudicate(ruleset, creation: dict, setup: list[_Entry],
                 batches: list[tuple[dict, list[_Entry]]], seed: str | None) -> Divergence | None:
    """Run setup and every command through the rules; the first disagreement with the log."""
    mode = creation["chance"]["mode"]
    players = [s["name"] for s in creation["seats"]]
    try:
        produced = json_safe(ruleset.setup(list(players), creation.get("options"), creation.get("content"),
                                           _chance(mode, seed, 0), creation.get("table_setup")))
    except InvalidCreation as error:
        return Divergence(2, "setup", "The rules refuse to create this game: " + "; ".join(error.problems),
                          recorded=setup[0].event if setup else None)
    except Rejected as error:
        return Divergence(2, "setup", "The rules refuse to set this game up.", rule=_rejection(error),
                          recorded=setup[0].event if setup else None)
    except Exception as error:
        return Divergence(2, "setup", f"The rules fail on this creation record ({type(error).__name__}).")
    divergence = _compare(2, produced, setup, "setup")
    if divergence:
        return divergence
    try:
        state = _fold(ruleset, ruleset.initial_state(), setup)
        position = 1 + len(setup)
        for raw, entries in batches:
            version = position + 1
            seat, body = raw["seat"], raw["body"]
            recorded_first = entries[0].event if entries else None
            if not entries:
                return Divergence(version, "events", "A recorded command with no events: an accepted "
                                  "command always yields at least one event.", recorded=raw)
            try:
                produced = _adjudicated(ruleset, state, seat, body, len(players), _chance(mode, seed, position))
            except Rejected as refusal:
                return Divergence(version, "rules", "The rules refuse the recorded command: "
                                  f"{refusal.detail}", recorded={"command": {"seat": seat, "body": body}},
                                  rule=_rejection(refusal))
            except Exception as error:
                return Divergence(version, "rules", f"The rules fail on this command ({type(error).__name__}).",
                                  recorded=recorded_first)
            divergence = _compare(version, produced, entries, "events")
            if divergence:
                return divergence
            state = _fold(ruleset, state, entries)
            position += len(entries)
    except _Stop as stop:
        return stop.divergence
    return None


def _adjudicated(ruleset, state, seat: int, body: dict, seats: int, chance) -> list:
    """The events a recorded command produces, decided as the service decided it when it was
    sent (domain/adjudication.py: the same checks, in the same order, in the same words)."""
    adjudication.check_seat(seat, seats)
    adjudication.admit(ruleset, body)
    return adjudication.adjudicate(ruleset, state, seat, body, chance)


def ruleset_for(creation: dict, rulesets: dict | None):
    if rulesets is None:
        from domain.registry import all_rulesets

        rulesets = all_rulesets()
    ruleset = rulesets.get(creation["ruleset"])
    if ruleset is None:
        raise Unverifiable(f"this verifier has no ruleset {creation['ruleset']!r}; it knows "
                           f"{', '.join(sorted(rulesets))}")
    if ruleset.version != creation["ruleset_version"]:
        raise Unverifiable(f"the game was played under {creation['ruleset']} {creation['ruleset_version']}; "
                           f"this verifier has version {ruleset.version}")
    return ruleset


def verify(export: dict, rulesets: dict | None = None) -> Report:
    """Re-adjudicate an export. Raises Unverifiable when it cannot be checked at all."""
    creation, setup, events, batches = _entries(export)
    ruleset = ruleset_for(creation, rulesets)
    entries = setup + events
    last = entries[-1].version if entries else 1
    report = Report("valid", last)

    chain_divergence, linked = check_chain(creation, entries)
    report.checked.append(f"hash chain: {linked} of {len(entries) + 1} records recomputed")
    head_divergence = _head_divergence(export, creation, entries, last)
    header = [k for k in ("version", "head_hash") if export.get(k) is not None]
    if head_divergence is None and header:
        report.checked.append(f"head: the export's {' and '.join(header)} {'are' if len(header) > 1 else 'is'} "
                              "its last record's")
    redacted = [e.version for e in entries if e.redacted or e.salt is None]
    if creation.get("redacted"):
        redacted.insert(0, 1)
    if redacted and chain_divergence is None:
        report.notes.append(f"{len(redacted)} records are redacted in this export (first: version "
                            f"{redacted[0]}); their hashes are taken as recorded.")

    seed = export.get("seed")
    mode = creation["chance"]["mode"]
    seed_divergence = _seed_divergence(creation, seed, report) if mode == "server" and seed is not None else None

    rules_divergence = None
    if mode == "table" and seed is not None:
        report.notes.append("A table game has no seed: the one in this export was not read.")
    if redacted:
        report.notes.append("Re-adjudication needs a complete export: the host's or the arbiter's while "
                            "the game runs (a server-chance game's also needs its seed, which only the "
                            "arbiter's carries), anyone's after the end.")
    elif mode == "server" and seed is None:
        report.notes.append("The seed is revealed when the game ends: re-adjudication needs it.")
        if export.get("status") == "finished":   # every export of a finished game carries it
            report.notes.append("This export says the game is finished yet carries no seed, which every "
                                "export of a finished game does: it was altered or cut.")
    elif seed_divergence is None:
        rules_divergence = readjudicate(ruleset, creation, setup, batches, seed)
        if rules_divergence is None:
            report.checked.append(f"rules: setup and {len(batches)} commands re-adjudicated, "
                                  "every event as recorded")
            rules_divergence = _status_divergence(ruleset, export, creation, entries, last)

    position_divergence = _position_divergence(batches)
    found = [d for d in (chain_divergence, position_divergence, head_divergence, seed_divergence, rules_divergence)
             if d is not None]
    if found:
        report.verdict = "divergent"
        report.divergence = min(found, key=lambda d: d.version)  # ties: the chain, the header, the seed
    elif redacted or (mode == "server" and seed is None):
        report.verdict = "incomplete"
    return report


def _position_divergence(batches: list[tuple[dict, list[_Entry]]]) -> Divergence | None:
    """Each command's `version_before` (optional) is the version just before its first event: the
    server chance position it was decided at (docs/disputes.md), which the hash chain does not cover."""
    for raw, entries in batches:
        before = raw.get("version_before")
        if before is not None and entries and before != entries[0].version - 1:
            return Divergence(entries[0].version, "sequence", f"This command's version_before says {before}, but "
                              f"its first event is version {entries[0].version}: it was decided at version "
                              f"{entries[0].version - 1}.", recorded=before, expected=entries[0].version - 1)
    return None


def _seed_divergence(creation: dict, seed, report: Report) -> Divergence | None:
    """The revealed seed is the one whose commitment was published at creation."""
    try:
        good = domain_chance.commitment(seed) == creation["chance"].get("commitment")
    except (TypeError, ValueError):
        good = False
    if good:
        report.checked.append("seed: matches the commitment published at creation")
        return None
    return Divergence(1, "seed", "The seed does not match the commitment published at creation.",
                      recorded=creation["chance"].get("commitment"), expected=seed)


def _head_divergence(export: dict, creation: dict, entries: list[_Entry], last: int) -> Divergence | None:
    """The export's own `version` and `head_hash` name its last record (both are optional: an
    export written by hand may leave them out). A log cut short keeps an intact chain, so only
    these say that records after it were removed: a receipt kept by a player (a version and
    its hash) is checked against them."""
    claimed = export.get("version")
    if claimed is not None and claimed != last:
        if claimed > last:
            return Divergence(last + 1, "sequence", f"The export says the game is at version {claimed}, but its "
                              f"log ends at version {last}: the records after it are missing.",
                              recorded=claimed, expected=last)
        return Divergence(claimed + 1, "sequence", f"The export says the game is at version {claimed}, but its "
                          f"log goes on to version {last}.", recorded=claimed, expected=last)
    head = export.get("head_hash")
    tail = entries[-1].hash if entries else creation.get("hash")
    if head is not None and head != tail:
        return Divergence(last, "hash_chain", "The export's head_hash is not the hash of its last record.",
                          recorded=head, expected=tail)
    return None


def _status_divergence(ruleset, export, creation, entries, last) -> Divergence | None:
    state = _fold(ruleset, ruleset.initial_state(), entries)
    finished = ruleset.status(state).finished
    claimed = export.get("status")
    if claimed is not None and claimed != ("finished" if finished else "active"):
        # A game the export calls finished that its log does not end: what is missing comes after
        # its last record (a log cut short under an intact header is `sequence` there, first).
        at = last + 1 if claimed == "finished" else last
        return Divergence(at, "status", f"The export says the game is {claimed}; the rules say "
                          f"{'finished' if finished else 'active'}.", recorded=claimed,
                          expected="finished" if finished else "active")
    return None


__all__ = ["FORMAT", "Divergence", "MalformedExport", "Report", "Unverifiable", "verify", "json_safe"]
