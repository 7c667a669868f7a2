// Shared SVG helpers for the replay viewer's board drawings (service/static/boards/*.js).
// Game data reaches the picture only as text (textContent) and attribute values set one by
// one (setAttribute): never as markup. Every piece is a <g class="piece KIND"> with a stable
// data-key, a <title> and an aria-label; the viewer compares the labels of the same keys at
// two versions to mark what changed, so a label says everything the piece shows.
export const NS = "http://www.w3.org/2000/svg";

// Seat colours: the ruleset's own colour name when it has one, else by seat number.
const PALETTE = ["#c0392b", "#2e86c1", "#27ae60", "#d4a017", "#8e44ad", "#e67e22"];
const NAMED = {red: "#c0392b", blue: "#2e86c1", green: "#27ae60", yellow: "#d4a017", purple: "#8e44ad",
               orange: "#e67e22", brown: "#8d5524", white: "#f4f4f4", grey: "#8a8a8a", gray: "#8a8a8a",
               black: "#222222"};

export function seatColour(seat, name) {
  return NAMED[String(name || "").toLowerCase()] || PALETTE[Number(seat) % PALETTE.length] || "#777";
}

export function el(name, attrs = {}, ...children) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

export function text(x, y, words, attrs = {}) {
  const t = el("text", {x, y, ...attrs});
  t.textContent = String(words);
  return t;
}

/** A titled group (an area of the table: a track, a seat's tableau, a stack row). */
export function group(label, attrs = {}) {
  const g = el("g", {role: "group", "aria-label": label, ...attrs});
  const title = el("title");
  title.textContent = label;
  g.appendChild(title);
  return g;
}

/** One piece: label is its text equivalent (title and aria-label) and what "changed" compares. */
export function piece(parent, key, kind, label, ...shapes) {
  const g = el("g", {class: "piece " + kind, "data-key": key, role: "img", "aria-label": label});
  const title = el("title");
  title.textContent = label;
  g.appendChild(title);
  for (const s of shapes) if (s) g.appendChild(s);
  parent.appendChild(g);
  return g;
}

export function svgRoot(ruleset, width, height, label) {
  const svg = el("svg", {class: "board " + ruleset, viewBox: `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`,
                         role: "group", "aria-label": label, xmlns: NS});
  const title = el("title");
  title.textContent = label;
  svg.appendChild(title);
  svg.appendChild(el("rect", {class: "table", x: 0, y: 0, width: Math.ceil(width), height: Math.ceil(height)}));
  return svg;
}

/** Resize the picture once its height is known (drawn top to bottom). */
export function fit(svg, width, height) {
  svg.setAttribute("viewBox", `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`);
  svg.querySelector("rect.table").setAttribute("height", Math.ceil(height));
  return svg;
}

/** A die: its face as text (symbols and numbers alike). */
export function die(parent, key, x, y, face, label) {
  const w = dieWidth(face);
  return piece(parent, key, "die", label || `die showing ${face}`,
               el("rect", {x, y, width: w, height: 30, rx: 5, class: "die-face"}),
               text(x + w / 2, y + 19, short(face, 9), {"text-anchor": "middle", class: "die-text"}));
}

/** Numbers fit a square die; a symbol's name (SKULL_GROG) needs a wider one. */
export function dieWidth(face) {
  return String(face ?? "").length > 2 ? 60 : 30;
}

/** A card face up (its name shown) or a back (label says whose and why it is hidden). */
export function card(parent, key, x, y, w, h, name, label, {back = false, seat = null, kind = "card", lines = 3} = {}) {
  const g = piece(parent, key, `${kind} ${back ? "back" : "face-up"}`, label,
                  el("rect", {x, y, width: w, height: h, rx: 4, class: back ? "card-back" : "card-face"}));
  if (seat !== null) g.setAttribute("data-seat", seat);
  if (!back) wrapText(g, x + 3, y + 12, w - 6, name, lines);
  return g;
}

/** A labelled counter (silver: 3): a small token with its number. */
export function counter(parent, key, x, y, name, value, label, colour = "#fff") {
  return piece(parent, key, "counter", label || `${name}: ${value}`,
               el("rect", {x, y, width: 84, height: 20, rx: 10, fill: colour, class: "counter-body"}),
               // 84px holds about 13 characters of the 10px text: the name takes what the value leaves
               text(x + 42, y + 14, `${short(name, Math.max(4, 12 - String(value).length))} ${value}`,
                    {"text-anchor": "middle", class: "small"}));
}

export function short(words, n) {
  const s = String(words ?? "");
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}

/** One line in a box of about `room` characters of the small text: a size smaller up to room + 2,
 * cut short beyond (the piece's label and title carry the whole words). */
export function fitted(x, y, words, room, attrs = {}) {
  const s = String(words ?? "");
  const tight = s.length > room;
  return text(x, y, short(s, tight ? room + 2 : room), {...attrs, class: tight ? "small tight" : "small"});
}

/** Up to `lines` lines of text fitted (roughly, 0.62 of the size a character) into width w. The
 * size is the text's own (class `wrapped` sets none: `.small`'s 10px would override it); `attrs`
 * go on every line (a centred label: {"text-anchor": "middle"}). Returns how many lines it drew. */
export function wrapText(parent, x, y, w, words, lines = 2, size = 9, attrs = {}) {
  const per = Math.max(3, Math.floor(w / (size * 0.62)));
  const out = [];
  let line = "";
  for (const word of String(words ?? "").split(/\s+/)) {
    if ((line + " " + word).trim().length > per && line) { out.push(line); line = word; } else line = (line + " " + word).trim();
  }
  if (line) out.push(line);
  out.slice(0, lines).forEach((l, i) => parent.appendChild(
    text(x, y + i * (size + 2), i === lines - 1 && out.length > lines ? short(l, per) + "…" : short(l, per),
         {...attrs, class: "wrapped", "font-size": size})));
  return Math.min(out.length, lines);
}

export function nameOf(ctx, seat) {
  return (ctx.names && ctx.names[seat]) || `seat ${seat}`;
}

/** "Anne (seat 0)" and whether this is the viewer's own seat. */
export function whose(ctx, seat) {
  return `${nameOf(ctx, seat)} (seat ${seat}${ctx.you === seat ? ", you" : ""})`;
}

export function count(list) {
  return Array.isArray(list) ? list.length : Number(list) || 0;
}
