"use strict";

// Cubes' controls on the table page (the server's side is web.py): tap a cell; a pawn of the player
// to move, then where it goes; or push the cell's line.
registerControls(function () {
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
});
