// solo-ops table view: the page. Plain JavaScript, no build step.
// Everything shown comes from the server's player view (api/view, api/events, board.svg).
// One thumb: the question and its legal answers first, right under the board. The active
// operative's answers are the server's offers, each already asked of the engine (web/offers.py);
// any other question's options become buttons generically (optionButtons). The board, its
// zoom and the model cards are board.js's.
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
  busy: false,       // a refresh is running
  again: false,
  sending: false,    // an answer is on its way: every button waits
  unreachable: false, // the last refresh found no server (said until one succeeds)
  events: null,      // the live connection
  campaign: false,   // a campaign is served (campaign.js shows its part)
  shownStep: null,   // the step of the question shown (its extras fold for a new one)
  shownKey: null,    // what the question's controls were drawn from (kept while it is the same)
};

const BLOCK = 300;  // the longest block of text the prompt card shows (characters)

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

// A long text as blocks of at most BLOCK characters: whole sentences where they fit, a long
// sentence cut at a space (every word is still shown). A line break in the text always starts
// a new block (a fight's question gives each side's dice and each choice a line of its own).
function blocks(text, limit) {
  const most = limit || BLOCK;
  const out = [];
  for (const line of String(text || "").split("\n")) {
    let current = "";
    for (const piece of line.split(/(?<=[.!?;:])\s+/)) {
      let rest = piece.trim();
      if (!rest) continue;
      if (current && current.length + 1 + rest.length <= most) {
        current += " " + rest;
        continue;
      }
      if (current) out.push(current);
      while (rest.length > most) {
        const cut = rest.lastIndexOf(" ", most - 1);
        const at = cut > most / 2 ? cut : most - 1;
        out.push(rest.slice(0, at) + (cut > most / 2 ? "" : "…"));
        rest = rest.slice(at).trim();
      }
      current = rest;
    }
    if (current) out.push(current);
  }
  return out;
}

function blockElements(text, tag) {
  return blocks(text).map((line) => {
    const el = document.createElement(tag || "div");
    el.className = "line";
    el.textContent = line;
    return el;
  });
}

function say(text, bad) {
  const m = $("message");
  m.replaceChildren(...String(text || "").split("\n").filter((l) => l.trim())
    .flatMap((line) => blockElements(line)));
  m.classList.toggle("bad", !!bad);
  m.classList.remove("help");
}

// Help (the server's, api.page_help): what to tap, in the page's own letters, with the typed
// answers folded under it as the terminal lists them.
function showHelp(typed) {
  const m = $("message");
  m.classList.add("help");
  const box = document.createElement("details");
  box.className = "typed-help";
  const title = document.createElement("summary");
  title.textContent = "typed answers";
  box.append(title, ...String(typed || "").split("\n").flatMap((l) => blockElements(l)));
  m.append(box);
}

// Scroll the page the least that brings ``el`` wholly into the window (below the sticky
// header): a confirm button or a question's answer that opened below a small phone's screen.
function keepInView(el) {
  if (!el || el.hidden) return;
  const box = el.getBoundingClientRect();
  const top = $("top").getBoundingClientRect().bottom;
  if (box.bottom > window.innerHeight) {
    window.scrollBy(0, Math.min(box.bottom - window.innerHeight + 8, box.top - top - 8));
  } else if (box.top < top) {
    window.scrollBy(0, box.top - top - 8);
  }
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
  for (const el of document.querySelectorAll(
    "#actions button, #actions input, #tools button, #card-actions button")) {
    el.disabled = on;
  }
  document.body.classList.toggle("sending", on);
}

async function send(answer) {
  const text = String(answer).trim();
  if (!text) return;
  if (page.sending) {  // a control made while an answer was on its way: said, never lost quietly
    say(`Not sent: "${text}" — the last answer was still on its way. Tap it again now.`, true);
    return;
  }
  window.soloOpsBoard.hidePreview();
  setSending(true);
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Solo-Ops-Token"] = token;
  const body = { answer: text };
  if (page.me) body.player = page.me;
  if (page.prompt && Number.isInteger(page.prompt.step)) body.step = page.prompt.step;
  // a second tap: this page's answer to this very step was taken already (a refused answer or
  // a proposal to confirm leaves the step open, so another phone may still answer it first)
  const again = body.step !== undefined && page.takenStep === body.step;
  const before = page.steps;  // the records this answer adds come from here on
  let late = "";
  let doc;
  let status = 0;
  try {
    const r = await fetch("api/answer", { method: "POST", headers, body: JSON.stringify(body) });
    status = r.status;
    doc = await r.json();
  } catch (e) {
    setSending(false);
    window.soloOpsBoard.afterSending(true);
    page.unreachable = true;  // said until the server is back (refresh, linkState)
    say(`✗ the server cannot be reached (${e.message}); the page reconnects by itself`, true);
    retryLater();
    return;
  }
  $("confirm").hidden = true;
  if (doc.ok && !doc.confirm && !doc.meta) page.takenStep = body.step;
  if (status === 409 && /^already answered/.test(doc.message || "")) {
    // a second tap: the question was answered, the page catches up; a first one: another
    // phone answered it first, and this answer was not taken
    say("");
    if (!again) {  // said once the page has caught up (its refresh clears what came before)
      late = `Not sent: "${text}" — this question was answered first from another phone; ` +
        "the page shows the game as it is now.";
    }
  } else if (doc.confirm) {
    $("confirm-text").replaceChildren(...blockElements(doc.message, "span"));
    $("confirm").hidden = false;
    say("");
    if (doc.confirm.to) window.soloOpsBoard.confirmGhost(doc.confirm, doc.route);
    keepInView($("confirm"));
  } else if (!doc.ok) {
    say(`✗ ${doc.message}`, true);
    keepInView($("message"));  // the refusal where the phone is (a small screen hid it)
  } else {
    say(doc.message || "");
    $("answer").value = "";
    chips();
  }
  if (doc.meta === "help") showHelp(doc.typed);
  if (doc.meta === "map") $("svg-link").focus();
  // the controls wake only on the newest question: a refresh already under way (started by the
  // live connection before this answer landed) is followed by another, and waited for
  await refresh();
  await whenIdle();
  if (late) say(late, true);
  else if (doc.ok && !doc.message && !doc.confirm && !doc.meta) sayOutcome(before);
  setSending(false);
  window.soloOpsBoard.afterSending();
}

// What an answer did, by the buttons: the first lines of the record it added (a shot's
// dice and damage), which the narration lower down the page also keeps.
function sayOutcome(before) {
  const item = document.querySelector(`#narration li[data-n="${before}"]`);
  if (!item) return;
  const lines = [...item.querySelectorAll(".line")].map((l) => l.textContent.trim())
    .filter((l) => l);
  if (!lines.length) return;
  say(lines.slice(0, 3).join("\n") + (lines.length > 3 ? "\n…" : ""));
}

// Start a typed answer (a shot you rolled yourself, a correction): the words so far in the
// answer box, opened, with the words that can follow as chips.
function fill(words) {
  $("type-box").open = true;
  $("answer").value = words;
  $("answer").focus();
  chips();
}

// -- the prompt --------------------------------------------------------------------------------
const MOVE_WORDS = { move: "move", dash: "dash", fallback: "fall back", advance: "advance",
                     charge: "charge" };
const PAGE_MOVES = { "move": "move", "dash": "dash", "fall back": "fallback",
                     "advance": "advance", "charge": "charge" };

// A refresh that brings the same question (the live connection's records and prompt, an
// answer's own refresh) leaves its controls as they are: a button rebuilt under a finger between
// its press and its release takes no tap, and a shot's open choices stay open. ``force``: draw
// them again all the same (back from the choices).
function showPrompt(view, force) {
  const prompt = view.prompt;
  page.prompt = prompt;
  const mine = view.your_turn;
  if (!force && promptKey(view) === page.shownKey) {
    chips();
    if (page.sending) setSending(true);
    return;
  }
  const [first, ...more] = blocks(prompt.kind === "ended" ? endText(view) : prompt.text);
  const text = $("prompt-text");
  text.textContent = first || "";
  text.dataset.step = String(prompt.step);
  text.classList.toggle("mine", mine);
  $("prompt-more").replaceChildren(...more.map((line) => {
    const p = document.createElement("p");
    p.textContent = line;
    return p;
  }));
  const waiting = $("waiting");
  waiting.hidden = !view.waiting_for;
  waiting.textContent = view.waiting_for ? `Waiting for ${view.waiting_for}…` : "";
  $("options").replaceChildren();
  $("why-not").replaceChildren();
  $("why").hidden = true;
  $("adjust").hidden = true;
  const fresh = page.shownStep !== prompt.step;
  if (fresh) {  // a new question starts afresh: its extras folded, no card over the board, a
    page.shownStep = prompt.step;  // tap a plain move, the order "as it is" again
    page.moveKind = "move";
    document.querySelector("input[name=stance][value='']").checked = true;
    window.soloOpsBoard.hideCard();
    $("adjust").open = false;
    $("type-box").open = false;
    $("why-not").hidden = true;
    $("why-button").setAttribute("aria-expanded", "false");
  }
  $("stances").hidden = !(mine && prompt.kind === "activate" && view.edition === "kt2024");
  const kinds = $("move-kinds");
  kinds.replaceChildren();
  kinds.hidden = true;
  $("type-box").hidden = !mine && prompt.kind !== "ended";
  if (mine) {
    if (prompt.kind === "activate") activateButtons(prompt);
    else if (prompt.kind === "attack") numberButtons();
    else if (prompt.kind === "act" && view.offers) actButtons(view, prompt);
    else optionButtons(prompt.options, null, advisedOf(prompt), prompt);
  }
  chips();
  if (page.sending) setSending(true);
  page.shownKey = promptKey(view);
  if (fresh && mine) showQuestion();
}

// A new question for this phone: the board back in view below the sticky header (a confirm
// may have scrolled it up), then the first answer button, if it opened below the screen.
function showQuestion() {
  const board = $("board-card").getBoundingClientRect();
  const top = $("top").getBoundingClientRect().bottom;
  if (board.top < top) window.scrollBy(0, board.top - top - 4);
  keepInView(document.querySelector("#options button, #move-kinds button"));
}

// What a question's controls are drawn from: the question, its offers, whose turn, the move a
// tap on the board makes (and the score, in the words of the end).
function promptKey(view) {
  return JSON.stringify([view.prompt, view.offers, view.your_turn, view.waiting_for,
                         view.edition, page.moveKind,
                         view.prompt.kind === "ended" ? view.score : null]);
}

function activateButtons(prompt) {
  for (const op of prompt.options) {
    $("options").append(button(op, () => {
      const stance = document.querySelector("input[name=stance]:checked").value;
      send(stance ? `${op} ${stance}` : op);
    }, "primary"));
  }
  // a 2018 shooting phase: the models not picked yet hold their fire, in one tap
  if (prompt.data && prompt.data.pass) {
    $("options").append(button("pass: the rest hold fire", () => send(prompt.data.pass)));
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

// What an answer leads to, where the prompt says (a fight's die: the damage dealt and taken if
// both sides then play the engine's way), for its button.
function outcomeOf(prompt, option) {
  const options = (prompt.data && prompt.data.options) || [];
  const o = options.find((x) => x.answer === option);
  return o && Number.isInteger(o.dealt) ? ` · deal ${o.dealt}, take ${o.taken}` : "";
}

// Any option without a placeholder is a button that sends it; one with a placeholder
// (TARGET, X,Y, N...: a word in capitals) starts the answer in the text box and offers what
// can follow. A weapon's or a model's name ("overwatch with Heavy bolter roll") is no
// placeholder.
const PLACEHOLDER = /(^|[\s[])(?:[A-Z][A-Z0-9_]*|X,Y)(?=[\s\]|]|$)/;
function optionButtons(options, skip, advised, prompt) {
  for (const option of options) {
    const word = option.split(" ")[0];
    const outcome = prompt ? outcomeOf(prompt, option) : "";
    if (skip && skip(word, option)) continue;
    if (advised && advised.includes(option)) {
      $("options").append(button(`★ ${option}${outcome}`, () => send(option), "primary"));
    } else if (!PLACEHOLDER.test(option)) {
      const primary = !advised?.length &&
        (word === "done" || word === "keep" || word === "auto") ? "primary" : "";
      $("options").append(button(option + outcome, () => send(option), primary));
    } else {  // the words before its first placeholder: "overwatch damage …"
      const start = option.slice(0, option.search(PLACEHOLDER)).trim() || word;
      $("options").append(button(`${start} …`, () => fill(`${start} `)));
    }
  }
}

// One offer of the server's (web/offers.py): it sends its answer, opens its choices (a shot's
// targets, then each weapon) or starts a typed answer.
function offerButton(offer) {
  const b = button(offer.label, () => {
    if (offer.answer) send(offer.answer);
    else if (offer.fill) fill(offer.fill);
    else if (offer.choices) openChoices(offer);
  }, offer.primary ? "primary" : "");
  if (offer.word) b.dataset.word = offer.word;
  if (offer.target) b.dataset.target = offer.target;
  if (offer.answer) b.dataset.answer = offer.answer;
  return b;
}

function openChoices(offer) {
  const box = $("options");
  const label = document.createElement("span");
  label.className = "field-label";
  label.textContent = `${offer.label}:`;
  box.replaceChildren(button("← back", () => showPrompt(page.view, true), "back"), label,
                      ...offer.choices.map(offerButton));
  if (offer.target) window.soloOpsBoard.showCard(offer.target, true);
}

// The active operative: the moves a tap on the board makes, the offers, why not (one tap
// away) and the corrections (under "adjust").
function actButtons(view, prompt) {
  const offered = view.offers;
  for (const offer of offered.offers) $("options").append(offerButton(offer));
  whyNot(offered.why_not);
  adjustButtons(prompt);
  const movers = offered.moves.map((m) => PAGE_MOVES[m]).filter(Boolean);
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

// Why the other actions are not allowed, in the engine's words: one tap away, each reason its
// own short block (a quoted source line in a block of its own).
function whyNot(reasons) {
  if (!reasons.length) return;
  $("why").hidden = false;
  const list = $("why-not");
  for (const r of reasons) {
    const li = document.createElement("li");
    const what = document.createElement("strong");
    what.textContent = `${r.what}: `;
    const parts = blocks(r.why, BLOCK - r.what.length - 2);
    li.append(what, parts[0] || "");
    list.append(li);
    for (const more of parts.slice(1)) {
      const next = document.createElement("li");
      next.className = "more";
      next.textContent = more;
      list.append(next);
    }
  }
}

function adjustButtons(prompt) {
  const words = prompt.options.map((o) => o.split(" ")[0]).filter((w) => w === "damage" ||
                                                                      w === "down");
  if (!words.length) return;
  $("adjust").hidden = false;
  $("adjust-buttons").replaceChildren(...words.map((w) => button(`${w}…`, () => fill(`${w} `))));
}

// The end: the battle's result, then the summary the terminal prints (one line each: what
// was destroyed, the counters never found, the losses, every squad's models).
function endText(view) {
  const r = view.score.result || {};
  const vp = r.vp || view.score.vp || {};
  return [`The battle is over: ${String(r.outcome || "").toUpperCase()} — you ` +
          `${vp.player || 0} VP, solo-ops ${vp.enemy || 0} VP.`,
          ...(view.summary || []).slice(1).map((line) => line.trim())].join("\n");
}

// Words to tap after the first word of an answer (ids on the table, numbers, keywords); the
// same words are left as they are (a refresh never rebuilds a chip under a finger).
function chips() {
  const box = $("chips");
  const words = chipWords();
  if (box.dataset.words === words.join(" ") && box.children.length === words.length) return;
  box.dataset.words = words.join(" ");
  box.replaceChildren(...words.map((word) => button(word, () => {
    const input = $("answer");
    input.value = input.value.replace(/\s*$/, " ") + word + " ";
    input.focus();
    chips();
  })));
  if (page.sending) for (const b of box.children) b.disabled = true;
}

function chipWords() {
  const view = page.view;
  if (!view || !view.your_turn) return [];
  const words = $("answer").value.trim().split(/\s+/);
  const head = (words[0] || "").toLowerCase();
  const models = view.models.filter((m) => m.at && !m.down);
  let offer = [];
  if (["shoot", "fight", "charge"].includes(head) && words.length === 1) {
    offer = models.filter((m) => m.side === "enemy").map((m) => m.id);
  } else if (head === "shoot" || head === "fight") {
    offer = nextWords(head, words.slice(2).map((w) => w.toLowerCase()));
  } else if (head === "carry" && words.length === 1) {
    offer = view.models.filter((m) => m.side === "player" && m.down && m.at && !m.carried_by)
      .map((m) => m.id);
  } else if ((head === "door" || head === "hatch") && words.length === 1) {
    offer = Object.keys(view.doors || {});
  } else if (head === "door" || head === "hatch") {
    offer = ["open", "close"];
  } else if ((head === "damage" || head === "down") && words.length === 1) {
    offer = view.models.filter((m) => m.at).map((m) => m.id);
  } else if (["damage", "strike", "block", "reroll"].includes(head)) {
    offer = numbers();
  }
  return offer;
}

// What may follow "shoot X ..." or "fight X ..." (``said``: the words after the target): a
// number after "damage", "dealt" or "taken"; nothing once the dice are asked for ("roll") or
// the damage given; else the words still open ("with" a weapon, then "roll" or "damage";
// "dealt" N, then "taken" N).
function nextWords(head, said) {
  const last = said[said.length - 1];
  if (["damage", "dealt", "taken"].includes(last)) return numbers();
  if (said.includes("roll") || said.includes("damage") || said.includes("taken")) return [];
  if (head === "fight") return said.includes("dealt") ? ["taken"] : ["roll", "dealt"];
  if (last === "with") return [];  // the weapon's name: the offers' buttons name them
  return said.includes("with") ? ["roll", "damage"] : ["roll", "damage", "with"];
}

function numbers() { return ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]; }

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
  const cp = s.cp && (s.cp.player !== undefined || s.cp.enemy !== undefined)
    ? ` · CP you ${s.cp.player || 0} / solo-ops ${s.cp.enemy || 0}` : "";
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
    const first = !page.view;
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
    if (changed && !first && !page.unreachable && $("message").classList.contains("bad")) {
      say("");  // a refusal belongs to the question it answered: the game has moved on
    }
    page.view = view;
    page.steps = view.steps;
    if (changed) window.soloOpsBoard.hidePreview();
    showScore(view);
    showPrompt(view);
    if (changed) await window.soloOpsBoard.draw(view);
    if (first) {
      showJoin($("join-codes"), $("join"));
      showSetup($("setup"));
    }
    if (page.unreachable) {  // the server is back: its old complaint goes
      page.unreachable = false;
      say("");
      if (page.events && page.events.readyState === EventSource.OPEN) linkState(true);
    }
  } catch (e) {
    page.unreachable = e instanceof TypeError;  // fetch itself failed: no server
    say(page.unreachable ? "✗ the server cannot be reached; the page reconnects by itself"
      : `✗ ${e.message}`, true);
    if (page.unreachable) retryLater();
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

// A view that could not be fetched (the network dropped while the live connection held) is
// fetched again every two seconds until it comes, the badge saying "reconnecting…" meanwhile:
// the live connection may have nothing new to say that would bring it.
function retryLater() {
  const badge = $("link");
  badge.classList.remove("idle");
  badge.classList.add("off");
  badge.textContent = "reconnecting…";
  if (page.retry) return;
  page.retry = setTimeout(() => { page.retry = null; refresh(); }, 2000);
}

function linkState(live) {
  if (live && page.unreachable) {  // connected again: the complaint of the outage goes
    page.unreachable = false;
    say("");
  }
  const badge = $("link");
  badge.classList.remove("idle");
  badge.classList.toggle("off", !live);
  badge.textContent = live ? "live" : "reconnecting…";
}

// The live connection: the browser reconnects by itself, sending the last event id it saw; the
// first message of every connection says whether the page missed anything (resync). A
// connection refused outright (or ended by a server that stops) is tried again every two
// seconds.
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
    if (doc.undo && doc.said) say(doc.said);  // every page hears what was taken back
    if (doc.resync || doc.undo) { refresh(true); return; }
    if (doc.result && window.soloOpsCampaign && page.campaign) window.soloOpsCampaign.changed();
    if (doc.record || doc.result) refresh(false);
    else if (doc.prompt && page.view && JSON.stringify(doc.prompt) !==
             JSON.stringify(page.view.prompt)) refresh(false);
  };
}

// The header's badge when the page holds no live connection on purpose (no game shown yet):
// what to do, never a "connecting…" that would never end.
function linkIdle(text) {
  const badge = $("link");
  badge.classList.remove("off");
  badge.classList.add("idle");
  badge.textContent = text;
}

// The bare address on the serving computer with several players: each picks who they are
// (or opens the link the host gives them); nothing is shown or connected until then.
async function choose(players) {
  $("side").hidden = true;
  $("board-card").hidden = true;
  $("choose").hidden = false;
  linkIdle("not joined yet");
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
  const codes = document.createElement("div");
  codes.className = "qr-codes";
  codes.id = "choose-codes";
  $("choose").append(codes);
  showJoin(codes, null);
}

async function start() {
  let who;
  try {
    who = await getJSON(`api/players?${query()}`);
  } catch (e) {
    linkIdle("not connected");
    $("prompt-text").textContent = `${e.message} — reload the page, or ask the host for ` +
      "your link.";
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
  $("why-button").addEventListener("click", () => {
    const list = $("why-not");
    list.hidden = !list.hidden;
    $("why-button").setAttribute("aria-expanded", String(!list.hidden));
  });
  $("confirm-yes").addEventListener("click", () => send("yes"));
  $("confirm-no").addEventListener("click", () => send("no"));
  for (const b of document.querySelectorAll("[data-say]")) {
    b.addEventListener("click", () => send(b.dataset.say));
  }
  window.soloOpsBoard.start();
  page.campaign = !!who.campaign;
  if (who.campaign && window.soloOpsCampaign) window.soloOpsCampaign.start(who, page);
  else listen();
}

window.soloOpsPage = { page, refresh, listen, query, getJSON, say, button, send, setSending,
                       keepInView,
                       blocks, blockElements, MOVE_WORDS };  // (setup.js adds its own)
window.addEventListener("DOMContentLoaded", start);
