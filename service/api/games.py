"""POST /games creates a game; GET /games/{id} shows it as the caller's seat sees it."""
from __future__ import annotations

import logging
from uuid import UUID

import marshmallow as ma
from flask import current_app, request, url_for

from domain.adjudication import SERVICE_RULE
from domain.kit import spelled
from domain.ruleset import InvalidCreation
from service.api import Blueprint, QueryInteger, application, authenticate, request_hash
from service.api.names import enforce_names, searched
from service.api.render import check_creation, game_view
from service.application import (
    CREATION_RETRY_WINDOW,
    CreationKeyExpired,
    CreationKeyReused,
    CreationRetry,
    UnknownCursor,
)
from service.commands import KEY_CHARACTERS, KEY_PATTERN
from service.errors import Problem
from service.listing import Filters
from service.seeds import SeedUnavailable
from service.serving import offload

log = logging.getLogger(__name__)
blp = Blueprint("games", __name__, url_prefix="/games",
                description="Create a game, then read it with a seat's or the host's token.")

BEARER_AUTH: list[dict[str, list[str]]] = [{"bearerAuth": []}]
# The reads: a token, or none at all on a public game (read as its spectator).
READ_AUTH: list[dict[str, list[str]]] = [{"bearerAuth": []}, {}]


# Schemas -------------------------------------------------------------------------------

# No control character (NUL, tab, newline, C1), bidirectional override or isolate (a name that
# reads backwards), zero-width character or byte-order mark: names are shown to other players.
# A pattern, so that the contract says it too.
NAME_PATTERN = (r"^[^\x00-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e"
                r"\u2060\u2066-\u2069\ufeff]*$")  # "*": an empty name is told only its length


class PlayerSchema(ma.Schema):
    name = ma.fields.String(required=True, metadata={"description": (
        "A PRECIS nickname (RFC 8266), stored as enforced: spaces mapped and trimmed, NFKC; "
        "it must have a visible character, and no two players may share one (compared "
        "case-insensitively). Otherwise 400.")}, validate=[
        ma.validate.Length(min=1, max=64),
        ma.validate.Regexp(NAME_PATTERN, error="A name cannot hold control, bidirectional-override or invisible characters.")])


def _served_ruleset_ids() -> list[str]:
    """The games this service adjudicates, listed in the contract so that clients (and
    schemathesis) can pick one; an id not listed is still answered, with 422."""
    from domain.registry import all_rulesets

    return sorted(all_rulesets())


class JSONBoolean(ma.fields.Boolean):
    """true or false, as JSON has them: marshmallow's Boolean also takes 0, 1, "yes"..."""

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


class CreateGameSchema(ma.Schema):
    ruleset = ma.fields.String(required=True, metadata={"example": "corsairs-of-valeria",
                                                        "enum": _served_ruleset_ids()})
    players = ma.fields.List(ma.fields.Nested(PlayerSchema), required=True,
                             validate=ma.validate.Length(min=1, max=16))
    chance = ma.fields.String(load_default="server", validate=ma.validate.OneOf(["server", "table"]),
                              metadata={"description": "server: outcomes from a committed secret "
                                        "seed; table: the client sends what was rolled"})
    options = ma.fields.Dict(allow_none=True, load_default=None,
                             metadata={"description": "House rules: see the ruleset's options_schema"})
    content = ma.fields.Dict(allow_none=True, load_default=None,
                             metadata={"description": "Component content: see the ruleset's content_schema"})
    setup = ma.fields.Dict(allow_none=True, load_default=None,
                           metadata={"description": "Table mode: what was shuffled or drawn at setup"})
    public = JSONBoolean(load_default=False, metadata={
        "description": "true: anyone may read the game without a token, as its spectator sees it "
                       "(the view, events, stream and export; never a seat's secret)"})


class SeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True)


class SeatWithTokenSchema(SeatSchema):
    token = ma.fields.String(required=True, metadata={
        "description": "Bearer token acting for this seat; shown once, stored only as a hash"})


class ChanceSchema(ma.Schema):
    mode = ma.fields.String(required=True, validate=ma.validate.OneOf(["server", "table"]))
    commitment = ma.fields.String(required=True, allow_none=True,
                                  metadata={"description": "SHA-256 of the server seed"})
    seed = ma.fields.String(allow_none=True,
                            metadata={"description": "The server seed, once the game is finished"})


class CreatedGameSchema(ma.Schema):
    id = ma.fields.UUID(required=True)
    ruleset = ma.fields.String(required=True)
    ruleset_version = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    seats = ma.fields.List(ma.fields.Nested(SeatWithTokenSchema), required=True)
    host_token = ma.fields.String(required=True, metadata={
        "description": "Bearer token that may act for any seat (a companion app at a table)"})
    spectator_token = ma.fields.String(required=True, metadata={
        "description": "Bearer token that reads the game as an audience may (the view, events, stream, "
                       "legal commands of nobody, the export): what every seat may see, never a seat's "
                       "secret; it cannot send commands. Shown once, stored only as a hash"})
    public = ma.fields.Boolean(required=True, metadata={
        "description": "Whether anyone may read the game without a token, as its spectator"})
    chance = ma.fields.Nested(ChanceSchema, required=True)


# The result of a finished game, one shape for every ruleset (domain/kit/results.py). A Dict
# field, so the keys each game kept from before (deprecated) pass through as they are.
def result_doc() -> dict:
    """A fresh copy each time (the contract's YAML would otherwise share it by anchors)."""
    return {
        "description": "null until the game is finished; then who won and every seat's place, the same shape in "
                       "every ruleset (docs/api.md, 'The result'). The game's own keys from before (standings, totals, "
                       "breakdown, points, cards, solo, dark_lord) are also still at this level: deprecated, they go "
                       "in the next version; read them under `details`.",
        "type": "object",
        "required": ["reason", "winners", "ranking", "tie_breaks", "details"],
        "properties": {
            "reason": {"type": "string", "description": "Why the game ended, in the game's own word"},
            "winners": {"type": "array", "items": {"type": "integer"}, "description": "The winning seats"},
            "ranking": {
                "type": "array", "description": "One entry per seat, by rank then seat",
                "items": {"type": "object", "required": ["seat", "name", "rank", "score"],
                          "properties": {"seat": {"type": "integer"}, "name": {"type": "string"},
                                         "rank": {"type": "integer", "minimum": 1,
                                                  "description": "1 for the winner or winners; seats equal after "
                                                                 "every tie-break share a rank (1, 2, 2, 4)"},
                                         "score": {"type": "number", "description": "The score as the game counts it"}}}},
            "tie_breaks": {"type": "array", "items": {"type": "string"},
                           "description": "The tie-breaks the rulebook applied to decide the winners among the seats "
                                          "with the best score, in order, each in the game's own word (silver, grog, "
                                          "flag, set_sail, fewest_cards_in_tableau, sudden_death; then, when the tied "
                                          "seats share the win, shared or the game's word for it: "
                                          "shared_after_sudden_death_limit); empty when one seat had the best score "
                                          "alone or a rule named the winner"},
            "details": {"type": "object", "description": "The game's own scoring sheet (standings, totals, breakdown, "
                                                         "points, cards; solo and dark_lord in a solo Valeria game)"},
        },
    }


class GameViewSchema(ma.Schema):
    id = ma.fields.UUID(required=True)
    ruleset = ma.fields.String(required=True)
    ruleset_version = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(["active", "finished"]))
    phase = ma.fields.String(required=True)
    to_move = ma.fields.List(ma.fields.Integer(), required=True,
                             metadata={"description": "Seats whose decision it is now"})
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True)
    you = ma.fields.Raw(required=True, metadata={
        "description": "Your seat number, \"host\", or \"spectator\" (the spectator's token, or no token "
                       "on a public game)",
        "oneOf": [{"type": "integer"}, {"type": "string", "enum": ["host", "spectator"]}]})
    public = ma.fields.Boolean(required=True, metadata={
        "description": "Anyone may read the game without a token, as its spectator (\"public\": true at creation)"})
    state = ma.fields.Dict(required=True, metadata={"description": "The game as you may see it"})
    result = ma.fields.Dict(required=True, allow_none=True, metadata=result_doc())
    chance = ma.fields.Nested(ChanceSchema, required=True)


class VersionQuerySchema(ma.Schema):
    version = QueryInteger(validate=ma.validate.Range(min=1), metadata={
        "description": "Show the game as it stood after this stored event (1 = creation)"})


# Documented by hand: flask-smorest's `doc(parameters=...)` replaces the parameters it would
# generate from VersionQuerySchema, so the query's is listed beside the header.
VERSION_PARAMETER = {"in": "query", "name": "version", "required": False, "schema": {"type": "integer", "minimum": 1},
                     "description": VersionQuerySchema._declared_fields["version"].metadata["description"]}
IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
                 "description": 'The ETag of the view this token got before, "<version>" (or "*"): 304 while it '
                                "is still the version shown"}

IF_MATCH = {"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"},
            "description": 'Answer only while the game is at this version, "<version>" (or "*"); else 412'}


def if_match_holds(shown: int, current: int) -> None:
    """RFC 9110 13.1.1, evaluated before If-None-Match (13.2.2): an If-Match that does not name
    the tag of what is asked for (strong comparison, "*" holds) is 412, as on a command. What
    is asked for is the game at its current version, or at a past one (?version=N, whose tag
    "N" never changes)."""
    if "If-Match" in request.headers and not request.if_match.contains(str(shown)):
        detail = (f"The game is at version {current}, not the one in If-Match." if shown == current else
                  f"This is the game at version {shown} (it is now at version {current}), not the one in If-Match.")
        raise Problem(412, detail, "VERSION_MISMATCH", headers={"ETag": f'"{shown}"'}, version=current)


ETAG_HEADER = {"ETag": {"description": 'The game version shown, as "<version>"',
                        "schema": {"type": "string"}}}

# OpenAPI links: what a client (and schemathesis's stateful runs) can do with a new game.
def _link(operation_id: str, token: str, **extra) -> dict:
    return {"operationId": operation_id,
            "parameters": {"path.game_id": "$response.body#/id",
                           "header.Authorization": "Bearer {$response.body#" + token + "}", **extra}}


CREATED_LINKS = {
    "GetGameAsHost": _link("getGame", "/host_token"),
    "GetGameAsFirstSeat": _link("getGame", "/seats/0/token"),
    "GetEventsAsFirstSeat": _link("listEvents", "/seats/0/token"),
    "GetEventsAsHost": _link("listEvents", "/host_token"),
    "GetLegalCommandsAsFirstSeat": _link("listLegalCommands", "/seats/0/token"),
    "GetLegalCommandsAsHost": _link("listLegalCommands", "/host_token"),
    "SendCommandAsFirstSeat": _link("sendCommand", "/seats/0/token"),
    "SendCommandAsHost": _link("sendCommand", "/host_token"),
    # Only the host's: with a seat's export link too, schemathesis 4.32's stateful run took
    # a link-supplied token for a generated one (a false "ignored_auth" on sendCommand).
    "ExportAsHost": _link("exportGame", "/host_token"),
}


class ListGamesQuerySchema(ma.Schema):
    ruleset = ma.fields.String(metadata={"description": "Only games of this ruleset"})
    status = ma.fields.String(validate=ma.validate.OneOf(["active", "finished"]))
    player = ma.fields.String(validate=ma.validate.Length(min=1, max=64), metadata={
        "description": "Only games with a player of this name, prepared as nicknames are (RFC 8266) and "
                       "compared case-folded: case, width and runs of spaces aside (and 'ss' finds 'ß')"})
    public = ma.fields.Boolean(truthy={"true"}, falsy={"false"}, metadata={
        "description": "true: only public games (anyone may watch them without a token); false: only the others"})
    after = ma.fields.UUID(metadata={"description": "The cursor: list the games that come after this one in "
                                                    "the order asked for (created after it; with "
                                                    "order=newest, before it)"})
    limit = QueryInteger(load_default=50, validate=ma.validate.Range(min=1, max=200))
    order = ma.fields.String(load_default="oldest", validate=ma.validate.OneOf(["oldest", "newest"]), metadata={
        "description": "oldest (the default): in the order the games were created; newest: the latest "
                       "created first, as a lobby of recent games shows them"})


class ListedGameSchema(ma.Schema):
    id = ma.fields.UUID(required=True)
    ruleset = ma.fields.String(required=True)
    players = ma.fields.List(ma.fields.String(), required=True)
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(["active", "finished"]))
    version = ma.fields.Integer(required=True)
    public = ma.fields.Boolean(required=True, metadata={
        "description": "Anyone may read the game without a token, as its spectator (\"public\": true at creation)"})
    created_at = ma.fields.String(required=True, metadata={
        "description": "When the game was created: an ISO 8601 timestamp in UTC with its offset, "
                       "e.g. 2026-12-01T20:56:29.170366+00:00 (the creation event's time)"})


class GameListSchema(ma.Schema):
    games = ma.fields.List(ma.fields.Nested(ListedGameSchema), required=True)
    next = ma.fields.UUID(required=True, allow_none=True, metadata={
        "description": "Cursor for the next page (pass it as 'after'), null on the last page"})


# Views ---------------------------------------------------------------------------------

@blp.route("", methods=["GET"])
@blp.doc(operationId="listGames")
@blp.arguments(ListGamesQuerySchema, location="query")
@blp.response(200, GameListSchema, headers={
    "Link": {"description": 'RFC 8288: the next page, rel="next" (the same filters, after the last game listed)',
             "schema": {"type": "string"}}})
@blp.problems(400, 404, 503)
def list_games(query: dict):
    """Games in creation order, or the newest first, filtered by ruleset, status, player and publicity.

    An audience's app lists the games it may watch without a token with public=true.

    Public: it shows what a table would see from across the room (names, game, whether it is
    over), never a token or anything a game's rules hide."""
    player = query.get("player")
    filters = Filters(query.get("ruleset"), query.get("status"), None if player is None else searched(player),
                      query.get("after"), query["limit"], query.get("public"), query["order"] == "newest")
    try:
        rows, cursor = application().list_games(filters)
    except UnknownCursor:
        # 404, as a version past the end is: the request is well-formed, the position it names is not there.
        raise Problem(404, "No game has the id given as 'after': pass the 'next' of the page before, as it came.",
                      "GAME_NOT_FOUND") from None
    games = [{"id": r.id, "ruleset": r.ruleset, "players": r.players, "version": r.version,
              "status": "finished" if r.finished else "active", "public": r.public, "created_at": r.created_at}
             for r in rows]
    headers = {}
    if cursor is not None:
        kept = {k: v for k, v in request.args.items() if k != "after"}
        headers["Link"] = f'<{url_for("games.list_games", after=cursor, **kept)}>; rel="next"'  # type: ignore[arg-type]
    return {"games": games, "next": cursor}, 200, headers


CREATION_KEY_LENGTH = 16   # the key fetches the game's tokens again: a secret, not a counter
CREATION_KEY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "minLength": CREATION_KEY_LENGTH, "maxLength": 255, "pattern": f"^{KEY_CHARACTERS}+$"},
    "description": "Retry a creation safely: the same key with the same body answers the game the first "
                   "request created, with the same tokens (header Idempotent-Replayed: true), from any node; "
                   "with another body, 422 IDEMPOTENCY_KEY_REUSED. The key hands out the game's tokens, so it "
                   f"is a secret: {CREATION_KEY_LENGTH} to 255 visible ASCII characters but the comma, random (a UUID will do), "
                   "one per game."}
REPLAYED_CREATION = {"Idempotent-Replayed": {
    "description": "'true' on the answer to a retry whose Idempotency-Key created the game before: the first "
                   "answer, nothing created again", "schema": {"type": "string", "enum": ["true"]}}}


def _creation_retry() -> CreationRetry | None:
    """The creation's Idempotency-Key with its request's hash, None without one (400 if malformed)."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if len(key) < CREATION_KEY_LENGTH or not KEY_PATTERN.match(key):
        raise Problem(400, f"A creation's Idempotency-Key is {CREATION_KEY_LENGTH} to 255 visible ASCII characters "
                      "but the comma, sent once: a retry with it is answered with the game's tokens, so make it "
                      "random (a UUID will do).",
                      "INVALID_IDEMPOTENCY_KEY")
    return CreationRetry(key, request_hash(request.get_json(silent=True)))


@blp.route("", methods=["POST"])
@blp.doc(operationId="createGame", responses={201: {"links": CREATED_LINKS}}, parameters=[CREATION_KEY])
@blp.arguments(CreateGameSchema, example={
    "ruleset": "corsairs-of-valeria", "players": [{"name": "Kira"}, {"name": "David"}],
    "chance": "server"})
@blp.response(201, CreatedGameSchema, headers={
    "Location": {"description": "The new game", "schema": {"type": "string"}}, **ETAG_HEADER, **REPLAYED_CREATION})
@blp.problems(400, 413, 415, 422, 503)
def create_game(body: dict):
    """Create a game: one bearer token per seat, and a host token that may act for any seat.

    With an Idempotency-Key, a retry of the same request (after a lost answer, on any node)
    is answered with the game it created and its tokens, and creates nothing again."""
    retry = _creation_retry()
    ruleset = current_app.config["RULESETS"].get(body["ruleset"])
    if ruleset is None:
        raise InvalidCreation([f"ruleset: there is no ruleset {spelled(body['ruleset'])}; "
                               "GET /rulesets lists them."])
    players, refused = enforce_names([p["name"] for p in body["players"]])
    if refused:
        raise Problem(400, " ".join(f"Player {i + 1}'s name {why}." for i, why in refused.items()),
                      errors={"players": {str(i): {"name": [f"This name {why}."]}
                                          for i, why in refused.items()}})
    if body["content"] is None:
        check_creation(ruleset, None)
    else:
        # Validating custom content can hold the CPU for a while: in a native thread (service/serving.py).
        offload(check_creation, ruleset, body["content"])
    try:
        new = application().create_game(ruleset.id, players, body["chance"], body["options"],
                                        body["content"], body["setup"], public=body["public"], retry=retry)
    except CreationKeyReused:
        raise Problem(422, "This Idempotency-Key already created a game from another request; send a new key for a "
                      "new game.", "IDEMPOTENCY_KEY_REUSED", section=SERVICE_RULE) from None
    except CreationKeyExpired:
        hours = int(CREATION_RETRY_WINDOW.total_seconds() // 3600)
        raise Problem(422, f"This Idempotency-Key created its game more than {hours} hours ago: a retry no longer "
                      "answers it. Send a new key for a new game.", "IDEMPOTENCY_KEY_EXPIRED",
                      section=SERVICE_RULE) from None
    except SeedUnavailable as lost:
        log.error("a creation's sealed tokens cannot be opened: %s", lost)
        raise Problem(503, "The game this Idempotency-Key created keeps its tokens sealed with a key this server "
                      "no longer holds, so this retry cannot be answered, now or later. The operator has been "
                      "told.", "SEED_UNAVAILABLE") from None
    game = new.game
    created = {
        "id": game.id, "ruleset": game.ruleset_id, "ruleset_version": game.ruleset_version,
        "version": game.version, "host_token": new.host_token,
        "spectator_token": new.spectator_token, "public": game.public,
        "seats": [{"seat": i, "name": n, "token": t}
                  for i, (n, t) in enumerate(zip(game.seats, new.seat_tokens, strict=False))],
        "chance": {"mode": game.chance_mode, "commitment": game.commitment},
    }
    headers = {"Location": url_for("games.get_game", game_id=game.id), "ETag": f'"{game.version}"'}
    if new.replayed:
        headers["Idempotent-Replayed"] = "true"
    return created, 201, headers


@blp.route("/<uuid:game_id>")
@blp.doc(operationId="getGame", security=READ_AUTH, parameters=[VERSION_PARAMETER, IF_MATCH, IF_NONE_MATCH])
@blp.arguments(VersionQuerySchema, location="query")
@blp.response(200, GameViewSchema, headers=ETAG_HEADER)
@blp.documented(blp.alt_response(304, description=(
    "Not Modified: the If-None-Match sent names the version shown (its ETag), so the view you "
    "hold for this token is still the game's; no body"), headers=ETAG_HEADER))
@blp.problems(400, 401, 404, 412, 503)
def get_game(query: dict, game_id: UUID):
    """The game as your seat sees it, optionally at a past version.

    The host sees everything, a spectator what every seat may see. A public game answers
    without a token, as its spectator. With If-None-Match naming the version shown (the ETag
    of the view this token got before), an unchanged game answers 304 without a body."""
    game, caller = authenticate(game_id, reading=True)
    version = query.get("version")
    if version is not None and version > game.version:
        raise Problem(404, f"This game has {game.version} stored events; there is no version {version}.",
                      "VERSION_NOT_FOUND")
    tag = str(version if version is not None else game.version)
    if_match_holds(int(tag), game.version)
    if request.if_none_match.contains_weak(tag):  # RFC 9110 13.1.2: weak comparison; "*" matches
        return current_app.response_class(status=304, headers={"ETag": f'"{tag}"'})
    if version is not None:
        game = application().get_game(game_id, version=version)
    return game_view(game, caller), 200, {"ETag": f'"{game.version}"'}
