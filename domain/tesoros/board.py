"""The board as a graph of spaces, compiled from content (the rulebook does not print it).

A sea space is one grid cell, named "x,y"; an island is one space however many cells it
covers (TA-24), named by its id. Sea spaces join orthogonally [Movement: "Ships move
orthogonally"]; an island joins only the sea cells its purple arrows come from [Movement:
"only enter or leave Island squares via the sea squares joined by the purple arrows"].
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .. import kit


@dataclass(frozen=True)
class Board:
    rose: str
    cells: dict          # space -> tuple of (x, y) cells
    links: dict          # space -> tuple of neighbouring spaces
    islands: frozenset

    def reach(self, start: str, most: int) -> dict:
        """Spaces within `most` steps of `start` -> fewest steps. A ship "cannot move across
        islands": an island entered ends the move, so it is never stepped through."""
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if dist[here] == most or (here in self.islands and here != start):
                continue
            for nxt in self.links[here]:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return dist

    def moves(self, start: str, most: int) -> dict:
        """Where a Ship at `start` may end a move of 1 to `most` squares -> the fewest steps
        there. [Movement] "must move at least one square": out and back counts (TA-22, TP-4):
        two squares bring it home by a sea square next to it (entering an island ends a move)."""
        found = self.reach(start, most)
        del found[start]
        if most >= 2 and any(n not in self.islands for n in self.links[start]):
            found[start] = 2
        return found

    def in_cannon_range(self, a: str, b: str) -> bool:
        """[Fire Cannons] the same square or any of the 8 adjacent ones; for an island, any of
        its cells (TA-25)."""
        return any(max(abs(x1 - x2), abs(y1 - y2)) <= 1 for x1, y1 in self.cells[a] for x2, y2 in self.cells[b])


def sea(x: int, y: int) -> str:
    return f"{x},{y}"


# Compiled boards by content key, built from the content in hand (never from domain/kit's
# store, which another request thread may have emptied of it meanwhile).
_BOARDS = kit.LRU(16)


def board_for(key: str, content: dict) -> Board:
    return _BOARDS.get_or_build(key, lambda: compile_board(content["board"]))


def compile_board(b: dict) -> Board:
    island_cells = {tuple(c): i["id"] for i in b["islands"] for c in i["cells"]}
    cells: dict = {}
    links: dict = {}
    for y in range(b["height"]):
        for x in range(b["width"]):
            if (x, y) in island_cells:
                continue
            cells[sea(x, y)] = ((x, y),)
            links[sea(x, y)] = [sea(nx, ny) for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
                                if 0 <= nx < b["width"] and 0 <= ny < b["height"] and (nx, ny) not in island_cells]
    for i in b["islands"]:
        cells[i["id"]] = tuple(tuple(c) for c in i["cells"])
        links[i["id"]] = [sea(*a) for a in i["arrows"]]
        for a in i["arrows"]:
            links[sea(*a)].append(i["id"])
    return Board(rose=sea(*b["compassRose"]), cells=cells, links={k: tuple(v) for k, v in links.items()},
                 islands=frozenset(i["id"] for i in b["islands"]))


def _in_one_piece(cells: list) -> bool:
    """The cells form one group, each reached from another through a shared side."""
    left = {tuple(c) for c in cells}
    if not left:
        return True
    todo = [left.pop()]
    while todo:
        x, y = todo.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in left:
                left.remove(n)
                todo.append(n)
    return not left


def board_problems(b: dict) -> list[str]:
    problems = []
    ids = [i["id"] for i in b["islands"]]
    if len(set(ids)) != len(ids):
        problems.append("board.islands: ids must be unique")
    seen: dict = {}
    def inside(c):
        return 0 <= c[0] < b["width"] and 0 <= c[1] < b["height"]
    for i in b["islands"]:
        for c in i["cells"]:
            if not inside(c):
                problems.append(f"board.islands[{i['id']}]: cell {c} is off the board")
            if tuple(c) in seen:
                problems.append(f"board.islands[{i['id']}]: cell {c} is also {seen[tuple(c)]}")
            seen[tuple(c)] = i["id"]
        if not _in_one_piece(i["cells"]):
            problems.append(f"board.islands[{i['id']}]: its cells must touch, side by side, as one island: an island "
                            "in two pieces would be entered, reached and fired from in either (TA-24)")
    for i in b["islands"]:
        for a in i["arrows"]:
            if not inside(a) or tuple(a) in seen:
                problems.append(f"board.islands[{i['id']}]: arrow {a} must come from a sea cell")
            elif not any(abs(a[0] - c[0]) + abs(a[1] - c[1]) == 1 for c in i["cells"]):
                problems.append(f"board.islands[{i['id']}]: arrow {a} is not orthogonally next to the island")
    if tuple(b["compassRose"]) in seen or not inside(b["compassRose"]):
        problems.append("board.compassRose: must be a sea cell on the board")
    if problems:
        return problems
    board = compile_board(b)
    everywhere = board.reach(board.rose, 10 ** 6)
    lost = [s for s in board.links if s not in everywhere and s not in board.islands]
    if lost:
        problems.append(f"board: sea cells unreachable from the Compass Rose: {lost[:5]}")
    if any(s not in everywhere for s in board.islands):
        problems.append("board: every island must be reachable through its arrows")
    return problems
