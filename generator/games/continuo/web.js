"use strict";

// Continuo's controls on the table page (the server's side is web.py): a tile (its number), its
// turn, then a tap where its middle goes; Best places is the prompt's `best`.
registerControls(function () {
  const g = {hint: true, hintLabel: "Best places", tile: null, rotation: 0, at: null};
  g.render = (t) => {
    const c = t.controls;
    g.c = c;
    const box = $("controls");
    box.replaceChildren();
    const tiles = el("div", {class: "tiles"});
    // the tiles still to play first, where the thumb is; the used ones after them
    const order = c.tiles.filter((x) => !x.used).concat(c.tiles.filter((x) => x.used));
    for (const tile of order) {
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
});

function turn(rows, degrees) {
  let out = rows.map((r) => r.split(""));
  for (let k = 0; k < (degrees / 90) % 4; k++) {
    out = out[0].map((_, c) => out.map((row) => row[c]).reverse());   // a quarter turn clockwise
  }
  return out.map((r) => r.join(""));
}

function tileSvg(rows, colours, degrees, size) {
  const svg = svgEl("svg", size ? {viewBox: "0 0 4 4", width: size, height: size} : {viewBox: "0 0 4 4"});
  const turned = turn(rows, degrees);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) {
    svg.append(svgEl("rect", {x: c, y: r, width: 1, height: 1, fill: colours[turned[r][c]]}));
  }
  return svg;
}
