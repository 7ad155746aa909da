"use strict";

// Sorry's controls on the table page (the server's side is web.py): the card turned up, then one
// of the moves the referee lists for it (the prompt's `moves`).
registerControls(function () {
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
});
