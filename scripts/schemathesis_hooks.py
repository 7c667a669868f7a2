"""Schemathesis hooks for scripts/schemathesis-live (loaded with SCHEMATHESIS_HOOKS).

Parley's tokens come from POST /games; the stateful phase carries them into later calls
through the OpenAPI links (`header.Authorization`). Schemathesis 4.32 counts any
Authorization header it did not set itself as *generated*, so a game read with the token
that created it, answered 200, was reported as "API accepts invalid authentication".

This provider claims a header shaped like a Parley token (`Bearer ` and 43 URL-safe
characters, secrets.token_urlsafe(32)) as explicit credentials. The ignored_auth check then
does what it is for: it repeats the call without the token and with an invalid one and
fails unless both are refused. Headers schemathesis made up stay generated.
"""
from __future__ import annotations

import re

import schemathesis

PARLEY_TOKEN = re.compile(r"^Bearer [A-Za-z0-9_-]{43}$")


@schemathesis.auth(refresh_interval=None)
class LinkedToken:
    def get(self, case, ctx):
        header = (case.headers or {}).get("Authorization")
        if isinstance(header, str) and PARLEY_TOKEN.match(header):
            return header
        return None

    def set(self, case, data, ctx):
        case.headers = {**(case.headers or {}), "Authorization": data}
