"use strict";
// The replay viewer (viewer.html). Everything shown comes from a game or an uploaded export,
// and an export can be crafted: game data reaches the page only as text (textContent, or
// elements made with createElement), never as markup (innerHTML and its kin). The page's
// Content-Security-Policy allows no inline script besides.
const $ = (id) => document.getElementById(id);
let source = null;   // {kind: "game", id, token} or {kind: "export", doc}
let entries = [];    // [{version, type, seat}]
let seats = [];

function fail(message) { $("error").textContent = message; }

function records(doc) {
  const out = [];
  for (const e of (doc.setup || [])) out.push({version: e.version, type: e.event && e.event.type, seat: null});
  for (const c of (doc.commands || [])) {
    for (const e of c.events || []) out.push({version: e.version, type: e.event && e.event.type, seat: c.seat});
  }
  return out;
}

async function loadGame(id, token) {
  const headers = {Authorization: "Bearer " + token};
  const r = await fetch(`/games/${encodeURIComponent(id)}/export`, {headers});
  const doc = await r.json();
  if (!r.ok) return fail(doc.detail || r.statusText);
  source = {kind: "game", id, token};
  show(doc);
}

function loadExport(doc) { source = {kind: "export", doc}; show(doc); }

function show(doc) {
  fail("");
  entries = records(doc);
  const creation = doc.creation || {};
  seats = (creation.seats || []).map((s) => s.name);
  const last = entries.length ? entries[entries.length - 1].version : 1;
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
    $("timeline").appendChild(li);
  }
  $("viewer").hidden = false;
  at(last);
}

function diceOf(state) {
  const t = state && (state.turn || (state.challenge && {dice: (state.challenge.players || []).flatMap((p) => p.dice)}));
  return (t && Array.isArray(t.dice)) ? t.dice : [];
}

async function at(version) {
  $("at").textContent = version;
  let view;
  if (source.kind === "game") {
    const r = await fetch(`/games/${encodeURIComponent(source.id)}?version=${version}`,
                          {headers: {Authorization: "Bearer " + source.token}});
    view = await r.json();
    if (!r.ok) return fail(view.detail || r.statusText);
    const acted = [...entries].reverse().find((e) => e.version <= version && e.seat !== null);
    view.last_command = acted ? {version: acted.version, seat: acted.seat, body: {type: acted.type}} : null;
  } else {
    const r = await fetch(`/replays?at=${version}`, {method: "POST", headers: {"Content-Type": "application/json"},
                                                     body: JSON.stringify(source.doc)});
    view = await r.json();
    if (!r.ok) return fail(view.detail || r.statusText);
  }
  const c = view.last_command;
  $("acted").textContent = c ? `${seats[c.seat] || "seat " + c.seat}: ${c.body.type} (version ${c.version})` : "setup";
  $("dice").replaceChildren(...diceOf(view.state).map((d) => {
    const face = document.createElement("span");
    face.textContent = String(d);
    return face;
  }));
  $("status").textContent = `${view.status}${view.phase ? ", phase " + view.phase : ""}` +
    (view.result ? ` — winners: ${(view.result.winners || []).map((w) => seats[w] || w).join(", ")}` : "");
  $("state").textContent = JSON.stringify(view.state, null, 1);
  for (const li of document.querySelectorAll("#timeline li")) li.classList.toggle("current", li.value === version);
  const current = $("v" + version);
  if (current) current.scrollIntoView({block: "nearest"});
}

$("slider").addEventListener("input", (e) => at(Number(e.target.value)));
$("load").addEventListener("click", () => loadGame($("game").value.trim(), $("token").value.trim()));
$("file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  try { loadExport(JSON.parse(await file.text())); } catch (err) { fail("Not an export file: " + err.message); }
});
const params = new URLSearchParams(location.search);
if (params.get("game") && params.get("token")) {
  $("game").value = params.get("game");
  $("token").value = params.get("token");
  loadGame(params.get("game"), params.get("token"));
}
