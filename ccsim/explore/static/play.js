// ccsim explore: Play these rules. A game of the form's rules against a level, one click a step.
// The server holds the game (ccsim.explore.play): each answer is the board as this seat may see it and, when it is
// this player's move, her options as a tree of small choices from the kernel's own option list. A move names the
// board it was chosen on, so a stale page or a second tab is refused with one line and the board as it is.
// Its names stay in this file (the page's own script has a show(), a stop()...): only setupPlay is the page's.
"use strict";

window.setupPlay = (() => {
let board = null, playing = null, picked = [];  // the board shown, the running request, the choices clicked so far

const INFLUENCE = new Set(["1", "2", "3", "4", "5", "P"]);
const cap = (s) => s[0].toUpperCase() + s.slice(1);
const many = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function card(name, how) {
  // one card: an influence card by its value (P the philosopher), an action card by its name
  const cls = "card" + (INFLUENCE.has(name) ? "" : " action") + (how ? " " + how : "");
  return el("span", {class: cls, text: name, title: how === "down" ? `${name}, face-down: only you see it` : name});
}

function cards(list, how) {
  return list.length ? list.map((c) => card(c, how)) : [el("span", {class: "note", text: "none"})];
}

function counted(list) {
  // a pile as its cards once each, with how many: a discard pile in a line
  if (!list.length) return [el("span", {class: "note", text: "none"})];
  return [...new Set(list)].map((c) => {
    const n = list.filter((x) => x === c).length;
    return el("span", {class: "pile"}, card(c), n > 1 ? `×${n}` : "");
  });
}

function backs(n) {
  return Array.from({length: n}, () => el("span", {class: "card back", text: "?", title: "face-down: hidden from you"}));
}

function fact(label, ...parts) {
  return el("p", {}, el("b", {text: label + " "}), ...parts);
}

function drawTable(b) {
  // her side above the five groups, yours below: as across a table
  const t = $("play-table");
  t.replaceChildren(el("span", {class: "who", text: `${cap(b.her)} (${b.against})`}));
  for (const g of b.groups) t.append(el("div", {class: "side"}, ...g.her.up.map((c) => card(c)), ...backs(g.her.down)));
  t.append(el("span", {class: "who", text: "Patricians"}));
  for (const g of b.groups) {
    const tile = el("div", {class: "group" + (g.left ? "" : " out") + (g.name === b.bonus ? " bonus" : ""),
                            title: g.name === b.bonus ? "your bonus card's group (R10.4)" : g.name},
                    el("b", {text: g.name}), g.left ? `${g.left} left` : "out of play",
                    el("br"), `won: you ${g.won.you} · ${b.her} ${g.won.her}`);
    t.append(tile);
  }
  t.append(el("span", {class: "who", text: `You (${b.seat})`}));
  for (const g of b.groups) t.append(el("div", {class: "side"}, ...g.you.up.map((c) => card(c)), ...g.you.down.map((c) => card(c, "down"))));
}

function drawFacts(b) {
  const s = b.scores;
  $("play-mine").replaceChildren(
    b.set_aside ? fact("Your set-aside cards (one goes on each group, R2.5):", ...cards(b.set_aside))
      : fact("Your hand:", ...cards(b.hand)),
    fact("Your next action card:", ...(b.next_action ? [card(b.next_action), ` (${b.action_left} in your action deck)`]
      : [el("span", {class: "note", text: "none left"})])),
    fact("Your bonus card:", `${b.bonus} (framed in green) · influence deck ${many(b.decks.you, "card")}`),
    fact(s.you.final ? "Your final score:" : "Your score now:", `${s.you.vp} VP, ${many(s.you.patricians, "patrician")}`),
    fact("Your discards:", ...counted(b.discards.you)));
  $("play-theirs").replaceChildren(
    fact(`${cap(b.her)}:`, `${many(b.her_hand, "card")} in hand · influence deck ${b.decks.her} · action deck ${b.decks.her_action}`),
    fact(`${cap(b.her)}'s ${s.her.final ? "final score" : "score now"}:`, `${s.her.vp} VP, ${many(s.her.patricians, "patrician")}`
      + (s.her.final ? "" : ` (${cap(b.her)}'s bonus card is hidden, R8.2: it may add ${s.her.hidden_bonus} VP)`)),
    fact("Vote-of-confidence deck:", `${b.voc.deck} cards · discard: ${b.voc.discard.join(" ") || "none"}`
      + (b.voc.box.length ? ` · box: ${b.voc.box.join(" ")}` : "")),
    fact(`${cap(b.her)}'s discards:`, ...counted(b.discards.her)),
    ...(b.announced ? [fact("Announced:", b.announced)] : []),
    ...(b.spy_seen ? [fact(`Your spy sees ${b.her}'s hand:`, ...cards(b.spy_seen))] : []));
}

function drawChoices(b) {
  // the node the clicks so far lead to; a choice with an option sends it, one with a question opens it
  const box = $("play-choices");
  box.replaceChildren();
  if (!b.choices || playing) return;
  let node = b.choices;
  for (const i of picked) node = node.choices[i].then;
  if (picked.length) {
    const labels = [];
    let n = b.choices;
    for (const i of picked) { labels.push(n.choices[i].label); n = n.choices[i].then; }
    const back = el("button", {type: "button", class: "back", text: "◀ back"});
    back.addEventListener("click", () => { picked.pop(); drawChoices(board); });
    box.append(el("p", {class: "so-far"}, `so far: ${labels.join(" › ")} `, back));
  }
  box.append(el("p", {}, el("b", {text: cap(node.question)})));
  node.choices.forEach((c, i) => {
    const b2 = el("button", {type: "button", class: "pick", text: c.label, title: c.words || ""});
    b2.addEventListener("click", () => {
      if (c.then) { picked.push(i); drawChoices(board); } else move(c.option);
    });
    box.append(b2);
  });
}

function status(text, thinking) {
  $("play-status").textContent = text;
  $("play-status").classList.toggle("thinking", !!thinking);
}

function show(b) {
  board = b;
  picked = [];
  $("play-board").hidden = false;
  $("play-title").textContent = `You (${b.seat}) against ${b.against} · deal ${b.deal} of seed ${b.seed} · ${b.rules}`;
  drawTable(b);
  drawFacts(b);
  $("play-recent-title").textContent = b.recent ? `Since ${b.her}'s last turn` : "The game so far";
  $("play-recent").textContent = b.story.slice(b.recent).join("\n").replace(/^\n+/, "")
    || (b.set_aside || b.decision === "placement" ? "(nothing yet)"
      : "(no turn yet: each player has placed one card face-down on each group, R2.5)");
  $("play-story").textContent = b.story.join("\n").replace(/^\n+/, "");
  $("play-end").hidden = !b.end;
  if (b.end) {
    $("play-end-words").textContent = b.end.words;
    $("play-record").href = "/api/play/record?game=" + b.game;
    status(`Game over, turn ${b.turn}.`);
  } else if (b.yours) status(`Turn ${b.turn}: your move.` + (b.note ? " " + cap(b.note) + "." : ""));
  else status(`Turn ${b.turn}: ${b.her} (${b.against}) to move.`);
  $("play-again").href = location.pathname + b.link;
  drawChoices(b);
}

function refused(body) {
  $("play-message").textContent = Object.values(body.errors)[0];
  if (body.board) show(body.board);
}

async function startGame(deal) {
  if (playing) playing.abort();
  playing = null;
  const q = query();
  q.append("against", $("play-against").value);
  q.append("seat", $("play-seat").value);
  if (deal !== null) q.append("deal", deal);
  $("play-message").textContent = "";
  status("dealing… (a level's first game loads it: a few seconds)");
  $("play-board").hidden = false;
  const res = await fetch("/api/play/new?" + q);
  const body = await res.json();
  if (!res.ok) { $("play-board").hidden = !board; refused(body); return; }
  $("play-deal").value = body.deal;
  show(body);
  if (!body.yours && !body.end) move(null);
}

async function move(option) {
  // the option (null: none, the opponent moves first), then the opponent's moves as they are made
  const p = new URLSearchParams({game: board.game, at: board.at});
  if (option !== null) p.append("option", option);
  const mine = new AbortController();
  playing = mine;
  $("play-message").textContent = "";
  $("play-choices").replaceChildren();
  status(`${board.her} (${board.against}) to move…`);
  let res;
  try {
    res = await fetch("/api/play/move?" + p, {signal: mine.signal});
  } catch (e) {
    if (playing === mine) { playing = null; status("the server does not answer: is ccsim explore still running?"); }
    return;
  }
  if (!res.ok) { playing = null; refused(await res.json()); if (board) drawChoices(board); return; }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const {value, done} = await reader.read();
      if (done || playing !== mine) break;
      buffer += value;
      let at;
      while ((at = buffer.indexOf("\n\n")) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (line.startsWith("data:")) heard(mine, JSON.parse(line.slice(5)));
      }
    }
  } catch (e) {
    // aborted: a new game started
  }
  if (playing === mine) playing = null;
}

function heard(mine, m) {
  // one event of the opponent's moves: thinking, a move made, then the board for the next move of yours
  if (playing !== mine) return;
  // a search level thinks through its whole turn: the line says so until the turn is the player's again
  if (m.state === "thinking") { mine.thinks = true; status(`${m.against} is thinking`, true); }
  else if (m.state === "moved") {
    show(m);
    if (mine.thinks) status(`${m.against} is thinking`, true); else status(`${m.her} (${m.against}) to move…`);
  }
  else if (m.state === "yours" || m.state === "over") { playing = null; show(m); }
  else if (m.state === "failed") status("failed: " + m.message);
  else if (m.state === "refused") $("play-message").textContent = Object.values(m.errors)[0];
  else if (m.state === "cancelled") status("stopped: the server stopped");
}

return function setupPlay(start) {
  // called by the page once its form is built; a link to a deal (against, seat, deal) opens it at once
  for (const l of spec.levels) $("play-against").append(el("option", {value: l.name, text: l.name + (l.cost.startsWith("search") ? " (slow)" : "")}));
  $("play-against").value = spec.default_level;
  $("play-start").addEventListener("click", () => startGame($("play-deal").value.trim()));
  $("play-new").addEventListener("click", () => startGame(null));
  if (start.has("deal")) {
    $("play-against").value = start.get("against") || spec.default_level;
    $("play-seat").value = start.get("seat") || "cleopatra";
    $("play-deal").value = start.get("deal");
    startGame(start.get("deal")).then(() => $("play").scrollIntoView());
  }
};
})();
