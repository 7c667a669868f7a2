// Corsairs of Valeria: the race from Start Island over three Track tiles to Skull Island.
// Layout from the data: one column per row of view.state.track.rows (Start Island first),
// one lane per space in the row; tiles are the rows whose ids start with the slot number;
// the islands on the lines between rows come from the content's tracks (GameSetUp).
import {card, counter, die, dieWidth, el, group, piece, seatColour, svgRoot, text, whose} from "./svg.js";

const COL = 64, TOP = 40, LANE_H = 110;

function islandsOf(content, slots) {
  // tracks[tile].sides[side].lines: {below: row | "entry", rewards, lane?}
  const out = [];
  const tracks = (content && content.tracks) || [];
  (slots || []).forEach((slot, i) => {
    const track = tracks.find((t) => t.id === slot.tile);
    const side = track && track.sides && track.sides[slot.side];
    for (const line of (side && side.lines) || []) {
      out.push({tile: i + 1, below: line.below, lane: line.lane || null, rewards: line.rewards || [],
                name: track.name || slot.tile});
    }
  });
  return out;
}

function rewards(list) {
  return (list || []).map((r) => `${r.amount} ${r.resource}`).join(" + ") || "nothing";
}

export function draw(view, ctx) {
  const s = view.state || {};
  const track = s.track || {rows: []};
  const rows = track.rows || [];
  const players = s.players || [];
  const width = Math.max(560, 40 + rows.length * COL + 90);
  const panelW = 230, perLine = Math.max(1, Math.floor((width - 20) / panelW));
  const height = TOP + LANE_H + 150 + Math.ceil(players.length / perLine) * 120;
  const svg = svgRoot("corsairs-of-valeria", width, height,
                      `Corsairs of Valeria at version ${view.version}: ${rows.length} rows from Start Island to Skull Island`);
  const where = {};   // space id -> {x, y}
  const colX = (c) => 30 + c * COL;

  // The tiles behind their rows, and the rows' spaces.
  const tiles = group("the three Track tiles");
  const spaces = group("the spaces");
  svg.append(tiles, spaces);
  const rowTile = rows.map((r) => String(r[0] || "").split(".")[0]);
  (track.slots || []).forEach((slot, i) => {
    const cols = rowTile.map((t, c) => (t === String(i + 1) ? c : -1)).filter((c) => c >= 0);
    if (!cols.length) return;
    const x = colX(cols[0]) - 4, w = cols.length * COL - 6;
    piece(tiles, `tile-${i}`, "tile", `Track tile ${i + 1}: ${slot.tile} side ${slot.side}`,
          el("rect", {x, y: TOP - 22, width: w, height: LANE_H + 30, rx: 8, class: "tile-body"}),
          text(x + 6, TOP - 8, `${slot.tile}${slot.side}`, {class: "small"}));
  });
  rows.forEach((row, c) => {
    row.forEach((id, lane) => {
      const x = colX(c) + COL / 2 - 4, y = TOP + (row.length === 1 ? LANE_H / 2 : (lane + 0.5) * LANE_H / row.length);
      where[id] = {x, y};
      const skull = id === track.skull_island;
      const label = skull ? `Skull Island (${id}): ${s.skull_island_silver ?? 0} silver`
        : `space ${id}${id.startsWith("START") ? " on Start Island" : ""}`;
      piece(spaces, `space-${id}`, skull ? "space skull-island" : "space", label,
            el("circle", {cx: x, cy: y, r: skull ? 26 : 20, class: skull ? "skull" : "sea"}),
            text(x, y + (skull ? -4 : 34), skull ? "☠ Skull" : id, {"text-anchor": "middle", class: "small"}),
            skull ? text(x, y + 12, `${s.skull_island_silver ?? 0} silver`, {"text-anchor": "middle", class: "small"}) : null);
    });
  });

  // Islands on the lines between rows: crossing one forward pays its rewards.
  const islands = group("islands on the lines between rows");
  svg.appendChild(islands);
  islandsOf(ctx.content, track.slots).forEach((isle, n) => {
    const before = isle.below === "entry" ? `${isle.tile}.0` : `${isle.tile}.${isle.below}`;
    const c = rows.findIndex((r) => r.some((id) => id.replace(/[LR]$/, "") === before));
    if (c < 0) return;
    const x = colX(c) + (isle.below === "entry" ? -4 : COL - 4);
    const y = TOP + (isle.lane === "L" ? LANE_H / 4 : isle.lane === "R" ? 3 * LANE_H / 4 : LANE_H / 2);
    piece(islands, `island-${n}`, "island",
          `island on the line ${isle.below === "entry" ? "before" : "after"} row ${before}${isle.lane ? " (lane " + isle.lane + ")" : ""}: ${rewards(isle.rewards)}`,
          el("ellipse", {cx: x, cy: y, rx: 7, ry: 16, class: "island-body"}));
  });

  // Hazards and merchant ships on their spaces.
  const hazards = group("whirlpools, sea monsters and cutthroats");
  svg.appendChild(hazards);
  // Drawn as shapes, not emoji: a headless or minimal system may have no emoji font.
  const shapes = {
    whirlpool: (x, y) => el("path", {d: `M${x} ${y} m-7 0 a7 7 0 1 1 7 7 a5 5 0 1 1 -5 -5 a3 3 0 1 1 3 3`,
                                     fill: "none", stroke: "#1d3557", "stroke-width": 2}),
    seaMonster: (x, y) => el("path", {d: `M${x - 9} ${y + 4} q3 -10 6 0 q3 -10 6 0 q3 -10 6 0`,
                                      fill: "none", stroke: "#1e7d32", "stroke-width": 3}),
    cutthroat: (x, y) => el("path", {d: `M${x - 6} ${y - 6} l12 12 M${x + 6} ${y - 6} l-12 12`,
                                     stroke: "#8b0000", "stroke-width": 3}),
  };
  for (const [id, kind] of Object.entries(track.hazards || {})) {
    const p = where[id];
    if (!p) continue;
    piece(hazards, `hazard-${id}`, `hazard ${kind}`, `${kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()} on space ${id}`,
          (shapes[kind] || shapes.cutthroat)(p.x - 10, p.y - 12));
  }
  for (const [id, list] of Object.entries(track.merchants || {})) {
    const p = where[id];
    if (!p) continue;
    list.forEach((m, k) => {
      const x = p.x + 8 + k * 10, y = p.y - 10;
      piece(hazards, `merchant-${m.id}`, "merchant",
            `merchant ship ${m.id} on space ${id}: ${rewards(m.reward_per_cannon)} per cannon`,
            el("path", {d: `M${x - 6} ${y + 2} h12 l-3 5 h-6 z`, fill: "#6b3f2a"}),
            el("path", {d: `M${x} ${y + 1} v-10 l6 8 z`, fill: "#fff", stroke: "#6b3f2a"}));
    });
  }

  // The ships.
  const ships = group("the players' ships");
  svg.appendChild(ships);
  const here = {};
  players.forEach((p) => {
    const at = where[p.position] || {x: 20, y: TOP + LANE_H + 10};
    const k = (here[p.position] = (here[p.position] || 0) + 1) - 1;
    const x = at.x - 12 + (k % 2) * 14, y = at.y - 6 + Math.floor(k / 2) * 12;
    piece(ships, `ship-${p.seat}`, "ship", `${whose(ctx, p.seat)}'s ship on ${p.position}`,
          el("path", {d: `M${x - 8} ${y} h16 l-4 7 h-8 z M${x} ${y} v-10 l7 6 z`, fill: seatColour(p.seat),
                      stroke: "#111", "stroke-width": 1}));
  });

  // The roll and the turn.
  let y = TOP + LANE_H + 24;
  const t = s.turn || {};
  const roll = group(`the dice of the current roll (turn ${t.number ?? "-"})`);
  svg.appendChild(roll);
  const who = players[t.seat] ? players[t.seat].name : "-";
  // Once the game is over no phase is running: the dice are the last turn's.
  roll.appendChild(text(20, y + 18, view.status === "finished" ? `The last turn (${t.number ?? "-"}), ${who}'s dice:`
    : `Turn ${t.number ?? "-"}, ${who}, phase ${t.phase ?? "-"}:`, {class: "small"}));
  (t.dice || []).forEach((face, i) => die(roll, `die-${i}`, 200 + i * (dieWidth(face) + 6), y, face, `die ${i + 1} of ${t.dice.length}: ${face}`));
  if (s.supply_silver !== null && s.supply_silver !== undefined) {
    counter(svg, "supply", width - 110, y + 4, "supply", s.supply_silver, `silver supply: ${s.supply_silver}`, "#e5e5e5");
  }
  y += 50;

  // Each seat: captain, silver, grog, treasure.
  players.forEach((p, i) => {
    const x = 10 + (i % perLine) * panelW, yy = y + Math.floor(i / perLine) * 120;
    const g = group(`${whose(ctx, p.seat)}: captain, silver, grog, treasure`);
    svg.appendChild(g);
    g.appendChild(el("rect", {x, y: yy, width: panelW - 10, height: 110, rx: 6, class: "seat-panel",
                              stroke: seatColour(p.seat)}));
    g.appendChild(text(x + 8, yy + 16, whose(ctx, p.seat), {class: "seat-name"}));
    card(g, `captain-${p.seat}`, x + 8, yy + 24, 90, 78, p.captain_name || p.captain || "no captain",
         `${p.name}'s captain: ${p.captain_name || p.captain || "none"}`, {kind: "captain"});
    counter(g, `silver-${p.seat}`, x + 110, yy + 26, "silver", p.silver, `${p.name}'s silver: ${p.silver}`, "#dfe6ea");
    counter(g, `grog-${p.seat}`, x + 110, yy + 52, "grog", p.grog, `${p.name}'s grog: ${p.grog}`, "#f0dcb4");
    counter(g, `treasure-${p.seat}`, x + 110, yy + 78, "treasure", p.treasure, `${p.name}'s treasure: ${p.treasure}`, "#f7d774");
  });
  return svg;
}
