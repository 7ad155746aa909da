"use strict";

// Coin toss's controls: heads or tails called, then how it fell.
registerControls(function () {
  const g = {hint: false, call: null};
  g.render = (t) => {
    const row = el("div", {class: "row"});
    for (const call of ["heads", "tails"]) {
      row.append(el("button", {type: "button", "data-call": call, onclick: () => { g.call = call; }}, call));
      row.append(el("button", {type: "button", "data-fell": call,
                               onclick: () => setEntry((g.call || "heads") + " " + call)}, "fell " + call));
    }
    $("controls").replaceChildren(section(t.prompt + " calls", row));
  };
  return g;
});
