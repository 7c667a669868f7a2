// Chrono Corsairs: the island (its tile spots, each tile with its Event token), the seats'
// officers and crew on the spots and in the harbor, the flag order, the plans on each mat
// and in hand (sealed ones as backs), Artifacts, Doubloons and Time Gems, and the storm.
// The content gives no coordinates: the layout comes from its structure (content.board):
// exterior spots on a ring in their listed order, interior spots on an inner ring, caves
// outside the ring beside the spots they are joined to (board.edges).
import {card, counter, el, group, piece, seatColour, short, svgRoot, text, whose, wrapText} from "./svg.js";

const R_OUT = 150, R_IN = 62, R_CAVE = 228, TILE = 32;

function layout(board, spotIds) {
  const spots = (board && board.spots) || spotIds.map((id) => ({id, region: "exterior"}));
  const ring = (list, r, turn = 0) => Object.fromEntries(list.map((sp, k) => {
    const a = turn + (2 * Math.PI * k) / Math.max(1, list.length) - Math.PI / 2;
    return [sp.id, {a, x: r * Math.cos(a), y: r * Math.sin(a)}];
  }));
  const ext = spots.filter((sp) => sp.region === "exterior");
  const inn = spots.filter((sp) => sp.region === "interior");
  const other = spots.filter((sp) => sp.region !== "exterior" && sp.region !== "interior");
  const at = {...ring(ext, R_OUT), ...ring(inn, R_IN, Math.PI / Math.max(1, inn.length))};
  const edges = (board && board.edges) || [];
  other.forEach((sp, k) => {
    const near = edges.flatMap(([a, b]) => (a === sp.id ? [b] : b === sp.id ? [a] : []))
      .map((id) => at[id]).filter((p) => p && Math.hypot(p.x, p.y) > R_OUT - 1);
    let a;
    if (near.length) a = Math.atan2(near.reduce((t, p) => t + Math.sin(p.a), 0), near.reduce((t, p) => t + Math.cos(p.a), 0));
    else a = (2 * Math.PI * k) / Math.max(1, other.length);
    at[sp.id] = {a, x: R_CAVE * Math.cos(a), y: R_CAVE * Math.sin(a)};
  });
  return at;
}

function names(content) {
  const out = new Map();
  for (const t of (content && content.tiles) || []) out.set(t.id, t.name);
  for (const c of (content && content.caves) || []) {
    for (const [side, face] of Object.entries(c.sides || {})) out.set(`${c.id}/${side}`, face.name);
  }
  for (const p of (content && content.plans) || []) out.set(p.id, p.name);
  for (const a of (content && content.artifacts) || []) out.set(a.id, a.name);
  for (const a of (content && content.anomalies) || []) out.set(a.id, a.name);
  return out;
}

export function draw(view, ctx) {
  const s = view.state || {};
  const seats = s.seats || [];
  const board = s.board || {};
  const named = names(ctx.content);
  const at = layout(ctx.content && ctx.content.board, Object.keys(board));
  const cx = 300, cy = 290, below = cy + R_CAVE + TILE + 12;
  const width = 640, seatH = 150;
  const height = below + 70 + seats.length * seatH;
  const svg = svgRoot("chrono-corsairs", width, height,
                      `Chrono Corsairs at version ${view.version}: round ${s.round ?? "-"}, phase ${s.phase ?? "-"}`);
  svg.appendChild(el("circle", {cx, cy, r: R_OUT + 30, class: "land"}));
  const island = group("the island: tiles, Event tokens and pieces");
  svg.appendChild(island);
  for (const e of (ctx.content && ctx.content.board && ctx.content.board.edges) || []) {
    const [a, b] = [at[e[0]], at[e[1]]];
    if (a && b) island.appendChild(el("line", {x1: cx + a.x, y1: cy + a.y, x2: cx + b.x, y2: cy + b.y, stroke: "#8a6d1f", "stroke-width": 1}));
  }
  const harbor = new Set((ctx.content && ctx.content.board && ctx.content.board.harbor) || []);
  for (const [spot, t] of Object.entries(board)) {
    const p = at[spot];
    if (!p) continue;
    const x = cx + p.x - TILE, y = cy + p.y - TILE;
    const name = named.get(t.side ? `${t.tile}/${t.side}` : t.tile) || t.tile;
    const tile = piece(island, `tile-${spot}`, "tile", `${spot}: ${name} (${t.terrain}${t.side ? ", side " + t.side : ""})${harbor.has(spot) ? ", by the harbor" : ""}`,
          el("rect", {x, y, width: 2 * TILE, height: 2 * TILE, rx: 6, class: "tile-body", fill: {beach: "#f3e3a8", jungle: "#9fd08f", volcano: "#d98b6b", cave: "#9a9a9a"}[t.terrain] || "#ddd"}));
    // The name on two lines left of the Event token (top right), above the pieces (from y + 20).
    wrapText(tile, x + 3, y + 9, 2 * TILE - 20, name, 2, 8);
    const tok = t.token || {};
    piece(island, `token-${spot}`, tok.face_up ? "token face-up" : "token back",
          tok.face_up ? `Event token on ${spot}: ${tok.name} (${tok.token})` : `Event token on ${spot}, face down (${tok.back})`,
          el("circle", {cx: x + 2 * TILE - 9, cy: y + 9, r: 7, class: tok.face_up ? "card-face" : "card-back"}));
    // Each seat's officers and crew on this spot.
    let k = 0;
    seats.forEach((st) => {
      for (const kind of ["officer", "crew"]) {
        const n = ((st.pieces || {})[kind] || {})[spot] || 0;
        if (!n) continue;
        const px = x + 8 + (k % 3) * 18, py = y + 26 + Math.floor(k / 3) * 16;
        k++;
        piece(island, `${kind}-${st.seat}-${spot}`, kind, `${n} of ${st.name}'s ${kind === "officer" ? "officers" : "crew"} on ${spot}`,
              kind === "officer" ? el("rect", {x: px - 6, y: py - 6, width: 12, height: 12, fill: seatColour(st.seat, st.color), stroke: "#111"})
                : el("circle", {cx: px, cy: py, r: 6, fill: seatColour(st.seat, st.color), stroke: "#111"}),
              text(px + 7, py + 4, n, {class: "small", "font-size": 8}));
      }
    });
  }

  // The storm, the flag order and the decks.
  const top = group("the storm, the flags and the decks");
  svg.appendChild(top);
  const storm = s.storm || {};
  piece(top, "storm", "storm", `the storm at space ${storm.space} of ${storm.last}: ${storm.stage}`,
        text(20, 24, `Storm ${storm.space ?? "-"}/${storm.last ?? "-"} ${storm.stage ?? ""}`, {class: "seat-name"}));
  (s.flag || []).forEach((seat, k) => piece(top, `flag-${k}`, "flag", `flag ${k + 1}: ${ctx.names[seat] || "seat " + seat}`,
                                            // five flags fit the 640 wide picture: the last ends at 612
                                            el("path", {d: `M${458 + k * 34} 30 v-22 l18 6 l-18 6`, fill: seatColour(seat, (seats[seat] || {}).color), stroke: "#111"}),
                                            text(458 + k * 34, 44, k + 1, {class: "small"})));
  top.appendChild(text(420, 24, "flags", {class: "small"}));
  Object.entries(s.deck_counts || {}).forEach(([deck, n], k) => counter(top, `deck-${deck}`, 20 + k * 90, below, deck, n, `${deck} deck: ${n} cards`, "#e5e5e5"));
  if (s.anomaly_top) {  // a piece, so that "what changed" marks a new Anomaly
    piece(top, "anomaly-top", "status", `Anomaly on top: ${named.get(s.anomaly_top) || s.anomaly_top}`,
          text(300, below + 14, `Anomaly: ${short(named.get(s.anomaly_top) || s.anomaly_top, 24)}`, {class: "small"}));
  }

  // Each seat: harbor and mat pieces, plans, artifacts, doubloons, gems.
  seats.forEach((st, i) => {
    const py = below + 60 + i * seatH;
    const g = group(`${whose(ctx, st.seat)}: plans, Artifacts, Doubloons and Time Gems`);
    svg.appendChild(g);
    g.appendChild(el("rect", {x: 5, y: py, width: width - 10, height: seatH - 10, rx: 6, class: "seat-panel", stroke: seatColour(st.seat, st.color)}));
    g.appendChild(text(14, py + 16, whose(ctx, st.seat), {class: "seat-name"}));
    const off = (st.pieces || {}).officer || {}, crew = (st.pieces || {}).crew || {};
    piece(g, `harbor-${st.seat}`, "harbor", `${st.name}'s harbor: ${off.HARBOR || 0} officers, ${crew.HARBOR || 0} crew; on the mat ${crew.MAT || 0} crew`,
          text(14, py + 32, `harbor: ${off.HARBOR || 0} officers, ${crew.HARBOR || 0} crew · mat crew ${crew.MAT || 0}`, {class: "small"}));
    counter(g, `doubloons-${st.seat}`, 330, py + 6, "doubloons", st.doubloons, `${st.name}'s Doubloons: ${st.doubloons}`, "#f7d774");
    counter(g, `gems-${st.seat}`, 420, py + 6, "gems", st.time_gems, `${st.name}'s Time Gems: ${st.time_gems}`, "#c9b6f2");
    const cubes = st.cubes || {};
    counter(g, `cubes-${st.seat}`, 510, py + 6, "cubes", `${cubes.stable ?? 0}/${cubes.unstable ?? 0}`,
            `${st.name}'s cubes: ${cubes.stable ?? 0} stable, ${cubes.unstable ?? 0} unstable`, "#dfe6ea");
    // The mat's four times: played plans are public.
    Object.entries(st.mat || {}).forEach(([time, plan], k) => card(g, `mat-${st.seat}-${time}`, 14 + k * 66, py + 40, 60, 44,
      plan ? `${time}: ${named.get(plan) || plan}` : `${time}: -`, `${st.name}'s mat, ${time}: ${plan ? named.get(plan) || plan : "empty"}`, {kind: "mat"}));
    // Plans in hand: face up for their owner; the others see backs, one of them sealed once
    // a plan is selected (it stays in hand until all are revealed together).
    const x0 = 290;
    g.appendChild(text(x0, py + 40, st.selected ? "plans in hand (one sealed)" : "plans in hand", {class: "small"}));
    if (Array.isArray(st.drawn)) {
      const chosen = st.selection || {};
      st.drawn.forEach((plan, k) => card(g, `plan-${st.seat}-${k}`, x0 + k * 50, py + 46, 46, 44, named.get(plan) || plan,
                                         `${st.name}'s plan ${k + 1}: ${named.get(plan) || plan}` +
                                         (chosen.card === plan ? `, selected for ${chosen.slot} (sealed to the others)` : ""),
                                         {seat: st.seat, kind: chosen.card === plan ? "plan sealed" : "plan"}));
    } else {
      for (let k = 0; k < (st.drawn_count || 0); k++) {
        const sealed = st.selected && k === 0;
        card(g, `plan-${st.seat}-${k}`, x0 + k * 50, py + 46, 46, 44, "",
             sealed ? `${st.name}'s selected plan, sealed until all are revealed`
               : `${st.name}'s plan ${k + 1}, face down`,
             {back: true, seat: st.seat, kind: sealed ? "plan sealed" : "plan"});
      }
    }
    // Artifacts.
    if (Array.isArray(st.artifacts)) {
      st.artifacts.forEach((a, k) => card(g, `artifact-${st.seat}-${k}`, 14 + k * 66, py + 92, 60, 40, named.get(a) || a,
                                          `${st.name}'s Artifact: ${named.get(a) || a}`, {seat: st.seat, kind: "artifact"}));
    } else {
      for (let k = 0; k < (st.artifact_count || 0); k++) {
        card(g, `artifact-${st.seat}-${k}`, 14 + k * 66, py + 92, 60, 40, "", `${st.name}'s Artifact ${k + 1}, face down`,
             {back: true, seat: st.seat, kind: "artifact"});
      }
    }
  });
  const standings = (s.result && s.result.standings) || [];
  if (standings.length) {
    svg.appendChild(text(20, below + 44, `Scores: ${standings.map((r) => `${ctx.names[r.seat] || r.seat} ${r.total}`).join(", ")}`, {class: "seat-name"}));
  }
  return svg;
}
