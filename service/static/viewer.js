// The replay viewer (viewer.html): the shell. It loads a game (its export, with a token) or an
// export file, asks Parley for the state at each version as that token (or the chosen seat)
// may see it, and hands it to the ruleset's drawing (boards/<ruleset>.js), which draws only
// what that answer holds. Everything shown comes from a game or an uploaded export, and an
// export can be crafted: game data reaches the page only as text (textContent, or elements
// made with createElement/createElementNS), never as markup (innerHTML and its kin). The
// page's Content-Security-Policy allows no inline script besides.
import * as chrono from "./boards/chrono.js";
import * as corsairs from "./boards/corsairs.js";
import * as league from "./boards/league.js";
import * as tesoros from "./boards/tesoros.js";
import * as valeria from "./boards/valeria.js";

const BOARDS = {"corsairs-of-valeria": corsairs, "league-of-pirates": league, "tesoros-del-rey-pirata": tesoros,
                "chrono-corsairs": chrono, "valeria-card-kingdoms": valeria, "crimson-seas": valeria};

const $ = (id) => document.getElementById(id);
let source = null;   // {kind: "game", id, token} or {kind: "export"}
let doc = null;      // the export shown (fetched with the token, or the file)
let entries = [];    // [{version, type, seat}]
let seats = [];
let content = null;  // the ruleset's content, from the creation record or GameSetUp
let views = new Map();   // version -> the answer for it (as the token or chosen seat sees it)
let asked = 0;           // the latest version asked for: older answers arriving late are dropped
let exportUrl = null;

function fail(message) { $("error").textContent = message; }

function records(d) {
  const out = [];
  for (const e of (d.setup || [])) out.push({version: e.version, type: e.event && e.event.type, seat: null});
  for (const c of (d.commands || [])) {
    const events = c.events || [];
    // Each event with the command behind it: its type (a redacted body has none) and the version
    // it was sent at, the first event's, as a replay's last_command says it.
    const sent = {type: (c.body && c.body.type) || null, version: events.length ? events[0].version : null};
    for (const e of events) out.push({version: e.version, type: e.event && e.event.type, seat: c.seat, sent});
  }
  return out;
}

function contentOf(d) {
  // GameSetUp carries the content the game uses (the reference set when the creation sent none).
  const setUp = (d.setup || []).map((e) => e.event).find((e) => e && typeof e.content === "object" && e.content);
  return (setUp && setUp.content) || (d.creation && d.creation.content) || null;
}

// No token: a public game is read as its spectator (anyone may); any other answers 401.
function authorization(token) {
  return token ? {Authorization: "Bearer " + token} : {};
}

let loading = 0;   // the latest load asked for: an earlier one answering later is dropped

async function loadGame(id, token) {
  const mine = ++loading;
  const headers = authorization(token);
  let r, d;
  try {
    r = await fetch(`/games/${encodeURIComponent(id)}/export`, {headers});
    d = await r.json();
  } catch (err) {
    d = {detail: "The game could not be loaded: " + err.message};
  }
  if (mine !== loading) return;
  if (!r || !r.ok) {
    forget();   // not the game before: its board, and the token its arrow keys used, are gone
    return fail(d.detail || (r && r.statusText) || "The game could not be loaded.");
  }
  source = {kind: "game", id, token};
  $("seat").disabled = true;   // the token decides who is looking
  show(d);
}

// The first version an export hides from its reader (a redacted record, or a command whose body
// is), 1 when its creation hides the table's setup, or null when it hides nothing.
function firstHidden(d) {
  if (!d) return null;
  if (d.creation && d.creation.redacted) return 1;
  const hidden = [...(d.setup || []).filter((e) => e && e.redacted).map((e) => e.version)];
  for (const c of d.commands || []) {
    const events = (c && c.events) || [];
    if (c && c.redacted && events.length) hidden.push(events[0].version);
    hidden.push(...events.filter((e) => e && e.redacted).map((e) => e.version));
  }
  return hidden.length ? Math.min(...hidden) : null;
}

function loadExport(d) {
  ++loading;   // a file chosen while a game was loading: the game's answer is dropped
  // Replay folds the records up to the version shown; one hidden from the export's reader cannot
  // be folded, so such an export replays up to the version before it (docs/disputes.md).
  const first = firstHidden(d);
  const who = d && typeof d.exported_for === "number" ? `seat ${d.exported_for}` : ((d && d.exported_for) || "its reader");
  const rest = "Open the game itself with that token (game id and token above), or load the host's export, " +
               "or any export taken after the end.";
  if (first !== null && first <= 2) {
    forget();
    return fail(`This export hides records from ${who} (the game was still running), so it cannot be replayed ` +
                "here. " + rest);
  }
  source = {kind: "export"};
  $("seat").disabled = false;
  show(d, first === null ? null : first - 1);
  if (first !== null) {
    $("partial").textContent = `This export hides records from ${who} from version ${first} on (the game was ` +
                               `still running): shown up to version ${first - 1}. ` + rest;
    $("partial").hidden = false;
  }
}

// Nothing is shown: a load that failed leaves no earlier game on screen.
function forget() {
  $("viewer").hidden = true;
  source = null;
  doc = null;
  views = new Map();
  ++asked;   // and no answer still on its way is shown
}

function show(d, upTo = null) {
  fail("");
  $("partial").hidden = true;
  doc = d;
  views = new Map();
  entries = records(d).filter((e) => upTo === null || e.version <= upTo);
  content = contentOf(d);
  const creation = d.creation || {};
  seats = (creation.seats || []).map((s) => s.name);
  const last = entries.length ? entries[entries.length - 1].version : (upTo || 1);
  $("title").textContent = `${creation.ruleset || "game"} — ${seats.join(", ")}`;
  $("last").textContent = last;
  $("slider").max = last;
  $("slider").value = last;
  $("timeline").replaceChildren();
  for (const e of entries) {
    const li = document.createElement("li");
    li.value = e.version;
    li.id = "v" + e.version;
    li.textContent = `${e.type || "(hidden)"}${e.seat === null ? "" : " — " + (seats[e.seat] || "seat " + e.seat)}`;
    li.onclick = () => { $("slider").value = e.version; at(e.version); };
    li.tabIndex = 0;   // reachable from the keyboard: Enter or Space jumps as a click does
    li.onkeydown = (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); li.onclick(); }
    };
    $("timeline").appendChild(li);
  }
  if (source.kind === "export") {
    const keep = $("seat").value;
    $("seat").replaceChildren(new Option("everyone (the arbiter)", ""),
                              ...seats.map((name, i) => new Option(`${name} (seat ${i})`, String(i))));
    $("seat").value = seats[Number(keep)] !== undefined ? keep : "";
  }
  showExportLink(d);
  $("viewer").hidden = false;
  verify(d);
  at(last);
}

function showExportLink(d) {
  // The export needs the token in a header, so the link is to the copy this page already holds.
  if (exportUrl) URL.revokeObjectURL(exportUrl);
  exportUrl = URL.createObjectURL(new Blob([JSON.stringify(d, null, 1)], {type: "application/json"}));
  const link = $("export-link");
  link.href = exportUrl;
  link.download = `parley-${d.game_id || "game"}-v${d.version || "export"}.json`;
  link.textContent = source.kind === "game" ? "the game's export" : "the export file";
  $("export-path").textContent = source.kind === "game"
    ? `(GET /games/${source.id}/export${d.complete ? "" : ", as this token may see it"})` : "";
}

async function verify(d) {
  const badge = $("badge");
  badge.className = "badge pending";
  badge.textContent = "verifying…";
  $("divergence").hidden = true;
  let report;
  try {
    const r = await fetch("/verifications", {method: "POST", headers: {"Content-Type": "application/json"},
                                             body: JSON.stringify(d)});
    report = await r.json();
    if (d !== doc) return;
    if (!r.ok) {
      badge.className = "badge unverifiable";
      badge.textContent = "cannot be verified: " + (report.detail || r.statusText);
      return;
    }
  } catch (err) {
    badge.className = "badge unverifiable";
    badge.textContent = "cannot be verified: " + err.message;
    return;
  }
  badge.dataset.verdict = report.verdict;
  if (report.verdict === "valid") {
    badge.className = "badge valid";
    badge.textContent = `✔ valid: every one of ${report.version} records re-adjudicated`;
  } else if (report.verdict === "divergent" && report.divergence) {
    const v = report.divergence;
    badge.className = "badge divergent";
    badge.dataset.version = v.version;
    badge.textContent = `✘ divergent at version ${v.version}`;
    $("divergence-detail").textContent = `${v.check}: ${v.detail}` +
      (v.rule ? ` (${v.rule.code}, ${v.rule.rule}: ${v.rule.detail})` : "");
    $("divergence-recorded").textContent = JSON.stringify(v.recorded, null, 1);
    $("divergence-expected").textContent = JSON.stringify(v.expected, null, 1);
    $("divergence-go").onclick = () => step(v.version - Number($("slider").value));
    $("divergence").hidden = false;
  } else {
    badge.className = "badge incomplete";
    badge.textContent = `incomplete: ${(report.notes || []).join(" ") || "this export withholds what a full check needs"}`;
  }
}

async function fetchView(version) {
  // The answers of the reader asked for: "seen by" changed meanwhile gives `views` a new map,
  // and an answer that arrives late goes into the old one, never the new reader's.
  const cache = views;
  if (cache.has(version)) return cache.get(version);
  let r;
  if (source.kind === "game") {
    r = await fetch(`/games/${encodeURIComponent(source.id)}?version=${version}`,
                    {headers: authorization(source.token)});
  } else {
    const seat = $("seat").value;
    r = await fetch(`/replays?at=${version}${seat === "" ? "" : "&seat=" + seat}`,
                    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(doc)});
  }
  const view = await r.json();
  if (!r.ok) throw new Error(view.detail || r.statusText);
  if (source.kind === "game") {
    const acted = [...entries].reverse().find((e) => e.version <= version && e.seat !== null);
    view.last_command = acted ? {version: acted.sent.version, seat: acted.seat,
                                 body: {type: acted.sent.type || acted.type}} : null;
    view.viewer = view.you;
  }
  cache.set(version, view);
  return view;
}

function diceOf(state) {
  const t = state && (state.turn || (state.challenge && {dice: (state.challenge.players || []).flatMap((p) => p.dice)}));
  return (t && Array.isArray(t.dice)) ? t.dice : [];
}

function perspective(viewer) {
  if (typeof viewer === "number") return `Seen by ${seats[viewer] || "seat " + viewer} (seat ${viewer}): ` +
    "their own hidden things face up, the others' as backs and counts";
  if (viewer === "host" || viewer === "arbiter") return `Seen by the ${viewer}: everything`;
  return "Seen by a spectator: nothing hidden is shown";
}

async function at(version) {
  const mine = ++asked;
  $("at").textContent = version;
  let view, before;
  try {
    // The version before is only compared with: without it nothing is marked as changed.
    [view, before] = await Promise.all([fetchView(version), version > 1 ? fetchView(version - 1).catch(() => null) : null]);
  } catch (err) {
    if (mine === asked) fail(err.message);
    return;
  }
  if (mine !== asked) return;
  fail("");
  const c = view.last_command;
  $("acted").textContent = c ? `${seats[c.seat] || "seat " + c.seat}: ${c.body.type} (version ${c.version})` : "setup";
  $("dice").replaceChildren(...diceOf(view.state).map((d) => {
    const face = document.createElement("span");
    face.textContent = String(d);
    return face;
  }));
  $("status").textContent = `${view.status}${view.phase ? ", phase " + view.phase : ""}` +
    (view.result ? ` — winners: ${(view.result.winners || []).map((w) => seats[w] || w).join(", ") || "none"}` +
      (view.result.reason ? ` (${view.result.reason})` : "") : "");
  $("state").textContent = JSON.stringify(view.state, null, 1);
  $("perspective").textContent = perspective(view.viewer);
  showResult(view.result);
  drawBoard(view, before);
  for (const li of document.querySelectorAll("#timeline li")) li.classList.toggle("current", li.value === version);
  // Scroll the timeline alone to the current event (scrollIntoView would move the page too).
  const current = $("v" + version), list = $("timeline");
  if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  document.body.dataset.shown = String(version);
}

function showResult(result) {
  const ranking = (result && result.ranking) || [];
  $("result-box").hidden = !ranking.length;
  $("result").replaceChildren(...ranking.map((r) => {
    const li = document.createElement("li");
    li.className = "rank";
    li.dataset.rank = r.rank;
    li.textContent = `${ordinal(r.rank)} ${r.name ?? seats[r.seat] ?? "seat " + r.seat}` +
      (r.score === undefined || r.score === null ? "" : ` — ${typeof r.score === "object" ? JSON.stringify(r.score) : r.score}`);
    return li;
  }));
  const solo = result && result.details && result.details.solo;
  if (solo) {   // Valeria solo: the Dark Lord is no seat, so no ranking entry names him (docs/api.md, the result)
    const lord = result.details.dark_lord || {};
    const points = lord.points && typeof lord.points === "object" ? lord.points.total : lord.points;
    const li = document.createElement("li");
    li.className = "opponent";
    li.textContent = `The Dark Lord${points === undefined || points === null ? "" : " — " + points}` +
      ` (the solo game: ${solo === "won" ? "won by " + (seats[0] || "seat 0") : solo === "lost" ? "the Dark Lord wins" : solo})`;
    $("result").prepend(li);
  }
}

function ordinal(n) {
  const s = ["th", "st", "nd", "rd"], v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

function render(view) {
  const module = BOARDS[(doc.creation || {}).ruleset];
  if (!module || !view.state || !Object.keys(view.state).length) return null;
  const names = seats;
  const you = typeof view.viewer === "number" ? view.viewer : null;
  return module.draw(view, {content, names, you, viewer: view.viewer});
}

function drawBoard(view, before) {
  const figure = $("board");
  let svg;
  try {
    svg = render(view);
  } catch (err) {
    figure.replaceChildren(note(`This version could not be drawn (${err.message}); its state is below.`));
    return;
  }
  if (!svg) {
    figure.replaceChildren(note("No picture for this game at this version; its state is below."));
    $("changes").textContent = "";
    return;
  }
  // What changed: the same piece (data-key) with another text equivalent, or a new piece.
  let old = null;
  try { old = before ? render(before) : null; } catch (err) { old = null; }
  const was = new Map();
  if (old) for (const p of old.querySelectorAll(".piece")) was.set(p.dataset.key, p.getAttribute("aria-label"));
  const changed = [];
  if (old) {
    for (const p of svg.querySelectorAll(".piece")) {
      if (was.get(p.dataset.key) !== p.getAttribute("aria-label")) {
        p.classList.add("changed");
        p.setAttribute("aria-label", p.getAttribute("aria-label") + " (changed at this version)");
        changed.push(p.getAttribute("aria-label"));
      }
    }
  }
  // And what is no longer drawn (dice cleared, a card played from a stack): said in words.
  const drawn = new Set([...svg.querySelectorAll(".piece")].map((p) => p.dataset.key));
  const gone = old ? [...was].filter(([key]) => !drawn.has(key)).map(([, label]) => label) : [];
  const events = entries.filter((e) => e.version === view.version).map((e) => e.type || "(hidden)");
  $("changes").textContent = `At version ${view.version}: ${events.join(", ") || "the game was created"}.` +
    (changed.length ? ` Highlighted: ${changed.length} piece${changed.length > 1 ? "s" : ""} changed.` : "") +
    (gone.length ? ` Gone: ${gone.slice(0, 8).join("; ")}${gone.length > 8 ? `; and ${gone.length - 8} more` : ""}.` : "");
  figure.replaceChildren(svg);
}

function note(words) {
  const p = document.createElement("p");
  p.className = "note";
  p.textContent = words;
  return p;
}

function step(by) {
  const slider = $("slider");
  const next = Math.min(Number(slider.max), Math.max(1, Number(slider.value) + by));
  if (next === Number(slider.value)) return;
  slider.value = next;
  at(next);
}

$("slider").addEventListener("input", (e) => at(Number(e.target.value)));
document.addEventListener("keydown", (e) => {
  if ($("viewer").hidden || e.altKey || e.ctrlKey || e.metaKey) return;
  // The slider steps itself with the arrows; text fields and lists keep theirs.
  if (e.target === $("slider") || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  if (e.key === "ArrowLeft") { e.preventDefault(); step(-1); }
  if (e.key === "ArrowRight") { e.preventDefault(); step(1); }
});
$("load").addEventListener("click", () => loadGame($("game").value.trim(), $("token").value.trim()));
$("seat").addEventListener("change", () => { views = new Map(); if (doc) at(Number($("slider").value)); });
$("file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  try { loadExport(JSON.parse(await file.text())); } catch (err) { forget(); fail("Not an export file: " + err.message); }
});
const params = new URLSearchParams(location.search);
if (params.get("game")) {
  $("game").value = params.get("game");
  $("token").value = params.get("token") || "";
  loadGame(params.get("game"), params.get("token") || "");
}
