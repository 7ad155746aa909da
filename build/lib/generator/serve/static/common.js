// pnp serve: what both pages share. Every request goes to this server only (no asset from elsewhere).
"use strict";

// Every answer as {ok, status, data, entries, version}; a server that cannot be reached is status 0
// with an error that says so (never an exception a page would swallow).
async function api(path, body) {
  const opts = body === undefined ? {cache: "no-store"} :
    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body), cache: "no-store"};
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    return {ok: false, status: 0, data: {error: "cannot reach the referee: is pnp serve still running, and this " +
                                               "phone on its network?"}, entries: null, version: null};
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (res.status === 401) {
    data = {error: "this phone's link is no longer valid (the server was started with a new token): " +
                   "open the table's link again"};
  }
  return {ok: res.ok, status: res.status, data: data,
          entries: res.headers.get("X-Entries"), version: (res.headers.get("ETag") || "").replace(/"/g, "")};
}

function plural(n, word, words) { return n + " " + (n === 1 ? word : (words || word + "s")); }

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

const SVG_NS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function say(node, text, kind) {
  node.textContent = text || "";
  node.className = "message" + (kind ? " " + kind : "");
}
