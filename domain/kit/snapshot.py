"""State basics every game shares: clone, dump and load, through one generic copy.

A game's state is a dataclass whose fields hold plain JSON data (dicts, lists, str, int,
float, bool, None), tuples of it, and nested dataclasses of the same kind. One copy serves
every game, as deep as the data goes, so no game writes (or forgets part of) its own:

clone(state)   a copy that shares nothing evolve() may change: what decide() drafts on, and
               what the service's game cache hands each request. A field declared shared
               (`field(metadata=SHARED)`) holds immutable data, the content and the like,
               which every copy keeps by reference.
dump(state)    the snapshot form: exactly dataclasses.asdict(state) (snapshots are stored,
               and the old ones must still load).
load(cls, d)   the state back from its snapshot form: each field rebuilt as its type says
               (`list[Seat]`, `Turn`, `Challenge | None`), the rest copied as it is. Keys are passed to
               the dataclass as they are, so a missing field takes its default and an unknown
               one is an error.

The copy follows each field's declared type: `list[str]` is copied as a list of atoms,
`dict[str, list[str]]` as a dict of such lists, a dataclass field by that dataclass's own
plan. Where a type says no more than `dict`, `list` or `Any`, the value is walked to the
bottom. So a type must be true: a field declared to hold atoms that held a list would be
copied too shallow (tests/domain/test_state_clone_isolation.py mutates everything a clone
reaches, at many points of random games of every ruleset, to prove the types true). A value
of any other kind (a set, an object that is not a dataclass) is refused with a TypeError.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

SHARED = types.MappingProxyType({"kit.shared": True})
"""Field metadata: immutable data every copy of a state shares (content, caches keyed by it)."""

T = TypeVar("T")
Copier = Callable[[Any], Any]

_ATOMS = frozenset({str, int, float, bool, type(None)})


class GameState:
    """The base of every game's state dataclass: clone() through the generic copy."""

    __slots__ = ()

    def clone(self: T) -> T:
        return clone(self)


def clone(state: T) -> T:
    """A copy of the state sharing nothing but its fields declared SHARED."""
    return _instance_copier(type(state))(state)


# -- the copy ----------------------------------------------------------------------------------

def _walk(value: Any) -> Any:
    """A copy of a value of no declared shape: every container in it copied."""
    kind = type(value)
    if kind is dict:
        new = value.copy()
        for k, x in value.items():
            if type(x) not in _ATOMS:
                new[k] = _walk(x)
        return new
    if kind is list:
        return [x if type(x) in _ATOMS else _walk(x) for x in value]
    if kind in _ATOMS:
        return value
    if kind is tuple:
        return tuple(_walk(x) for x in value)
    return _instance_copier(kind)(value)


# dataclass type -> its copier; hint -> copier (None: an immutable value, kept as it is)
_INSTANCE_COPIERS: dict[type, Copier] = {}
_HINT_COPIERS: dict[Any, Copier | None] = {}


def _instance_copier(cls: type) -> Copier:
    found = _INSTANCE_COPIERS.get(cls)
    if found is not None:
        return found
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"a game state holds no {cls.__name__}: only dataclasses and JSON data are copied")
    plan: list[tuple[str, Copier]] = []

    def copy(obj):
        new = object.__new__(cls)
        fields = new.__dict__
        fields.update(obj.__dict__)
        for name, copier in plan:
            fields[name] = copier(fields[name])
        return new

    _INSTANCE_COPIERS[cls] = copy   # before the plan: a dataclass may hold its own kind
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        copier = None if f.metadata.get("kit.shared") else _copier(hints[f.name])
        if copier is not None:
            plan.append((f.name, copier))
    return copy


def _copier(hint: Any) -> Copier | None:
    if hint in _HINT_COPIERS:
        return _HINT_COPIERS[hint]
    copier = _HINT_COPIERS[hint] = _compile(hint)
    return copier


def _compile(hint: Any) -> Copier | None:
    """How a value of this type is copied; None when it is immutable."""
    if hint in _ATOMS or hint is None or typing.get_origin(hint) is typing.Literal:
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        inner = [c for a in args if a is not type(None) and (c := _copier(a)) is not None]
        if not inner:
            return None
        if len(args) == 2 and type(None) in args and inner[0] is not _walk:   # X | None
            return _or_none(inner[0])
        return _walk
    if origin is list and args:
        item = _copier(args[0])
        return list.copy if item is None else _walk if item is _walk else _each(item)
    if origin is dict and len(args) == 2:
        value = _copier(args[1])
        return dict.copy if value is None else _walk if value is _walk else _each_value(value)
    if origin is tuple and args and all(_copier(a) is None for a in args if a is not Ellipsis):
        return None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _instance_copier(hint)
    return _walk


def _or_none(copier: Copier) -> Copier:
    return lambda v: None if v is None else copier(v)


def _each(copier: Copier) -> Copier:
    return lambda v: [copier(x) for x in v]


def _each_value(copier: Copier) -> Copier:
    return lambda v: {k: copier(x) for k, x in v.items()}


# -- the snapshot form -------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return [_plain(x) for x in value]
    if kind is dict:
        return {k: _plain(x) for k, x in value.items()}
    if kind in _ATOMS:
        return value
    if kind is tuple:
        return tuple(_plain(x) for x in value)
    if not dataclasses.is_dataclass(kind):
        raise TypeError(f"a game state holds no {kind.__name__}: only dataclasses and JSON data are dumped")
    return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(kind)}


def dump(state: Any) -> dict:
    """The snapshot form of a state, dataclasses.asdict(state): a copy, shared fields too."""
    if not dataclasses.is_dataclass(state) or isinstance(state, type):
        raise TypeError("only a dataclass state is dumped")
    return _plain(state)


# dataclass type -> {field name: how its snapshot form becomes the field's value}
_LOADERS: dict[type, dict[str, Copier]] = {}


def _loader(hint: Any) -> Copier | None:
    """How a field's snapshot form becomes its value, where dataclasses are in it; else None."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _loads(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list and args and (item := _loader(args[0])) is not None:
        return lambda v: [item(x) for x in v]
    if origin is dict and len(args) == 2 and (value := _loader(args[1])) is not None:
        return lambda v: {k: value(x) for k, x in v.items()}
    if origin in (types.UnionType, typing.Union):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1 and (one := _loader(inner[0])) is not None:
            return lambda v: None if v is None else one(v)
    return None


def _loads(cls: type) -> Copier:
    return lambda v: load(cls, v)


def _loaders(cls: type) -> dict[str, Copier]:
    found = _LOADERS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = {}
        for f in dataclasses.fields(cls):
            if f.metadata.get("kit.shared"):
                found[f.name] = _same
            else:
                found[f.name] = _loader(hints[f.name]) or _walk   # whatever shape an old snapshot has
        _LOADERS[cls] = found
    return found


def _same(value: Any) -> Any:
    return value


def load(cls: type[T], data: dict) -> T:
    """The state (or a part of one) of type cls from its snapshot form; data is not kept,
    but for the shared fields (immutable data)."""
    loaders = _loaders(cls)
    return cls(**{k: loaders[k](v) if k in loaders else v for k, v in data.items()})


def loader(cls: type[T]) -> Callable[[dict], T]:
    """load_state for a game whose state is cls."""
    def load_state(data: dict) -> T:
        return load(cls, data)
    load_state.__doc__ = f"A {cls.__name__} from its snapshot form (kit.load)."
    return load_state
