// Valeria: Card Kingdoms, and with Crimson Seas: the center (Monster, Citizen and Domain
// stacks, each with its top card's cost and how many cards it holds), the dice, each seat's
// tableau and resources, Dukes (face up only when the view holds them; others as backs), and
// the Crimson Seas islands with their Goods, Tomes and Nobles. The stacks come from the view,
// the cards' names and costs from the content (GameSetUp): no coordinates in the content, so
// the layout is a row per kind of stack.
import {card, counter, die, el, fit, fitted, group, piece, seatColour, short, svgRoot, text, whose} from "./svg.js";

const CW = 74, CH = 86;

function catalogue(content) {
  const out = new Map();
  const add = (list, kind) => { for (const c of list || []) out.set(c.id, {...c, kind}); };
  add(content && content.starters, "citizen");
  add(content && content.citizens, "citizen");
  add(content && content.monsters, "monster");
  add(content && content.domains, "domain");
  add(content && content.dukes, "duke");
  const cs = content && content.crimson_seas;
  if (cs) {
    add(cs.nobles, "noble");
    if (cs.coxswain) out.set(cs.coxswain.id, {...cs.coxswain, kind: "citizen"});
  }
  return out;
}

const typeOf = (id) => String(id).split(/[#@]/)[0];

function describe(cat, id) {
  const c = cat.get(typeOf(id));
  if (!c) {   // a Goods or Tome token: its kind in words, not its copy id ("spices#2", "tome_magic#7")
    const kind = typeOf(id);
    return kind.startsWith("tome_") ? `${kind.slice(5)} Tome` : kind.replace(/_/g, " ");
  }
  if (c.kind === "monster") return `${c.name} (strength ${c.strength}${c.magic ? " + " + c.magic + " magic" : ""}, ${c.vp} VP)`;
  if (c.kind === "citizen") return `${c.name}${c.cost !== undefined ? ` (cost ${c.cost}` : " ("}${c.activation ? `, rolls ${c.activation.join("/")}` : ""})`;
  if (c.kind === "domain") return `${c.name} (cost ${c.cost}, ${c.vp} VP)`;
  return c.name || String(id);
}

function stack(parent, key, x, y, title, cards, cat, what) {
  const n = cards.length;
  const top = n ? cards[0] : null;
  const label = `${what} stack ${title}: ${n} card${n === 1 ? "" : "s"}${top ? ", on top " + describe(cat, top) : ", empty"}`;
  const g = piece(parent, key, "stack", label,
                  el("rect", {x, y, width: CW, height: CH, rx: 5, class: n ? "stack-body" : "slot-body"}));
  const c = top ? cat.get(typeOf(top)) || {} : {};
  // an empty stack by its id in words: "domain_2" is "Domain 2"
  const shown = c.name || String(title).replace(/_/g, " ").replace(/^./, (ch) => ch.toUpperCase());
  g.appendChild(fitted(x + 4, y + 12, shown, 10, {"font-weight": 600}));
  const cost = c.kind === "monster" ? `⚔${c.strength}${c.magic ? " ✦" + c.magic : ""}` : c.cost !== undefined ? `cost ${c.cost}` : "";
  g.appendChild(text(x + 4, y + 28, cost, {class: "small"}));
  if (c.activation) g.appendChild(text(x + 4, y + 42, `roll ${c.activation.join("/")}`, {class: "small"}));
  g.appendChild(text(x + CW - 6, y + CH - 6, `×${n}`, {class: "small", "text-anchor": "end"}));
  return g;
}

export function draw(view, ctx) {
  const s = view.state || {};
  const seats = s.seats || [];
  const cat = catalogue(ctx.content);
  const monsters = Object.entries(s.monster_stacks || {});
  const citizens = Object.entries(s.citizen_stacks || {});
  const domains = Object.entries(s.domain_stacks || {});
  const perRow = Math.max(monsters.length, citizens.length, domains.length, 6);
  const width = Math.max(640, 20 + Math.min(perRow, 10) * (CW + 6) + 10);
  const rowsOf = (n) => Math.ceil(n / Math.min(perRow, 10));
  const cs = !!s.islands;
  const centreH = 30 + (rowsOf(monsters.length) + rowsOf(citizens.length) + rowsOf(domains.length)) * (CH + 22) + 60 + (cs ? 120 : 0);
  const seatH = 190 + (cs ? 40 : 0);
  const height = centreH + seats.length * seatH;
  const ruleset = cs ? "crimson-seas" : "valeria-card-kingdoms";
  const svg = svgRoot(ruleset, width, height,
                      `${cs ? "Valeria: Crimson Seas" : "Valeria: Card Kingdoms"} at version ${view.version}: turn ${s.turn ?? "-"}, phase ${s.phase ?? "-"}`);
  let y = 14;
  const row = (label, list, what, keyOf, cards) => {
    const g = group(label);
    svg.appendChild(g);
    g.appendChild(text(10, y + 10, label, {class: "seat-name"}));
    y += 16;
    list.forEach(([name, v], k) => {
      const col = k % Math.min(perRow, 10);
      if (k && !col) y += CH + 6;
      stack(g, keyOf(name), 10 + col * (CW + 6), y, name, cards(v), cat, what);
    });
    y += CH + 6;
  };
  row("Monsters", monsters, "monster", (n) => `monsters-${n}`, (v) => v);
  row("Citizens", citizens, "citizen", (n) => `citizens-${n}`, (v) => v);
  // A Domain stack: one face up card over `down` face-down ones.
  const dg = group("Domains");
  svg.appendChild(dg);
  dg.appendChild(text(10, y + 10, `Domains (${s.face_down_domains ?? 0} more face down)`, {class: "seat-name"}));
  y += 16;
  domains.forEach(([name, v], k) => {
    const col = k % Math.min(perRow, 10);
    if (k && !col) y += CH + 6;
    const cards = v.up ? [v.up, ...Array(v.down || 0).fill("face down")] : Array(v.down || 0).fill("face down");
    stack(dg, `domains-${name}`, 10 + col * (CW + 6), y, name, cards, cat, "domain");
  });
  y += CH + 10;
  // Dice, and the supplies that are only counts.
  const dice = group("the dice and the unseen piles");
  svg.appendChild(dice);
  (s.dice || []).forEach((d, k) => die(dice, `die-${k}`, 10 + k * 36, y, d, `die ${k + 1}: ${d}`));
  // Status lines are pieces too, so that "what changed" marks them.
  if (s.values) piece(dice, "values", "status", `values ${s.values.join(" / ")}`, text(90, y + 20, `values ${s.values.join(" / ")}`, {class: "small"}));
  counter(dice, "dukes-unseen", 220, y + 4, "dukes", s.dukes_unseen ?? 0, `Dukes nobody holds: ${s.dukes_unseen ?? 0}, face down`, "#e5e5e5");
  // Two numbers: the Exhausted cards still to be placed, and the positions already Exhausted (what
  // the game's end counts, against twice the players): a spectator reading one for the other
  // would think the game over.
  counter(dice, "exhausted", 310, y + 4, "exh. cards", s.exhausted_stack ?? 0, `Exhausted cards left: ${s.exhausted_stack ?? 0}`, "#e5e5e5");
  const exhausted = (s.exhausted_positions || []).length;
  counter(dice, "exhausted-positions", 400, y + 4, "exhausted", exhausted, `exhausted stacks: ${exhausted}`, "#e5e5e5");
  if (s.awaiting) piece(dice, "awaiting", "status", s.awaiting, text(495, y + 18, short(s.awaiting, Math.floor((width - 505) / 6)), {class: "small"}));
  y += 44;
  if (cs) {
    const isl = s.islands;
    const g = group("the Crimson Seas islands");
    svg.appendChild(g);
    const ix = (k) => 10 + k * 150;
    const isle = (k, key, name, list, kind) => {
      const p = piece(g, key, "island", `${name}: ${list.length ? list.map((c) => describe(cat, c)).join(", ") : "nothing"}`,
                      el("rect", {x: ix(k), y, width: 140, height: 90, rx: 20, class: "land"}),
                      text(ix(k) + 8, y + 16, name, {class: "seat-name"}));
      list.forEach((c, j) => p.appendChild(text(ix(k) + 8, y + 32 + j * 13, short(`${kind} ${describe(cat, c)}`, 28), {class: "small"})));
    };
    isle(0, "island-araby", "Araby", isl.araby || [], "");
    isle(1, "island-nae_aerie", "Nae Aerie", isl.nae_aerie || [], "");
    isle(2, "island-amarynth", "Amarynth", isl.amarynth || [], "");
    const ex = isl.exekratys || {};
    isle(3, "island-exekratys", "Exekratys", Object.entries(ex).map(([k, v]) => `${k} ${v}`), "");
    y += 96;
    g.appendChild(text(10, y + 8, `Supplies: ${isl.goods_supply} goods, ${isl.tome_supply} tomes, ${isl.noble_deck} nobles face down; bank maps ${s.bank_maps ?? "-"}`, {class: "small"}));
    y += 20;
  }

  // Solo: the Dark Lord's Duke lies face down until the end; what his Monsters took is public.
  if (s.dark_lord) {
    const g = group("the Dark Lord");
    svg.appendChild(g);
    const dl = s.dark_lord, name = dl.duke ? (cat.get(dl.duke) || {}).name || dl.duke : "";
    card(g, "dark-lord-duke", 10, y, 90, 50, name, dl.duke ? `the Dark Lord's Duke: ${name}` : "the Dark Lord's Duke, face down",
         {back: !dl.duke, kind: "duke"});
    piece(g, "dark-lord-captured", "captured", `the Dark Lord's Monsters captured: ${(dl.captured || []).map((c) => describe(cat, c)).join(", ") || "nothing"}`,
          text(110, y + 28, `captured by the Dark Lord: ${(dl.captured || []).length}`, {class: "small"}));
    y += 60;
  }

  // Each seat's tableau.
  seats.forEach((x) => {
    const py = y, g = group(`${whose(ctx, x.seat)}: tableau, resources and Duke`);
    svg.appendChild(g);
    y += seatH;
    g.appendChild(el("rect", {x: 5, y: py, width: width - 10, height: seatH - 8, rx: 6, class: "seat-panel", stroke: seatColour(x.seat)}));
    const pts = x.points && typeof x.points === "object" ? x.points : null;
    if (pts) {
      piece(g, `points-${x.seat}`, "points", `${x.name}'s points: ${pts.total} (${Object.entries(pts).filter(([k]) => k !== "total").map(([k, v]) => `${k} ${v}`).join(", ")})`,
            text(width - 20, py + 16, `${pts.total} points`, {class: "seat-name", "text-anchor": "end"}));
    }
    g.appendChild(text(14, py + 16, whose(ctx, x.seat), {class: "seat-name"}));
    const res = [["gold", x.gold, "#f7d774"], ["strength", x.strength, "#f4b6a6"], ["magic", x.magic, "#c9b6f2"], ["VP", x.victory_point_tokens, "#cdebd3"]];
    if (cs) res.push(["maps", x.maps, "#dfe6ea"]);
    res.forEach(([name, v, colour], k) => counter(g, `${name}-${x.seat}`, 14 + k * 90, py + 24, name, v ?? 0, `${x.name}'s ${name}: ${v ?? 0}`, colour));
    // Citizens grouped by kind, then Domains and defeated Monsters.
    const kinds = {};
    for (const c of x.citizens || []) (kinds[typeOf(c)] ||= []).push(c);
    let k = 0;
    const chip = (key, name, label) => {
      const cx = 14 + (k % 8) * 76, cy = py + 52 + Math.floor(k / 8) * 26;
      k++;
      piece(g, key, "tableau", label, el("rect", {x: cx, y: cy, width: 72, height: 22, rx: 3, class: "card-face"}),
            fitted(cx + 4, cy + 15, name, 10));
    };
    for (const [kind, list] of Object.entries(kinds)) {
      const starter = kind.startsWith("starter_") ? "starting " : "";   // the starting Peasant and Knight
      chip(`citizen-${x.seat}-${kind}`, `${starter ? "★" : ""}${(cat.get(kind) || {}).name || kind} ×${list.length}`,
           `${x.name}'s ${list.length} × ${starter}${describe(cat, kind)}`);
    }
    for (const d of x.domains || []) chip(`domain-${x.seat}-${d}`, (cat.get(typeOf(d)) || {}).name || d, `${x.name}'s Domain ${describe(cat, d)}`);
    chip(`victory-${x.seat}`, `monsters ×${(x.victory || []).length}`,
         `${x.name}'s defeated Monsters: ${(x.victory || []).map((m) => describe(cat, m)).join(", ") || "none"}`);
    // The Duke: face up only when this view holds it.
    const dy = py + seatH - 62, dx = width - 200;
    if (x.duke) {
      card(g, `duke-${x.seat}`, dx, dy, 90, 50, (cat.get(x.duke) || {}).name || x.duke, `${x.name}'s Duke: ${(cat.get(x.duke) || {}).name || x.duke}`, {seat: x.seat, kind: "duke"});
    } else if (x.has_kept_duke) {
      card(g, `duke-${x.seat}`, dx, dy, 90, 50, "", `${x.name}'s Duke, face down: kept secret`, {back: true, seat: x.seat, kind: "duke"});
    }
    (x.duke_offer || []).forEach((d, j) => card(g, `offer-${x.seat}-${j}`, dx - 100 * (j + 1), dy, 90, 50, (cat.get(d) || {}).name || d,
                                                `${x.name}'s Duke on offer: ${(cat.get(d) || {}).name || d}`, {seat: x.seat, kind: "duke offer"}));
    if (cs) {
      const goods = (x.goods || []).map(typeOf), tomes = (x.tomes || []).map((t) => describe(cat, t));
      piece(g, `goods-${x.seat}`, "goods", `${x.name}'s Goods: ${goods.join(", ") || "none"}`,
            text(14, py + seatH - 48, short(`goods: ${goods.join(", ") || "-"}`, 100), {class: "small"}));
      piece(g, `tomes-${x.seat}`, "tomes", `${x.name}'s Tomes: ${tomes.join(", ") || "none"}; ${(x.tomes_face_down || []).length} face down`,
            text(14, py + seatH - 34, short(`tomes: ${tomes.join(", ") || "-"} (+${(x.tomes_face_down || []).length} face down)`, 100), {class: "small"}));
      piece(g, `nobles-${x.seat}`, "nobles", `${x.name}'s Nobles: ${(x.nobles || []).map((n) => describe(cat, n)).join(", ") || "none"}`,
            text(14, py + seatH - 20, short(`nobles: ${(x.nobles || []).map((n) => describe(cat, n)).join(", ") || "-"}`, 100), {class: "small"}));
    }
  });
  return fit(svg, width, y + 6);
}
