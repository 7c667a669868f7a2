"""Hidden Hoard: a toy game with secrets, to prove the service's wiring (not a real game).

RULESET is a domain.ruleset.Ruleset, like every real game's, built from a HiddenHoard's methods.

Twelve treasure cards, each with a distinct name, are shuffled (setup) and one is dealt
face down to every seat. In turn, a seat draws the top card (up to the hand limit), rolls
its bonus die once, or stands. When every seat has stood, hands are revealed: the highest
total of card values plus bonus wins. Nobody may see another seat's cards or the deck order
before the end; the arbiter sees everything.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from domain import kit
from domain.ruleset import ARBITER, InvalidCreation, Rejected, Ruleset, Status

CARDS = {
    "amber-idol": 1, "black-pearl": 2, "coral-crown": 3, "dragon-egg": 4,
    "emerald-eye": 5, "flint-dagger": 1, "gilded-skull": 2, "ivory-horn": 3,
    "jade-monkey": 4, "kraken-ink": 5, "lunar-compass": 6, "mermaid-scale": 6,
}
FACES = ["1", "2", "3", "4", "5", "6"]


@dataclass(frozen=True)
class State:
    players: tuple = ()
    options: dict | None = None
    deck: tuple = ()
    hands: tuple = ()  # one tuple of cards per seat
    bonus: tuple = ()  # one int or None per seat
    stood: tuple = ()
    turn: int = 0
    finished: bool = False
    winners: tuple = ()
    seed: str | None = None


class HiddenHoard:
    id = "hidden-hoard"
    version = "1.0"
    name = "Hidden Hoard (test fake)"
    min_players = 2
    max_players = 4
    summary = "Draw secret treasure cards; the biggest hoard wins."
    options_schema = {
        "type": "object",
        "properties": {"hand_limit": {"type": "integer", "minimum": 1, "maximum": 5, "default": 3}},
        "additionalProperties": False,
    }
    content_schema = {"type": "object"}
    default_content: dict = {}
    command_schemas = {
        "draw": {"type": "object", "required": ["type"], "additionalProperties": False,
                 "properties": {"type": {"const": "draw"}}},
        "stand": {"type": "object", "required": ["type"], "additionalProperties": False,
                  "properties": {"type": {"const": "stand"}}},
        "roll_bonus": {"type": "object", "required": ["type"], "additionalProperties": False,
                       "properties": {"type": {"const": "roll_bonus"},
                                      "dice": {"type": "array", "items": {"enum": FACES}}}},
    }

    # Lifecycle ------------------------------------------------------------------------

    def setup(self, players, options, content, chance, table_setup):
        problems = []
        if not self.min_players <= len(players) <= self.max_players:
            problems.append(f"Hidden Hoard takes {self.min_players} to {self.max_players} players.")
        options = dict(options or {})
        unknown = sorted(set(options) - {"hand_limit"})
        if unknown:
            problems.append(f"Unknown options: {', '.join(unknown)}.")
        limit = options.setdefault("hand_limit", 3)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 5:
            problems.append("hand_limit must be an integer from 1 to 5.")
        if problems:
            raise InvalidCreation(problems)
        table_setup = table_setup or {}
        deck = chance.shuffle(sorted(CARDS), table_setup.get("deck"), "deck")
        events = [
            {"type": "HoardStarted", "players": list(players), "options": options,
             "commitment": chance.commitment},
            {"type": "DeckShuffled", "deck": deck},
        ]
        for seat in range(len(players)):
            events.append({"type": "CardDealt", "seat": seat, "card": deck[seat]})
        return events

    def initial_state(self):
        return State()

    def evolve(self, state, event):
        kind = event["type"]
        if kind == "HoardStarted":
            n = len(event["players"])
            return replace(state, players=tuple(event["players"]), options=event["options"],
                           hands=((),) * n, bonus=(None,) * n, stood=(False,) * n)
        if kind == "DeckShuffled":
            return replace(state, deck=tuple(event["deck"]))
        if kind in ("CardDealt", "CardDrawn"):
            hands = list(state.hands)
            hands[event["seat"]] = hands[event["seat"]] + (event["card"],)
            return replace(state, hands=tuple(hands), deck=state.deck[1:])
        if kind == "BonusRolled":
            bonus = list(state.bonus)
            bonus[event["seat"]] = int(event["dice"][0])
            return replace(state, bonus=tuple(bonus))
        if kind == "Stood":
            stood = list(state.stood)
            stood[event["seat"]] = True
            return replace(state, stood=tuple(stood))
        if kind == "TurnPassed":
            return replace(state, turn=event["seat"])
        if kind == "GameEnded":
            return replace(state, finished=True, winners=tuple(event["winners"]), seed=event["seed"])
        return state

    def gate(self, state, seat, command):
        kind = command.get("type")
        if state.finished:
            raise Rejected("GAME_OVER", "The End", "The hoards have been revealed.")
        if kind not in self.command_schemas:
            raise Rejected("UNKNOWN_COMMAND", "Turns", f"Hidden Hoard has no command '{kind}'.")
        if seat != state.turn:
            raise Rejected("NOT_YOUR_TURN", "Turns", f"It is {state.players[state.turn]}'s turn.")

    def decide(self, state, seat, command, chance):
        self.gate(state, seat, command)
        kind = command["type"]
        limit = state.options["hand_limit"]
        if kind == "draw":
            if len(state.hands[seat]) >= limit:
                raise Rejected("HAND_FULL", "Drawing", f"You already hold {limit} cards.")
            if not state.deck:
                raise Rejected("DECK_EMPTY", "Drawing", "The deck is empty.")
            events = [{"type": "CardDrawn", "seat": seat, "card": state.deck[0]}]
        elif kind == "roll_bonus":
            if state.bonus[seat] is not None:
                raise Rejected("ALREADY_ROLLED", "Bonus", "You rolled your bonus die already.",
                               ruling="HH-1")
            dice = chance.roll(1, FACES, command.get("dice"), "dice")
            return [{"type": "BonusRolled", "seat": seat, "dice": dice}]
        else:
            events = [{"type": "Stood", "seat": seat}]
        after = state
        for e in events:
            after = self.evolve(after, e)
        if all(after.stood):
            scores = [self._score(after, s) for s in range(len(after.players))]
            best = max(scores)
            events.append({"type": "GameEnded", "hands": [list(h) for h in after.hands],
                           "scores": scores, "winners": [s for s, v in enumerate(scores) if v == best],
                           "seed": chance.reveal()})
        else:
            nxt = self._next_seat(after, seat)
            events.append({"type": "TurnPassed", "seat": nxt})
        return events

    def legal_commands(self, state, seat):
        if state.finished or seat != state.turn or not state.players:
            return []
        out = []
        if len(state.hands[seat]) < state.options["hand_limit"] and state.deck:
            out.append({"type": "draw"})
        if state.bonus[seat] is None:
            out.append({"type": "roll_bonus"})
        out.append({"type": "stand"})
        return out

    drawn_fields: frozenset[str] = frozenset()  # the bonus die is rolled, and reported by its seat

    def table_inputs(self, state, seat):
        if state.finished or seat != state.turn or state.bonus[seat] is not None:
            return {}
        return {"roll_bonus": {"dice": "the 1 face rolled, one of 1-6"}}

    def view(self, state, viewer):
        n = len(state.players)
        sees_all = viewer == ARBITER or state.finished
        return {
            "players": list(state.players),
            "turn": state.turn,
            "deck": list(state.deck) if viewer == ARBITER else len(state.deck),
            "hands": [list(state.hands[s]) if sees_all or viewer == s else len(state.hands[s])
                      for s in range(n)],
            "bonus": list(state.bonus),
            "stood": list(state.stood),
            "winners": list(state.winners),
        }

    def redact(self, event, viewer):
        if viewer == ARBITER:
            return event
        if event["type"] == "DeckShuffled":
            return {"type": "DeckShuffled", "deck": len(event["deck"])}
        if event["type"] in ("CardDealt", "CardDrawn") and event["seat"] != viewer:
            return {**event, "card": None}
        return event

    def redact_command(self, command, actor, viewer):
        return dict(command)

    def redeal(self, state, seat, rng):
        """The deck and the other hands re-dealt from their pooled cards (before the end,
        when hands are revealed, nothing of them is the seat's to see)."""
        if state.finished or not state.players:
            return state
        others = [s for s in range(len(state.players)) if s != seat]
        pool = list(state.deck) + [c for s in others for c in state.hands[s]]
        piles = kit.deal_into(rng, pool, [len(state.deck)] + [len(state.hands[s]) for s in others])
        hands = list(state.hands)
        for s, pile in zip(others, piles[1:], strict=False):
            hands[s] = tuple(pile)
        return replace(state, deck=tuple(piles[0]), hands=tuple(hands))

    def status(self, state):
        if state.finished:
            scores = [self._score(state, s) for s in range(len(state.players))]
            return Status(True, [], "revealed",
                          {"winners": list(state.winners), "scores": scores, "tie_breaks": []})
        return Status(False, [state.turn] if state.players else [], "playing")

    def dump_state(self, state):
        return {
            "players": list(state.players), "options": state.options, "deck": list(state.deck),
            "hands": [list(h) for h in state.hands], "bonus": list(state.bonus),
            "stood": list(state.stood), "turn": state.turn, "finished": state.finished,
            "winners": list(state.winners), "seed": state.seed,
        }

    def load_state(self, data):
        return State(
            players=tuple(data["players"]), options=data["options"], deck=tuple(data["deck"]),
            hands=tuple(tuple(h) for h in data["hands"]), bonus=tuple(data["bonus"]),
            stood=tuple(data["stood"]), turn=data["turn"], finished=data["finished"],
            winners=tuple(data["winners"]), seed=data["seed"],
        )

    # Helpers --------------------------------------------------------------------------

    @staticmethod
    def _score(state, seat):
        return sum(CARDS[c] for c in state.hands[seat]) + (state.bonus[seat] or 0)

    @staticmethod
    def _next_seat(state, seat):
        n = len(state.players)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if not state.stood[candidate]:
                return candidate
        return seat


_HOARD = HiddenHoard()
RULESET = Ruleset(
    id=_HOARD.id, version=_HOARD.version, name=_HOARD.name, min_players=_HOARD.min_players,
    max_players=_HOARD.max_players, summary=_HOARD.summary, options_schema=_HOARD.options_schema,
    content_schema=_HOARD.content_schema, default_content=_HOARD.default_content,
    command_schemas=_HOARD.command_schemas, table_setup_schema=None, drawn_fields=_HOARD.drawn_fields,
    setup=_HOARD.setup, initial_state=_HOARD.initial_state, evolve=_HOARD.evolve, decide=_HOARD.decide,
    gate=_HOARD.gate, legal_commands=_HOARD.legal_commands, table_inputs=_HOARD.table_inputs, view=_HOARD.view,
    redact=_HOARD.redact, redact_command=_HOARD.redact_command, redeal=_HOARD.redeal, status=_HOARD.status,
    dump_state=_HOARD.dump_state, load_state=_HOARD.load_state,
)
