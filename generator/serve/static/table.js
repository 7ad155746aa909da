// The table page: the position, whose turn it is, the totals, and entry by tapping (each game's
// controls below build the prompt's notation in the entry box; Enter sends it). The referee on the
// server decides everything: a refused entry comes back with the rule it breaks and nothing changes.
"use strict";

const RID = decodeURIComponent(location.pathname.split("/").pop());
const BASE = "/api/records/" + encodeURIComponent(RID);
const TITLES = {"mille-bornes": "Mille Bornes", "continuo": "Continuo", "count-continuo": "Count continuo",
                "cubes": "Cubes", "sorry": "Sorry", "capitals": "Capitals"};
const $ = (id) => document.getElementById(id);

let table = null;          // what /table said last
let zoom = 1;
let game = null;           // the game's controls (below)
let sending = false;
let basis = null;          // the table as it was when the move in hand was begun: {entries, version}
let polling = null;        // a timer asking for changes, where event streams are not to be had

// ------------------------------------------------------------------ the record, kept up to date

async function refresh(force) {
  const res = await api(BASE + "/table");
  if (!res.ok) {
    $("live").textContent = res.status === 0 ? "offline" : "not live"; $("live").className = "live";
    say($("message"), res.data ? res.data.error : "cannot read the game", "bad");
    return;
  }
  const changed = !table || res.data.version !== table.version || force;
  table = res.data;
  if (!changed) return;
  render();
  if (basis && basis.version !== table.version) say($("message"), changedSince(basis) +
      " Your move was begun before that: check it before you send it.", "warn");
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
  document.title = (TITLES[t.game] || t.game) + ": " + t.prompt;
  $("title").textContent = (TITLES[t.game] || t.game) + " ";
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
  const img = $("position");
  img.src = BASE + "/position.svg?v=" + encodeURIComponent(t.version);
  const back = $("background");
  if (t.background) {
    if (back.getAttribute("src") !== t.background) back.src = t.background;   // fetched once, cached
    back.hidden = false;
  } else back.hidden = true;
  $("stage").style.setProperty("--aspect", String(t.drawing.width / t.drawing.height));
  $("overlay").setAttribute("viewBox", "0 0 " + t.drawing.width + " " + t.drawing.height);
  $("overlay").setAttribute("preserveAspectRatio", "none");
  $("log").textContent = t.log.join("\n") || "(no entry yet)";
  $("help").textContent = t.help;
  $("undo-what").textContent = t.last ? "Undo takes back entry " + t.last.number + ": " + t.last.text : "Nothing to undo yet.";
  $("undo").disabled = !t.last;
  if (!game || game.name !== family(t.game)) {
    game = GAMES[family(t.game)]();
    game.name = family(t.game);
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

function swatch(colour) { const s = el("span", {class: "swatch"}); s.style.background = colour; return s; }

function family(id) { return id === "count-continuo" ? "continuo" : id; }

function listen() {
  if (!window.EventSource) return poll();
  const events = new EventSource(BASE + "/events");
  events.addEventListener("change", () => refresh(false));
  events.addEventListener("gone", () => { events.close(); say($("message"), "this game's record is gone from the folder", "bad"); });
  events.onopen = () => { $("live").textContent = "live"; $("live").className = "live on"; refresh(false); };
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
  begin();
  sending = true;
  $("enter").disabled = true;
  try {
    const seen = basis;
    const res = await api(BASE + "/entries", {entry: text, expect: seen.entries, version: seen.version});
    if (res.ok) {
      $("entry").value = "";
      forget();
      if (game.reset) game.reset();
      $("hints").replaceChildren();
      await refresh(true);
      say($("message"), res.data.said || "accepted", "good");
    } else if (res.status === 0) {
      say($("message"), "Not sent: " + res.data.error + " Your move is kept: tap Enter to send it again.", "bad");
    } else if (res.status === 409) {
      // The rule's first words as the prompt says them, then what changed, in the log's words.
      const head = ((res.data && res.data.error) || "refused (stale journal)").split(":")[0];
      await refresh(true);
      say($("message"), head + ": not sent. " + changedSince(seen) + "\nYour move is kept: Enter sends it as it stands now, or Clear.", "bad");
      basis = {entries: table.entries, version: table.version};      // seen now: the next Enter sends it
    } else {
      say($("message"), res.data ? res.data.error : "refused (" + res.status + ")", "bad");
    }
    $("message").scrollIntoView({block: "nearest"});
  } finally {
    sending = false;
    $("enter").disabled = false;
  }
}

async function undo() {
  if (sending || !table) return;
  sending = true;
  $("undo").disabled = true;
  try {
    const res = await api(BASE + "/undo", {expect: table.entries, version: table.version});
    if (res.ok) { await refresh(true); say($("message"), res.data.said || "undone", "good"); }
    else if (res.status === 0) say($("message"), "Not undone: " + res.data.error + " Tap Undo to try again.", "bad");
    else {
      if (res.status === 409) await refresh(true);
      say($("message"), res.data ? res.data.error : "refused", "bad");
    }
  } finally { sending = false; $("undo").disabled = !(table && table.last); }
}

function setEntry(text) {
  if (text) begin();
  $("entry").value = text;
  drawOverlay();
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

const GAMES = {
  // Continuo: a tile (its number), its turn, then a tap where its middle goes.
  continuo() {
    const g = {hint: true, hintLabel: "Best places", tile: null, rotation: 0, at: null};
    g.render = (t) => {
      const c = t.controls;
      g.c = c;
      const box = $("controls");
      box.replaceChildren();
      const tiles = el("div", {class: "tiles"});
      for (const tile of c.tiles) {
        const b = el("button", {type: "button", "data-tile": tile.number, disabled: tile.used,
                                class: g.tile === tile.number ? "on" : "", "aria-label": "tile " + tile.number,
                                onclick: () => { g.tile = tile.number; compose(); g.render(table); }},
                     tileSvg(tile.rows, c.colours, 0), el("span", {text: String(tile.number)}));
        tiles.append(b);
      }
      const rot = el("div", {class: "row"});
      for (const r of [0, 90, 180, 270]) {
        rot.append(el("button", {type: "button", class: "quiet small" + (g.rotation === r ? " on" : ""),
                                 "data-rotation": r, onclick: () => { g.rotation = r; compose(); g.render(table); }},
                      r + "\u00B0"));
      }
      const chosen = g.tile ? c.tiles[g.tile - 1] : null;
      if (chosen) rot.append(el("span", {class: "chosen"}, tileSvg(chosen.rows, c.colours, g.rotation, 56)));
      box.append(section((c.opening ? "Opening tile" : "Tile") + ": tap a number, turn it, then tap the board where its middle goes",
                         tiles), section("Turn", rot));
    };
    g.tap = (p) => {
      const grid = g.c.grid;
      const u = (p.x - grid.x0) / grid.cell + grid.col0, v = (p.y - grid.y0) / grid.cell + grid.row0;
      g.at = [Math.round(v - 2), Math.round(u - 2)];
      compose();
    };
    function compose() {
      if (!g.tile || !g.at) { drawOverlay(); return; }
      setEntry((g.c.opening ? "open " : "") + g.tile + " " + g.at[0] + "," + g.at[1] + (g.rotation ? " " + g.rotation : ""));
    }
    g.reset = () => { g.tile = null; g.at = null; g.rotation = 0; };
    g.overlay = (svg) => {
      const m = /^(?:open\s+)?(\d+)\s+(-?\d+),(-?\d+)(?:\s+r?(\d+))?$/.exec($("entry").value.trim());
      if (!m || !g.c.tiles[m[1] - 1]) return;
      const grid = g.c.grid, rows = turn(g.c.tiles[m[1] - 1].rows, Number(m[4] || 0));
      const x = grid.x0 + (Number(m[3]) - grid.col0) * grid.cell, y = grid.y0 + (Number(m[2]) - grid.row0) * grid.cell;
      for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) {
        svg.append(svgEl("rect", {x: x + k * grid.cell, y: y + r * grid.cell, width: grid.cell, height: grid.cell,
                                  fill: g.c.colours[rows[r][k]], "fill-opacity": 0.75}));
      }
      svg.append(svgEl("rect", {x: x, y: y, width: 4 * grid.cell, height: 4 * grid.cell, fill: "none",
                                stroke: "#000", "stroke-width": 0.8, "stroke-dasharray": "2 1"}));
    };
    g.hint = async () => {
      if (!g.tile) return say($("message"), "tap a tile first, then Best places", "bad");
      const h = await hint("best", String(g.tile));
      if (!h) return;
      const list = $("hints");
      list.replaceChildren(el("div", {class: "hint", text: h.text.split("\n")[0]}));
      for (const p of h.placements.slice(0, 10)) {
        list.append(el("button", {type: "button", class: "quiet", onclick: () => {
          g.at = p.at; g.rotation = p.rotation; compose(); g.render(table);
        }}, p.score + " points: at " + p.at[0] + "," + p.at[1] + (p.rotation ? ", turned " + p.rotation : "")));
      }
    };
    return g;
  },

  // Sorry: the card turned up, then one of the moves the referee lists for it.
  sorry() {
    const g = {hint: false};
    g.render = (t) => {
      const c = t.controls;
      const box = $("controls");
      const cards = el("div", {class: "grid-buttons"});
      for (const card of c.cards) {
        cards.append(el("button", {type: "button", "data-card": card, onclick: () => moves(card)},
                        card === "sorry" ? "Sorry!" : card));
      }
      box.replaceChildren(section(c.to_move + " turned up:", cards));
    };
    async function moves(card) {
      const h = await hint("moves", card);
      if (!h) return;
      const list = $("hints");
      list.replaceChildren(el("div", {class: "hint", text: h.player + " with a " + card + ": " +
                                                          plural(h.moves.length, "move") + (h.moves.length ? "; tap one, then Enter" : "")}));
      for (const m of h.moves) {
        list.append(el("button", {type: "button", class: "quiet", "data-move": m.move, onclick: () => setEntry(m.entry)},
                       m.move + (m.does ? ": " + m.does : "")));
      }
      setEntry("");
    }
    return g;
  },

  // Mille Bornes: who plays (the player to play unless a coup fourré), then the card; an attack's target.
  "mille-bornes"() {
    const g = {hint: false, player: null, card: null, target: null, flags: new Set(), discard: false};
    const GROUPS = [["progress", "Distance"], ["attack", "Attacks"], ["parade", "Remedies"], ["immunity", "Safeties"],
                    ["precedence", "Precedence"]];
    g.render = (t) => {
      const c = t.controls;
      g.c = c;
      const box = $("controls");
      box.replaceChildren();
      const who = el("div", {class: "row"});
      for (const s of c.seats) {
        who.append(el("button", {type: "button", class: "small" + ((g.player || c.to_move) === s ? " on" : " quiet"),
                                 "data-player": s, onclick: () => { g.player = s; compose(); g.render(table); }}, s));
      }
      box.append(section("Who plays", who));
      for (const [cat, label] of GROUPS) {
        const cards = c.cards.filter((x) => x.category === cat);
        if (!cards.length) continue;
        const row = el("div", {class: "grid-buttons"});
        for (const card of cards) {
          const b = el("button", {type: "button", "data-card": card.index, class: g.card === card.index ? "on" : "",
                                  onclick: () => { g.card = card.index; g.target = null; compose(); g.render(table); }},
                       card.index);
          b.style.background = card.colour;
          b.style.borderColor = card.colour;
          row.append(b);
        }
        box.append(section(label, row));
      }
      const chosen = c.cards.find((x) => x.index === g.card);
      if (chosen && chosen.category === "attack") {
        const row = el("div", {class: "row"});
        for (const s of c.seats) {
          if (c.team_of[s] === c.team_of[g.player || c.to_move]) continue;
          row.append(el("button", {type: "button", class: "small" + (g.target === s ? " on" : " quiet"), "data-target": s,
                                   onclick: () => { g.target = s; compose(); g.render(table); }}, s));
        }
        box.append(section("On", row));
      }
      const flags = el("div", {class: "row"});
      const flag = (key, label) => el("button", {type: "button", class: "small" + (g.flags.has(key) ? " on" : " quiet"),
        onclick: () => { g.flags.has(key) ? g.flags.delete(key) : g.flags.add(key); compose(); g.render(table); }}, label);
      if (chosen && chosen.category === "immunity") flags.append(flag("cf", "coup fourré"));
      if (chosen && chosen.category === "precedence") flags.append(flag("over", "overrides"));
      if (chosen && chosen.category === "progress") flags.append(flag("extend", "calls the extension"));
      flags.append(el("button", {type: "button", class: "small" + (g.discard ? " on" : " quiet"),
                                 onclick: () => { g.discard = !g.discard; compose(); g.render(table); }}, "discard it"));
      box.append(flags);
      const events = el("div", {class: "row"},
        el("button", {type: "button", class: "quiet small", onclick: () => setEntry((g.player ? g.player + ": " : "") + "pass")}, "pass"),
        el("button", {type: "button", class: "quiet small", disabled: c.pile_empty || c.pile_left > 0,
                      title: c.pile_left > 0 ? "the referee counts " + plural(c.pile_left, "card") + " in the pile" : "",
                      onclick: () => setEntry("pile-empty")},
           c.pile_empty ? "draw pile empty" : c.pile_left > 0 ? "draw pile: " + plural(c.pile_left, "card") + " left" : "draw pile empty"),
        el("button", {type: "button", class: "quiet small", onclick: () => setEntry("end-hand")}, "end of hand"));
      box.append(section("Or", events));
    };
    function compose() {
      if (!g.card) return;
      const player = g.player && g.player !== g.c.to_move ? g.player + ": " : (g.player ? g.player + ": " : "");
      if (g.discard) return setEntry(player + "discard " + g.card);
      let text = player + g.card;
      if (g.target) text += " " + g.target;
      for (const f of g.flags) text += " " + f;
      setEntry(text);
    }
    g.reset = () => { g.player = null; g.card = null; g.target = null; g.flags.clear(); g.discard = false; };
    return g;
  },

  // Cubes: tap a cell; a pawn of the player to move, then where it goes; or push the cell's line.
  cubes() {
    const g = {hint: false, selected: null, parts: [], distance: 1};
    const name = (c, r) => g.c.grid.columns[c] + (r + 1);
    g.render = (t) => {
      const c = t.controls;
      g.c = c;
      const box = $("controls");
      box.replaceChildren();
      const who = c.players[c.to_move];
      const sel = g.selected;
      let text = "Tap a pawn of " + who + "'s, then where it goes; or a cube, then push its line.";
      if (sel) text = "Selected " + sel + ". Tap where the pawn goes, or push the line:";
      const pushes = el("div", {class: "grid-buttons pushes"});
      for (const [d, label] of [["n", "\u2191 north"], ["s", "\u2193 south"], ["w", "\u2190 west"], ["e", "\u2192 east"]]) {
        pushes.append(el("button", {type: "button", class: "small", disabled: !sel, "data-push": d,
                                    onclick: () => { add(sel + ">" + d + g.distance); }}, label));
      }
      const dist = el("div", {class: "row"});
      for (const n of [1, 2, 3, 4]) {
        dist.append(el("button", {type: "button", class: "small" + (g.distance === n ? " on" : " quiet"),
                                  onclick: () => { g.distance = n; g.render(table); }}, "by " + n));
      }
      box.append(section(text, pushes, dist));
    };
    function add(part) {
      g.parts = g.parts.length >= 2 ? [part] : g.parts.concat([part]);
      g.selected = null;
      setEntry(g.parts.join(" "));
      g.render(table);
    }
    g.tap = (p) => {
      const grid = g.c.grid;
      const col = Math.floor((p.x - grid.x0) / grid.cell), rowFromTop = Math.floor((p.y - grid.y0) / grid.cell);
      if (col < 0 || col >= grid.n || rowFromTop < 0 || rowFromTop >= grid.n) return;
      const cell = name(col, grid.n - 1 - rowFromTop);
      const sel = g.selected;
      const piece = g.c.pieces[sel || ""];
      if (sel && cell !== sel && piece && piece.pawn === g.c.to_move && (cell[0] === sel[0] || cell.slice(1) === sel.slice(1))) {
        return add(sel + "-" + cell);
      }
      g.selected = cell === sel ? null : cell;
      g.render(table);
      drawOverlay();
    };
    g.reset = () => { g.selected = null; g.parts = []; };
    g.overlay = (svg) => {
      if (!g.selected || !g.c) return;
      const grid = g.c.grid;
      const col = grid.columns.indexOf(g.selected[0]), row = Number(g.selected.slice(1)) - 1;
      svg.append(svgEl("rect", {x: grid.x0 + col * grid.cell + 0.5, y: grid.y0 + (grid.n - 1 - row) * grid.cell + 0.5,
                                width: grid.cell - 1, height: grid.cell - 1, fill: "#f2b90c", "fill-opacity": 0.35,
                                stroke: "#f2b90c", "stroke-width": 1.2}));
    };
    return g;
  },

  // Capitals: a card, then one of its walls (those the referee accepts), or tap the wall's two ends.
  capitals() {
    const g = {hint: false, card: null, walls: [], plays: [], ends: [], zoom: 2.5};
    g.render = (t) => {
      const c = t.controls;
      g.c = c;
      const box = $("controls");
      box.replaceChildren();
      const input = el("input", {type: "text", id: "card-search", list: "card-list", placeholder: "country or capital",
                                 autocomplete: "off", value: g.card ? g.card.name : ""});
      const list = el("datalist", {id: "card-list"});
      for (const card of c.cards) {
        if (card.played || card.enclosed) continue;
        list.append(el("option", {value: card.name}, card.capital + ", " + card.square + ", " + card.letters + " letters"));
      }
      input.addEventListener("change", () => pick(input.value));
      const go = el("button", {type: "button", class: "small", onclick: () => pick(input.value)}, "Show");
      box.append(section(c.players[c.to_move] + " plays the card", el("div", {class: "row"}, el("div", {class: "grow"}, input, list), go)));
      if (g.card) {
        const info = g.card.name + " (" + g.card.capital + "): square " + g.card.square + ", a wall of " + g.card.letters + " units" +
                     (g.card.special ? " (a special card: tap its walls' ends on the map)" : "");
        const walls = el("div", {class: "grid-buttons"});
        for (const w of g.walls) walls.append(el("button", {type: "button", class: "small quiet", "data-wall": w.wall,
                                                            onclick: () => addWall(w.wall)}, w.wall));
        box.append(section(info, walls.childElementCount ? walls : el("div", {class: "hint", text: g.card.special ? "" : "no wall of this card is legal now"})));
      }
      box.append(el("div", {class: "row"},
        el("button", {type: "button", class: "quiet small", onclick: () => setEntry("pass")}, "pass"),
        el("button", {type: "button", class: "quiet small", onclick: () => setEntry("end " + c.players.map((p) => p + ":").join("; "))}, "end of play")));
    };
    async function pick(text) {
      const card = g.c.cards.find((x) => x.name.toLowerCase() === text.trim().toLowerCase() ||
                                         x.capital.toLowerCase() === text.trim().toLowerCase());
      if (!card) return say($("message"), "no card " + JSON.stringify(text) + " in the pack", "bad");
      g.card = card;
      g.ends = [];
      const h = await hint("walls", card.name);
      g.walls = h ? h.walls : [];
      g.render(table);
      drawOverlay();
      const grid = g.c.grid;
      scrollBoardTo(grid.x0 + (card.col + 0.5) * grid.cell, grid.y0 + (card.row + 0.5) * grid.cell);
    }
    function addWall(wall) {
      const last = g.plays[g.plays.length - 1];
      if (last && last.card === g.card.name) last.walls.push(wall);
      else g.plays.push({card: g.card.name, walls: [wall]});
      setEntry(g.plays.map((p) => p.card + " " + p.walls.join(" ")).join("; "));
    }
    const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    g.tap = (p) => {
      if (!g.card) return say($("message"), "choose the card first", "bad");
      const grid = g.c.grid;
      const col = Math.round((p.x - grid.x0) / grid.cell), row = Math.round((p.y - grid.y0) / grid.cell);
      if (row < 0 || row > grid.rows || col < 0 || col > grid.cols) return;
      g.ends.push([row, col]);
      if (g.ends.length === 2) {
        const [[r0, c0], [r1, c1]] = g.ends;
        g.ends = [];
        if (r0 !== r1 && c0 !== c1) { drawOverlay(); return say($("message"), "a wall runs along one row or one column of the grid", "bad"); }
        if (r0 === r1 && c0 === c1) { drawOverlay(); return; }
        const [sr, sc] = r0 < r1 || c0 < c1 ? [r0, c0] : [r1, c1];
        const n = Math.abs(r1 - r0) + Math.abs(c1 - c0);
        addWall(LETTERS[sr] + (sc + 1) + (r0 === r1 ? "E" : "S") + n);
      }
      drawOverlay();
    };
    g.reset = () => { g.card = null; g.walls = []; g.plays = []; g.ends = []; };
    g.overlay = (svg) => {
      if (!g.c) return;
      const grid = g.c.grid;
      if (g.card) {
        svg.append(svgEl("rect", {x: grid.x0 + g.card.col * grid.cell, y: grid.y0 + g.card.row * grid.cell,
                                  width: grid.cell, height: grid.cell, fill: "#f2b90c", "fill-opacity": 0.45,
                                  stroke: "#b07d00", "stroke-width": 1}));
      }
      for (const [r, c] of g.ends) {
        svg.append(svgEl("circle", {cx: grid.x0 + c * grid.cell, cy: grid.y0 + r * grid.cell, r: 2.5, fill: "#b3261e"}));
      }
      const re = /([A-Za-z])(\d{1,2})([NESWnesw])(\d{1,3})/g;
      let m;
      const text = $("entry").value;
      while ((m = re.exec(text))) {
        const r = LETTERS.indexOf(m[1].toUpperCase()), c = Number(m[2]) - 1, n = Number(m[4]);
        const d = {N: [-1, 0], S: [1, 0], E: [0, 1], W: [0, -1]}[m[3].toUpperCase()];
        svg.append(svgEl("line", {x1: grid.x0 + c * grid.cell, y1: grid.y0 + r * grid.cell,
                                  x2: grid.x0 + (c + d[1] * n) * grid.cell, y2: grid.y0 + (r + d[0] * n) * grid.cell,
                                  stroke: "#b3261e", "stroke-width": 2.4, "stroke-dasharray": "3 1.5"}));
      }
    };
    return g;
  },
};

function turn(rows, degrees) {
  let out = rows.map((r) => r.split(""));
  for (let k = 0; k < (degrees / 90) % 4; k++) {
    out = out[0].map((_, c) => out.map((row) => row[c]).reverse());   // a quarter turn clockwise
  }
  return out.map((r) => r.join(""));
}

function tileSvg(rows, colours, degrees, size) {
  const svg = svgEl("svg", {viewBox: "0 0 4 4", width: size || "", height: size || ""});
  const turned = turn(rows, degrees);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) {
    svg.append(svgEl("rect", {x: c, y: r, width: 1, height: 1, fill: colours[turned[r][c]]}));
  }
  return svg;
}

// ------------------------------------------------------------------ wiring

$("entry-form").addEventListener("submit", (e) => { e.preventDefault(); send($("entry").value); });
$("entry").addEventListener("input", () => { if ($("entry").value.trim()) begin(); drawOverlay(); });
for (const id of ["controls", "board", "hints"]) $(id).addEventListener("click", begin, true);
$("undo").addEventListener("click", undo);
$("clear").addEventListener("click", () => { if (game && game.reset) game.reset(); setEntry(""); forget(); $("hints").replaceChildren();
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
