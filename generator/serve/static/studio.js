// pnp studio: every card of the folder's decks, kept as the server says they are (its event
// stream sends the cards changed since the last event); a card opened large shows its trim, bleed,
// safe zones and each element's outline, with its row.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const cards = new Map();        // id -> the card as the server last sent it
const figures = new Map();      // id -> its <figure>
let decks = [], dpi = 100, largeDpi = 250, safe = 3.175, opened = null, openedSide = "face";

function picture(key, at) {
  return key ? `/api/studio/pictures/${key}.png?dpi=${at || dpi}` : "";
}

function setText(el, text) { if (el.textContent !== text) el.textContent = text; }

function figureOf(card) {
  let fig = figures.get(card.id);
  if (!fig) {
    fig = document.createElement("figure");
    fig.className = "card";
    fig.id = "card-" + card.id;
    fig.dataset.id = card.id;
    const pics = document.createElement("div");
    pics.className = "pics";
    for (const side of ["face", "back"]) {
      const img = document.createElement("img");
      img.className = side;
      img.loading = "lazy";
      img.alt = "";
      pics.appendChild(img);
    }
    const error = document.createElement("div");
    error.className = "error";
    pics.appendChild(error);
    const caption = document.createElement("figcaption");
    fig.append(pics, caption);
    fig.addEventListener("click", () => openLarge(card.id));
    figures.set(card.id, fig);
  }
  return fig;
}

function showCard(card) {
  cards.set(card.id, card);
  const fig = figureOf(card);
  for (const side of ["face", "back"]) {
    const img = fig.querySelector("img." + side);
    const key = card[side] || "";
    if (img.dataset.key !== key) {
      img.dataset.key = key;
      if (key) img.src = picture(key); else img.removeAttribute("src");
    }
    img.alt = `${card.caption}: ${side}`;
  }
  setText(fig.querySelector(".error"), card.error || "");
  fig.classList.toggle("broken", !!card.error);
  fig.classList.toggle("flagged", card.flags.length > 0 || !!card.error);
  const caption = fig.querySelector("figcaption");
  caption.replaceChildren();
  if (card.flags.length) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = `⚠ ${card.flags.length}`;
    caption.appendChild(badge);
  }
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = card.caption;
  caption.appendChild(name);
  if (card.count > 1) {
    const copies = document.createElement("span");
    copies.className = "copies";
    copies.textContent = ` ×${card.count}`;
    caption.appendChild(copies);
  }
  fig.title = [card.caption, card.where, ...card.flags].join("\n");
  if (opened === card.id) openLarge(card.id, true);
}

function layoutDecks(version) {
  const main = $("decks");
  const wanted = new Set();
  const sections = [];
  for (const deck of decks) {
    const id = "deck-" + deck.spec.replace(/[^A-Za-z0-9_-]/g, "_");
    let section = document.getElementById(id);
    if (!section) {
      section = document.createElement("section");
      section.className = "deck";
      section.id = id;
      const h = document.createElement("h2");
      const title = document.createElement("span");
      const spec = document.createElement("span");
      spec.className = "spec";
      h.append(title, spec);
      const list = document.createElement("div");
      list.className = "cards";
      section.append(h, list);
    }
    const [w, h, b] = deck.size;
    section.style.setProperty("--aspect", String((w + 2 * b) / (h + 2 * b)));
    setText(section.querySelector("h2 span"), deck.title);
    setText(section.querySelector(".spec"), `${deck.spec} · ${deck.cards.length} cards`);
    const list = section.querySelector(".cards");
    const figs = deck.cards.map((cid) => figures.get(cid)).filter(Boolean);
    // moved only where the order changed: a save of one card touches one figure
    const now = Array.from(list.children);
    if (now.length !== figs.length || figs.some((f, k) => now[k] !== f)) list.replaceChildren(...figs);
    sections.push(section);
    deck.cards.forEach((cid) => wanted.add(cid));
  }
  if (Array.from(main.children).some((el, k) => el !== sections[k]) || main.children.length !== sections.length) {
    main.replaceChildren(...sections);
  }
  for (const cid of Array.from(figures.keys())) {
    if (!wanted.has(cid)) { figures.delete(cid); cards.delete(cid); }
  }
  if (!decks.length) {
    const p = document.createElement("p");
    p.className = "hint";
    p.textContent = version ? "No deck to show: see the errors above." : "Reading the folder…";
    main.replaceChildren(p);
  }
}

function summarise(state) {
  const all = decks.reduce((n, d) => n + d.cards.length, 0);
  const copies = Array.from(cards.values()).reduce((n, c) => n + c.count, 0);
  const broken = Array.from(cards.values()).filter((c) => c.error).length;
  const flagged = Array.from(cards.values()).filter((c) => c.flags.length).length;
  const parts = [`${all} card${all === 1 ? "" : "s"}` + (copies > all ? ` (${copies} with their copies)` : "")];
  if (broken) parts.push(`${broken} that do not draw`);
  if (flagged) parts.push(`${flagged} with checks`);
  setText($("summary"), parts.join(" · "));
  const errors = [...state.errors, ...decks.flatMap((d) => d.errors)];
  setText($("errors"), errors.join("\n"));
  const printing = state.printing || {state: "off"};
  $("printing").dataset.state = printing.state;
  setText($("printing"), printing.said || "");
  if (decks.length === 1) setText($("title"), decks[0].title);
  document.title = `${decks.length === 1 ? decks[0].title : "pnp studio"}${errors.length ? " (errors)" : ""}`;
}

function fieldsKnown() {
  const select = $("field");
  const names = new Set();
  for (const card of cards.values()) Object.keys(card.row).forEach((k) => names.add(k));
  const have = new Set(Array.from(select.options).map((o) => o.value));
  for (const name of Array.from(names).sort()) {
    if (!have.has(name)) select.add(new Option(name, name));
  }
}

function filter() {
  const field = $("field").value, value = $("value").value.trim().toLowerCase(), onlyFlagged = $("flagged").checked;
  const sides = $("sides").value;
  let shown = 0;
  for (const [cid, fig] of figures) {
    const card = cards.get(cid);
    fig.dataset.sides = sides;
    let ok = !onlyFlagged || card.flags.length > 0 || !!card.error;
    if (ok && value) {
      const values = field ? [card.row[field] ?? ""] : [card.caption, ...Object.values(card.row)];
      ok = values.some((v) => String(v).toLowerCase().includes(value));
    }
    fig.classList.toggle("filtered-out", !ok);
    if (ok) shown += 1;
  }
  document.body.dataset.shown = String(shown);
}

function apply(state) {
  dpi = state.dpi; largeDpi = state.large_dpi; safe = state.safe;
  for (const card of state.cards) showCard(card);
  decks = state.decks;
  layoutDecks(state.version);
  summarise(state);
  fieldsKnown();
  filter();
  document.body.dataset.version = String(state.version);
}

// ---------------------------------------------------------------- a card opened large

function rect(parent, cls, x0, y0, x1, y1) {
  const r = document.createElementNS(SVG, "rect");
  r.setAttribute("class", cls);
  r.setAttribute("x", x0); r.setAttribute("y", y0);
  r.setAttribute("width", Math.max(0, x1 - x0)); r.setAttribute("height", Math.max(0, y1 - y0));
  parent.appendChild(r);
  return r;
}

async function openLarge(cid, again) {
  opened = cid;
  const shop = $("shop").value;
  const answer = await fetch(`/api/studio/cards/${encodeURIComponent(cid)}` + (shop ? `?shop=${encodeURIComponent(shop)}` : ""));
  if (!answer.ok || opened !== cid) return;
  const card = await answer.json();
  const side = openedSide;
  const [w, h, b] = card.size || [63, 88, 3];
  $("large").hidden = false;
  $("stage").style.setProperty("--aspect", String((w + 2 * b) / (h + 2 * b)));
  const key = card[side];
  const img = $("large-picture");
  if (img.dataset.key !== key) { img.dataset.key = key || ""; if (key) img.src = picture(key, largeDpi); else img.removeAttribute("src"); }
  const svg = $("overlay");
  svg.setAttribute("viewBox", `${-b} ${-b} ${w + 2 * b} ${h + 2 * b}`);
  svg.replaceChildren();
  rect(svg, "bleed", -b, -b, w + b, h + b);
  rect(svg, "trim", 0, 0, w, h);
  rect(svg, "safe", safe, safe, w - safe, h - safe);
  const shopped = card[side + "_shop"];
  if (shopped && shopped.zone) {
    const [x0, y0, x1, y1] = shopped.zone;
    rect(svg, "shopzone", x0, y0, x1, y1);
  }
  setText($("legend-shop"), shopped ? (shopped.error ? `shop: ${shopped.error}` : `${shopped.shop}'s safe zone (${shopped.product})`) : "shop's safe zone: choose a shop above");
  const flagged = card.flags.join("\n");
  for (const el of card[side + "_boxes"]) {
    const [x0, y0, x1, y1] = el.box;
    const r = rect(svg, "el", x0, y0, x1, y1);
    const at = (line) => `${card.deck}${line ? ":" + line : ""}`;
    const where = `${el.layout} · ${el.name} (${el.type}) · ${at(el.line)}` +
      el.changed.map((c) => `, changed in ${c.layout} (${at(c.line)})`).join("");
    r.dataset.where = where;
    if (flagged.includes(`${el.name} of layout ${el.layout}`)) r.classList.add("flagged");
    const title = document.createElementNS(SVG, "title");
    title.textContent = where;
    r.appendChild(title);
    r.addEventListener("mouseenter", () => { r.classList.add("hot"); setText($("large-hover"), "layout " + where); });
    r.addEventListener("mouseleave", () => r.classList.remove("hot"));
  }
  setText($("large-caption"), card.caption);
  setText($("large-where"), card.where);
  setText($("large-error"), card.error || "");
  const flags = $("large-flags");
  flags.replaceChildren();
  for (const f of [...card.flags, ...((shopped && shopped.findings) || []).map((f) => `${shopped.shop}: ${f}`)]) {
    const li = document.createElement("li");
    li.textContent = f;
    flags.appendChild(li);
  }
  const table = $("large-row");
  table.replaceChildren();
  for (const [k, v] of Object.entries(card.row)) {
    const tr = table.insertRow();
    const th = document.createElement("th");
    th.textContent = k;
    tr.appendChild(th);
    tr.insertCell().textContent = v;
  }
  $("large-face").classList.toggle("on", side === "face");
  $("large-back").classList.toggle("on", side === "back");
  if (!again) $("large-close").focus();
}

function closeLarge() { opened = null; $("large").hidden = true; }

// ---------------------------------------------------------------- following the server

function follow() {
  const live = $("live");
  const source = new EventSource("/api/studio/events");
  source.addEventListener("change", (e) => {
    apply(JSON.parse(e.data));
  });
  source.onopen = () => { live.textContent = "following the folder"; live.classList.add("on"); };
  source.onerror = () => { live.textContent = "reconnecting…"; live.classList.remove("on"); };
}

function start() {
  const zoom = $("zoom");
  const sized = () => document.documentElement.style.setProperty("--card-w", zoom.value + "px");
  zoom.addEventListener("input", sized);
  sized();
  for (const id of ["field", "flagged", "sides"]) $(id).addEventListener("change", filter);
  $("value").addEventListener("input", filter);
  $("shop").addEventListener("change", () => { if (opened) openLarge(opened, true); });
  $("large-close").addEventListener("click", closeLarge);
  $("large").addEventListener("click", (e) => { if (e.target === $("large")) closeLarge(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeLarge(); });
  $("large-face").addEventListener("click", () => { openedSide = "face"; if (opened) openLarge(opened, true); });
  $("large-back").addEventListener("click", () => { openedSide = "back"; if (opened) openLarge(opened, true); });
  fetch("/api/studio/shops").then((r) => r.json()).then((names) => {
    for (const name of names) $("shop").add(new Option(name, name));
  }).catch(() => {});
  follow();
}

start();
