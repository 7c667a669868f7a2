"""Server seeds at rest: sealed with a key held outside the event store (issue 15, part 5).

A server-chance game's seed decides every roll and draw still to come; until the game ends
(when the rules reveal it in their GameEnded event, and anyone may check it against the
commitment published at creation) nobody may read it. It is stored sealed, in the creation
record and in every snapshot, with AES-256-GCM (the `cryptography` library):

    sealed:1:<key id>:<base64url of nonce + ciphertext>

The key id is the first 8 hex digits of the key's SHA-256; the game's commitment is the
associated data, so a sealed seed copied into another game does not open. Records stored
before seeds were sealed hold them in the clear and are read as they are (stored events are
forever); every seed stored since is sealed.

The keys (SeedKeys.from_environment):
- PARLEY_SEED_KEYS: keys separated by commas, each 32 random bytes in base64url
  (`python -c "import secrets,base64;print(base64.urlsafe_b64encode(secrets.token_bytes(32)).decode())"`).
  The first seals; every one opens.
- else a key file, one key a line, the first sealing: PARLEY_SEED_KEY_FILE, else beside the
  SQLite file (`<file>.seed-keys`), else var/parley.seed-keys. It is made, readable by its
  owner only, when missing. Several nodes sharing one database must share the keys.
- the in-memory store (tests) gets a key of its own for the life of the process.

Rotation: put a new key first and keep the old ones after it. New games are sealed with the
new key; a game sealed with an old one still opens. An old key may go once every game sealed
with it has ended (its seed is public then). The keys also seal the tokens of a game created
with an Idempotency-Key and derive its id (service/application.py, creation_ids): once its
key is gone, a retry of that creation is a new creation (retries are answered for a day
only). A lost key: every unfinished server-chance game sealed with it cannot go on
(SeedUnavailable: its next roll cannot be decided); finished ones are unaffected (their seed
is in their GameEnded event).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
import time
from pathlib import Path

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PREFIX = "sealed:1:"
OPENED_KEPT = 4096  # opened seeds kept per process (SeedKeys.open), about 200 bytes each


class SeedUnavailable(Exception):
    """A sealed seed whose key this process does not hold (or that does not open)."""


def new_key() -> str:
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()


KEY_TEXT = re.compile(r"[A-Za-z0-9_-]{43}=?")


def _key_id(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()[:8]


class SeedKeys:
    """The keys that seal and open seeds: the first seals, every one opens."""

    def __init__(self, keys: list[str]):
        decoded = []
        for text in keys:
            text = text.strip()
            # 32 bytes are 43 base64url characters and one "=" of padding, which may be left out
            # (secrets.token_urlsafe(32) does); nothing else, so that pasted junk is not dropped
            # silently by the decoder, and one key has one spelling
            key = b""
            if KEY_TEXT.fullmatch(text):
                key = base64.urlsafe_b64decode(text.rstrip("=") + "=")
                if base64.urlsafe_b64encode(key).decode().rstrip("=") != text.rstrip("="):
                    key = b""
            if len(key) != 32:
                raise ValueError("a seed key is 32 bytes in base64url (PARLEY_SEED_KEYS, or the key file)")
            decoded.append(key)
        if not decoded:
            raise ValueError("no seed key")
        self._sealing = decoded[0]
        self._keys = decoded
        self._by_id = {_key_id(k): AESGCM(k) for k in decoded}
        # Seeds opened lately, by (sealed seed, commitment): a game's seed is opened for every
        # command it is sent. This process holds the keys that open them anyway; bounded.
        self._opened: dict[tuple[str, str], str] = {}

    def __eq__(self, other) -> bool:
        """Two rings are equal when they hold the same keys and seal with the same one."""
        return isinstance(other, SeedKeys) and (_key_id(self._sealing), set(self._by_id)) == (
            _key_id(other._sealing), set(other._by_id))

    __hash__ = None  # type: ignore[assignment]

    def seal(self, seed: str, commitment: str) -> str:
        nonce = secrets.token_bytes(12)
        box = AESGCM(self._sealing).encrypt(nonce, seed.encode(), commitment.encode())
        return PREFIX + _key_id(self._sealing) + ":" + base64.urlsafe_b64encode(nonce + box).decode()

    def digests(self, label: bytes) -> list[bytes]:
        """HMAC-SHA256 of `label` under each key, the sealing key's first: a value only this
        server can derive from `label` (a creation's game id from its Idempotency-Key), found
        again under an older key after a rotation."""
        return [hmac.new(key, label, hashlib.sha256).digest() for key in self._keys]

    def open(self, stored: str, commitment: str) -> str:
        """The seed a record holds: sealed (opened here) or, stored before sealing, as it is."""
        if not is_sealed(stored):
            return stored
        opened = self._opened.get((stored, commitment))
        if opened is None:
            opened = self._open(stored, commitment)
            if len(self._opened) >= OPENED_KEPT:
                self._opened.clear()
            self._opened[(stored, commitment)] = opened
        return opened

    def _open(self, stored: str, commitment: str) -> str:
        key_id, _, body = stored[len(PREFIX):].partition(":")
        cipher = self._by_id.get(key_id)
        if cipher is None:
            raise SeedUnavailable(f"the seed was sealed with key {key_id}, which this server does not hold")
        raw = base64.urlsafe_b64decode(body.encode())
        try:
            return cipher.decrypt(raw[:12], raw[12:], commitment.encode()).decode()
        except Exception as error:  # InvalidTag: tampered, or another game's seed
            raise SeedUnavailable("the sealed seed does not open with its key and this game's commitment") from error

    @classmethod
    def from_environment(cls, env: dict) -> SeedKeys:
        """The keys from PARLEY_SEED_KEYS, else from the key file (made when missing)."""
        listed = os.environ.get("PARLEY_SEED_KEYS") or env.get("PARLEY_SEED_KEYS")
        if listed:
            return cls([k for k in listed.split(",") if k.strip()])
        module = env.get("PERSISTENCE_MODULE", "")
        if module == "eventsourcing.popo":
            return cls([new_key()])
        return cls(read_key_file(key_file(env)))


def is_sealed(stored: str | None) -> bool:
    return isinstance(stored, str) and stored.startswith(PREFIX)


def key_file(env: dict) -> Path:
    named = os.environ.get("PARLEY_SEED_KEY_FILE") or env.get("PARLEY_SEED_KEY_FILE")
    if named:
        return Path(named)
    dbname = env.get("SQLITE_DBNAME") or ""
    if env.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite" and dbname and ":memory:" not in dbname \
            and not dbname.startswith("file:"):
        return Path(dbname + ".seed-keys")
    return Path("var") / "parley.seed-keys"


def read_key_file(path: Path) -> list[str]:
    """The keys in the file, one a line; a file with a new key when there is none."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another worker made it first
            pass
        else:
            with os.fdopen(descriptor, "w") as file:
                file.write(new_key() + "\n")
    for _ in range(100):  # a worker that lost the race to make it may read it before it is written
        keys = [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
        if keys:
            return keys
        time.sleep(0.05)
    raise ValueError(f"the seed key file {path} holds no key")
