// solo-ops table view: a campaign's part of the page (campaign serve). Plain JavaScript.
// The set-up (the picture, legible on a phone; the enemy to put out, every counter and drop zone
// measured from the table's edges; the printable sheet) and briefing with a ready button per
// player, the mission (the table view itself), recording it (the survival tests), the
// after-action report with its map, the squads and recruits, the next mission; on the host's
// page, each player's link as a QR code. Everything comes from api/campaign.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let core = null;   // window.soloOpsPage
  let who = null;    // api/players: {players, you}
  let doc = null;    // the last api/campaign document
  let phase = null;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  async function act(body) {
    const headers = { "Content-Type": "application/json" };
    const token = new URLSearchParams(location.search).get("token");
    if (token) headers["X-Solo-Ops-Token"] = token;
    core.setSending(true);
    for (const b of document.querySelectorAll("#campaign button")) b.disabled = true;
    try {
      const r = await fetch("api/campaign", { method: "POST", headers,
                                              body: JSON.stringify(body) });
      const reply = await r.json();
      if (reply.ok) show(reply);
      say(reply.ok ? reply.message : `✗ ${reply.message}`, !reply.ok);
    } catch (e) {
      say(`✗ the server cannot be reached (${e.message})`, true);
    } finally {
      core.setSending(false);
      for (const b of document.querySelectorAll("#campaign button")) b.disabled = false;
      markReady();
    }
  }

  function say(text, bad) {
    let m = $("campaign-message");
    if (!m) {
      m = el("p", null, "campaign-message");
      m.id = "campaign-message";
      m.setAttribute("role", "status");
      $("campaign").append(m);
    }
    m.textContent = text || "";
    m.classList.toggle("bad", !!bad);
  }

  const PX_PER_INCH = 24;  // as the board's default zoom: the phone's labels legible

  // The set-up picture or the map of the end: on a phone or tablet the phone's label set,
  // drawn in the page (inches PX_PER_INCH CSS px wide, scrolled within its box); on a wide
  // screen the full picture with its legend.
  function picture(what, board) {
    const alt = what === "setup" ? "the mission's set-up" : "the map of the end";
    if (window.innerWidth >= 1000 || !board) {
      const img = el("img");
      img.alt = alt;
      img.className = "campaign-picture";
      img.src = `api/campaign/picture.svg?${core.query({ what, t: Date.now() })}`;
      return img;
    }
    const box = el("div", null, "campaign-board");
    box.setAttribute("role", "img");
    box.setAttribute("aria-label", alt);
    fetch(`api/campaign/picture.svg?${core.query({ what, layout: "phone" })}`,
          { cache: "no-store" }).then((r) => (r.ok ? r.text() : "")).then((text) => {
      box.innerHTML = text;
      const svg = box.querySelector("svg");
      if (!svg) return;
      const vb = [board.origin[0] - 40, board.origin[1] - 8, board.width * board.scale + 58,
                  board.depth * board.scale + 36];  // the board and its rulers, as board.js
      svg.setAttribute("viewBox", vb.join(" "));
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      svg.style.width = `${Math.max(box.clientWidth, vb[2] * PX_PER_INCH / board.scale)}px`;
      svg.classList.add("campaign-picture");
    });
    return box;
  }

  // The squads: a card per model, its state in words first (what it means for the next
  // mission), then its wounds, missions, kills and injuries; the fallen say who replaced them.
  function squads(d) {
    const box = el("details");
    box.id = "squads";
    box.append(el("summary", "Squads"));
    const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
    for (const s of d.squads) {
      box.append(el("h3", `${s.player} — ${s.name}`));
      const list = el("ul", null, "model-cards");
      for (const m of s.models) {
        const card = el("li", null, "model-card");
        card.dataset.model = m.id;
        card.dataset.state = m.state;
        const who = el("div", null, "who");
        who.append(el("b", m.name), el("span", ` ${m.id}`, "id"));
        const note = m.replaced_by ? ` (replaced by ${m.replaced_by})` :
          m.replaces ? ` (in place of ${m.replaces})` : "";
        const w = m.wounds === null || m.wounds === undefined ? null :
          m.starts_with ? `W ${m.starts_with}/${m.wounds}` : `W ${m.wounds}`;
        const kills = m.record ? m.record.kills : 0;
        const facts = [w, count(m.missions, "mission"), count(kills, "kill"),
                       m.injuries.length ? count(m.injuries.length, "injury")
                         .replace("injurys", "injuries") : null].filter((x) => x);
        card.append(who, el("div", (m.condition || m.state) + note, "condition"),
                    el("div", facts.join(" · "), "facts"));
        list.append(card);
      }
      box.append(list);
    }
    return box;
  }

  function report(d) {
    const out = [];
    const r = d.report;
    if (!r) return out;
    out.push(el("h2", `After-action report — mission ${r.mission}`));
    const lines = el("div", null, "report");
    for (const line of r.lines) lines.append(el("p", line));
    out.push(lines);
    if (r.tests.length) {
      const table = el("table");
      table.id = "survival";
      const head = el("tr");
      for (const h of ["model", "went down", "carried to safety", "roll", "target", "result"]) {
        head.append(el("th", h));
      }
      table.append(head);
      for (const t of r.tests) {
        const row = el("tr");
        row.dataset.model = t.model || "";
        for (const v of [`${t.name} (${t.player})`, t.went_down ? "yes" : "no",
                         t.carried_to_safety ? "yes" : "no", String(t.roll), `≤ ${t.target}`,
                         t.result]) {
          row.append(el("td", v));
        }
        table.append(row);
      }
      out.push(table);
    }
    return out;
  }

  function recruits(d) {
    const out = [];
    const mine = d.recruits.filter((r) => d.you === "host" || r.player === d.you);
    if (!mine.length) return out;
    out.push(el("h2", "Recruits"));
    for (const r of mine) {
      const form = el("form", null, "recruit row");
      form.dataset.fallen = r.fallen;
      form.append(el("span", `In place of ${r.name} (${r.fallen}, ${r.player}):`, "field-label"));
      const id = el("input");
      id.name = "id";
      id.placeholder = "new id";
      id.required = true;
      id.maxLength = 40;
      const name = el("input");
      name.name = "name";
      name.placeholder = "name";
      name.maxLength = 60;
      const go = el("button", "Recruit");
      go.type = "submit";
      form.append(id, name, go);
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        act({ do: "recruit", fallen: r.fallen, id: id.value.trim(), name: name.value.trim(),
              ...(d.you === "host" ? {} : { player: d.you }) });
      });
      out.push(form);
    }
    return out;
  }

  // The next mission's threat: what is played with its predicted win chance and interval,
  // and the group's choice of another enemy or level (the same mission set up again).
  function threat(d) {
    const t = d.threat;
    const out = [];
    if (!t) return out;
    const box = el("div", null, "threat");
    box.id = "threat";
    const who = t.by === "proposal" ? "Proposed" : "The group's choice";
    box.append(el("p", `${who}: ${t.line}.`));  // the target is in the line
    const form = el("form", null, "row choose-threat");
    const enemy = el("select");
    enemy.name = "enemy";
    enemy.setAttribute("aria-label", "enemy");
    for (const e of t.enemies) {
      const o = el("option", e);
      o.value = e;
      o.selected = e === t.enemy;
      enemy.append(o);
    }
    const level = el("select");
    level.name = "level";
    level.setAttribute("aria-label", "engagement level");
    for (const n of t.levels) {
      const rated = t.rated.find((r) => r.enemy === t.enemy && r.level === n);
      const o = el("option", rated ? `level ${n} (${Math.round(100 * rated.win_rate)}%)` :
                             `level ${n}`);
      o.value = String(n);
      o.selected = n === t.level;
      level.append(o);
    }
    const go = el("button", "Play this instead");
    go.type = "submit";
    form.append(enemy, level, go);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      act({ do: "next", enemy: enemy.value, level: Number(level.value) });
    });
    box.append(form);
    out.push(box);
    return out;
  }

  // The rating's progress, where the player looks: under the button that started it.
  function rating(doc) {
    let bar = $("rating");
    if (!bar) {
      bar = el("div", null, "rating");
      bar.id = "rating";
      bar.setAttribute("role", "status");
      const at = document.querySelector("#campaign .next-mission, #threat");
      if (at) at.after(bar);
      else $("campaign").append(bar);
      bar.scrollIntoView({ block: "nearest" });
    }
    bar.replaceChildren(el("span", `Rating the next mission: ${doc.done} of at most ` +
                                   `${doc.most} simulated missions`));
    const p = el("progress");
    p.max = doc.most;
    p.value = doc.done;
    bar.append(p, el("small", doc.text || ""));
  }

  function markReady() {
    if (!doc || !doc.mission) return;
    for (const b of document.querySelectorAll("#campaign .ready button")) {
      const p = b.dataset.player;
      const done = doc.mission.ready[p];
      b.textContent = done ? `${p}: ready ✓` : `${p}: ready`;
      b.disabled = done || !(doc.you === "host" || doc.you === p);
    }
  }

  function show(d) {
    doc = d;
    const box = $("campaign");
    box.hidden = false;
    box.replaceChildren();
    if (d.phase === "rating") {  // opened while the next mission is rated: its progress only
      box.append(el("h2", d.campaign));
      rating({ campaign: "rating", ...d.rating });
      return;
    }
    const title = d.title ||
      `${d.campaign} — ${d.played} mission${d.played === 1 ? "" : "s"} played`;
    box.append(el("h2", title));
    box.dataset.phase = d.phase;
    const playing = d.phase === "mission" || d.phase === "ended";
    $("board-card").hidden = !playing;
    $("side").hidden = !playing;
    if (!playing) {  // no game at the table: the header shows the campaign, not a score
      $("score").textContent = "";
      $("title").textContent = d.campaign;
      document.title = `${d.campaign} — solo-ops`;
    }
    if (d.you === "host" && !playing) {
      const codes = el("div", null, "qr-codes");
      codes.id = "campaign-join";
      const join = el("details", null, "join");
      join.open = d.phase === "setup";
      join.append(el("summary", "Join by QR code"), codes);
      box.append(join);
      core.showJoin(codes, null);
    }
    if (d.phase === "setup") {
      box.append(el("p", "Set up the table as below, then each player taps ready."));
      const jump = core.button("The ready buttons ↓", () => {  // a long page on a phone:
        const at = box.querySelector(".ready");               // they are at its foot
        if (at) at.scrollIntoView({ behavior: "smooth", block: "center" });
      });
      jump.classList.add("quiet");
      box.append(jump);
      for (const part of threat(d)) box.append(part);
      box.append(picture("setup", d.board));
      const words = el("div", null, "setup");
      words.id = "campaign-setup";
      box.append(words);
      core.showSetup(words);
      const brief = el("details", null, "briefing");
      brief.append(el("summary", "Briefing"));
      for (const line of d.mission.briefing) brief.append(el("p", line));
      box.append(brief);
      const row = el("div", null, "ready");
      for (const p of d.mission.players) {
        const b = core.button(`${p}: ready`, () => act({ do: "ready",
          ...(d.you === "host" ? { player: p } : {}) }), "primary");
        b.dataset.player = p;
        row.append(b);
      }
      box.append(row);
      markReady();
    } else if (d.phase === "ended") {
      box.append(el("p", "The mission is over. Record it: the survival tests are rolled for " +
                    "everyone hurt, and the after-action report is written."));
      box.append(core.button("Roll the survival tests and record the mission",
                             () => act({ do: "record" }), "primary"));
    } else if (d.phase === "report") {
      for (const part of report(d)) box.append(part);
      if (d.report) box.append(picture("end", d.end_board || null));
      for (const part of recruits(d)) box.append(part);
      const next = core.button(`Set up mission ${d.number}`, () => act({ do: "next" }),
                               "primary");
      next.classList.add("next-mission");
      box.append(next);
    }
    box.append(squads(d));
    if (d.chronicle) {
      const a = el("a", "The campaign's chronicle");
      const q = core.query();
      a.href = `api/campaign/chronicle.html${q ? `?${q}` : ""}`;
      a.target = "_blank";
      a.id = "chronicle-link";
      const line = el("p");
      line.append(a);
      box.append(line);
    }
    if (playing && phase !== d.phase) core.refresh(true);
    phase = d.phase;
  }

  async function load() {
    try {
      show(await core.getJSON(`api/campaign?${core.query()}`));
    } catch (e) {
      say(`✗ ${e.message}`, true);
    }
  }

  window.soloOpsCampaign = {
    start(players, page) {
      core = window.soloOpsPage;
      who = players;
      if (!page.me && who.you !== "host") page.me = who.you;
      load();
      core.listen();
    },
    changed(doc) {
      if (doc && doc.campaign === "rating") rating(doc);
      else load();
    },
  };
}());
