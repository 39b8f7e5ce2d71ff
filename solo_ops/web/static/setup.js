// solo-ops table view: joining and setting up. Plain JavaScript, no build step; loaded after
// app.js, whose helpers (page, query, getJSON) it calls, and added to its window.soloOpsPage.

// -- joining and setting up -----------------------------------------------------------------------
// The host's page shows each player's link as a QR code (api/join): the players join by
// pointing a phone's camera at it.
async function showJoin(box, details) {
  if (!page.host) return;
  let doc;
  try {
    doc = await getJSON(`api/join?${query()}`);
  } catch (e) {
    return;
  }
  box.replaceChildren(...doc.players.map((p) => {
    const fig = document.createElement("figure");
    fig.className = "qr";
    fig.dataset.player = p.player;
    const img = document.createElement("img");
    img.alt = `QR code of ${p.player}'s link`;
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(p.qr)}`;
    const cap = document.createElement("figcaption");
    cap.textContent = p.player;
    fig.append(img, cap);
    return fig;
  }));
  if (details) {  // open when the host's page opens (the host folds it once everyone joined)
    details.hidden = false;
    details.open = true;
  }
}

// The set-up (api/setup): the enemy to put out and where every counter and drop zone is,
// measured from two table edges; the printable sheet.
async function showSetup(box, what) {
  let doc;
  try {
    doc = await getJSON(`api/setup?${query(what ? { what } : {})}`);
  } catch (e) {
    return false;
  }
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const parts = [];
  for (const section of doc.sections) {
    parts.push(el("h3", section.title));
    if (section.note) parts.push(el("p", section.note, "field-label"));
    const list = el("ul", undefined, "setup-list");
    list.dataset.section = section.key;
    for (const item of section.items) {
      const li = el("li");
      li.append(el("strong", item.name));
      if (item.where) li.append(el("span", ` ${item.where}`, "where"));
      for (const line of item.lines || []) li.append(el("span", line, "line"));
      list.append(li);
    }
    parts.push(list);
  }
  const sheet = el("a", "Printable set-up sheet (PNG)", "button");
  sheet.href = `setup-sheet.png?${query(what ? { what, download: 1 } : { download: 1 })}`;
  sheet.id = "setup-sheet";
  sheet.setAttribute("download", "setup-sheet.png");
  parts.push(sheet);
  box.replaceChildren(...parts);
  return true;
}

Object.assign(window.soloOpsPage, { showJoin, showSetup });
