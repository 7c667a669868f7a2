"""The hash chain over a game's stored records (docs/disputes.md, "The hash chain").

Record 1 is the creation record; record v > 1 is one event the rules produced. Each record's
hash is SHA-256 over the canonical JSON of {"previous", "version", "salt", and its content},
"previous" being the hash of record v - 1 (null for the creation record). The salt is 16
random bytes stored with the record: without it a seat holding the hash of an entry hidden
from it could try every possible content (two leagues, a few coins) and learn the secret.
"""
from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any


def canonical(value: Any) -> str:
    """The one JSON text a value hashes as: sorted keys, no spaces, UTF-8 unescaped."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def digest(record: dict) -> str:
    return hashlib.sha256(canonical(record).encode("utf-8")).hexdigest()


def new_salt() -> str:
    return secrets.token_hex(16)


def creation_content(ruleset: str, ruleset_version: str, seats: list[str], options, content,
                     table_setup, chance_mode: str, commitment: str | None) -> dict:
    """What the creation record commits to: everything a re-adjudication starts from."""
    return {
        "ruleset": ruleset,
        "ruleset_version": ruleset_version,
        "seats": [{"seat": i, "name": name} for i, name in enumerate(seats)],
        "options": options,
        "content": content,
        "table_setup": table_setup,
        "chance": {"mode": chance_mode, "commitment": commitment},
    }


def creation_hash(salt: str, creation: dict) -> str:
    return digest({"previous": None, "version": 1, "salt": salt, "creation": creation})


def event_hash(previous: str | None, version: int, salt: str, event: dict,
               command: dict | None) -> str:
    return digest({"previous": previous, "version": version, "salt": salt, "event": event,
                   "command": command})
