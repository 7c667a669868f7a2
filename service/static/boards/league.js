// League of Pirates: two ships, each with its crew slots (the view's crew object, in its
// order), its brig, its points and Homeport Bag; the challenge dice between them. Layout from
// the data: one slot per key of a seat's crew, one brig place per entry of its brig.
import {counter, die, el, fitted, group, piece, seatColour, short, svgRoot, text, whose} from "./svg.js";

const SLOT = 78;

function coinLabel(coin) {
  return `${coin.name} (${coin.color} ${coin.role}, cunning ${coin.cunning})${coin.traitor ? ", a traitor" : ""}`;
}

function coin(parent, key, cx, cy, c, where) {
  const g = piece(parent, key, "coin" + (c.traitor ? " traitor" : ""), `${where}: ${coinLabel(c)}`,
                  el("circle", {cx, cy, r: 26, class: "coin-body", fill: seatColour(0, c.color)}),
                  text(cx, cy - 2, c.cunning, {"text-anchor": "middle", class: "seat-name"}),
                  // the role in words ("sailingMaster" is "sailing master")
                  fitted(cx, cy + 12, String(c.role ?? "").replace(/([a-z])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase(),
                         8, {"text-anchor": "middle"}));
  if (c.traitor) g.appendChild(text(cx + 14, cy - 14, "✖", {class: "glyph", fill: "#b00020"}));
  return g;
}

export function draw(view, ctx) {
  const s = view.state || {};
  const seats = s.seats || [];
  const slots = Math.max(1, ...seats.map((x) => Object.keys(x.crew || {}).length));
  const width = Math.max(600, 40 + slots * SLOT + 200);
  const shipH = 210;
  const height = 30 + seats.length * shipH + 130;
  const svg = svgRoot("league-of-pirates", width, height,
                      `League of Pirates at version ${view.version}: turn ${s.turn ?? "-"}, phase ${s.phase ?? "-"}`);
  seats.forEach((x, i) => {
    const y0 = 20 + i * shipH;
    const g = group(`${whose(ctx, x.seat)}'s ship`);
    svg.appendChild(g);
    piece(g, `ship-${x.seat}`, "ship",
          `${whose(ctx, x.seat)}'s ship, ${x.coin_set} coins, league ${x.league ?? (x.league_chosen ? "chosen, hidden" : "not chosen")}`,
          el("path", {d: `M10 ${y0 + 24} h${slots * SLOT + 20} l-30 96 h${-(slots * SLOT - 40)} z`,
                      fill: "#a97c50", stroke: seatColour(x.seat), "stroke-width": 4}),
          text(16, y0 + 14, `${whose(ctx, x.seat)} — ${x.coin_set} set, league ${x.league ?? (x.league_chosen ? "chosen (hidden)" : "-")}`,
               {class: "seat-name"}));
    Object.entries(x.crew || {}).forEach(([slot, c], k) => {
      const cx = 50 + k * SLOT, cy = y0 + 66;
      piece(g, `slot-${x.seat}-${slot}`, "slot", `${x.name}'s ${slot.replace("_", " ")} slot${c ? "" : ": empty"}`,
            el("circle", {cx, cy, r: 31, class: "slot-body"}),
            text(cx, cy + 46, slot.replace("_", " "), {"text-anchor": "middle", class: "small"}));
      if (c) coin(g, `coin-${x.seat}-${slot}`, cx, cy, c, `${x.name}'s ${slot.replace("_", " ")}`);
    });
    // The brig, the points and the bag beside the ship.
    const bx = slots * SLOT + 60;
    g.appendChild(text(bx, y0 + 34, "brig", {class: "small"}));
    (x.brig || []).forEach((c, k) => {
      const cx = bx + 28 + k * 60, cy = y0 + 70;
      piece(g, `brig-${x.seat}-${k}`, "brig", `${x.name}'s brig place ${k + 1}${c ? "" : ": empty"}`,
            el("rect", {x: cx - 28, y: cy - 28, width: 56, height: 56, class: "slot-body"}));
      if (c) coin(g, `brig-coin-${x.seat}-${k}`, cx, cy, c, `in ${x.name}'s brig`);
    });
    counter(g, `points-${x.seat}`, 20, y0 + 150, "points", x.points, `${x.name}'s points: ${x.points}`, "#f7d774");
    const bag = Array.isArray(x.bag) ? `: ${x.bag.join(", ") || "empty"}` : " (contents hidden)";
    counter(g, `bag-${x.seat}`, 120, y0 + 150, "bag", x.bag_count, `${x.name}'s Homeport Bag: ${x.bag_count} coins${bag}`, "#e5e5e5");
  });

  // The challenge dice, and coins drawn but not yet placed.
  const y = 30 + seats.length * shipH;
  const ch = s.challenge;
  const dice = group(ch ? `the challenge (${ch.purpose}, round ${ch.round})` : "no challenge under way");
  svg.appendChild(dice);
  dice.appendChild(text(20, y, ch ? `Challenge: ${ch.purpose}, round ${ch.round}` : "No challenge under way", {class: "seat-name"}));
  (ch ? ch.players : []).forEach((p, r) => {
    const yy = y + 12 + r * 42;
    dice.appendChild(text(20, yy + 20, `${short(ctx.names[p.seat] || "seat " + p.seat, 12)}: throws ${p.throws}`, {class: "small"}));
    (p.dice || []).forEach((d, k) => die(dice, `challenge-die-${p.seat}-${k}`, 130 + k * 36, yy, d || "–",
                                         `${ctx.names[p.seat] || "seat " + p.seat}'s challenge die ${k + 1}: ${d || "not thrown"}`));
    const banked = Object.entries(p.banked || {}).map(([f, n]) => `${f}×${n}`).join(" ");
    dice.appendChild(text(320, yy + 20, `banked ${banked || "-"}, score ${p.score ?? "-"}${p.ended ? ", ended" : ""}`, {class: "small"}));
  });
  const pending = s.pending;
  if (pending && pending.kind === "draw") {
    const yy = y + 100;
    const who = ctx.names[pending.seat] || "seat " + pending.seat;
    if (Array.isArray(pending.drawn)) {
      pending.drawn.forEach((c, k) => coin(dice, `drawn-${k}`, 480 + k * 58, yy, c, `drawn by ${who}`));
    } else {
      for (let k = 0; k < (pending.count || 0); k++) {
        piece(dice, `drawn-${k}`, "coin back", `a coin drawn by ${who}, hidden from you`,
              el("circle", {cx: 480 + k * 58, cy: yy, r: 22, class: "card-back"}));
      }
    }
  }
  return svg;
}
