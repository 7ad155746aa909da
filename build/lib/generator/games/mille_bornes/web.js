"use strict";

// Mille Bornes' controls on the table page (the server's side is web.py): who plays (the player to
// play unless a coup fourré), then the card; an attack's target.
registerControls(function () {
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
});
