// solo-ops table view: the page. Plain JavaScript, no build step.
// Everything shown comes from the server's player view (api/view, api/events, board.svg).
"use strict";

const params = new URLSearchParams(location.search);
const me = params.get("player");
const token = params.get("token");
const $ = (id) => document.getElementById(id);

const page = {
  steps: 0,          // records shown so far
  prompt: null,      // the current prompt (as play --json prints it)
  view: null,        // the last api/view document
  moveKind: "move",  // what a tap on the board reports
  preview: null,     // the tap preview waiting for confirmation
  busy: false,
  again: false,
};

function query(extra) {
  const p = new URLSearchParams(extra || {});
  if (me) p.set("player", me);
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
async function send(answer) {
  const text = String(answer).trim();
  if (!text) return;
  hidePreview();
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Solo-Ops-Token"] = token;
  let doc;
  try {
    const r = await fetch("api/answer", { method: "POST", headers,
                                          body: JSON.stringify({ player: me, answer: text }) });
    doc = await r.json();
  } catch (e) {
    say(`✗ the server cannot be reached (${e.message})`, true);
    return;
  }
  $("confirm").hidden = true;
  if (doc.confirm) {
    $("confirm-text").textContent = doc.message;
    $("confirm").hidden = false;
    say("");
  } else if (!doc.ok) {
    say(`✗ ${doc.message}`, true);
  } else {
    say(doc.message || "");
    $("answer").value = "";
    chips();
  }
  if (doc.meta === "map") $("svg-link").focus();
  refresh();
}

// -- the prompt --------------------------------------------------------------------------------
const MOVE_WORDS = { move: "move", dash: "dash", fallback: "fallback", advance: "advance",
                     charge: "charge" };

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
  const options = $("options");
  options.replaceChildren();
  $("stances").hidden = !(mine && prompt.kind === "activate" && view.edition === "kt2024");
  const kinds = $("move-kinds");
  kinds.replaceChildren();
  kinds.hidden = true;
  $("typed").hidden = !mine && prompt.kind !== "ended";
  if (!mine) { chips(); return; }
  if (prompt.kind === "activate") {
    for (const op of prompt.options) {
      options.append(button(op, () => {
        const stance = document.querySelector("input[name=stance]:checked").value;
        send(stance ? `${op} ${stance}` : op);
      }, "primary"));
    }
  } else if (prompt.kind === "attack") {
    for (let n = 0; n <= 6; n++) options.append(button(String(n), () => send(String(n))));
  } else if (["reroll", "guard", "cover"].includes(prompt.kind)) {
    // a CP re-roll ("reroll N" per failed die, "keep"); a Guard interrupt ("shoot …", "no");
    // a useless cover save ("roll", "keep")
    for (const option of prompt.options) {
      const primary = prompt.kind === "cover" ? option === prompt.options[0]
        : !["keep", "no"].includes(option);
      options.append(button(option, () => send(option), primary ? "primary" : ""));
    }
  } else if (prompt.kind === "fight") {  // the next die of a fight: each move, "auto", "auto all"
    const advised = (prompt.data.options || []).filter((o) => o.advised).map((o) => o.answer);
    for (const option of prompt.options) {
      const label = advised.includes(option) ? `★ ${option}` : option;
      options.append(button(label, () => send(option),
                            advised.includes(option) ? "primary" : ""));
    }
  } else if (prompt.kind === "act") {
    const movers = [];
    for (const option of prompt.options) {
      const word = option.split(" ")[0];
      if (MOVE_WORDS[word] && option.includes("X,Y")) { movers.push(word); continue; }
      if (!/[A-Z]/.test(option)) {
        options.append(button(option, () => send(option), word === "done" ? "primary" : ""));
      } else {
        options.append(button(option.split(" ")[0] + "…", () => {
          $("answer").value = word + " ";
          $("answer").focus();
          chips();
        }));
      }
    }
    if (movers.length) {
      kinds.hidden = false;
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = "tap the board to:";
      kinds.append(label);
      if (!movers.includes(page.moveKind)) page.moveKind = movers[0];
      for (const word of movers) {
        const b = button(word, () => { page.moveKind = word; showPrompt(page.view); });
        if (word === page.moveKind) b.classList.add("chosen");
        kinds.append(b);
      }
    }
  }
  chips();
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
    offer = view.models.filter((m) => m.side === "player" && m.down && m.at).map((m) => m.id);
  } else if ((head === "door" || head === "hatch") && words.length === 1) {
    offer = Object.keys(view.doors || {});
  } else if (head === "door" || head === "hatch") {
    offer = ["open", "close"];
  } else if ((head === "damage" || head === "down") && words.length === 1) {
    offer = view.models.filter((m) => m.side === "player").map((m) => m.id);
  } else if (head === "damage") {
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
    // a phone: the board only (the legend is in the map download), so it is drawn larger
    const g = page.view.board;
    const height = svg.viewBox.baseVal.height;
    svg.setAttribute("viewBox", `0 0 ${g.origin[0] + g.width * g.scale + 14} ${height}`);
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
  if (!p || p.kind !== "act" || !page.view.your_turn) return null;
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
  if (!activeModel()) {
    if (page.view && page.view.your_turn && page.prompt.kind === "activate") {
      say("Choose which operative acts first (the buttons above).");
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
  page.preview = doc;
  $("preview-text").textContent = doc.text;
  $("preview").classList.toggle("bad", !doc.within);
  $("preview-ok").textContent = doc.within ? `Confirm: ${doc.answer}` : `Send anyway: ${doc.answer}`;
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
    t.setAttribute("font-size", "13");
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
    list.prepend(li);
  }
}

function showScore(view) {
  const s = view.score;
  const turn = view.edition === "kt2024" ? "Turning point" : "Battle round";
  $("score").textContent = `${turn} ${s.turn} · VP you ${s.vp.player || 0} / solo-ops ` +
    `${s.vp.enemy || 0}`;
  $("title").textContent = view.scenario;
  document.title = `${view.scenario} — solo-ops`;
}

// -- keeping up --------------------------------------------------------------------------------
async function refresh(full) {
  if (page.busy) { page.again = page.again || (full ? "full" : true); return; }
  page.busy = true;
  try {
    const since = full ? 0 : page.steps;
    const view = await getJSON(`api/view?${query({ since })}`);
    if (full || view.steps < page.steps) {
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
  } catch (e) {
    say(`✗ ${e.message}`, true);
  } finally {
    page.busy = false;
    if (page.again) {
      const again = page.again;
      page.again = false;
      refresh(again === "full");
    }
  }
}

function listen() {
  const events = new EventSource(`api/events?${query()}`);
  events.onopen = () => { $("link").classList.remove("off"); refresh(true); };
  events.onerror = () => { $("link").classList.add("off"); };
  events.onmessage = (e) => {
    const doc = JSON.parse(e.data);
    if (doc.undo) { refresh(true); return; }
    if (doc.record || doc.result) refresh(false);
    else if (doc.prompt && page.view && JSON.stringify(doc.prompt) !==
             JSON.stringify(page.view.prompt)) refresh(false);
  };
}

async function choose() {
  $("side").hidden = true;
  $("board-card").hidden = true;
  $("choose").hidden = false;
  let doc;
  try {
    doc = await getJSON(`api/players?${query()}`);
  } catch (e) {
    $("choices").textContent = e.message;
    return;
  }
  for (const name of doc.players) {
    const p = new URLSearchParams({ player: name });
    if (token) p.set("token", token);
    const a = document.createElement("a");
    a.className = "button";
    a.href = `?${p}`;
    a.textContent = name;
    $("choices").append(a, " ");
  }
  if (doc.players.length === 1) location.replace(`?${new URLSearchParams({ player:
    doc.players[0], ...(token ? { token } : {}) })}`);
}

function start() {
  if (!me) { choose(); return; }
  $("who").textContent = `· ${me}`;
  $("svg-link").href = `board.svg?${query({ download: 1 })}`;
  $("png-link").href = `board.png?${query({ download: 1 })}`;
  $("typed").addEventListener("submit", (e) => { e.preventDefault(); send($("answer").value); });
  $("answer").addEventListener("input", chips);
  $("preview-ok").addEventListener("click", () => page.preview && send(page.preview.answer));
  $("preview-cancel").addEventListener("click", hidePreview);
  $("confirm-yes").addEventListener("click", () => send("yes"));
  $("confirm-no").addEventListener("click", () => send("no"));
  for (const b of document.querySelectorAll("[data-say]")) {
    b.addEventListener("click", () => send(b.dataset.say));
  }
  listen();
}

start();
