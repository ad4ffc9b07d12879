() => {
  // The layout checks of tests/browser/test_layout_phone.py, run in the page: a list of
  // failures, each [check, element, detail].
  const W = document.documentElement.clientWidth;
  const out = [];
  const name = (el) => {
    if (!el || !el.tagName) return "?";
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    if (el.classList && el.classList.length) s += "." + [...el.classList].join(".");
    const p = el.parentElement;
    if (p && p !== document.body) s = (p.tagName.toLowerCase() + (p.classList.length ? "." + [...p.classList].join(".") : "")) + " > " + s;
    const text = (el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return text ? s + ' "' + text + '"' : s;
  };
  // Hidden, or clipped to nothing (a screen-reader-only label): not seen, not checked.
  const unseen = (el) => {
    for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === "none" || cs.visibility === "hidden" || cs.contentVisibility === "hidden") return true;
      if (cs.overflow === "hidden" || cs.clip !== "auto" || cs.clipPath !== "none") {
        const r = e.getBoundingClientRect();
        if (r.width <= 2 || r.height <= 2) return true;
      }
      if (e.tagName === "DETAILS" && !e.open && e !== el && !(el.closest("summary") && el.closest("details") === e)) return true;
    }
    return el.getClientRects().length === 0;
  };
  const scrollsX = (e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX);
  // (a) Wider than the screen: only inside a scroll frame that shows it scrolls.
  if (document.documentElement.scrollWidth > W + 1) out.push(["overflow", "html", "the page scrolls sideways: " + document.documentElement.scrollWidth + " > " + W]);
  const frames = new Set();
  for (const el of document.body.querySelectorAll("*")) {
    if (["SCRIPT", "STYLE", "OPTION"].includes(el.tagName)) continue;
    if (scrollsX(el) && el.scrollWidth > el.clientWidth + 1 && !unseen(el)) frames.add(el);
    const r = el.getBoundingClientRect();
    // Wholly left of the page (a skip link waiting for focus): nobody scrolls there.
    if (r.width === 0 || r.right <= 0 || (r.right <= W + 1 && r.left >= -1)) continue;
    let frame = null;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const ox = getComputedStyle(p).overflowX;
      if (ox !== "visible") { frame = p; break; }
    }
    if (frame) continue;  // clipped or scrolled by its frame, checked below
    if (unseen(el)) continue;
    if (el.parentElement && el.parentElement !== document.body) {
      const pr = el.parentElement.getBoundingClientRect();
      if (pr.right > W + 1 || pr.left < -1) continue;  // its parent is reported
    }
    out.push(["overflow", name(el), "reaches " + Math.round(r.left) + "–" + Math.round(r.right) + " px of " + W]);
  }
  for (const frame of frames) {
    const problems = [];
    if (!frame.classList.contains("table-scroll")) problems.push("no edge cue (class table-scroll)");
    const table = frame.querySelector("table");
    if (table) {
      for (const row of table.rows) {
        const cell = row.cells[0];
        if (cell && row.cells.length > 1 && !unseen(cell) && getComputedStyle(cell).position !== "sticky") {
          problems.push("first column not sticky: " + name(cell)); break;
        }
      }
    }
    if (problems.length) out.push(["scroll", name(frame), "scrolls " + frame.scrollWidth + " > " + frame.clientWidth + " px: " + problems.join("; ")]);
  }
  // A cell's content stays inside its cell (a fixed-width column must fit its word, or the
  // sticky cell beside it covers it).
  for (const cell of document.querySelectorAll("th, td")) {
    if (cell.scrollWidth > cell.clientWidth + 1 && !unseen(cell)) {
      out.push(["cell", name(cell), "content " + cell.scrollWidth + " px wide in a cell of " + cell.clientWidth]);
    }
  }
  // (b) and (c): each word on one line; no text under 12 px.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Map();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.data;
    if (!text.trim()) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, option, textarea, noscript, template")) continue;
    let hidden = seen.get(parent);
    if (hidden === undefined) { hidden = unseen(parent); seen.set(parent, hidden); }
    if (hidden) continue;
    let size = parseFloat(getComputedStyle(parent).fontSize);
    const svg = parent.closest("svg");
    if (svg && svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width) {
      size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    }
    if (size < 11.95) out.push(["small", name(parent), size.toFixed(1) + " px"]);
    if (svg) continue;  // SVG text does not wrap
    const re = /[^\s\-\u2010\u2013\u2014\/]+[\-\u2010\u2013\u2014\/]*/g;
    let m;
    while ((m = re.exec(text))) {
      if (m[0].length < 2) continue;
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].replace(/[\-\u2010\u2013\u2014\/]+$/, "").length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0.5);
      if (rects.length > 1) {
        const top = rects[0].top;
        if (rects.some((r) => Math.abs(r.top - top) > 1)) out.push(["word", name(parent), '"' + m[0] + '" broken over ' + new Set(rects.map((r) => Math.round(r.top))).size + " lines"]);
      }
    }
  }
  // (d) Tap targets: 24 × 24 px, or a 24 px circle on the centre clear of every other target.
  const targets = [];
  for (const el of document.querySelectorAll("a[href], button, input:not([type=hidden]), select, summary, textarea")) {
    if (unseen(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let inline = false;
    if (el.tagName === "A" && getComputedStyle(el).display === "inline") {
      let block = el.parentElement;
      while (block && getComputedStyle(block).display.startsWith("inline")) block = block.parentElement;
      const own = (el.textContent || "").trim().length;
      const all = ((block && block.textContent) || "").replace(/\s+/g, " ").trim().length;
      inline = all > own + 3;  // a link within running text (the WCAG exception)
    }
    targets.push({el, r, small: !inline && (r.width < 23.5 || r.height < 23.5), inline});
  }
  const dist = (x, y, r) => Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
  for (const t of targets) {
    if (!t.small) continue;
    const cx = (t.r.left + t.r.right) / 2, cy = (t.r.top + t.r.bottom) / 2;
    for (const o of targets) {
      if (o === t || o.el.contains(t.el) || t.el.contains(o.el)) continue;
      const ox = (o.r.left + o.r.right) / 2, oy = (o.r.top + o.r.bottom) / 2;
      if (dist(cx, cy, o.r) < 12 || (o.small && Math.hypot(cx - ox, cy - oy) < 24)) {
        out.push(["target", name(t.el), Math.round(t.r.width) + "×" + Math.round(t.r.height) + " px, too close to " + name(o.el)]);
        break;
      }
    }
  }
  // Columns a phone hides wait behind a toggle right before their frame: never cut unseen.
  const cut = new Set();
  for (const cell of document.querySelectorAll(".phone-more")) {
    if (getComputedStyle(cell).display !== "none") continue;
    const frame = cell.closest(".table-scroll");
    const toggle = frame && frame.previousElementSibling;
    if (!toggle || !toggle.matches("details.phone-more-toggle") || unseen(toggle.querySelector("summary"))) cut.add(frame || cell);
  }
  for (const el of cut) out.push(["cut", name(el), "columns hidden with no toggle to show them"]);
  return out;
}
