// Los Tesoros del Rey Pirata: the board grid (content.board: width x height cells, islands
// with their cells and purple arrows), the Ships on it, the open Maps with their Treasure
// tokens on their islands, each seat's hand (face up only when the view holds its cards,
// else backs by count), equipment and Treasures, and the decks' counts.
import {card, counter, el, group, piece, seatColour, short, svgRoot, text, whose, wrapText} from "./svg.js";

const CELL = 28;

export function draw(view, ctx) {
  const s = view.state || {};
  const b = (ctx.content && ctx.content.board) || {width: 0, height: 0, islands: []};
  const cards = new Map(((ctx.content && ctx.content.playCards) || []).map((c) => [c.id, c]));
  // A Map names the Equipment it needs by its kind ("machetes_swords"): shown by the card's name.
  const equipment = new Map([...cards.values()].filter((c) => c.kind === "equipment").map((c) => [c.subtype, c.name]));
  const seats = s.seats || [];
  const gridW = b.width * CELL, gridH = b.height * CELL;
  const width = Math.max(620, gridW + 300);
  const handMost = Math.max(5, ...seats.map((x) => x.hand_count || 0));
  const seatH = 150, perLine = Math.max(1, Math.floor((width - 10) / Math.max(300, handMost * 54 + 20)));
  const height = 20 + gridH + 30 + Math.ceil(seats.length / perLine) * seatH;
  const svg = svgRoot("tesoros-del-rey-pirata", width, height,
                      `Los Tesoros del Rey Pirata at version ${view.version}: turn ${s.turn ?? "-"}, phase ${s.phase ?? "-"}`);
  const x0 = 10, y0 = 10;
  const cellXY = ([x, y]) => ({x: x0 + x * CELL, y: y0 + y * CELL});

  const sea = group(`the board: ${b.width} by ${b.height} squares`);
  svg.appendChild(sea);
  const land = new Set();
  for (const isle of b.islands || []) for (const c of isle.cells || []) land.add(`${c[0]},${c[1]}`);
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      if (land.has(`${x},${y}`)) continue;
      sea.appendChild(el("rect", {x: x0 + x * CELL, y: y0 + y * CELL, width: CELL, height: CELL, class: "cell"}));
    }
  }
  if (Array.isArray(b.compassRose)) {
    const p = cellXY(b.compassRose);
    piece(sea, "compass-rose", "compass", `the compass rose at ${b.compassRose.join(",")}`,
          text(p.x + 6, p.y + 20, "✵", {class: "glyph"}));
  }
  const centre = {};
  const isleName = new Map((b.islands || []).map((i) => [i.id, i.name || i.id]));
  const named = (id) => isleName.get(id) || id;
  const mapsByIsland = {};
  for (const m of s.open_maps || []) (mapsByIsland[m.token || m.island] ||= []).push(m);
  for (const isle of b.islands || []) {
    const g = piece(sea, `island-${isle.id}`, "island",
                    `${isle.name || isle.id}${mapsByIsland[isle.id] ? `: ${mapsByIsland[isle.id].map((m) => m.treasure).join(", ")} treasure token` : ""}`);
    let sx = 0, sy = 0;
    for (const c of isle.cells || []) {
      const p = cellXY(c);
      sx += p.x; sy += p.y;
      g.appendChild(el("rect", {x: p.x, y: p.y, width: CELL, height: CELL, class: "land"}));
    }
    const n = (isle.cells || []).length || 1;
    centre[isle.id] = {x: sx / n + CELL / 2, y: sy / n + CELL / 2};
    // The whole name in up to three centred lines of 8px (about 18 letters each) over the sea
    // around it (`.small` would make it 10px, and at that size most names were cut after eight),
    // raised by half a line for each line past the first.
    const label = el("g");
    const lines = wrapText(label, centre[isle.id].x, centre[isle.id].y + 3, 3.2 * CELL, isle.name || isle.id, 3, 8,
                           {"text-anchor": "middle"});
    label.setAttribute("transform", `translate(0 ${-(lines - 1) * 5})`);
    g.appendChild(label);
    for (const a of isle.arrows || []) {
      const p = cellXY(a);
      piece(sea, `arrow-${isle.id}-${a.join(",")}`, "arrow", `arrow from ${a.join(",")} into ${isle.name || isle.id}`,
            el("circle", {cx: p.x + CELL / 2, cy: p.y + CELL / 2, r: 4, class: "arrow-body"}));
    }
  }
  // Treasure tokens on the islands of the open Maps.
  for (const [island, maps] of Object.entries(mapsByIsland)) {
    const p = centre[island];
    if (!p) continue;
    maps.forEach((m, k) => piece(sea, `token-${m.id}`, "treasure-token", `${m.treasure} treasure token on ${named(island)}`,
                                 el("circle", {cx: p.x + 10 + k * 6, cy: p.y - 17, r: 6, fill: "#f1c40f", stroke: "#7d6608"})));
  }
  // The Ships.
  const here = {};
  seats.forEach((x) => {
    const m = /^(\d+),(\d+)$/.exec(String(x.ship));
    const at = m ? {x: x0 + Number(m[1]) * CELL + CELL / 2, y: y0 + Number(m[2]) * CELL + CELL / 2} : centre[x.ship];
    if (!at) return;
    const k = (here[x.ship] = (here[x.ship] || 0) + 1) - 1;
    const cx = at.x - 6 + (k % 2) * 12, cy = at.y + Math.floor(k / 2) * 10;
    piece(sea, `ship-${x.seat}`, "ship", `${whose(ctx, x.seat)}'s ship (${x.color}) on ${named(x.ship)}`,
          el("path", {d: `M${cx - 9} ${cy} h18 l-4 7 h-10 z M${cx} ${cy} v-11 l8 7 z`, fill: seatColour(x.seat, x.color),
                      stroke: "#111", "stroke-width": 1}));
  });

  // Beside the board: the open Maps, the decks and the discard.
  const side = group("the open Maps, the decks and the discard pile");
  svg.appendChild(side);
  const sx = gridW + 30;
  side.appendChild(text(sx, 24, "Open Maps", {class: "seat-name"}));
  // What a Map asks first (its treasure and equipment), then where: its token marks the island.
  (s.open_maps || []).forEach((m, k) => card(side, `map-${m.id}`, sx + k * 84, 32, 78, 72,
                                               `${m.treasure}, needs ${equipment.get(m.equipment) || m.equipment}, on ${named(m.island)}`,
                                               `open Map ${m.id}: ${m.treasure} on ${named(m.island)}, needs ${equipment.get(m.equipment) || m.equipment}`,
                                               {kind: "map", lines: 5}));
  counter(side, "deck", sx, 116, "deck", s.deck_count ?? 0, `Play Deck: ${s.deck_count ?? 0} cards`, "#e5e5e5");
  counter(side, "discard", sx + 90, 116, "discard", (s.discard || []).length,
          `discard pile: ${(s.discard || []).length} cards${(s.discard || []).length ? ", top " + s.discard[s.discard.length - 1] : ""}`, "#e5e5e5");
  counter(side, "map-deck", sx, 142, "maps", s.map_deck_count ?? 0, `Map deck: ${s.map_deck_count ?? 0} cards`, "#e5e5e5");
  counter(side, "events", sx + 90, 142, "events", s.events_under_anchor ?? 0, `events under the anchor: ${s.events_under_anchor ?? 0}`, "#e5e5e5");
  // Status lines are pieces too, so that "what changed" marks them.
  if (s.awaiting) piece(side, "awaiting", "status", s.awaiting, text(sx, 180, short(s.awaiting, 48), {class: "small"}));
  if (s.move_value !== null && s.move_value !== undefined) {
    piece(side, "move-value", "status", `move value ${s.move_value}`, text(sx, 196, `move value ${s.move_value}`, {class: "small"}));
  }

  // Each seat: hand (face up if the view holds it, else backs), equipment, Treasures.
  const yS = y0 + gridH + 20, panelW = Math.floor((width - 10) / perLine);
  seats.forEach((x, i) => {
    const px = 5 + (i % perLine) * panelW, py = yS + Math.floor(i / perLine) * seatH;
    const g = group(`${whose(ctx, x.seat)}: hand, equipment and Treasures`);
    svg.appendChild(g);
    g.appendChild(el("rect", {x: px, y: py, width: panelW - 8, height: seatH - 10, rx: 6, class: "seat-panel",
                              stroke: seatColour(x.seat, x.color)}));
    g.appendChild(text(px + 8, py + 16, `${whose(ctx, x.seat)} — ${x.victory_points ?? 0} VP`, {class: "seat-name"}));
    if (Array.isArray(x.hand)) {
      x.hand.forEach((id, k) => {
        const c = cards.get(id);
        const name = c ? `${c.name} (${c.die})` : id;
        card(g, `hand-${x.seat}-${k}`, px + 8 + k * 52, py + 24, 48, 64, name, `${x.name}'s card ${k + 1}: ${name}`, {seat: x.seat});
      });
    } else {
      for (let k = 0; k < (x.hand_count || 0); k++) {
        card(g, `hand-${x.seat}-${k}`, px + 8 + k * 52, py + 24, 48, 64, "", `${x.name}'s card ${k + 1}, face down`,
             {back: true, seat: x.seat});
      }
    }
    const eq = x.equipped ? (cards.get(x.equipped) || {}).name || x.equipped : "none";
    piece(g, `equipped-${x.seat}`, "equipment", `${x.name}'s equipment: ${eq}`,
          text(px + 8, py + 106, `equipped: ${short(eq, 28)}`, {class: "small"}));
    piece(g, `treasures-${x.seat}`, "treasures", `${x.name}'s Treasures: ${(x.treasures || []).join(", ") || "none"}`,
          text(px + 8, py + 122, `treasures: ${short((x.treasures || []).join(", ") || "none", 40)}`, {class: "small"}));
  });
  return svg;
}
