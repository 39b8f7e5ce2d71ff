// solo-ops table view: the board. Plain JavaScript.
// The board SVG is the server's (board.svg; on a phone or tablet its phone label set, labelled
// for the question). It opens on what the question is about (the active operative, its targets,
// the enemy that just moved: the view's focus), zoomed so the labels are legible (at least
// PX_PER_INCH CSS px to the inch). Drag pans, two fingers pinch, + / − zoom, ▣ shows the whole
// board (the buttons sit in their own strip under the board: they never hide what it shows);
// zoomed out, every label is scaled about its mark so it never gets smaller than MIN_FONT CSS
// px. A tap on a model shows its card (name, wounds, order, weapons, what it can do
// now); a tap on the floor places the active operative (the server snaps it to where its base
// fits and says which moves the game takes there); dragging the active operative does too.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const NS = "http://www.w3.org/2000/svg";
  const PX_PER_INCH = 24;   // the default zoom: at least this many CSS px to the inch
  const MIN_FONT = 9;       // no label is drawn smaller than this (CSS px), however zoomed out
  const FOCUS_MARGIN = 1.5;  // inches of board kept round the focus box in the opening view
  const MAX_ZOOM = 6;
  const WIDE = 1000;        // a window this wide shows the full picture (legend and all)
  let core = null;          // window.soloOpsPage
  const z = { zoom: 1, fit: 1, vb: null, minFont: null };
  let preview = null;       // the tap preview waiting for confirmation
  let heldTap = null;       // a board tap made while an answer was on its way: placed after it

  function page() { return core.page; }
  function phone() { return window.innerWidth < WIDE; }
  function holder() { return $("board"); }
  function svgEl() { return holder().querySelector("svg"); }

  // -- drawing -------------------------------------------------------------------------------
  async function draw(view) {
    const layout = phone() ? "phone" : "full";
    const r = await fetch(`board.svg?${core.query({ layout })}`, { cache: "no-store" });
    if (!r.ok) return;
    const text = await r.text();
    const box = holder();
    const keep = z.vb ? { left: box.scrollLeft, top: box.scrollTop, zoom: z.zoom } : null;
    box.innerHTML = text;
    const svg = svgEl();
    if (!svg) return;
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    const g = view.board;
    if (layout === "phone") {  // the board only, margins trimmed (the legend is in the map)
      z.vb = [g.origin[0] - 40, g.origin[1] - 8, g.width * g.scale + 58, g.depth * g.scale + 36];
      takeInRulers(svg);
      svg.setAttribute("viewBox", z.vb.join(" "));
    } else {
      z.vb = svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
    }
    z.minFont = null;
    const overlay = document.createElementNS(NS, "g");
    overlay.id = "overlay";
    svg.append(overlay);
    addHandle(svg);
    const same = keep && z.focusKey === focusKey(view);
    z.focusKey = focusKey(view);
    if (same) {  // the same question: the view stays where the player left it
      zoomTo(keep.zoom);
      box.scrollLeft = keep.left;
      box.scrollTop = keep.top;
    } else {
      openOnFocus(view);
    }
    if (preview) drawGhost(preview);
  }

  // The phone's trimmed margins hold the rulers' numbers at their own size; the whole board
  // shown (▣), each grows about its tick to MIN_FONT CSS px (scaleLabels) and "22"" or "30""
  // would be cut at the picture's edge. The view box takes in their grown boxes at that zoom
  // (a wider box shows the board smaller, so they grow a little more: a few rounds settle it).
  function takeInRulers(svg) {
    const width = holder().clientWidth;
    if (!width) return;
    const rulers = [...svg.querySelectorAll("text.ruler-label[data-pivot]")].map((el) => {
      const b = el.getBBox();
      return [parseFloat(el.getAttribute("font-size")), el.dataset.pivot.split(" ").map(Number),
              [b.x, b.y, b.x + b.width, b.y + b.height]];
    });
    const GAP = 2;  // SVG units kept between a number and the picture's edge
    for (let round = 0; round < 4; round++) {
      const k = width / z.vb[2];  // CSS px per SVG unit, the whole board shown
      let [x0, y0, x1, y1] = [z.vb[0], z.vb[1], z.vb[0] + z.vb[2], z.vb[1] + z.vb[3]];
      for (const [size, [mx, my], b] of rulers) {
        const f = Math.max(1, MIN_FONT / (size * k));
        x0 = Math.min(x0, mx + (b[0] - mx) * f - GAP);
        y0 = Math.min(y0, my + (b[1] - my) * f - GAP);
        x1 = Math.max(x1, mx + (b[2] - mx) * f + GAP);
        y1 = Math.max(y1, my + (b[3] - my) * f + GAP);
      }
      z.vb = [x0, y0, x1 - x0, y1 - y0];
    }
  }

  // What the view opens on; the same key keeps the player's own pan and zoom. The active
  // operative's place is part of it: after its move (a typed one too) the view follows it.
  function focusKey(view) {
    const op = (view.models || []).find((m) => m.id === view.prompt.operative);
    return JSON.stringify([view.prompt.kind, view.prompt.operative, view.focus.ids,
                           op ? op.at : null]);
  }

  // The zoom that makes an inch PX_PER_INCH CSS px (1: the board fills the width).
  function legibleZoom() {
    const g = page().view.board;
    const width = holder().clientWidth || 1;
    return Math.min(MAX_ZOOM, Math.max(1, PX_PER_INCH * z.vb[2] / (g.scale * width)));
  }

  // The view opens on what the question is about (the focus box) at the legible zoom, zoomed
  // out as far as needed for the whole box (with FOCUS_MARGIN inches round it) to be on screen,
  // never below the whole board's width: a shooter and its target are both in the first view.
  function openOnFocus(view) {
    zoomTo(legibleZoom());
    const box = view.focus && view.focus.box;
    if (!box) {
      show(view.board.width / 2, view.board.depth / 2);
      return;
    }
    const holderBox = holder();
    const inch = perUnit() * view.board.scale;  // CSS px to the inch now
    const needW = (box[2] - box[0] + 2 * FOCUS_MARGIN) * inch;
    const needH = (box[3] - box[1] + 2 * FOCUS_MARGIN) * inch;
    const shrink = Math.min(1, holderBox.clientWidth / needW, holderBox.clientHeight / needH);
    if (shrink < 1) zoomTo(z.zoom * shrink);
    show((box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
  }

  // Board inches to the SVG's own units, and to CSS px within the board's holder.
  function toUser(x, y) {
    const g = page().view.board;
    return [g.origin[0] + x * g.scale, g.origin[1] + (g.depth - y) * g.scale];
  }

  function perUnit() {  // CSS px per SVG unit now
    return svgEl().getBoundingClientRect().width / z.vb[2];
  }

  // Centre the board point (x, y) inches in the holder, as far as the board allows.
  function show(x, y) {
    const box = holder();
    const [ux, uy] = toUser(x, y);
    const k = perUnit();
    box.scrollLeft = (ux - z.vb[0]) * k - box.clientWidth / 2;
    box.scrollTop = (uy - z.vb[1]) * k - box.clientHeight / 2;
  }

  // Zoom to ``level`` (1: the board as wide as the holder), keeping the holder point (px, py)
  // where it is (its centre by default). ``gesture``: a step of a pinch or a wheel, which
  // keeps the labels apart once the fingers rest (scaleLabels).
  function zoomTo(level, px, py, gesture = false) {
    const box = holder();
    const svg = svgEl();
    if (!svg) return;
    const zoom = Math.min(MAX_ZOOM, Math.max(1, level));
    const cx = px === undefined ? box.clientWidth / 2 : px;
    const cy = py === undefined ? box.clientHeight / 2 : py;
    const before = svg.getBoundingClientRect().width || box.clientWidth;
    const fx = (box.scrollLeft + cx) / before;
    const fy = (box.scrollTop + cy) / before;
    z.zoom = zoom;
    svg.style.width = `${box.clientWidth * zoom}px`;
    const after = box.clientWidth * zoom;
    const height = after * z.vb[3] / z.vb[2];
    // the board and the zoom strip under it take at most this share of the window
    const most = window.innerWidth < 600 ? 0.47 : phone() ? 0.62 : 0.8;
    const strip = $("zoom-bar").parentElement.offsetHeight;
    box.style.height = `${Math.min(height, Math.max(200, window.innerHeight * most - strip))}px`;
    box.scrollLeft = fx * after - cx;
    box.scrollTop = fy * after - cy;
    scaleLabels(gesture);
    $("zoom-out").disabled = zoom <= 1;
    $("zoom-in").disabled = zoom >= MAX_ZOOM;
  }

  // Zoomed out, each label is scaled about its mark (data-pivot) so its letters stay at least
  // MIN_FONT CSS px; a step's or sector's round badge follows its number. Then the labels are
  // kept apart (keepApart): at once, or ``gesture`` (a pinch or wheel step) once it rests.
  const APART_REST = 150;  // ms without a zoom step: the gesture rests
  let apartLater = null;

  function scaleLabels(gesture = false) {
    const svg = svgEl();
    if (!svg) return;
    const k = perUnit();
    if (!k) return;
    const els = [...svg.querySelectorAll("[data-pivot]")];
    for (let i = els.length - 1; i >= 0; i--) {
      const el = els[i];
      let f;
      if (el.tagName === "text") {
        f = Math.max(1, MIN_FONT / (parseFloat(el.getAttribute("font-size")) * k));
      } else {  // a badge or an order token's square: as its letters (the next element)
        const next = el.nextElementSibling;
        f = next && next.dataset.scale ? parseFloat(next.dataset.scale) : 1;
      }
      el.dataset.scale = String(f);
      if (f === 1) {
        el.removeAttribute("transform");
        continue;
      }
      const [mx, my] = el.dataset.pivot.split(" ").map(Number);
      el.setAttribute("transform", `translate(${mx * (1 - f)} ${my * (1 - f)}) scale(${f})`);
    }
    clearTimeout(apartLater);
    if (!gesture) {
      keepApart(svg, k);
      return;
    }
    // a pinch or a wheel moves many times a second: the labels are kept apart (a search
    // among them, each against the others) once it rests, not at every step of it, and its
    // leader lines are taken away meanwhile (they point where the labels were)
    drawLeaders(svg, null, k);
    apartLater = setTimeout(() => {
      const now = svgEl();
      const kk = now && perUnit();
      if (kk) keepApart(now, kk);
    }, APART_REST);
  }

  // -- labels kept apart -----------------------------------------------------------------------
  // The server places every label clear of the others at its own size; zoomed out, each grows
  // about its own mark (scaleLabels), so the labels of marks close together (two models in base
  // contact, an activation's numbered steps) would grow onto each other. Each label, in the
  // server's order (the most useful first), keeps its place where its grown box is clear of the
  // labels kept before it, the order tokens, the rulers' numbers, the other marks and the
  // board's edge; else it moves to the nearest clear place around its mark, ring by ring
  // further out, with a leader line back to the mark. Nothing is dropped or shrunk.
  const PAD = 1.5;  // SVG units of clear space round a label's text (the server's, labels.py)
  const EPS = 0.5;
  const APART_RINGS = [0, 4, 9, 15, 22, 30, 40, 52, 66, 82, 100, 124, 150];  // CSS px
  const boxes = new WeakMap();  // each element's own box (SVG units), read once per drawing

  function ownBox(el) {
    if (!boxes.has(el)) {
      const b = el.getBBox();
      boxes.set(el, [b.x, b.y, b.x + b.width, b.y + b.height]);
    }
    return boxes.get(el);
  }

  // The labels (a step's badge with its number), the fixed boxes (order tokens, the rulers'
  // numbers) and the marks' discs of a drawing, in the drawing's order.
  function labelParts(svg) {
    const labels = [];
    const fixed = [];
    let held = null;  // a badge's circle or a token's square: its text comes next
    for (const el of svg.querySelectorAll("[data-pivot]")) {
      if (el.tagName !== "text") { held = el; continue; }
      const els = held ? [held, el] : [el];
      held = null;
      const [mx, my] = el.dataset.pivot.split(" ").map(Number);
      const f = parseFloat(el.dataset.scale || "1");
      const own = els.map(ownBox).reduce((a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]),
                                                     Math.max(a[2], b[2]), Math.max(a[3], b[3])]);
      const pad = el.classList.contains("label") ? PAD * f : 0;  // the server's clear space
      const box = own.map((v, i) => (i % 2 ? my : mx) + (v - (i % 2 ? my : mx)) * f +
                                    (i < 2 ? -pad : pad));
      const part = { els, mx, my, f, box };
      if (el.classList.contains("label")) labels.push(part);
      else fixed.push(box);
    }
    const discs = [...svg.querySelectorAll("circle.base, circle.counter, circle.objective")]
      .map((c) => ["cx", "cy", "r"].map((a) => parseFloat(c.getAttribute(a))));
    const ends = [...svg.querySelectorAll("polyline.leader")]  // where the server's lines end
      .map((l) => l.getAttribute("points").trim().split(/\s+/).pop().split(",").map(Number));
    for (const part of labels) {  // a label the server placed away from its mark has a line
      const b = ownBox(part.els[part.els.length - 1]);
      part.led = ends.some(([x, y]) => x > b[0] - 3 && x < b[2] + 3 && y > b[1] - 3 &&
                                       y < b[3] + 3);
    }
    return { labels, fixed, discs };
  }

  // Whether two boxes overlap by more than EPS (the browser's text boxes and the server's
  // measure of them differ by a fraction of a unit).
  function meets(a, b) {
    return a[0] < b[2] - EPS && b[0] < a[2] - EPS && a[1] < b[3] - EPS && b[1] < a[3] - EPS;
  }

  function coversDisc(box, d) {
    const nx = Math.min(Math.max(d[0], box[0]), box[2]) - d[0];
    const ny = Math.min(Math.max(d[1], box[1]), box[3]) - d[1];
    return nx * nx + ny * ny < d[2] * d[2];
  }

  function keepApart(svg, k) {
    const { labels, fixed, discs } = labelParts(svg);
    const kept = [...fixed];
    const g = page().view.board;  // the board's own rectangle (the rulers are outside it)
    const bounds = [g.origin[0], g.origin[1], g.origin[0] + g.width * g.scale,
                    g.origin[1] + g.depth * g.scale];
    let changed = false;
    const leaders = [];
    for (const part of labels) {
      const own = discs.find((d) => Math.abs(d[0] - part.mx) < 0.5 &&
                                    Math.abs(d[1] - part.my) < 0.5);
      const clear = (box, strict) => !kept.some((b) => meets(box, b)) && (!strict || (
        box[0] >= bounds[0] && box[1] >= bounds[1] && box[2] <= bounds[2] &&
        box[3] <= bounds[3] &&
        !discs.some((d) => d !== own && coversDisc(box, d))));
      let box = part.box;
      if (!clear(box, part.f > 1)) box = nearestClear(part, own, k, clear) || box;
      const dx = box[0] - part.box[0];
      const dy = box[1] - part.box[1];
      for (const el of part.els) {
        const scaled = el.getAttribute("transform") || "";
        const moved = dx || dy ? `translate(${dx} ${dy}) ` : "";
        if (moved) el.setAttribute("transform", moved + scaled);
      }
      changed = changed || part.f > 1 || dx !== 0 || dy !== 0;
      kept.push(box);
      const zone = part.els[0].classList.contains("zone-label");  // its place is in its zone
      if (!zone && (part.led || dx || dy)) leaders.push([part, own, box]);
    }
    drawLeaders(svg, changed ? leaders : null, k);
  }

  // The nearest clear place for a label around its mark: ring by ring outwards, on each ring
  // the side it was on first.
  function nearestClear(part, own, k, clear) {
    const w = part.box[2] - part.box[0];
    const h = part.box[3] - part.box[1];
    const r = own ? own[2] : 0;
    const at = Math.atan2((part.box[1] + part.box[3]) / 2 - part.my,
                          (part.box[0] + part.box[2]) / 2 - part.mx);
    const turns = [];
    for (let i = 0; i < 16; i++) turns.push(at + (i % 2 ? 1 : -1) * Math.ceil(i / 2) * Math.PI / 8);
    for (const ring of APART_RINGS) {
      const reach = r + (2 + ring) / k;
      for (const a of turns) {
        const ux = Math.cos(a);
        const uy = Math.sin(a);
        const cx = part.mx + ux * reach + (Math.abs(ux) < 1e-6 ? 0 : Math.sign(ux) * w / 2);
        const cy = part.my + uy * reach + (Math.abs(uy) < 1e-6 ? 0 : Math.sign(uy) * h / 2);
        const box = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
        if (clear(box, true)) return box;
      }
    }
    return null;
  }

  // The server's leader lines fit its own layout only: once a label grew or moved, each label
  // away from its mark gets a line of the page's own (and the server's are hidden).
  function drawLeaders(svg, placed, k) {
    for (const old of svg.querySelectorAll("polyline.leader")) {
      old.style.display = placed ? "none" : "";
    }
    let group = svg.querySelector("g.leaders-apart");
    if (!group) {
      group = document.createElementNS(NS, "g");
      group.setAttribute("class", "leaders-apart");
      const first = svg.querySelector(".label");
      if (first) svg.insertBefore(group, first); else svg.append(group);
    }
    group.replaceChildren();
    for (const [part, own, box] of placed || []) {
      const r = own ? own[2] : 0;
      const nx = Math.min(Math.max(part.mx, box[0]), box[2]);
      const ny = Math.min(Math.max(part.my, box[1]), box[3]);
      const d = Math.hypot(nx - part.mx, ny - part.my);
      if (d <= r + 4 / k) continue;
      const line = document.createElementNS(NS, "line");
      line.setAttribute("x1", part.mx + (nx - part.mx) * r / d);
      line.setAttribute("y1", part.my + (ny - part.my) * r / d);
      line.setAttribute("x2", nx);
      line.setAttribute("y2", ny);
      line.setAttribute("stroke", "#555555");
      line.setAttribute("stroke-width", "1");
      line.setAttribute("vector-effect", "non-scaling-stroke");
      line.setAttribute("class", "leader-apart");
      group.append(line);
    }
  }

  // -- the active operative and taps ----------------------------------------------------------
  function activeModel() {
    const p = page().prompt;
    const view = page().view;
    if (!p || p.kind !== "act" || !view.your_turn || !view.offers) return null;
    if (!view.offers.moves.length) return null;
    return view.models.find((m) => m.id === p.operative && m.at) || null;
  }

  function addHandle(svg) {
    const m = activeModel();
    if (!m) return;
    const [cx, cy] = toUser(m.at[0], m.at[1]);
    const c = document.createElementNS(NS, "circle");
    c.setAttribute("cx", cx);
    c.setAttribute("cy", cy);
    c.setAttribute("r", m.radius * page().view.board.scale + 3);
    c.setAttribute("fill", "none");
    c.setAttribute("stroke", "#f0b429");
    c.setAttribute("stroke-width", "3");
    c.setAttribute("pointer-events", "all");
    c.setAttribute("class", "drag-handle");
    svg.append(c);
  }

  function toBoard(evt) {
    const svg = svgEl();
    const g = page().view.board;
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    const x = (p.x - g.origin[0]) / g.scale;
    const y = g.depth - (p.y - g.origin[1]) / g.scale;
    return { x, y, inside: x >= 0 && y >= 0 && x <= g.width && y <= g.depth };
  }

  // Pointers on the board: one finger (or the mouse) taps, pans or drags the active operative;
  // two fingers pinch.
  const pointers = new Map();
  let gesture = null;

  function onDown(evt) {
    if (!svgEl() || !page().view) return;
    pointers.set(evt.pointerId, { x: evt.clientX, y: evt.clientY });
    holder().setPointerCapture(evt.pointerId);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const rect = holder().getBoundingClientRect();
      gesture = { pinch: true, dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, zoom: z.zoom,
                  cx: (a.x + b.x) / 2 - rect.left, cy: (a.y + b.y) / 2 - rect.top };
      return;
    }
    if (pointers.size > 2) return;
    const at = toBoard(evt);
    const m = activeModel();
    gesture = { x0: evt.clientX, y0: evt.clientY, left: holder().scrollLeft,
                top: holder().scrollTop, moved: false, model: null };
    if (m && Math.hypot(at.x - m.at[0], at.y - m.at[1]) <= m.radius + 0.4) gesture.model = m;
    evt.preventDefault();
  }

  function onMove(evt) {
    if (!pointers.has(evt.pointerId) || !gesture) return;
    pointers.set(evt.pointerId, { x: evt.clientX, y: evt.clientY });
    if (gesture.pinch) {
      if (pointers.size < 2) return;
      const [a, b] = [...pointers.values()];
      zoomTo(gesture.zoom * Math.hypot(a.x - b.x, a.y - b.y) / gesture.dist, gesture.cx,
             gesture.cy, true);
      return;
    }
    const dx = evt.clientX - gesture.x0;
    const dy = evt.clientY - gesture.y0;
    if (Math.hypot(dx, dy) > 6) gesture.moved = true;
    if (!gesture.moved) return;
    if (gesture.model) {
      const at = toBoard(evt);
      drawGhost({ at: [at.x, at.y], radius: gesture.model.radius, route: [], within: true,
                  dragging: true });
    } else {
      holder().scrollLeft = gesture.left - dx;
      holder().scrollTop = gesture.top - dy;
    }
  }

  function onUp(evt) {
    pointers.delete(evt.pointerId);
    const g = gesture;
    if (!g) return;
    if (g.pinch) {
      if (!pointers.size) gesture = null;
      return;
    }
    gesture = null;
    if (evt.type === "pointercancel" || (g.moved && !g.model)) return;  // a pan
    const at = toBoard(evt);
    if (!at.inside) return;
    if (!g.moved) {
      const hit = modelAt(at.x, at.y);
      if (hit) { showCard(hit.id); return; }
    }
    hideCard();
    tapped(at.x, at.y);
  }

  function onWheel(evt) {  // a laptop's pinch (ctrl + wheel)
    if (!evt.ctrlKey || !svgEl()) return;
    evt.preventDefault();
    const rect = holder().getBoundingClientRect();
    zoomTo(z.zoom * Math.exp(-evt.deltaY / 300), evt.clientX - rect.left,
           evt.clientY - rect.top, true);
  }

  // The card a tap at (x, y) inches finds: a model's base first, then a counter, then an
  // objective marker.
  function modelAt(x, y) {
    const cards = Object.values(page().view.cards || {});
    const rank = { player: 0, enemy: 0, counter: 1, objective: 2 };
    let best = null;
    for (const c of cards) {
      if (!c.xy) continue;
      const d = Math.hypot(x - c.xy[0], y - c.xy[1]);
      if (d > c.radius + 0.25) continue;
      const key = [rank[c.kind] ?? 3, d];
      if (!best || key[0] < best.key[0] || (key[0] === best.key[0] && key[1] < best.key[1])) {
        best = { card: c, key };
      }
    }
    return best && best.card;
  }

  async function tapped(x, y, how) {
    const view = page().view;
    if (activeModel() && page().sending) {  // this question's board, its answer still landing:
      heldTap = { x, y, how, step: page().prompt.step };  // placed once it has, never lost
      return;
    }
    const retreating = retreatModel();
    if (retreating) {  // a 2018 Reaction's Retreat: the point tapped, the game judges it
      showRetreat(x, y, retreating);
      return;
    }
    if (!activeModel()) {
      if (view && view.your_turn && page().prompt.kind === "activate") {
        core.say("Choose which operative acts first (the buttons below the board).");
      }
      return;
    }
    let doc;
    try {
      doc = await core.getJSON(`api/place?${core.query({ x: x.toFixed(2), y: y.toFixed(2),
                                                         how: how || page().moveKind })}`);
    } catch (e) {
      core.say(`✗ ${e.message}`, true);
      return;
    }
    if (!doc.ok) { core.say(`✗ ${doc.message}`, true); return; }
    showPreview(doc);
  }

  // The model a Kill Team 2018 charge's Reaction may Retreat (the question offers
  // 'retreat X,Y' to this phone's player), or null.
  function retreatModel() {
    const p = page().prompt;
    const view = page().view;
    if (!p || p.kind !== "reaction" || !view || !view.your_turn) return null;
    if (!(p.options || []).some((o) => /^retreat/.test(o)) && !/'retreat X,Y'/.test(p.text)) {
      return null;
    }
    return view.models.find((m) => m.id === p.operative && m.at) || null;
  }

  // A Retreat to the point tapped, offered as the answer it makes (the game checks it when
  // sent: how far, clear of the charger, not through walls), its end drawn on the board.
  function showRetreat(x, y, m) {
    const at = [Number(x.toFixed(1)), Number(y.toFixed(1))];
    const answer = `retreat ${at[0]}in,${at[1]}in`;  // (the board's inches, whatever the
    const far = Math.hypot(at[0] - m.at[0], at[1] - m.at[1]);  // game's units setting)
    showPreview({ text: `${m.id} retreats to the point tapped, ${far.toFixed(1)}" away as the ` +
                        "crow flies (the game measures the way round).",
                  within: true, at, radius: m.radius, route: [m.at, at],
                  choices: [{ ok: true, how: "retreat", answer }] });
  }

  // The preview offers only the moves the game takes at that point (each checked by the
  // engine, as the answer will be); the others say why not.
  function showPreview(doc) {
    preview = doc;
    const W = core.MOVE_WORDS;
    $("preview-text").replaceChildren(...core.blockElements(doc.text, "span"));
    $("preview").classList.toggle("bad", !doc.within);
    const box = $("preview-choices");
    box.replaceChildren();
    const refused = [];
    for (const choice of doc.choices || []) {
      if (choice.ok) {
        const b = core.button(`${W[choice.how] || choice.how} here`,
                              () => core.send(choice.answer), "primary");
        b.dataset.answer = choice.answer;
        box.append(b);
      } else {
        refused.push(`${W[choice.how] || choice.how}: ${choice.why}`);
      }
    }
    box.append(core.button("Cancel", hidePreview));
    const others = refused.length - 1;  // the other moves refused there (not inches)
    $("preview-refused").replaceChildren(...(refused.length && doc.within ?
      core.blockElements(`Not here — ${refused[0]}` +
                         (others > 0 ? ` (${others} other move${others > 1 ? "s" : ""} ` +
                          "refused here too)" : ""), "span") : []));
    $("preview").hidden = false;
    drawGhost(doc);
    core.keepInView($("preview"));  // its buttons on a small phone's screen
  }

  function drawGhost(p) {
    const overlay = document.getElementById("overlay");
    if (!overlay) return;
    overlay.replaceChildren();
    const colour = p.within ? "#1f9d55" : "#d23b3b";
    const scale = page().view.board.scale;
    if (p.route && p.route.length > 1) {
      const line = document.createElementNS(NS, "polyline");
      line.setAttribute("points", p.route.map((q) => toUser(q[0], q[1]).join(",")).join(" "));
      line.setAttribute("fill", "none");
      line.setAttribute("stroke", colour);
      line.setAttribute("stroke-width", "3");
      line.setAttribute("stroke-dasharray", "6 4");
      overlay.append(line);
    }
    const [cx, cy] = toUser(p.at[0], p.at[1]);
    const c = document.createElementNS(NS, "circle");
    c.setAttribute("cx", cx);
    c.setAttribute("cy", cy);
    c.setAttribute("r", p.radius * scale);
    c.setAttribute("fill", colour);
    c.setAttribute("fill-opacity", "0.35");
    c.setAttribute("stroke", colour);
    c.setAttribute("stroke-width", "2");
    c.setAttribute("class", "ghost");
    overlay.append(c);
    if (!p.dragging && p.distance !== undefined && p.distance !== null) {
      const t = document.createElementNS(NS, "text");
      const size = Math.max(15, MIN_FONT / perUnit());
      t.setAttribute("x", cx);
      t.setAttribute("y", cy - p.radius * scale - 6);
      t.setAttribute("text-anchor", "middle");
      t.setAttribute("font-size", String(size));
      t.setAttribute("font-weight", "bold");
      t.setAttribute("fill", colour);
      t.setAttribute("stroke", "#fff");
      t.setAttribute("stroke-width", "3");
      t.setAttribute("paint-order", "stroke");
      t.setAttribute("class", "ghost-label");
      t.textContent = p.measured;  // the server's words: one rounding, the game's units
      overlay.append(t);
    }
  }

  // A computed move waiting for "yes" (move kell to obj-2): its end and route on the board.
  function confirmGhost(action, route) {
    const m = page().view.models.find((x) => x.id === action.operative);
    drawGhost({ at: action.to, radius: m ? m.radius : 0.5, route: route || [], within: true });
  }

  // The answer on its way has landed: a tap held meanwhile is placed now if its question is
  // still the one asked, and said otherwise (never lost quietly). ``failed``: the answer never
  // reached the server, whose message says so; the tap goes with it.
  function afterSending(failed) {
    const held = heldTap;
    heldTap = null;
    if (!held || failed) return;
    if (activeModel() && page().prompt.step === held.step) {
      tapped(held.x, held.y, held.how);
    } else {
      core.say("Not placed: the question changed while the last answer was on its way. " +
               "Tap the board again.", true);
    }
  }

  function hidePreview() {
    preview = null;
    $("preview").hidden = true;
    const overlay = document.getElementById("overlay");
    if (overlay) overlay.replaceChildren();
  }

  // -- model cards ------------------------------------------------------------------------------
  function showCard(id, quiet) {
    const view = page().view;
    const card = view && view.cards && view.cards[id];
    if (!card) return;
    const el = (tag, text, cls) => {
      const e = document.createElement(tag);
      e.textContent = text;
      if (cls) e.className = cls;
      return e;
    };
    const body = $("card-body");
    const title = card.short !== card.id ? `${card.short} · ${card.name} (${card.id})` :
      `${card.name} (${card.id})`;
    const facts = [card.kind === "player" ? `${card.player}'s` : card.kind,
                   card.wounds ? `wounds ${card.wounds}` : null, ...(card.state || [])]
      .filter(Boolean).join(" · ");
    body.replaceChildren(el("h3", title), el("p", facts, "facts"));
    if (card.weapons.length) {
      const list = el("ul", "", "weapons");
      for (const w of card.weapons) list.append(el("li", w));
      body.append(list);
    }
    for (const line of card.now || []) body.append(el("p", line, "now"));
    body.append(el("p", `at ${card.at}`, "where"));
    const actions = $("card-actions");
    actions.replaceChildren();
    if (!quiet) for (const b of cardActions(card)) actions.append(b);
    actions.append(core.button("Close", hideCard));
    if (page().sending) core.setSending(true);  // its answers wait for the one on its way
    $("model-card").dataset.id = id;
    $("model-card").hidden = false;
  }

  // What the active operative can do to the model on the card: its shots and fight (the
  // offers' own buttons), a charge or a move up to it (previewed like a tap).
  function cardActions(card) {
    const view = page().view;
    const out = [];
    const offered = view.your_turn && view.offers ? view.offers.offers : [];
    for (const offer of offered) {
      for (const target of offer.choices || []) {
        if (target.target !== card.id) continue;
        for (const choice of target.choices || []) {
          if (!choice.answer) continue;
          out.push(core.button(`${offer.label}: ${choice.label}`, () => {
            hideCard();
            core.send(choice.answer);
          }, choice.primary ? "primary" : ""));
        }
      }
    }
    const m = activeModel();
    if (m && card.id !== m.id && card.xy) {
      const moves = view.offers.moves;
      const how = card.kind === "enemy" && moves.includes("charge") ? "charge" : null;
      const words = how ? "charge it" : `${core.MOVE_WORDS[page().moveKind]} next to it`;
      out.push(core.button(words, () => {
        hideCard();
        tapped(card.xy[0], card.xy[1], how || page().moveKind);
      }));
    }
    return out;
  }

  function hideCard() {
    $("model-card").hidden = true;
  }

  function start() {
    core = window.soloOpsPage;
    const box = holder();
    box.addEventListener("pointerdown", onDown);
    box.addEventListener("pointermove", onMove);
    box.addEventListener("pointerup", onUp);
    box.addEventListener("pointercancel", onUp);
    box.addEventListener("wheel", onWheel, { passive: false });
    $("zoom-in").addEventListener("click", () => zoomTo(z.zoom * 1.5));
    $("zoom-out").addEventListener("click", () => zoomTo(z.zoom / 1.5));
    $("zoom-fit").addEventListener("click", () => zoomTo(1));
    $("card-close").addEventListener("click", hideCard);
    window.addEventListener("resize", () => { if (svgEl()) zoomTo(z.zoom); });
  }

  window.soloOpsBoard = { start, draw, hidePreview, confirmGhost, drawGhost, show, zoomTo,
                          showCard, hideCard, legibleZoom, afterSending, state: z };
}());
