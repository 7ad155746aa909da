"use strict";

// Capitals' controls on the table page (the server's side is web.py): a card, then one of its walls
// (those the referee accepts), or tap the wall's two ends.
registerControls(function () {
  const g = {hint: false, card: null, walls: [], plays: [], ends: [], zoom: 2.5, hands: null};
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
      el("button", {type: "button", class: "quiet small", id: "end-of-play",
                    onclick: () => { g.hands = g.hands || Object.fromEntries(c.players.map((p) => [p, []])); endEntry(); g.render(table); }},
         "end of play")));
    if (g.hands) box.append(handsPicker(c));
  };
  // The hands at the end of play, picked from the cards not played (searchable by country or
  // capital), a list a player; the entry is written from them.
  function handsPicker(c) {
    const taken = new Set(Object.values(g.hands).flat());
    const list = el("datalist", {id: "hand-list"});
    for (const card of c.cards) {
      if (!card.played && !taken.has(card.name)) list.append(el("option", {value: card.name}, card.capital));
    }
    const out = el("div", {class: "hands"}, list);
    c.players.forEach((p, i) => {
      const input = el("input", {type: "text", list: "hand-list", placeholder: "a card in " + p + "'s hand",
                                 autocomplete: "off", "data-hand": p, "aria-label": p + "'s hand"});
      const add = () => {
        const card = findCard(input.value);
        if (!card || card.played) return say($("message"), "no card " + JSON.stringify(input.value) + " left in the pack", "bad");
        if (!taken.has(card.name)) g.hands[p].push(card.name);
        endEntry(); g.render(table);
        const again = document.querySelector("[data-hand='" + CSS.escape(p) + "']");
        if (again) again.focus();
      };
      input.addEventListener("change", add);
      const chips = el("div", {class: "row"});
      for (const name of g.hands[p]) {
        chips.append(el("button", {type: "button", class: "quiet small", "data-in-hand": name, "aria-label": "take " + name + " out",
                                   onclick: () => { g.hands[p] = g.hands[p].filter((x) => x !== name); endEntry(); g.render(table); }},
                        name + " \u00D7"));
      }
      const colour = c.colours[i];
      const title = el("label", {}, colour ? swatch(colour) : null, p + "\u2019s hand (" + plural(g.hands[p].length, "card") + ")");
      out.append(el("div", {}, title, el("div", {class: "row"}, el("div", {class: "grow"}, input),
                   el("button", {type: "button", class: "small", "data-add-hand": p, onclick: add}, "Add")), chips));
    });
    return out;
  }
  function findCard(text) {
    const t = text.trim().toLowerCase();
    return g.c.cards.find((x) => x.name.toLowerCase() === t || x.capital.toLowerCase() === t);
  }
  function endEntry() {
    setEntry("end " + g.c.players.map((p) => p + ": " + g.hands[p].join(", ")).join("; "));
  }
  async function pick(text) {
    const card = findCard(text);
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
  g.reset = () => { g.card = null; g.walls = []; g.plays = []; g.ends = []; g.hands = null; };
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
});
