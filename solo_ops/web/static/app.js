// solo-ops table view: the page. Plain JavaScript, no build step.
// Everything shown comes from the server's player view (api/view, api/events, board.svg).
// The prompt's options become buttons generically (optionButtons): a new kind of question
// needs no code here unless it wants a picture of its own.
"use strict";

const params = new URLSearchParams(location.search);
const token = params.get("token");
const $ = (id) => document.getElementById(id);

const page = {
  me: params.get("player"),  // the player this page is; null on the host's page
  host: false,       // the host's page: answers for whoever is asked
  steps: 0,          // records shown so far
  prompt: null,      // the current prompt (as play --json prints it, with its step)
  view: null,        // the last api/view document
  moveKind: "move",  // what a tap on the board reports
  preview: null,     // the tap preview waiting for confirmation
  busy: false,       // a refresh is running
  again: false,
  sending: false,    // an answer is on its way: every button waits
  unreachable: false, // the last refresh found no server (said until one succeeds)
  events: null,      // the live connection
  campaign: false,   // a campaign is served (campaign.js shows its part)
};

function query(extra) {
  const p = new URLSearchParams(extra || {});
  if (page.me) p.set("player", page.me);
  if (token) p.set("token", token);
  return p.toString();
}

async function getJSON(url) {
  const r = await fetch(url, { cache: "no-store" });
  const doc = await r.json().catch(() => ({ ok: false, message: `error ${r.status}` }));
  if (!r.ok) throw new Error(doc.message || `error ${r.status}`);
  return doc;
}

function say(text, bad) {
  const m = $("message");
  m.textContent = text || "";
  m.classList.toggle("bad", !!bad);
}

function button(label, onClick, cls) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

// -- answering -------------------------------------------------------------------------------
// Every control that answers is disabled while an answer is on its way, and every answer
// names the step of the question it answers: a second tap finds it answered and changes nothing.
function setSending(on) {
  page.sending = on;
  for (const el of document.querySelectorAll("#actions button, #actions input, #tools button")) {
    el.disabled = on;
  }
  document.body.classList.toggle("sending", on);
}

async function send(answer) {
  const text = String(answer).trim();
  if (!text || page.sending) return;
  hidePreview();
  setSending(true);
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Solo-Ops-Token"] = token;
  const body = { answer: text };
  if (page.me) body.player = page.me;
  if (page.prompt && Number.isInteger(page.prompt.step)) body.step = page.prompt.step;
  let doc;
  let status = 0;
  try {
    const r = await fetch("api/answer", { method: "POST", headers, body: JSON.stringify(body) });
    status = r.status;
    doc = await r.json();
  } catch (e) {
    setSending(false);
    say(`✗ the server cannot be reached (${e.message}); the page reconnects by itself`, true);
    return;
  }
  $("confirm").hidden = true;
  if (status === 409 && /^already answered/.test(doc.message || "")) {
    say("");  // a second tap: the question was answered, the page catches up
  } else if (doc.confirm) {
    $("confirm-text").textContent = doc.message;
    $("confirm").hidden = false;
    say("");
    if (doc.confirm.to) drawGhost(confirmGhost(doc.confirm, doc.route));
  } else if (!doc.ok) {
    say(`✗ ${doc.message}`, true);
  } else {
    say(doc.message || "");
    $("answer").value = "";
    chips();
  }
  if (doc.meta === "map") $("svg-link").focus();
  // the controls wake only on the newest question: a refresh already under way (started by the
  // live connection before this answer landed) is followed by another, and waited for
  await refresh();
  await whenIdle();
  setSending(false);
}

// A computed move waiting for "yes" (move kell to obj-2): its end and route on the board.
function confirmGhost(action, route) {
  const m = page.view.models.find((x) => x.id === action.operative);
  return { at: action.to, radius: m ? m.radius : 0.5, route: route || [], within: true };
}

// -- the prompt --------------------------------------------------------------------------------
const MOVE_WORDS = { move: "move", dash: "dash", fallback: "fall back", advance: "advance",
                     charge: "charge" };

function allowed(view, word) {
  // null (or absent): the rules allow it now; text: why not (from the engine)
  return !(view.open && typeof view.open[word] === "string");
}

function showPrompt(view) {
  const prompt = view.prompt;
  page.prompt = prompt;
  const mine = view.your_turn;
  const text = $("prompt-text");
  text.textContent = prompt.kind === "ended" ? endText(view) : prompt.text;
  text.classList.toggle("mine", mine);
  const waiting = $("waiting");
  waiting.hidden = !view.waiting_for;
  waiting.textContent = view.waiting_for ? `Waiting for ${view.waiting_for}…` : "";
  $("options").replaceChildren();
  $("why-not").textContent = "";
  $("stances").hidden = !(mine && prompt.kind === "activate" && view.edition === "kt2024");
  const kinds = $("move-kinds");
  kinds.replaceChildren();
  kinds.hidden = true;
  $("typed").hidden = !mine && prompt.kind !== "ended";
  if (mine) {
    if (prompt.kind === "activate") activateButtons(prompt);
    else if (prompt.kind === "attack") numberButtons();
    else if (prompt.kind === "act" || prompt.kind === "counteract") actButtons(view, prompt);
    else optionButtons(prompt.options, null, advisedOf(prompt));
  }
  if (page.sending) setSending(true);
  chips();
}

function activateButtons(prompt) {
  for (const op of prompt.options) {
    $("options").append(button(op, () => {
      const stance = document.querySelector("input[name=stance]:checked").value;
      send(stance ? `${op} ${stance}` : op);
    }, "primary"));
  }
}

function numberButtons() {
  for (let n = 0; n <= 6; n++) $("options").append(button(String(n), () => send(String(n))));
}

// The engine's advice where a prompt gives it: a fight's next die marks its best move
// (data.options[].advised), shown with a star and as the primary button.
function advisedOf(prompt) {
  const options = (prompt.data && prompt.data.options) || [];
  return options.filter((o) => o.advised).map((o) => o.answer);
}

// Any option without a placeholder is a button that sends it; one with a placeholder
// (TARGET, X,Y, N...) starts the answer in the text box and offers what can follow.
function optionButtons(options, skip, advised) {
  for (const option of options) {
    const word = option.split(" ")[0];
    if (skip && skip(word, option)) continue;
    if (advised && advised.includes(option)) {
      $("options").append(button(`★ ${option}`, () => send(option), "primary"));
    } else if (!/[A-Z]/.test(option)) {
      const primary = !advised?.length &&
        (word === "done" || word === "keep" || word === "auto") ? "primary" : "";
      $("options").append(button(option, () => send(option), primary));
    } else {
      $("options").append(button(`${word}…`, () => {
        $("answer").value = `${word} `;
        $("answer").focus();
        chips();
      }));
    }
  }
}

// Actions for a moment that may never come (a friend to pick up, one to carry off): while the
// rules do not allow them their buttons are left out without a word, not listed as refused.
const QUIET = new Set(["carry", "evacuate"]);

function actButtons(view, prompt) {
  const movers = [];
  const refused = [];
  optionButtons(prompt.options, (word, option) => {
    if (!allowed(view, word)) {
      if (!QUIET.has(word)) refused.push(word);
      return true;
    }
    if (MOVE_WORDS[word] && option.includes("X,Y")) { movers.push(word); return true; }
    return false;
  });
  if (refused.length) {  // grouped by reason: "move, dash: …; shoot: …"
    const byWhy = new Map();
    for (const w of refused) byWhy.set(view.open[w], [...(byWhy.get(view.open[w]) || []), w]);
    $("why-not").textContent = "Not now — " +
      [...byWhy].map(([why, ws]) => `${ws.map((w) => MOVE_WORDS[w] || w).join(", ")}: ${why}`)
        .join("; ");
  }
  if (!movers.length) return;
  const kinds = $("move-kinds");
  kinds.hidden = false;
  const label = document.createElement("span");
  label.className = "field-label";
  label.textContent = "tap the board to:";
  kinds.append(label);
  if (!movers.includes(page.moveKind)) page.moveKind = movers[0];
  for (const word of movers) {
    const b = button(MOVE_WORDS[word], () => { page.moveKind = word; showPrompt(page.view); });
    b.dataset.move = word;
    if (word === page.moveKind) b.classList.add("chosen");
    kinds.append(b);
  }
}

function endText(view) {
  const r = view.score.result || {};
  const vp = r.vp || view.score.vp || {};
  return `The battle is over: ${String(r.outcome || "").toUpperCase()} — you ${vp.player || 0} ` +
    `VP, solo-ops ${vp.enemy || 0} VP.`;
}

// Words to tap after the first word of an answer (ids on the table, numbers, keywords).
function chips() {
  const box = $("chips");
  box.replaceChildren();
  const view = page.view;
  if (!view || !view.your_turn) return;
  const words = $("answer").value.trim().split(/\s+/);
  const head = (words[0] || "").toLowerCase();
  const models = view.models.filter((m) => m.at && !m.down);
  let offer = [];
  if (["shoot", "fight", "charge"].includes(head) && words.length === 1) {
    offer = models.filter((m) => m.side === "enemy").map((m) => m.id);
  } else if (head === "shoot") {
    offer = ["roll", "damage", "with", ...numbers()];
  } else if (head === "fight") {
    offer = words.length === 2 ? ["roll", "dealt"] : ["taken", ...numbers()];
  } else if (head === "carry" && words.length === 1) {
    offer = view.models.filter((m) => m.side === "player" && m.down && m.at && !m.carried_by)
      .map((m) => m.id);
  } else if ((head === "door" || head === "hatch") && words.length === 1) {
    offer = Object.keys(view.doors || {});
  } else if (head === "door" || head === "hatch") {
    offer = ["open", "close"];
  } else if ((head === "damage" || head === "down") && words.length === 1) {
    offer = view.models.filter((m) => m.side === "player").map((m) => m.id);
  } else if (["damage", "strike", "block", "reroll"].includes(head)) {
    offer = numbers();
  }
  for (const word of offer) {
    box.append(button(word, () => {
      const input = $("answer");
      input.value = input.value.replace(/\s*$/, " ") + word + " ";
      input.focus();
      chips();
    }));
  }
}

function numbers() { return ["0", "1", "2", "3", "4", "5", "6"]; }

// -- the board ---------------------------------------------------------------------------------
async function drawBoard() {
  const r = await fetch(`board.svg?${query()}`, { cache: "no-store" });
  if (!r.ok) return;
  const text = await r.text();
  const holder = $("board");
  holder.innerHTML = text;
  const svg = holder.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  if (window.matchMedia("(max-width: 700px)").matches) {
    // a phone: the board only, margins trimmed (the legend is in the map download), so it
    // fills the width; pinch to zoom
    const g = page.view.board;
    const x0 = g.origin[0] - 26;
    const y0 = g.origin[1] - 8;
    svg.setAttribute("viewBox", `${x0} ${y0} ${g.width * g.scale + 34} ` +
                     `${g.depth * g.scale + 36}`);
  }
  const overlay = document.createElementNS("http://www.w3.org/2000/svg", "g");
  overlay.id = "overlay";
  svg.append(overlay);
  addHandle(svg);
  svg.addEventListener("pointerdown", onDown);
  svg.addEventListener("pointermove", onMove);
  svg.addEventListener("pointerup", onUp);
  svg.addEventListener("pointercancel", () => { drag = null; });
  if (page.preview) drawGhost(page.preview);
}

function toBoard(svg, evt) {
  const g = page.view.board;
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX;
  pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const x = (p.x - g.origin[0]) / g.scale;
  const y = g.depth - (p.y - g.origin[1]) / g.scale;
  return { x, y, inside: x >= 0 && y >= 0 && x <= g.width && y <= g.depth };
}

function toPx(x, y) {
  const g = page.view.board;
  return [g.origin[0] + x * g.scale, g.origin[1] + (g.depth - y) * g.scale];
}

function activeModel() {
  const p = page.prompt;
  if (!p || !(p.kind === "act" || p.kind === "counteract") || !page.view.your_turn) return null;
  return page.view.models.find((m) => m.id === p.operative && m.at) || null;
}

function addHandle(svg) {
  const m = activeModel();
  if (!m) return;
  const [cx, cy] = toPx(m.at[0], m.at[1]);
  const c = document.createElementNS("http://www.w3.org/2000/svg", "circle");
  c.setAttribute("cx", cx);
  c.setAttribute("cy", cy);
  c.setAttribute("r", m.radius * page.view.board.scale + 3);
  c.setAttribute("fill", "none");
  c.setAttribute("stroke", "#f0b429");
  c.setAttribute("stroke-width", "3");
  c.setAttribute("pointer-events", "all");
  c.setAttribute("class", "drag-handle");
  svg.append(c);
}

let drag = null;

function onDown(evt) {
  if (evt.isPrimary === false) { drag = null; return; }  // a second finger: a pinch
  const svg = evt.currentTarget;
  const at = toBoard(svg, evt);
  const m = activeModel();
  drag = { x0: evt.clientX, y0: evt.clientY, moved: false, model: null };
  if (m && Math.hypot(at.x - m.at[0], at.y - m.at[1]) <= m.radius + 0.4) {
    drag.model = m;
    svg.setPointerCapture(evt.pointerId);
    evt.preventDefault();
  }
}

function onMove(evt) {
  if (!drag) return;
  if (Math.hypot(evt.clientX - drag.x0, evt.clientY - drag.y0) > 6) drag.moved = true;
  if (drag.model && drag.moved) {
    const at = toBoard(evt.currentTarget, evt);
    drawGhost({ at: [at.x, at.y], radius: drag.model.radius, route: [], within: true,
                dragging: true });
  }
}

function onUp(evt) {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (d.moved && !d.model) return;  // a scroll or a pan, not a tap
  const at = toBoard(evt.currentTarget, evt);
  if (!at.inside) return;
  tapped(at.x, at.y);
}

async function tapped(x, y) {
  if (!activeModel() || page.sending) {
    if (page.view && page.view.your_turn && page.prompt.kind === "activate") {
      say("Choose which operative acts first (the buttons below the board).");
    }
    return;
  }
  const how = page.moveKind;
  let doc;
  try {
    doc = await getJSON(`api/place?${query({ x: x.toFixed(2), y: y.toFixed(2), how })}`);
  } catch (e) {
    say(`✗ ${e.message}`, true);
    return;
  }
  if (!doc.ok) { say(`✗ ${doc.message}`, true); return; }
  showPreview(doc);
}

// The preview offers only the moves the game takes at that point (each checked by the
// engine, as the answer will be); the others say why not.
function showPreview(doc) {
  page.preview = doc;
  $("preview-text").textContent = doc.text;
  $("preview").classList.toggle("bad", !doc.within);
  const box = $("preview-choices");
  box.replaceChildren();
  const refused = [];
  for (const choice of doc.choices || []) {
    if (choice.ok) {
      const b = button(`${MOVE_WORDS[choice.how] || choice.how} here`,
                       () => send(choice.answer), "primary");
      b.dataset.answer = choice.answer;
      box.append(b);
    } else {
      refused.push(`${MOVE_WORDS[choice.how] || choice.how}: ${choice.why}`);
    }
  }
  box.append(button("Cancel", hidePreview));
  $("preview-refused").textContent = refused.length && doc.within ? `Not here — ${refused[0]}` +
    (refused.length > 1 ? ` (and ${refused.length - 1} more)` : "") : "";
  $("preview").hidden = false;
  drawGhost(doc);
}

function drawGhost(p) {
  const overlay = document.getElementById("overlay");
  if (!overlay) return;
  overlay.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  const colour = p.within ? "#1f9d55" : "#d23b3b";
  if (p.route && p.route.length > 1) {
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", p.route.map((q) => toPx(q[0], q[1]).join(",")).join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", colour);
    line.setAttribute("stroke-width", "3");
    line.setAttribute("stroke-dasharray", "6 4");
    overlay.append(line);
  }
  const [cx, cy] = toPx(p.at[0], p.at[1]);
  const c = document.createElementNS(ns, "circle");
  c.setAttribute("cx", cx);
  c.setAttribute("cy", cy);
  c.setAttribute("r", p.radius * page.view.board.scale);
  c.setAttribute("fill", colour);
  c.setAttribute("fill-opacity", "0.35");
  c.setAttribute("stroke", colour);
  c.setAttribute("stroke-width", "2");
  c.setAttribute("class", "ghost");
  overlay.append(c);
  if (!p.dragging && p.distance !== undefined && p.distance !== null) {
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", cx);
    t.setAttribute("y", cy - p.radius * page.view.board.scale - 6);
    t.setAttribute("text-anchor", "middle");
    t.setAttribute("font-size", "15");
    t.setAttribute("font-weight", "bold");
    t.setAttribute("fill", colour);
    t.setAttribute("stroke", "#fff");
    t.setAttribute("stroke-width", "3");
    t.setAttribute("paint-order", "stroke");
    t.textContent = p.measured;  // the server's words: one rounding, the game's units
    overlay.append(t);
  }
}

function hidePreview() {
  page.preview = null;
  $("preview").hidden = true;
  const overlay = document.getElementById("overlay");
  if (overlay) overlay.replaceChildren();
}

// -- narration and score -------------------------------------------------------------------------
// Oldest first, as the terminal prints it, so an activation reads top to bottom; the list
// keeps the newest in view.
function addNarration(items, fresh) {
  const list = $("narration");
  for (const item of items) {
    if (!item.lines.length) continue;
    const li = document.createElement("li");
    li.value = item.n;
    li.dataset.n = item.n;
    for (const line of item.lines) {
      const span = document.createElement("span");
      span.className = "line";
      span.textContent = line;
      li.append(span);
    }
    if (fresh) {
      li.classList.add("new");
      setTimeout(() => li.classList.remove("new"), 2500);
    }
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

function showScore(view) {
  const s = view.score;
  const turn = view.edition === "kt2024" ? "Turning point" : "Battle round";
  const cp = s.cp && s.cp.player !== undefined ? ` · CP ${s.cp.player}` : "";
  $("score").textContent = `${turn} ${s.turn} · VP you ${s.vp.player || 0} / solo-ops ` +
    `${s.vp.enemy || 0}${cp}`;
  $("title").textContent = view.scenario;
  document.title = `${view.scenario} — solo-ops`;
}

// -- keeping up --------------------------------------------------------------------------------
let idleWaiters = [];

// Resolves once no refresh is under way or queued: the page shows the newest view.
function whenIdle() {
  return page.busy ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve();
}

async function refresh(full) {
  if (page.busy) { page.again = page.again === "full" || full ? "full" : true; return; }
  page.busy = true;
  try {
    const since = full ? 0 : page.steps;
    const view = await getJSON(`api/view?${query({ since })}`);
    if (full || view.steps < page.steps || !page.view) {
      $("narration").replaceChildren();
      addNarration(view.narration, false);
      if (view.briefing.length) {
        $("briefing").replaceChildren(...view.briefing.map((line) => {
          const p = document.createElement("p");
          p.textContent = line;
          return p;
        }));
      }
    } else {
      addNarration(view.narration, true);
    }
    const changed = !page.view || view.steps !== page.steps || full;
    page.view = view;
    page.steps = view.steps;
    if (changed) hidePreview();
    showScore(view);
    showPrompt(view);
    if (changed) await drawBoard();
    if (page.unreachable) {  // the server is back: its old complaint goes
      page.unreachable = false;
      say("");
    }
  } catch (e) {
    page.unreachable = e instanceof TypeError;  // fetch itself failed: no server
    say(page.unreachable ? "✗ the server cannot be reached; the page reconnects by itself"
      : `✗ ${e.message}`, true);
  } finally {
    page.busy = false;
    if (page.again) {
      const again = page.again;
      page.again = false;
      refresh(again === "full");
    } else {
      const waiting = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiting) resolve();
    }
  }
}

function linkState(live) {
  if (live && page.unreachable) {  // connected again: the complaint of the outage goes
    page.unreachable = false;
    say("");
  }
  const badge = $("link");
  badge.classList.toggle("off", !live);
  badge.textContent = live ? "live" : "reconnecting…";
}

// The live connection: the browser reconnects by itself, sending the last event id it saw; the
// first message of every connection says whether the page missed anything (resync). A
// connection refused outright is tried again every two seconds.
function listen() {
  const events = new EventSource(`api/events?${query()}`);
  page.events = events;
  events.onopen = () => linkState(true);
  events.onerror = () => {
    linkState(false);
    if (events.readyState === EventSource.CLOSED) {
      setTimeout(() => { if (page.events === events) listen(); }, 2000);
    }
  };
  events.onmessage = (e) => {
    const doc = JSON.parse(e.data);
    if (doc.campaign !== undefined && window.soloOpsCampaign) {
      window.soloOpsCampaign.changed(doc);
      return;
    }
    if (doc.resync || doc.undo) { refresh(true); return; }
    if (doc.result && window.soloOpsCampaign && page.campaign) window.soloOpsCampaign.changed();
    if (doc.record || doc.result) refresh(false);
    else if (doc.prompt && page.view && JSON.stringify(doc.prompt) !==
             JSON.stringify(page.view.prompt)) refresh(false);
  };
}

async function choose(players) {
  $("side").hidden = true;
  $("board-card").hidden = true;
  $("choose").hidden = false;
  for (const name of players) {
    const p = new URLSearchParams({ player: name });
    if (token) p.set("token", token);
    const a = document.createElement("a");
    a.className = "button";
    a.href = `?${p}`;
    a.textContent = name;
    $("choices").append(a, " ");
  }
  const all = document.createElement("a");
  all.className = "button";
  all.href = `?${new URLSearchParams({ host: "1", ...(token ? { token } : {}) })}`;
  all.textContent = "Everyone (one device)";
  $("choices").append(all);
}

async function start() {
  let who;
  try {
    who = await getJSON(`api/players?${query()}`);
  } catch (e) {
    $("prompt-text").textContent = e.message;
    return;
  }
  if (!page.me && who.you !== "host") page.me = who.you;  // a player's own link
  page.host = !page.me;
  if (page.host && !token && !params.get("host") && who.players.length > 1) {
    choose(who.players);
    return;
  }
  $("who").textContent = page.host ? "· everyone (host)" : `· ${page.me}`;
  $("svg-link").href = `board.svg?${query({ download: 1 })}`;
  $("png-link").href = `board.png?${query({ download: 1 })}`;
  $("typed").addEventListener("submit", (e) => { e.preventDefault(); send($("answer").value); });
  $("answer").addEventListener("input", chips);
  $("zoom").addEventListener("click", () => {
    const on = $("board").classList.toggle("zoomed");
    $("zoom").setAttribute("aria-pressed", String(on));
    $("zoom").textContent = on ? "zoom −" : "zoom +";
  });
  $("confirm-yes").addEventListener("click", () => send("yes"));
  $("confirm-no").addEventListener("click", () => send("no"));
  for (const b of document.querySelectorAll("[data-say]")) {
    b.addEventListener("click", () => send(b.dataset.say));
  }
  page.campaign = !!who.campaign;
  if (who.campaign && window.soloOpsCampaign) window.soloOpsCampaign.start(who, page);
  else listen();
}

window.soloOpsPage = { page, refresh, listen, query, getJSON, say, button, send, setSending };
start();
