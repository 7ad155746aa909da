// The table page: the position, whose turn it is, the totals, and entry by tapping (each game's
// controls below build the prompt's notation in the entry box; Enter sends it). The referee on the
// server decides everything: a refused entry comes back with the rule it breaks and nothing changes.
"use strict";

const RID = decodeURIComponent(location.pathname.split("/").pop());
const BASE = "/api/records/" + encodeURIComponent(RID);
const $ = (id) => document.getElementById(id);

let table = null;          // what /table said last
let zoom = 1;
let game = null;           // the game's controls (below)
let sending = false;
let basis = null;          // the table as it was when the move in hand was begun: {entries, version}
let polling = null;        // a timer asking for changes, where event streams are not to be had
let held = null;           // a move refused as stale, kept: sent again only by its own button
let undoSeen = null;       // what Undo offered before another phone changed the game: {number, version, until}
let cutOff = false;        // the last request found no referee (its line is taken down once one answers)
let missed = null;         // a change announced while this phone was writing: looked at after
const picture = {version: null, pieces: null, url: null, asked: null};   // the position, as this phone holds it
// A tap on Undo this soon after another phone took an entry back is taken as meant for what Undo
// offered before (the person saw that): two phones undoing one mistake take back one entry. After
// another phone's new entry, a tap sooner than a person can read it is meant for the one before.
const SETTLE = 2500, GLANCE = 600;        // ms

// ------------------------------------------------------------------ the record, kept up to date

async function refresh(force) {
  const res = await api(BASE + "/table");
  if (!res.ok) {
    $("live").textContent = res.status === 0 ? "offline" : "not live"; $("live").className = "live";
    say($("message"), res.data ? res.data.error : "cannot read the game", "bad");
    cutOff = true;
    return;
  }
  await adopt(res.data, force, false);
}

// The table as the server says it is now; `mine`: this phone's own entry or undo made it.
async function adopt(data, force, mine) {
  if (cutOff) {            // the referee answers again: the line saying it could not be reached goes
    cutOff = false;
    say($("message"), $("entry").value.trim() ? "The referee answers again. Your move is kept: tap Enter to send it." : "");
  }
  const before = table;
  const changed = !table || data.version !== table.version || force;
  table = data;
  if (!changed) return;
  if (!makeControls) {
    try { await loadControls(table.controls_script); }
    catch (e) { say($("message"), e.message + ": reload the page", "bad"); return; }
  }
  if (before && before.version !== table.version) {
    $("happened").textContent = happened(before, table, mine);
    if (!mine) undoSeen = {number: before.last ? before.last.number : 0, version: before.version,
                           until: Date.now() + (table.entries < before.entries ? SETTLE : GLANCE)};
  }
  render();
  if (basis && basis.version !== table.version && !mine) say($("message"), changedSince(basis) +
      " Your move was begun before that: check it before you send it.", "warn");
}

// The line every phone shows for the last change (a glance tells the next player what happened).
function happened(before, now, mine) {
  const where = mine ? "" : " on another phone";
  if (now.entries > before.entries && now.last) return "Entry " + now.last.number + where + ": " + now.last.text;
  if (now.entries < before.entries && before.last) return "Taken back" + where + ": entry " + before.last.number + " (" + before.last.text + ")";
  return now.last ? "Entry " + now.last.number + ": " + now.last.text : "";
}

// What another phone (or a prompt) did since `before` was seen, in the log's own words.
function changedSince(before) {
  const n = table.entries - before.entries;
  if (n > 0 && n <= table.log.length) return "Entered meanwhile on another phone: " + table.log.slice(-n).map(short).join("; ") + ".";
  if (n > 0) return plural(n, "entry", "entries") + " entered meanwhile on another phone.";
  return "The game changed meanwhile on another phone (an entry was taken back): " + plural(table.entries, "entry", "entries") + " now.";
}

// A log line without its running totals ("Ann plays GO   [Ann: 0 miles]" -> "Ann plays GO").
function short(line) { return line.trim().split(/\s{2,}\[/)[0].replace(/^\d+\.\s+/, ""); }

function render() {
  const t = table;
  document.title = t.title + ": " + t.prompt;
  $("title").textContent = t.title + " ";
  $("title").append(el("span", {class: "hint", text: plural(t.entries, "entry", "entries")}));
  const winner = t.summary.winner;
  const opening = /^opening (\d+)\/(\d+)$/.exec(t.prompt);
  const colours = (t.controls && t.controls.player_colours) || {};
  $("turn").replaceChildren();
  const mover = Object.keys(colours).find((who) => t.prompt.startsWith(who));
  if (!t.over && mover) $("turn").append(swatch(colours[mover]));
  $("turn").append(t.over ? (winner ? "Winner: " + winner : t.final) :
    opening ? "Opening tile " + opening[1] + " of " + opening[2] : t.prompt + " to play");
  $("turn").className = "turn" + (t.over ? " over" : "");
  const totals = $("totals");
  totals.replaceChildren();
  for (const [who, v] of Object.entries(t.summary.totals || {})) {
    totals.append(el("span", {class: "chip" + (t.prompt.startsWith(who) ? " now" : "")},
                     colours[who] ? swatch(colours[who]) : null, who + " " + v));
  }
  showPosition();
  const back = $("background");
  if (t.background) {
    if (back.getAttribute("src") !== t.background) back.src = t.background;   // fetched once, cached
    back.hidden = false;
  } else back.hidden = true;
  $("board").style.setProperty("--aspect", String(t.drawing.width / t.drawing.height));   // the stage inherits it
  $("overlay").setAttribute("viewBox", "0 0 " + t.drawing.width + " " + t.drawing.height);
  $("overlay").setAttribute("preserveAspectRatio", "none");
  $("log").textContent = t.log.join("\n") || "(no entry yet)";
  $("help").textContent = t.help;
  $("undo-what").textContent = t.last ? "Undo takes back entry " + t.last.number + ": " + t.last.text : "Nothing to undo yet.";
  $("undo").disabled = !t.last;
  if (!game) {
    game = makeControls();
    setZoom(startZoom());
  }
  $("hint-button").hidden = !game.hint;
  if (game.hint) $("hint-button").textContent = game.hintLabel;
  game.render(t);
  drawOverlay();
}

// A phone on its side shows the whole board (zoom 1); upright, a wide board (the Capitals map)
// starts zoomed in, as its game says.
const SIDEWAYS = window.matchMedia("(orientation: landscape) and (min-width: 560px)");
function startZoom() { return SIDEWAYS.matches ? 1 : (game && game.zoom) || 1; }
SIDEWAYS.addEventListener("change", () => setZoom(startZoom()));

// The position, as edits of the one this phone holds: only what changed comes (the moved men, the
// new tile), and the picture is made here.
async function showPosition() {
  const want = table.version;
  if (picture.version === want || picture.asked === want) return;
  picture.asked = want;
  const res = await api(BASE + "/position.edits?from=" + encodeURIComponent(picture.version || ""));
  if (!res.ok || !table || res.data.version !== table.version) { picture.asked = null; return; }
  const old = res.data.from === picture.version ? picture.pieces || [] : [];
  const pieces = [];
  for (const e of res.data.edits) {
    if (e[0] === "=") for (let i = e[1]; i < e[2]; i++) pieces.push(old[i]);
    else for (const p of e[1]) pieces.push(p);
  }
  const url = URL.createObjectURL(new Blob(pieces, {type: "image/svg+xml"}));
  const img = $("position"), was = picture.url;
  img.addEventListener("load", () => { if (was) URL.revokeObjectURL(was); }, {once: true});
  img.src = url;
  Object.assign(picture, {version: res.data.version, pieces: pieces, url: url, asked: null});
}

function swatch(colour) { const s = el("span", {class: "swatch"}); s.style.background = colour; return s; }

function listen() {
  if (!window.EventSource) return poll();
  const events = new EventSource(BASE + "/events");
  events.addEventListener("change", (e) => {
    let seen = null;
    try { seen = JSON.parse(e.data).version; } catch (err) { seen = null; }
    if (sending) { missed = seen || "?"; return; }         // this phone's own answer is on its way
    if (!seen || !table || seen !== table.version) refresh(false);
  });
  events.addEventListener("gone", () => { events.close(); say($("message"), "this game's record is gone from the folder", "bad"); });
  events.onopen = () => { $("live").textContent = "live"; $("live").className = "live on"; refresh(false); };
  // (a "Not sent" line is taken down by the first answer after the referee is back: see adopt)
  events.onerror = () => {
    $("live").textContent = "reconnecting"; $("live").className = "live";
    if (events.readyState === EventSource.CLOSED) poll();     // refused (too many phones): ask every few seconds
  };
}

function poll() {
  if (polling) return;
  $("live").textContent = "every 3 s"; $("live").className = "live";
  polling = setInterval(() => refresh(false), 3000);
}

// ------------------------------------------------------------------ entering

// A move is begun at the first tap on the controls or the board, or the first letter typed: from
// then on it is sent against the game as it stood then, so an entry made meanwhile on another phone
// makes it stale (refused, and the change shown) instead of turning it into the next player's move.
function begin() { if (!basis && table) basis = {entries: table.entries, version: table.version}; }
function forget() { basis = null; }

async function send(text) {
  if (sending) return;
  text = text.trim();
  if (!text) return;
  if (text === "undo") return undo();
  if (held) {         // refused as stale: only its own button sends it again, never a second Enter
    say($("message"), held.line + "\nNot sent again: tap \u201c" + $("send-held").textContent + "\u201d if you mean it, or Clear.", "bad");
    return;
  }
  begin();
  await write(text, {entry: text, expect: basis.entries, version: basis.version});
}

// An entry (or a move kept after a stale refusal, by its own button) sent, and the answer shown.
async function write(text, body) {
  sending = true;
  $("enter").disabled = true;
  const seen = basis;
  try {
    const res = await api(BASE + "/entries", body);
    if (res.ok) {
      $("entry").value = "";
      forget();
      if (game.reset) game.reset();
      $("hints").replaceChildren();
      await adopt(res.data.table, true, true);
      say($("message"), res.data.said || "accepted", "good");
    } else if (res.status === 0) {
      say($("message"), "Not sent: " + res.data.error + " Your move is kept: tap Enter to send it again.", "bad");
      cutOff = true;
    } else if (res.status === 409) {
      // The rule's first words as the prompt says them, then what changed, in the log's words.
      const head = ((res.data && res.data.error) || "refused (stale journal)").split(":")[0];
      await refresh(true);
      hold(text, head + ": not sent. " + changedSince(seen));
    } else {
      say($("message"), res.data ? res.data.error : "refused (" + res.status + ")", "bad");
    }
    $("message").scrollIntoView({block: "nearest"});
  } finally {
    sending = false;
    $("enter").disabled = !!held;
    if (missed) { const m = missed; missed = null; if (m === "?" || !table || m !== table.version) refresh(false); }
  }
}

// A move refused as stale stays in the box; sending it as it stands now is its own, deliberate
// button, which says whose move it becomes.
function hold(text, line) {
  held = {text: text, line: line};
  const who = moverOf(table);
  $("send-held").textContent = "Enter as " + who;
  $("held").hidden = false;
  $("enter").disabled = true;
  say($("message"), line + "\nYour move is kept. If it still stands, tap \u201cEnter as " + who + "\u201d; or Clear.", "bad");
}

// The kept move let go: changed by hand (so begun again, against the game as it stands), cleared,
// or sent by its own button.
function release() {
  if (!held) return;
  held = null;
  $("held").hidden = true;
  $("enter").disabled = sending;
  if (table) basis = {entries: table.entries, version: table.version};
}

// Whose move the table is waiting for, in a few words ("Bob's move", "the opening tile").
function moverOf(t) {
  const opening = /^opening (\d+)\/(\d+)$/.exec(t.prompt);
  if (opening) return "opening tile " + opening[1];
  return t.prompt.replace(/\s*\(.*\)$/, "") + "\u2019s move";
}

async function sendHeld() {
  if (!held || sending) return;
  const text = held.text;
  release();                  // the game as it stands now is the one it is sent against
  await write(text, {entry: text, expect: basis.entries, version: basis.version});
}

async function undo() {
  if (sending || !table) return;
  // What the person saw Undo offer: the entry shown before another phone changed the game, if
  // that was only a moment ago; else the one shown now.
  let target = table.last ? {number: table.last.number, version: table.version} : null;
  if (undoSeen && Date.now() < undoSeen.until) target = {number: undoSeen.number, version: undoSeen.version};
  if (!target) return;
  sending = true;
  $("undo").disabled = true;
  try {
    const res = await api(BASE + "/undo", {entry: target.number, version: target.version});
    if (res.ok) {
      await adopt(res.data.table, true, true);
      if (basis) basis = {entries: table.entries, version: table.version};   // this phone's own change: seen
      say($("message"), res.data.said || "undone", "good");
    } else if (res.status === 0) {
      say($("message"), "Not undone: " + res.data.error + " Tap Undo to try again.", "bad");
      cutOff = true;
    } else {
      if (res.status === 409) await refresh(true);
      const now = table && table.last ? "\nUndo now takes back entry " + table.last.number + ": " + table.last.text + "." : "";
      say($("message"), (res.data ? res.data.error : "refused") + (res.status === 409 ? now : ""), "bad");
    }
    undoSeen = null;
  } finally {
    sending = false;
    $("undo").disabled = !(table && table.last);
    if (missed) { const m = missed; missed = null; if (m === "?" || !table || m !== table.version) refresh(false); }
  }
}

function setEntry(text) {
  if (text) begin();
  if (text !== $("entry").value) release();
  $("entry").value = text;
  showWhole();
  drawOverlay();
}

// A move longer than its box is shown whole above it (a Capitals turn: "Honduras M1E1; ...").
function showWhole() {
  const box = $("entry");
  $("entry-whole").textContent = box.value && box.scrollWidth > box.clientWidth + 1 ? box.value : "";
}

async function hint(kind, arg) {
  const res = await api(BASE + "/hint/" + kind + "?arg=" + encodeURIComponent(arg));
  if (!res.ok) { say($("message"), res.data ? res.data.error : "no hint", "bad"); return null; }
  return res.data;
}

// ------------------------------------------------------------------ the position: zoom, taps, overlay

function setZoom(z) {
  zoom = Math.max(1, Math.min(5, z));
  // At 1 the page's own style sizes the board (on a phone on its side: the whole board in view).
  if (zoom === 1) $("stage").style.removeProperty("width");
  else $("stage").style.width = (zoom * 100) + "%";
}

function svgPoint(event) {
  const svg = $("overlay");
  const pt = svg.createSVGPoint();
  pt.x = event.clientX; pt.y = event.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function drawOverlay() {
  const svg = $("overlay");
  svg.replaceChildren();
  if (game && game.overlay) game.overlay(svg, table);
}

function scrollBoardTo(x, y) {
  // x, y in drawing mm: bring that point to the middle of the board's window
  const board = $("board"), img = $("position");
  const sx = x / table.drawing.width * img.clientWidth, sy = y / table.drawing.height * img.clientHeight;
  board.scrollTo({left: sx - board.clientWidth / 2, top: sy - board.clientHeight / 2, behavior: "smooth"});
}

// ------------------------------------------------------------------ the games' controls

function section(title, ...children) {
  return el("div", {}, el("label", {text: title}), ...children);
}

// Each game's controls live in its own folder (generator/games/GAME/web.js), loaded for the game
// this page shows; the script calls registerControls with a function that makes them.
let makeControls = null;
function registerControls(make) { makeControls = make; }

function loadControls(url) {
  return new Promise((resolve, reject) => {
    const script = el("script", {src: url});
    script.onload = () => (makeControls ? resolve() : reject(new Error("the game's controls did not load")));
    script.onerror = () => reject(new Error("cannot load the game's controls"));
    document.head.append(script);
  });
}

// ------------------------------------------------------------------ wiring

$("entry-form").addEventListener("submit", (e) => { e.preventDefault(); send($("entry").value); });
$("entry").addEventListener("input", () => { release(); if ($("entry").value.trim()) begin(); showWhole(); drawOverlay(); });
$("send-held").addEventListener("click", sendHeld);
for (const id of ["controls", "board", "hints"]) $(id).addEventListener("click", begin, true);
$("undo").addEventListener("click", undo);
$("clear").addEventListener("click", () => { if (game && game.reset) game.reset(); setEntry(""); release(); forget(); $("hints").replaceChildren();
                                              say($("message"), ""); if (game) game.render(table); });
$("hint-button").addEventListener("click", () => game && game.hint && game.hint());
$("zoom-in").addEventListener("click", () => setZoom(zoom + 0.75));
$("zoom-out").addEventListener("click", () => setZoom(zoom - 0.75));
$("overlay").addEventListener("click", (e) => { if (game && game.tap) game.tap(svgPoint(e)); });
// Whatever is scrolled into view (a tapped button, a message) stops above the bar at the foot.
if (window.ResizeObserver) {
  new ResizeObserver(() => {
    document.documentElement.style.scrollPaddingBottom = ($("sendbar").offsetHeight + 8) + "px";
  }).observe($("sendbar"));
}
refresh(true).then(listen);
