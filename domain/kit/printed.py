"""What every game's printed-content check shares: reading content defensively, showing a
value in a refusal, and citing the rulebook section of a creation problem's field.

A game's printed.py lists what its rulebook prints (numbers, counts, names) and checks custom
content against it, so content that changes one is refused at creation naming the field, the
printed value and the section; these helpers are the part every game writes the same way."""
from __future__ import annotations

import json
import re
from collections.abc import Callable

from . import custom_content_problems, with_defaults

ABSENT = object()


def at(x, path: tuple):
    """The value at path inside x (keys and list indexes), or ABSENT."""
    for p in path:
        found = (isinstance(x, dict) and isinstance(p, str) and p in x) or \
            (isinstance(x, list) and isinstance(p, int) and 0 <= p < len(x))
        if not found:
            return ABSENT
        x = x[p]
    return x


def shown(v) -> str:
    """A value as a refusal shows it: JSON, never long."""
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def text(x) -> str | None:
    """x when it is a string, else None: what a name or id of unchecked content is looked up by."""
    return x if isinstance(x, str) else None


def differs(got, printed) -> bool:
    """True when got is not the printed value (true and 1 are not the same number)."""
    return type(got) is not type(printed) or got != printed


def shadowing(schema_problems: list[str], printed: list[str]) -> list[str]:
    """The schema's problems but those about a field a printed-value problem already names (the
    printed one says more: the value and the section)."""
    fields = {p.split(": ", 1)[0] for p in printed}
    return [p for p in schema_problems if p.split(": ", 1)[0] not in fields]


def _under(field: str, key: str) -> bool:
    """Whether field is key or inside it; a '*' in key stands for any one part ('content.cards.*.die')."""
    pattern = re.escape(key).replace(r"\*", r"[^.\[]+")
    return re.match(pattern + r"($|[.\[])", field) is not None


_CITED = re.compile(r"\[(?!True|False|None)[A-Z][^\[\]]*\]( \([A-Z]+-[A-Z]?\d+\))?$")
_RULING = re.compile(r" \([A-Z]+-[A-Z]?\d+\)$")


def cite(problems: list[str], sections: dict[str, tuple[str, str]]) -> list[str]:
    """Each problem 'field: text' ending with its rulebook citation '[Section]' (and a ruling
    '(ID)' when it has one): a problem that does not cite one yet gets the section of its field's
    longest prefix in sections ({field prefix: (section, ruling or "")})."""
    out = []
    for p in problems:
        field = p.split(": ", 1)[0]
        keys = [k for k in sections if _under(field, k)]
        if _CITED.search(p) or not keys:
            out.append(p)
            continue
        section, ruling = sections[max(keys, key=len)]
        found = _RULING.search(p)
        if found:
            out.append(f"{p[:found.start()]} [{section}]{found.group(0)}")
        else:
            out.append(f"{p} [{section}]" + (f" ({ruling})" if ruling else ""))
    return out


def with_ruling(problems: list[str], ruling: str) -> list[str]:
    """Each problem with a ruling id at its end: its own, or `ruling` (the game's printed-content ruling)."""
    return [p if _RULING.search(p) else f"{p} ({ruling})" for p in problems]


def value_problems(content, printed: list, counted, fields: dict | None = None) -> list[str]:
    """The printed values content changes, as 'content.<field>: the rulebook prints X, not Y
    [Section]'. printed: (content path, printed value, the rulebook's words, section) each; a
    path in `counted` stands for how many items its list holds; `fields` names a path's field
    where it is not the path itself."""
    out = []
    for path, value, words, section in printed:
        got = at(content, path)
        if path in counted:
            got = len(got) if isinstance(got, list) else ABSENT
        if got is not ABSENT and differs(got, value):
            field = (fields or {}).get(path) or ".".join(("content",) + tuple(map(str, path)))
            out.append(f"{field}: the rulebook prints {words}, not {shown(got)} [{section}]")
    return out


def usable_options(opts: dict, errors: list[str], schema: dict) -> dict:
    """The options with their defaults, each one the schema refused replaced by its default: what
    the checks of option values against each other, the players, the content and the table rely on."""
    bad = {e.split(": ", 1)[0].split(".")[1] for e in errors if e.startswith("options.")}
    return with_defaults({k: v for k, v in opts.items() if k in schema["properties"] and k not in bad}, schema)


def checked_content(content: dict | None, default: dict, validator, printed_problems: Callable[[dict], list[str]],
                    content_problems: Callable[[dict], list[str]]) -> tuple[dict, list[str], bool]:
    """The content to play with, its problems (its form, whether its parts fit, what the rulebook
    prints) and whether it is sound enough for the checks that read it: its form is (a changed
    printed number does not stop the options and the table setup being checked against it).
    The default content was checked once, at import (check_shipped)."""
    if content is None or content == default:
        return default, [], True
    printed = printed_problems(content)
    form = custom_content_problems(validator, content)
    errors = shadowing(form, printed) or [p if p.startswith("content") else f"content.{p}"
                                          for p in ([] if form else content_problems(content))]
    return content, errors + printed, not form and not errors
