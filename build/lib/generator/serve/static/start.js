// The start page: the games, a new game with the options `pnp referee GAME play` takes, and the
// records in the folder to resume, newest first.
"use strict";

let titles = {};          // game id -> its title, from the server (the games declare them)
let chosen = null;

async function showGames() {
  const res = await api("/api/titles");
  const box = document.getElementById("games");
  box.replaceChildren();
  if (!res.ok) return say(document.getElementById("message"), res.data && res.data.error, "bad");
  titles = res.data;
  for (const [id, title] of Object.entries(titles)) {
    box.append(el("button", {type: "button", "data-game": id, onclick: () => choose(id)}, title));
  }
}

async function choose(id) {
  const res = await api("/api/games/" + encodeURIComponent(id));
  if (!res.ok) return say(document.getElementById("message"), res.data && res.data.error, "bad");
  chosen = res.data;
  document.getElementById("new-title").textContent = "New game of " + chosen.title;
  const fields = document.getElementById("fields");
  fields.replaceChildren();
  for (const f of chosen.options) {
    const id = "opt-" + f.name;
    let input;
    if (f.kind === "flag") {
      input = el("input", {type: "checkbox", id: id, name: f.name});
      fields.append(el("label", {class: "check"}, input, " " + f.label));
      continue;
    }
    if (f.kind === "choice") {
      input = el("select", {id: id, name: f.name});
      for (const c of f.choices) input.append(el("option", {value: c, selected: c === (f.default || "")}, f.choice_labels[c]));
    } else {
      input = el("input", {type: f.kind === "number" ? "number" : "text", id: id, name: f.name, placeholder: f.placeholder || "",
                           autocomplete: "off", autocapitalize: "words"});
    }
    fields.append(el("label", {for: id}, f.label), input);
  }
  document.getElementById("new").hidden = false;
  const first = fields.querySelector("input,select");
  if (first) first.focus();
}

async function start(event) {
  event.preventDefault();
  const body = {game: chosen.id};
  for (const f of chosen.options) {
    const input = document.getElementById("opt-" + f.name);
    if (f.kind === "flag") { if (input.checked) body[f.name] = true; continue; }
    const v = input.value.trim();
    if (!v) continue;
    body[f.name] = f.kind === "number" ? Number(v) : v;
  }
  const res = await api("/api/records", body);
  if (!res.ok) return say(document.getElementById("message"), res.data ? res.data.error : "refused", "bad");
  location.href = "/t/" + encodeURIComponent(res.data.id);
}

async function showRecords() {
  const res = await api("/api/records");
  const box = document.getElementById("records");
  box.replaceChildren();
  if (!res.ok || !res.data.length) return box.append(el("p", {class: "hint", text: "No game yet: start one above."}));
  for (const r of res.data) {
    if (r.error) { box.append(el("p", {class: "hint", text: r.id + ": " + r.error})); continue; }
    const who = (r.players || []).join(", ");
    const count = plural(r.entries, "entry", "entries");
    const state = r.winner ? "won by " + r.winner : r.prompt + " to play";
    box.append(el("a", {href: "/t/" + encodeURIComponent(r.id)},
                  el("b", {text: titles[r.game] || r.game}), " " + who,
                  el("div", {class: "hint", text: count + "; " + state + " (" + r.id + ")"})));
  }
}

document.getElementById("new").addEventListener("submit", start);
document.getElementById("cancel").addEventListener("click", () => { document.getElementById("new").hidden = true; });
showGames().then(showRecords);
