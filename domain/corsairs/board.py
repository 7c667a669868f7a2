"""The race track as a graph of spaces, compiled from component content.

Rulebook: Corsairs of Valeria, "Game Setup" 3 (Start Island, three Tracks, Skull Island) and
"Move Your Ship" (spaces divided by lines, islands on the lines, islands that split a Track
into two sides). The tiles themselves are not printed in the rulebook; they come from content
(see content/schema.json and docs/rulings.md CV-A21, CV-A22).

The board is a column of rows from Start Island (row 0 holds the Start space) to Skull Island
(the last row). A row holds one space (lane "C") or two spaces side by side (lanes "L", "R")
when an island separates the two sides of a Track. Space ids: the Start Island ids from
content ("START.0"), "{slot}.{row}" or "{slot}.{row}{lane}" on the tracks (slot 1 is nearest
Start), and "SKULL".
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import kit

SKULL = "SKULL"
FORWARD = "forward"
BACKWARD = "backward"


@dataclass(frozen=True)
class Board:
    rows: tuple[tuple[str, ...], ...]           # spaces of each row, bottom (Start) to top (Skull)
    row_of: dict                                # space -> row index
    lane_of: dict                               # space -> "C" | "L" | "R"
    hazard: dict                                # space -> "whirlpool" | "seaMonster" | "cutthroat"
    merchants: dict                             # space -> ((merchant id, ((resource, amount), ...)), ...)
    lines: dict                                 # row index r -> ((lane or None, ((resource, amount), ...)), ...)
                                                # islands on the line between row r and r + 1
    start: str
    track_of_row: tuple[int, ...]               # row index -> its Track's slot (0 Start Island, 4 Skull)

    def neighbours(self, space: str, direction: str) -> tuple[str, ...]:
        """Spaces one step away. Two when entering a split section from a single space, or
        from another Track (the mover picks a side: [Move Your Ship] 'When entering the spaces
        on these Tracks either forwards or backwards, you decide which side of the island to
        move your Ship into'); one when staying in a lane or merging; none at the ends."""
        r = self.row_of[space]
        target = r + 1 if direction == FORWARD else r - 1
        if target < 0 or target >= len(self.rows) or space == SKULL:
            return ()
        row = self.rows[target]
        if len(row) == 1:
            return row
        lane = self.lane_of[space]
        if lane in ("L", "R") and self.track_of_row[target] == self.track_of_row[r]:
            return tuple(s for s in row if self.lane_of[s] == lane)   # the island between the sides
        return row

    def crossing_rewards(self, a: str, b: str) -> list[tuple[str, int]]:
        """Island rewards for crossing forward from a to b (a one row below b)."""
        r = self.row_of[a]
        lane = self.lane_of[b] if self.lane_of[b] != "C" else self.lane_of[a]
        out: list[tuple[str, int]] = []
        for island_lane, rewards in self.lines.get(r, ()):
            if island_lane is None or island_lane == lane:
                out.extend(rewards)
        return out


_BOARDS = kit.LRU(512)


def board_for(content: dict, key: str, slots: list[dict]) -> Board:
    """The compiled board of this content and track: the last 512 used are kept, any other is
    compiled again from the content the state holds."""
    track = tuple((s["tile"], s["side"]) for s in slots)
    return _BOARDS.get_or_build((key, track), lambda: compile_board(content, slots))


def compile_board(content: dict, slots: list[dict]) -> Board:
    tracks = {t["id"]: t for t in content["tracks"]}
    rows: list[tuple[str, ...]] = []
    lane_of: dict[str, str] = {}
    hazard: dict[str, str] = {}
    merchants: dict[str, tuple] = {}
    lines: dict[int, list] = {}
    track_of_row: list[int] = []
    start = next(s["id"] for s in content["startIsland"]["spaces"] if s.get("start"))
    for space in content["startIsland"]["spaces"]:
        rows.append((space["id"],))
        track_of_row.append(0)
        lane_of[space["id"]] = "C"
    for slot_no, slot in enumerate(slots, start=1):
        side = tracks[slot["tile"]]["sides"][slot["side"]]
        base = len(rows)
        for r, row in enumerate(side["rows"]):
            ids = []
            for lane in row["lanes"]:
                sid = f"{slot_no}.{r}" if lane["lane"] == "C" else f"{slot_no}.{r}{lane['lane']}"
                ids.append(sid)
                lane_of[sid] = lane["lane"]
                if "hazard" in lane:
                    hazard[sid] = lane["hazard"]
                if lane.get("merchants"):
                    merchants[sid] = tuple(
                        (m["id"], tuple((w["resource"], w["amount"]) for w in m["rewardPerCannon"]))
                        for m in lane["merchants"])
            rows.append(tuple(ids))
            track_of_row.append(slot_no)
        for line in side["lines"]:
            r = base - 1 if line["below"] == "entry" else base + line["below"]
            lines.setdefault(r, []).append(
                (line.get("lane"), tuple((w["resource"], w["amount"]) for w in line["rewards"])))
    rows.append((SKULL,))
    track_of_row.append(len(slots) + 1)
    lane_of[SKULL] = "C"
    row_of = {s: i for i, row in enumerate(rows) for s in row}
    return Board(rows=tuple(rows), row_of=row_of, lane_of=lane_of, hazard=hazard,
                 merchants=merchants, lines={k: tuple(v) for k, v in lines.items()}, start=start,
                 track_of_row=tuple(track_of_row))


def content_problems(content: dict) -> list[str]:
    """What the JSON Schema cannot say: the pieces must fit together into a playable track."""
    problems: list[str] = []
    spaces = content["startIsland"]["spaces"]
    starts = [i for i, s in enumerate(spaces) if s.get("start")]
    if starts != [0]:
        problems.append("startIsland.spaces: exactly one space, the first, must carry the Start symbol")
    if len({s["id"] for s in spaces}) != len(spaces):
        problems.append("startIsland.spaces: space ids must be unique")
    ids = [t["id"] for t in content["tracks"]]
    if len(set(ids)) != len(ids):
        problems.append("tracks: the four track ids must be unique")
    merchant_ids: set[str] = set()
    for t in content["tracks"]:
        for side_name, side in t["sides"].items():
            where = f"tracks[{t['id']}].sides.{side_name}"
            n = len(side["rows"])
            for r, row in enumerate(side["rows"]):
                lanes = [lane["lane"] for lane in row["lanes"]]
                if lanes not in (["C"], ["L", "R"]):
                    problems.append(f"{where}.rows[{r}]: lanes must be [C] or [L, R], got {lanes}")
                for lane in row["lanes"]:
                    for m in lane.get("merchants", []):
                        if m["id"] in merchant_ids:
                            problems.append(f"{where}.rows[{r}]: merchant id {m['id']} is used twice")
                        merchant_ids.add(m["id"])
            for i, line in enumerate(side["lines"]):
                below = line["below"]
                if below != "entry" and below >= n - 1:
                    problems.append(f"{where}.lines[{i}]: below={below} is not a line between two rows of this side")
                if "lane" in line:
                    touched = [side["rows"][0]] if below == "entry" else (
                        side["rows"][below:below + 2] if below != "entry" and below < n - 1 else [])
                    if not any(len(row["lanes"]) == 2 for row in touched):
                        problems.append(f"{where}.lines[{i}]: an island on one lane must touch a split row")
    enabled = [c for c in content["captains"] if c.get("enabled", True)]
    if len({c["id"] for c in content["captains"]}) != len(content["captains"]):
        problems.append("captains: ids must be unique")
    unknown = [c["id"] for c in enabled if c["id"] not in KNOWN_CAPTAINS]
    if unknown:
        problems.append(f"captains: no rules are known for enabled captains {unknown}; disable them")
    if len(enabled) < 5:
        problems.append("captains: at least 5 captains must be enabled: a content serves games of up to 5 players, "
                        "and 'Randomly give each player a Captain card' [Game Setup]")
    return problems


KNOWN_CAPTAINS = ("WILLEM", "LUTHOR", "MISTRESS", "PRINCE", "REO", "HOOK", "JAGER", "BONES", "JAXN", "HASAN")
