"""A thin client for API tests: create games, act as a seat or as the host."""
from __future__ import annotations

import random
from dataclasses import dataclass


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Seated:
    """One created game and its tokens, driving a Flask test client (or requests session)."""

    client: object
    created: dict

    @property
    def id(self) -> str:
        return self.created["id"]

    @property
    def host(self) -> dict:
        return bearer(self.created["host_token"])

    def seat(self, n: int) -> dict:
        return bearer(self.created["seats"][n]["token"])

    def get(self, path: str = "", auth: dict | None = None, **kwargs):
        return self.client.get(f"/games/{self.id}{path}", headers=auth or self.host, **kwargs)

    def send(self, command: dict, auth: dict | None = None, headers: dict | None = None):
        return self.client.post(f"/games/{self.id}/commands", json=command,
                                headers={**(auth or self.host), **(headers or {})})

    def view(self, auth: dict | None = None) -> dict:
        response = self.get("", auth)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def legal(self, auth: dict | None = None) -> list[dict]:
        response = self.get("/legal-commands", auth)
        assert response.status_code == 200, response.get_json()
        return response.get_json()["commands"]

    def all_events(self, auth: dict | None = None) -> list[dict]:
        events, after = [], 0
        while after is not None:
            page = self.get("/events", auth, query_string={"after": after, "limit": 50}).get_json()
            events += page["events"]
            after = page["next"]
        return events

    def play(self, rng: random.Random, commands: int, prefer=lambda commands: commands) -> int:
        """Send up to `commands` random legal commands as the host, fewer if nothing is left to
        do: how many were sent."""
        for sent in range(commands):
            legal = self.legal()
            if not legal:
                return sent
            command = rng.choice(prefer(legal))
            response = self.send(command)
            assert response.status_code == 200, (command, response.get_json())
        return commands

    def play_to_the_end(self, rng: random.Random, max_commands: int = 5000,
                        prefer=lambda commands: commands) -> int:
        """Send random legal commands as the host until the game is finished."""
        sent = self.play(rng, max_commands, prefer)
        if self.legal():
            raise AssertionError(f"no end after {max_commands} commands")
        assert self.view()["status"] == "finished"
        return sent


SLOW = {"reroll_dice", "preset_die", "hold_fire"}


def progressing(commands: list[dict]) -> list[dict]:
    """Commands that move a Corsairs game on (no optional re-rolls), when there are any.

    Random legal play is correct but can take thousands of events; tests that only need a
    finished game prefer these.
    """
    return [c for c in commands if c["type"] not in SLOW] or commands


def create(client, ruleset: str = "hidden-hoard", players=("Kira", "David"),
           chance: str = "server", **extra) -> Seated:
    response = client.post("/games", json={"ruleset": ruleset, "players": [{"name": p} for p in players],
                                           "chance": chance, **extra})
    assert response.status_code == 201, response.get_json()
    return Seated(client, response.get_json())
