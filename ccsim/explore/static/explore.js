// ccsim explore: the page's behaviour, plain JavaScript, no dependencies.
// The form's state is the page's query string; every change is checked by the server (which gives
// the command line's own messages), then answered as server-sent events that narrow as games come in.
"use strict";

const PAGE = Math.random().toString(36).slice(2) + Date.now().toString(36);  // one computation per page
const $ = (id) => document.getElementById(id);
let spec = null, source = null, timer = null, sample = null, turn = 0;

// --- the form ----------------------------------------------------------------------------------

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

function parameterField(p) {
  // a text field, not type=number: the browser would send "" for "abc", and the message must say what was typed
  const input = el("input", {type: "text", class: "num", id: "f-" + p.key, name: p.key, value: p.standard,
                             "data-standard": p.standard, inputmode: "numeric", spellcheck: "false"});
  const label = el("label", {class: "row", for: "f-" + p.key},
                   el("span", {text: p.label + " "}, el("small", {text: `standard ${p.standard} · ${p.lo}–${p.hi} · ${p.rule}`})),
                   input);
  return el("div", {class: "param", id: "p-" + p.key}, label,
            el("p", {class: "message", id: "m-" + p.key, role: "alert"}));
}

function buildForm() {
  for (const l of spec.levels) {  // each level with its seat gap: a lopsided level is marked, none is "strongest"
    // the menu says the status only (the whole sentence would be cut in a narrow column); the line under it says all
    const status = l.gap.split(": ").pop();
    $("f-level").append(el("option", {value: l.name, text: `${l.name} — ${status}` + (l.cost.startsWith("search") ? ", slow" : "")}));
  }
  showPublished(spec.published);
  showJudgeName();
  $("f-level").value = spec.default_level;
  const cost = () => {
    const l = spec.levels.find((x) => x.name === $("f-level").value);
    $("level-cost").textContent = l ? `${l.name} ${l.gap}. ${l.cost[0].toUpperCase()}${l.cost.slice(1)}.` : "";
  };
  $("f-level").addEventListener("change", cost);
  for (const o of spec.orders) $("order-names").append(el("option", {value: o.name, label: o.words}));
  for (const p of spec.players) {
    const name = p + "_order";
    $("orders").append(el("div", {class: "param", id: "p-" + name},
      el("label", {for: "f-" + name, text: p[0].toUpperCase() + p.slice(1) + "'s action deck, top first"}),
      el("input", {type: "text", class: "order", id: "f-" + name, name: name, value: "shuffled", list: "order-names",
                   spellcheck: "false", placeholder: "shuffled, a preset, or 13 letters A S C R W V"}),
      el("p", {class: "message", id: "m-" + name, role: "alert"})));
  }
  for (const v of spec.variants) {
    $("variants").append(el("label", {class: "variant"},
      el("input", {type: "checkbox", name: "variant", value: v.name, id: "f-variant-" + v.name}),
      el("span", {text: v.words})));
  }
  for (const s of spec.sections) {
    const box = el(s.open ? "section" : "details", {class: "box"});
    box.append(s.open ? el("h2", {text: s.title}) : el("summary", {text: s.title}));
    const holder = s.title === "Action cards" ? el("div", {class: "cards"}) : box;
    for (const p of s.parameters) holder.append(parameterField(p));
    if (holder !== box) box.append(holder);
    if (holder !== box) {  // a player's action cards as a whole (how many she owns in all)
      for (const player of spec.players) box.append(el("p", {class: "message", id: "m-action_count." + player, role: "alert"}));
    }
    $("sections").append(box);
  }
}

function query() {
  // only what differs from the defaults: the link stays short and readable
  const q = new URLSearchParams();
  for (const input of document.querySelectorAll("#sections input")) {
    if (input.value.trim() !== input.dataset.standard) q.append(input.name, input.value.trim());
  }
  for (const box of document.querySelectorAll("#variants input:checked")) q.append("variant", box.value);
  for (const p of spec.players) {
    const v = $("f-" + p + "_order").value.trim();
    if (v.toLowerCase() !== "shuffled") q.append(p + "_order", v);
  }
  q.append("level", $("f-level").value);
  if ($("f-seed").value.trim() !== "1") q.append("seed", $("f-seed").value.trim());
  return q;
}

function fill(q) {
  for (const [k, v] of q.entries()) {
    if (k === "variant") { const b = $("f-variant-" + v); if (b) b.checked = true; continue; }
    const input = $("f-" + k);
    if (input) input.value = v;
  }
}

function showPublished(pub) {
  // the published answer of ccsim balance, the one the README and docs/designer.md give, with its interval
  if (!pub) { $("published-words").textContent = "see results/balance/ in the repository"; return; }
  $("published-words").textContent = pub.words;
  const f = pub.figures || {}, c = f.change, s = f.standard;
  $("published-level").textContent = c
    ? `— ${c.label}${c.deals ? " on " + c.deals.toLocaleString() + " deals" : ""}: Cleopatra's edge ${num(c.edge, "points")} `
      + `[${num(c.ci95[0], "points")}, ${num(c.ci95[1], "points")}] with the change`
      + (s ? `, ${num(s.edge, "points")} [${num(s.ci95[0], "points")}, ${num(s.ci95[1], "points")}] under the standard rules` : "")
    : pub.judged;
  $("published-load").onclick = () => {
    const q = new URLSearchParams(pub.query);
    for (const input of document.querySelectorAll("#sections input")) input.value = q.get(input.name) ?? input.dataset.standard;
    for (const box of document.querySelectorAll("#variants input")) box.checked = q.getAll("variant").includes(box.value);
    changed();
  };
}

function markChanged() {
  for (const input of document.querySelectorAll("#sections input")) {
    input.closest(".param").classList.toggle("changed", input.value.trim() !== input.dataset.standard);
  }
}

function showErrors(errors) {
  for (const m of document.querySelectorAll(".message")) m.textContent = "";
  for (const e of document.querySelectorAll(".invalid")) e.classList.remove("invalid");
  for (const [field, message] of Object.entries(errors || {})) {
    const m = $("m-" + field) || $("m-variant");
    m.textContent = message;
    const p = $("p-" + field);
    if (p) p.classList.add("invalid");
  }
}

// --- asking ------------------------------------------------------------------------------------

let asked = null;  // the form last asked about, as its query

function changed() {
  markChanged();
  const now = query().toString();
  if (now === asked) return;  // a field's change event on leaving it, after its input events: nothing new to ask
  asked = now;
  stopConfirm("stopped: the form changed");
  if (fair) { fair.close(); fair = null; $("fair-message").textContent = "stopped: the form changed"; }
  clearTimeout(timer);
  timer = setTimeout(ask, 150);  // while a number is typed, ask once
}

async function ask() {
  const q = query();
  asked = q.toString();
  history.replaceState(null, "", "?" + q.toString());
  $("link").href = location.href;
  let res, body;
  try {
    res = await fetch("/api/check?" + q);
    body = await res.json();
  } catch (e) {
    $("status").textContent = "the server does not answer: is ccsim explore still running?";
    $("status").className = "status failed";
    return;
  }
  if (q.toString() !== query().toString()) return;  // the form moved on meanwhile
  if (!res.ok) {
    stop();
    document.body.classList.add("stale");  // the figures on screen answer an older form: greyed until it is valid
    showErrors(body.errors);
    $("status").textContent = "nothing runs: " + Object.values(body.errors)[0];
    $("status").className = "status failed";
    return;
  }
  showErrors({});
  document.body.classList.remove("stale");
  $("words").textContent = body.words;
  keep(body, q);
  start(q);
  if ($("sample-box").open) loadSample();
}

function stop() {
  if (source) { source.close(); source = null; }
}

function start(q) {
  stop();
  $("status").textContent = "playing…";
  $("status").className = "status";
  const es = new EventSource("/api/answer?page=" + PAGE + "&" + q);
  source = es;
  es.onmessage = (ev) => {
    if (source !== es) return;
    const snap = JSON.parse(ev.data);
    if (!snap.arms && snap.state === "cancelled") {
      // ended before its first figure: nothing to show
    } else if (snap.state === "failed") {
      $("status").textContent = "failed: " + snap.message;
      $("status").className = "status failed";
    } else {
      show(snap);
    }
    if (snap.state !== "running") { es.close(); if (source === es) source = null; }
  };
  es.onerror = () => { es.close(); if (source === es) source = null; };
}

// --- the answer --------------------------------------------------------------------------------

const FIGURES = [
  ["seat_advantage", "Cleopatra's edge", "points"],
  ["draw_rate", "draw rate", "share"],
  ["turns", "game length, turns", "count"],
  ["decisiveness", "decisiveness: the leader at half time wins", "share"],
];

function num(x, kind, signed) {
  if (x === null || x === undefined) return "n/a";
  const v = (Math.round((kind === "count" ? x : 100 * x) * 10) / 10) || 0;  // no "-0.0"
  if (kind === "count") return (signed && v >= 0 ? "+" : "") + v.toFixed(1);
  // a sign on every figure but zero, as the reports write them ("0.0 to +1.9")
  return (signed || kind === "points" ? (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v).toFixed(1) : v.toFixed(1) + "%");
}

function withCi(t, kind, signed) {
  return `${num(t.value, kind, signed)} <small>[${num(t.lo, kind, signed)}, ${num(t.hi, kind, signed)}]</small>`;
}

function show(snap) {
  const two = snap.arms.length === 2, last = snap.arms[snap.arms.length - 1].figures.seat_advantage;
  $("edge").textContent = num(last.value, "points");
  $("edge").dataset.half = ((last.hi - last.lo) / 2 * 100).toFixed(2);
  $("edge").dataset.query = snap.query;  // which form the figure answers (the form may have moved on)
  $("edge-ci").textContent = `[${num(last.lo, "points")}, ${num(last.hi, "points")}]`;
  const d = two ? snap.diff.seat_advantage : null;
  $("edge-diff").innerHTML = two
    ? `${snap.arms[1].name === "these deck orders" ? "these deck orders" : "the changed rules"}: ${num(d.value, "points", true)} points against the standard <small>[${num(d.lo, "points", true)}, ${num(d.hi, "points", true)}]</small>; standard ${num(snap.arms[0].figures.seat_advantage.value, "points")}`
    : "the standard rules: change something to compare";
  const why = {running: "playing…", target: "done: known within ±0.5 points", cap: "done: the cap of deals",
               cancelled: "stopped: a new question"}[snap.state];
  const kept = snap.games - snap.played;
  $("status").textContent = `${snap.deals.toLocaleString()} deals × ${snap.arms.length} rules = ${snap.games.toLocaleString()} games`
    + (kept ? ` (${kept.toLocaleString()} already played before)` : "") + ` in ${snap.seconds.toFixed(1)} s · ${why}`;
  $("status").className = "status";
  $("evidence-level").textContent = snap.level || "the level";
  lastJudge = snap.judge;
  if (!confirming) showJudge(snap.judge);
  const j = snap.judge && snap.judge.changed;
  $("mini").innerHTML = (j ? `${j.judge} (${j.how}) <b>${num(j.edge, "points")}</b> [${num(j.ci95[0], "points")}, ${num(j.ci95[1], "points")}] · ` : "")
    + `${snap.level || ""} <b>${num(last.value, "points")}</b> ${$("edge-ci").textContent}`
    + (two ? ` · ${num(d.value, "points", true)} against the standard` : "") + ` · ${snap.deals.toLocaleString()} deals`;
  $("col-changed").textContent = two ? (snap.arms[1].name === "these deck orders" ? "these decks" : "changed") : "";
  const rows = FIGURES.map(([m, label, kind]) => {
    const cells = snap.arms.map((a) => `<td>${withCi(a.figures[m], kind)}</td>`);
    const diff = two ? `<td>${withCi(snap.diff[m], kind === "count" ? "count" : "points", true)}</td>` : "<td></td><td></td>";
    return `<tr><th>${label}</th>${cells.join("")}${diff}</tr>`;
  });
  document.querySelector("#figures tbody").innerHTML = rows.join("");
  plotEdge(snap);
  plotMargins(snap);
  $("command").textContent = snap.command || "no rule changes: ccsim whatif compares rules (change one to get its line)";
}

function keep(body, q) {
  const toml = $("toml");
  if (body.toml) { toml.href = "/api/change.toml?" + q; toml.style.visibility = "visible"; }
  else toml.style.visibility = "hidden";
}

// --- the judge's figure, and confirming it -----------------------------------------------------

let lastJudge = null, confirming = null;

function showJudgeName() {
  // the judge's name on the heading and the button; without a judge the page says why and offers no confirmation
  const j = spec.judge || {};
  $("judge-title").textContent = j.name ? `Cleopatra's edge with ${j.name} on both sides` : "Cleopatra's edge";
  $("confirm-box").hidden = !j.name;
  if (j.name) {
    $("confirm").textContent = `Confirm at ${j.name}`;
    $("confirm-deals").value = j.deals;
  }
}

function showJudge(j, about) {
  // the big number: the judge's figure (measured, or predicted through the effect map); the level's own beside it
  const fig = j && j.changed, judge = $("judge");
  // without a judge's figure the level's own leads, said to be the level's (the note says why)
  document.querySelector("#judge-box .headline").hidden = !fig;
  $("evidence").classList.toggle("lead", !fig);
  if (!fig) {
    judge.textContent = "—";
    judge.dataset.how = "none";
    judge.dataset.half = "";
    $("judge-ci").textContent = "";
    $("judge-how").textContent = j ? (j.note || "") : "";
    return;
  }
  judge.textContent = num(fig.edge, "points");
  judge.dataset.how = fig.how;
  judge.dataset.half = ((fig.ci95[1] - fig.ci95[0]) / 2 * 100).toFixed(2);
  $("judge-ci").textContent = `[${num(fig.ci95[0], "points")}, ${num(fig.ci95[1], "points")}]`;
  let label, rest;
  if (about) [label, rest] = [`measuring with ${fig.judge}`, `: ${fig.deals.toLocaleString()} of ${about.deals.toLocaleString()} deals played`];
  else if (fig.how === "measured") [label, rest] = [fig.label, ` on ${fig.deals.toLocaleString()} deals`
    + (fig.source && fig.source !== "these games" ? ` (${fig.source})` : "")];
  else [label, rest] = [fig.label, `: ${fig.predicted_from}'s effect on these deals, carried through the effect map `
    + "(the interval holds the map's spread)"];
  const std = j.standard && fig.edge !== j.standard.edge ? j.standard : null;
  rest += ". " + (std ? `The standard rules: ${num(std.edge, "points")} [${num(std.ci95[0], "points")}, `
    + `${num(std.ci95[1], "points")}], ${std.label}. ` : "") + `${j.name} ${j.gap}.`;
  $("judge-how").replaceChildren(el("b", {text: label}), rest);
}

function endConfirm(message) {
  confirming = null;
  $("confirm").disabled = false;
  $("confirm-cancel").hidden = true;
  $("confirm-progress").hidden = true;
  if (message !== undefined) $("confirm-status").textContent = message;
}

function stopConfirm(message) {
  if (!confirming) return;
  const c = confirming;
  c.abort.abort();  // the stream closes: the server stops between two chunks, and keeps the chunks it played
  endConfirm(`${message} at ${c.done.toLocaleString()} of ${c.deals.toLocaleString()} deals: the games played are `
    + "kept, and confirming this form again goes on from them");
  showJudge(lastJudge);
}

async function startConfirm() {
  if (confirming) return;
  if (fair) { fair.close(); fair = null; $("fair-message").textContent = "stopped: a confirmation started"; }
  stop();  // the page's one computation is now the confirmation
  const q = query();
  q.append("deals", $("confirm-deals").value.trim());
  const c = {abort: new AbortController(), done: 0, deals: 0, before: lastJudge && lastJudge.changed};
  confirming = c;
  $("m-deals").textContent = "";
  $("confirm").disabled = true;
  $("confirm-cancel").hidden = false;
  $("confirm-status").textContent = `starting ${spec.judge.name}'s games… (its first use in a while loads it: a few seconds, `
    + "a minute if it must be compiled)";
  let res;
  try {
    res = await fetch("/api/confirm?page=" + PAGE + "&" + q, {signal: c.abort.signal});
  } catch (e) {
    if (confirming === c) endConfirm("the server does not answer: is ccsim explore still running?");
    return;
  }
  if (!res.ok) {  // refused (one line at its field) or too many pages at once
    const body = await res.json();
    if (confirming === c) endConfirm("");
    if (body.errors.deals) $("m-deals").textContent = body.errors.deals;
    else $("confirm-status").textContent = Object.values(body.errors)[0];
    return;
  }
  $("confirm-progress").hidden = false;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const {value, done} = await reader.read();
      if (done || confirming !== c) break;
      buffer += value;
      let at;
      while ((at = buffer.indexOf("\n\n")) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (line.startsWith("data:")) confirmed(c, JSON.parse(line.slice(5)));
      }
    }
  } catch (e) {
    // aborted: the page stopped it (stopConfirm said so)
  }
  if (confirming === c) endConfirm();
}

function confirmed(c, m) {
  // one event of the confirmation: its figure narrowing, then measured (or cancelled, or failed)
  if (confirming !== c) return;
  if (m.state === "failed") { endConfirm("failed: " + m.message); showJudge(lastJudge); return; }
  if (m.state === "cancelled" && m.deals === undefined) {  // stopped before its first chunk was tallied
    endConfirm("stopped before the first deals were played");
    showJudge(lastJudge);
    return;
  }
  if (m.confirm) { c.deals = m.confirm.deals; c.done = m.deals; }
  const kept = m.games - m.played;
  const games = `${m.games.toLocaleString()} games` + (kept ? ` (${kept.toLocaleString()} played before)` : "")
    + ` in ${m.seconds.toFixed(0)} s`;
  if (m.state === "running") {
    showJudge(m.judge, m.confirm);
    $("confirm-progress").value = m.deals / m.confirm.deals;
    $("confirm-status").textContent = `${m.confirm.judge}: ${m.deals.toLocaleString()} of ${m.confirm.deals.toLocaleString()} deals, ${games}`;
  } else if (m.state === "confirmed") {
    lastJudge = m.judge;
    showJudge(m.judge);
    const b = c.before && c.before.how === "predicted" ? c.before : null;
    endConfirm(`confirmed: ${m.deals.toLocaleString()} deals at ${m.confirm.judge}, ${games}. The measurement replaces `
      + "the prediction" + (b ? ` (${num(b.edge, "points")} [${num(b.ci95[0], "points")}, ${num(b.ci95[1], "points")}])` : "")
      + "; this server keeps it while it runs.");
  } else if (m.state === "cancelled") {
    endConfirm(`stopped at ${m.deals.toLocaleString()} of ${c.deals.toLocaleString()} deals: the games played are kept, `
      + "and confirming this form again goes on from them");
    showJudge(lastJudge);
  }
}

// --- plots: small SVGs drawn here ---------------------------------------------------------------

const W = 420, H = 220, L = 46, R = 22, T = 18, B = 30;
const COLORS = ["var(--std)", "var(--chg)"];

function svgEl(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function ticks(lo, hi) {
  // round numbers for an axis: a step of 1, 2 or 5 times a power of ten, about five ticks
  const raw = (hi - lo) / 4 || 1, p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Math.round(t / step) * step);
  return out;
}

function axes(svg, x0, x1, y0, y1, xlabel, yfmt) {
  svg.replaceChildren();
  const sx = (x) => L + (x - x0) / (x1 - x0 || 1) * (W - L - R);
  const sy = (y) => H - B - (y - y0) / (y1 - y0 || 1) * (H - T - B);
  svg.append(svgEl("line", {x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#bbb"}));
  svg.append(svgEl("line", {x1: L, y1: T, x2: L, y2: H - B, stroke: "#bbb"}));
  for (const y of ticks(y0, y1)) {
    const t = svgEl("text", {x: L - 4, y: sy(y) + 4, "text-anchor": "end"});
    t.textContent = yfmt(y);
    svg.append(t, svgEl("line", {x1: L, y1: sy(y), x2: W - R, y2: sy(y), stroke: "#eee"}));
  }
  for (const x of ticks(x0, x1)) {
    const t = svgEl("text", {x: sx(x), y: H - B + 14, "text-anchor": "middle"});
    t.textContent = x.toLocaleString();
    svg.append(t);
  }
  const lab = svgEl("text", {x: (L + W - R) / 2, y: H - 3, "text-anchor": "middle"});
  lab.textContent = xlabel;
  svg.append(lab);
  return [sx, sy];
}

function legend(svg, snap) {
  snap.arms.forEach((a, k) => {
    const x = W - R - 150 + 80 * k;
    svg.append(svgEl("rect", {x: x, y: 3, width: 10, height: 10, fill: COLORS[k], "fill-opacity": 0.6}));
    const t = svgEl("text", {x: x + 14, y: 12});
    t.textContent = k === 0 ? "standard" : (a.name === "these deck orders" ? "these decks" : "changed");
    svg.append(t);
  });
}

function plotEdge(snap) {
  const hist = snap.history, n = snap.arms.length;
  if (!hist.length) return;
  let lo = Infinity, hi = -Infinity;
  for (const h of hist) for (let a = 1; a <= n; a++) { lo = Math.min(lo, h[a][0]); hi = Math.max(hi, h[a][1]); }
  lo = Math.min(lo, 0); hi = Math.max(hi, 0);
  const pad = (hi - lo) * 0.05 || 0.01;
  const [sx, sy] = axes($("plot-edge"), 0, hist[hist.length - 1][0], lo - pad, hi + pad, "deals played",
                        (y) => (100 * y).toFixed(Math.abs(hi - lo) < 0.04 ? 1 : 0));
  $("plot-edge").append(svgEl("line", {x1: L, x2: W - R, y1: sy(0), y2: sy(0), stroke: "#999", "stroke-dasharray": "3 3"}));
  for (let a = 0; a < n; a++) {
    const top = hist.map((h) => `${sx(h[0])},${sy(h[a + 1][1])}`), bottom = hist.map((h) => `${sx(h[0])},${sy(h[a + 1][0])}`);
    $("plot-edge").append(svgEl("polygon", {points: top.concat(bottom.reverse()).join(" "), fill: COLORS[a],
                                            "fill-opacity": 0.25, stroke: COLORS[a], "stroke-width": 1}));
  }
  legend($("plot-edge"), snap);
}

function plotMargins(snap) {
  const span = snap.margin_span, svg = $("plot-margin");
  const shares = snap.margins.map((counts) => { const t = counts.reduce((s, c) => s + c, 0) || 1; return counts.map((c) => c / t); });
  const top = Math.max(...shares.flat(), 0.01);
  const [sx, sy] = axes(svg, -span, span, 0, top * 1.05, "Cleopatra's VP − Caesar's (clipped at ±" + span + ")",
                        (y) => (100 * y).toFixed(0) + "%");
  shares.forEach((s, a) => {
    const pts = s.map((v, k) => `${sx(k - span - 0.5)},${sy(v)} ${sx(k - span + 0.5)},${sy(v)}`);
    svg.append(svgEl("polyline", {points: pts.join(" "), fill: "none", stroke: COLORS[a], "stroke-width": 1.6}));
  });
  legend(svg, snap);
}

// --- the fair search ---------------------------------------------------------------------------

let fair = null;

function searchFair() {
  if (fair) fair.close();
  stop();  // the page's one computation is now the search
  $("fair-log").hidden = false;
  $("fair-log").textContent = "";
  $("fair-message").textContent = "";
  $("fair-found").replaceChildren();
  const es = new EventSource("/api/fair?page=" + PAGE + "&" + query());
  fair = es;
  es.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.state === "running") $("fair-log").textContent += m.line + "\n";
    else if (m.state === "done") showFair(m);
    else if (m.state === "refused") $("fair-message").textContent = Object.values(m.errors)[0];
    else if (m.state === "failed") $("fair-message").textContent = "failed: " + m.message;
    else if (m.state === "cancelled") $("fair-message").textContent = "stopped: the form changed";
    if (m.state !== "running") { es.close(); if (fair === es) fair = null; }
  };
  es.onerror = () => {  // refused before it started (HTTP 400): ask the check for the message
    es.close();
    if (fair === es) fair = null;
    fetch("/api/check?" + query()).then((r) => r.json()).then((b) => {
      if (b.errors) $("fair-message").textContent = Object.values(b.errors)[0];
    });
  };
}

function showFair(m) {
  $("fair-log").textContent += `${m.games.toLocaleString()} games in ${m.seconds.toFixed(0)} s\n`;
  if (!m.recommended.length) {
    $("fair-message").textContent = `no setting of this space is fair within ±${(100 * m.tolerance).toFixed(0)} points`;
    return;
  }
  for (const r of m.recommended) {
    const lv = r.levels[0];
    const use = el("button", {type: "button", text: "Put it in the form"});
    use.addEventListener("click", () => { location.search = "?" + r.query; });
    $("fair-found").append(el("li", {}, el("b", {text: r.words}), ` — ${r.verdict}: edge ${num(lv.seat_advantage, "points")} `
      + `[${num(lv.ci95[0], "points")}, ${num(lv.ci95[1], "points")}] on ${lv.deals.toLocaleString()} fresh deals`, use));
  }
}

// --- the sample game ---------------------------------------------------------------------------

async function loadSample() {
  const q = query();
  q.append("game", $("sample-game").value || "0");
  q.append("arm", $("sample-arm").value);
  $("sample-turn").textContent = "playing the game…";
  const res = await fetch("/api/sample?" + q);
  const body = await res.json();
  if (!res.ok) { $("sample-turn").textContent = Object.values(body.errors)[0]; return; }
  sample = body;
  turn = 0;
  $("sample-opening").textContent = sample.opening;
  showTurn();
}

function showTurn() {
  if (!sample) return;
  turn = Math.max(0, Math.min(turn, sample.turns.length - 1));
  $("turn-at").textContent = `turn ${turn + 1} of ${sample.turns.length}`;
  $("sample-turn").textContent = sample.turns[turn] || "";
}

// --- start -------------------------------------------------------------------------------------

async function main() {
  const start = new URLSearchParams(location.search);  // (asking replaces it with the form's own fields)
  spec = await (await fetch("/api/form")).json();
  buildForm();
  fill(start);
  setupPlay(start);  // the Play these rules panel (play.js)
  $("f-level").dispatchEvent(new Event("change"));  // (its cost line; the form's own listeners come after)
  $("form").addEventListener("input", changed);
  $("form").addEventListener("change", changed);
  $("reset").addEventListener("click", () => { history.replaceState(null, "", "?"); location.reload(); });
  $("sample-box").addEventListener("toggle", () => { if ($("sample-box").open) loadSample(); });
  $("sample-arm").addEventListener("change", loadSample);
  $("sample-game").addEventListener("change", loadSample);
  $("turn-prev").addEventListener("click", () => { turn--; showTurn(); });
  $("turn-next").addEventListener("click", () => { turn++; showTurn(); });
  $("fair-start").addEventListener("click", searchFair);
  $("confirm").addEventListener("click", startConfirm);
  $("confirm-cancel").addEventListener("click", () => stopConfirm("cancelled"));
  markChanged();
  ask();
}

main();
