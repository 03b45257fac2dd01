// Shared front-end plumbing for the explorers: controls bound to model traits, one
// live region of results, tables in scrollable boxes and small SVG charts. Concatenated
// after measures.js and before an explorer's own file into one ES module (see base.py).
//
// An explorer's file ends with `export default explorer({...})`; the spec names the
// explorer's parameters (its traits), and mount() derives the state from them.
//
// Test protocol (tests/test_site.py and tests/test_explorer_controls.py rely on it):
// the root element has class "dcglab-explorer" and data-explorer=<name>; every control
// carries data-param; after each update the root's data-state holds the parameters as
// JSON and data-result the unrounded results as JSON; each result shown has data-out=<key>
// inside the explorer's one live region (class "dcglab-readouts", role="status").

const SVG_NS = "http://www.w3.org/2000/svg";
// Series colours are CSS variables (styles.css sets them for light and dark pages).
export const COLORS = ["c0", "c1", "c2", "c3", "c4"];

export function fmt(x, digits = 3) {
  return x === null || x === undefined ? "undefined" : x.toFixed(digits);
}

// "undefined (IDCG = 0)" for a skipped nDCG, else three decimals.
export function fmtNdcg(x) {
  return x === null ? "undefined (IDCG = 0)" : fmt(x);
}

export function h(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

// A paragraph of text, for the explorer's drawing area.
export function para(text) {
  return h("p", { class: "dcglab-note" }, text);
}

function copy(v) {
  return Array.isArray(v) ? v.map(copy) : v;
}

function readParam(state, param) {
  const [name, idx] = param.split(".");
  return idx === undefined ? state[name] : state[name][Number(idx)];
}

function evaluate(x, state) {
  return typeof x === "function" ? x(state) : x;
}

// One slider per entry of a list parameter, e.g. the grade at each rank.
// opts: {label(i), max, shown(state, i)}
export function listSliders(state, name, opts = {}) {
  const label = opts.label || ((i) => `rank ${i + 1} grade`);
  const max = opts.max ?? 3;
  return state[name].map((_, i) => ({
    param: `${name}.${i}`, label: label(i), min: 0, max, step: 1, group: opts.group,
    ticks: Array.from({ length: max + 1 }, (_, g) => g),
    shown: opts.shown ? (s) => opts.shown(s, i) : undefined,
  }));
}

// Linear and exponential gain (2^g - 1) differ only for grades above 1.
export function gradedAbove1(s) {
  return s.grades.some((g) => g > 1);
}

// What a disabled gain choice says beside it.
export const SAME_GAIN = "no grade above 1, so both gains give the same numbers";

// The cutoff k over a list parameter: 1 up to the number of documents in it.
export function cutoffSlider(s, list = "grades", label = "cutoff k", extra = {}) {
  return { param: "k", label, min: 1, max: s[list].length, step: 1, ...extra };
}

// A control: {param, label, min, max, step} for a slider (max may be a function of the
// state: dependent ranges) or {param, label, options} for a choice; optional
// shown(state) hides it and enabled(state) disables it where it cannot matter, with
// `why` (a short text) shown beside it and read with it while it is disabled.
function makeControl(c, onInput) {
  if (c.stepper) return makeStepper(c, onInput);
  const row = h("label", { class: "dcglab-control" });
  row.append(h("span", { class: "dcglab-label" }, c.label));
  let input;
  const value = h("span", { class: "dcglab-value", "aria-hidden": "true" });
  if (c.options) {
    input = h("select", { "data-param": c.param });
    for (const o of c.options) input.append(h("option", { value: o }, o));
    input.addEventListener("change", () => onInput(c, input.value));
  } else {
    input = h("input", { type: "range", min: c.min, step: c.step, "data-param": c.param });
    input.addEventListener("input", () => onInput(c, Number(input.value)));
  }
  if (c.ticks) {
    // a grade slider: tick marks (a datalist) and the labels 0 1 2 3 under its stops
    const id = `dcglab-ticks-${Math.random().toString(36).slice(2, 10)}`;
    const list = h("datalist", { id });
    const labels = h("span", { class: "dcglab-ticks", "aria-hidden": "true" });
    for (const t of c.ticks) {
      list.append(h("option", { value: t, label: String(t) }));
      labels.append(h("span", {}, String(t)));
    }
    input.setAttribute("list", id);
    const track = h("span", { class: "dcglab-track" });
    track.append(input, labels, list);
    row.append(track, value);
  } else row.append(input, value);
  // out of the control's name (aria-hidden), read as its description
  const why = h("span", { class: "dcglab-why", id: `dcglab-why-${Math.random().toString(36).slice(2, 10)}`, "aria-hidden": "true" });
  if (c.why) {
    row.append(why);
    input.setAttribute("aria-describedby", why.id);
  }
  // what was last written: a slider told its own value again is laid out again
  let last = {};
  const sync = (state) => {
    const shown = c.shown ? c.shown(state) : true;
    const now = {
      hidden: !shown,
      disabled: !shown || (c.enabled ? !c.enabled(state) : false),
      max: c.options ? null : String(evaluate(c.max, state)),
      value: String(readParam(state, c.param)),
    };
    if (now.hidden !== last.hidden) row.hidden = now.hidden;
    if (now.disabled !== last.disabled) {
      input.disabled = now.disabled;
      if (c.why) setText(why, now.disabled && shown ? c.why : "");
    }
    if (now.max !== last.max && now.max !== null) input.max = now.max;
    if (now.value !== last.value || input.value !== now.value) {
      input.value = now.value;
      if (!c.options) value.textContent = now.value;
    }
    last = now;
  };
  return { row, sync, control: c };
}

// A count changed by two buttons, {param, label, min, max, stepper: [less, more]}: e.g.
// documents added one at a time, each then shown as a card (no slider per document).
// A button that cannot act is disabled; its focus then goes to the other one.
function makeStepper(c, onInput) {
  const row = h("div", { class: "dcglab-control dcglab-stepper", role: "group", "aria-label": c.label });
  const value = h("span", { class: "dcglab-value" });
  const buttons = c.stepper.map((text, j) => {
    const b = h("button", { type: "button", class: "dcglab-chip", "data-param": c.param, "data-step": j ? "1" : "-1" }, text);
    b.addEventListener("click", () => onInput(c, readLast() + (j ? 1 : -1)));
    return b;
  });
  row.append(h("span", { class: "dcglab-label" }, c.label), value, ...buttons);
  let now = null;
  const readLast = () => now;
  const sync = (state) => {
    now = readParam(state, c.param);
    const hi = evaluate(c.max, state);
    setText(value, String(now));
    const off = [now <= c.min, now >= hi];
    buttons.forEach((b, j) => {
      if (b.disabled === off[j]) return;
      const had = document.activeElement === b;
      b.disabled = off[j];
      if (had && off[j]) buttons[1 - j].focus({ preventScroll: true });
    });
  };
  return { row, sync, control: c };
}

// Clamp every slider into its (possibly state-dependent) range; returns the fixed state.
function clampState(state, controls) {
  for (const { control: c } of controls) {
    if (c.options) continue;
    const v = readParam(state, c.param), hi = evaluate(c.max, state);
    if (v > hi) writeInto(state, c.param, hi);
    else if (v < c.min) writeInto(state, c.param, c.min);
  }
  return state;
}

function writeInto(state, param, value) {
  const [name, idx] = param.split(".");
  if (idx === undefined) state[name] = value;
  else state[name][Number(idx)] = value;
}

// Attributes the page sets after drawing: a disclosure's open state, a box's overflow.
const kept = (x, name) => (name === "open" && x.nodeName === "DETAILS") || name === "data-overflow";

// The handler properties morph carries over: a click, and the hover or focus that shows
// an element's details.
const HANDLERS = ["onclick", "onfocus", "onpointerenter", "onpointermove", "onpointerleave"];

// Make the children of `live` match those of `fresh`: a node of the same kind in the same
// place is kept, and only its changed attributes, text and handlers (the HANDLERS
// properties) are written. The browser then lays out again only what changed, a focused
// button keeps the focus, and a disclosure keeps the reader's open or closed state.
export function morph(live, fresh) {
  const want = Array.from(fresh.childNodes);
  want.forEach((y, i) => {
    const x = live.childNodes[i];
    if (!x) live.append(y);
    else if (x.nodeName !== y.nodeName || x.nodeType !== y.nodeType || x.nodeType > 3) live.replaceChild(y, x);
    else if (x.nodeType === 3) {
      if (x.data !== y.data) x.data = y.data;
    } else {
      for (const name of y.getAttributeNames()) {
        const v = y.getAttribute(name);
        if (x.getAttribute(name) !== v && !kept(x, name)) x.setAttribute(name, v);
      }
      for (const name of x.getAttributeNames()) if (!y.hasAttribute(name) && !kept(x, name)) x.removeAttribute(name);
      for (const on of HANDLERS) if (x[on] !== y[on]) x[on] = y[on];
      morph(x, y);
    }
  });
  while (live.childNodes.length > want.length) live.lastChild.remove();
}

// Write a text or an inline style only when it changes (an equal write can still cost a layout).
function setText(el, text) {
  const only = el.childNodes.length === 1 && el.firstChild.nodeType === 3 ? el.firstChild : null;
  if (only && text) {
    if (only.data !== text) only.data = text;  // the text node is kept: no new layout object
  } else if (el.textContent !== text) el.textContent = text;
}

function setStyle(el, prop, value) {
  if (el.style[prop] !== value) el.style[prop] = value;
}

// Wrap a wide element (a table) in a labelled box that scrolls sideways on its own. While
// it does, the box carries data-overflow (set after layout by a ResizeObserver, kept by
// morph) and styles.css shows a line saying so above the table.
export function scrollBox(child, label) {
  const box = h("div", { class: "dcglab-scroll", role: "region", "aria-label": label, tabindex: "0" });
  box.append(child);
  if (typeof ResizeObserver !== "undefined") {
    const check = () => box.toggleAttribute("data-overflow", box.scrollWidth > box.clientWidth + 1);
    const watch = new ResizeObserver(check);
    watch.observe(box);
    watch.observe(child);
  }
  return box;
}

// ---- the rank strip --------------------------------------------------------------------
// One picture of a ranking, shared by the chapters: each rank is a column whose outlined
// bar is the gain and whose filled part is gain x discount (the hatched rest is what the
// discount takes away). Ranks after the cutoff k are drawn muted. The ideal ranking (or
// any other read-only list) is a second strip on the same scale, and the totals are two
// stacks of the filled parts, so the ratio of their heights is nDCG. Cards of an editable
// strip move by drag or by keyboard and take a grade by a click at a height or a digit.
// The elements are kept between updates and animated to their new place and height,
// with a faint ghost line where each filled part was before.

const BAR_PX = 96;

function reducedMotion() {
  return typeof window !== "undefined" && window.matchMedia
    && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function animateFrom(el, frames, ms = 240) {
  if (!reducedMotion() && el.animate) el.animate(frames, { duration: ms, easing: "ease-out" });
}

// A list with the entry at `from` moved to `to` (the others keep their order).
export function moved(list, from, to) {
  const out = list.slice();
  const [x] = out.splice(from, 1);
  out.splice(to, 0, x);
  return out;
}

// A list with the entries at i and j exchanged.
export function swapped(list, i, j) {
  const out = list.slice();
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

export function gainLabel(g, gain) {
  const v = gainValue(g, gain);
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

// Put the cards in `order` into `strip`, moving only the cards out of place and never
// `held` (the focused card, which would lose the focus if it were taken out of the
// document and put back): a card taken out and put back is laid out anew.
function placeAround(strip, order, held) {
  const at = order.indexOf(held);
  for (let i = 0; i < at; i++)
    if (strip.children[i] !== order[i].card) strip.insertBefore(order[i].card, strip.children[i]);
  for (let i = at + 1; i < order.length; i++)
    if (order[i - 1].card.nextSibling !== order[i].card) order[i - 1].card.after(order[i].card);
}

// spec.ranking(state, result) -> {
//   rows: [{key, title, grades, list (param edited, for an editable strip), marks (class per rank),
//           k (this row's cutoff, null for none; else the view's k),
//           unranked (documents in no ranking: labelled d1, d2, ..., each bar its whole gain)}],
//   gain, discount (null: no discount, the filled part is the whole gain), k, max (top grade),
//   totals: [{row, label}] (stacks of the filled parts of the top k), ratio: text under them }
function rowCut(row, v) {
  return "k" in row ? row.k : v.k;
}

function rankView(spec, ctx) {
  const box = h("div", { class: "dcglab-rank" });
  const rowsBox = h("div", { class: "dcglab-rank-rows" });
  const totalsBox = h("div", { class: "dcglab-totals" });
  box.append(rowsBox, totalsBox);
  const rows = new Map();
  const helpId = `${ctx.id}-help`;
  let totalsEls = [];
  let kinds = {};
  const legend = h("p", { class: "dcglab-help" });
  let ratioEl = null;

  function makeRow(row) {
    const wrap = h("div", { class: "dcglab-strip-row" });
    const title = h("div", { class: "dcglab-strip-title" });
    const cls = ["dcglab-strip", row.list ? "dcglab-editable" : "", row.kind ? `dcglab-strip-${row.kind}` : ""];
    const strip = h("div", { class: cls.filter(Boolean).join(" ") });
    wrap.append(title, strip);
    if (row.list) {
      strip.setAttribute("role", "group");
      strip.setAttribute("aria-label", row.title);
    } else {
      strip.setAttribute("role", "img");
    }
    rowsBox.append(wrap);
    return { wrap, title, strip, cards: [], list: row.list };
  }

  function makeCard(r, editable) {
    const card = h(editable ? "button" : "div", { class: "dcglab-card" });
    if (editable) {
      card.setAttribute("type", "button");
      card.setAttribute("aria-describedby", helpId);
    }
    const area = h("span", { class: "dcglab-bar-area" });
    const bar = h("span", { class: "dcglab-bar" });
    const fill = h("span", { class: "dcglab-fill" });
    const ghost = h("span", { class: "dcglab-ghost" });
    area.append(bar, fill, ghost);
    const grade = h("span", { class: "dcglab-card-grade" });
    const rank = h("span", { class: "dcglab-card-rank" });
    // a card's accessible name is its text: the visible grade and rank, then a fuller
    // description for screen readers (so the name contains what is seen)
    const sr = h("span", { class: "dcglab-sr" });
    // the numbers of the rank, shown on hover and keyboard focus (styles.css); the same
    // text is in the card's name, so the tip itself is hidden from screen readers
    const tip = h("span", { class: "dcglab-tip", "aria-hidden": "true" });
    card.append(area, grade, rank, sr, tip);
    const c = { card, area, bar, fill, ghost, grade, rank, sr, tip, fillPx: null, barPx: null };
    if (editable) bindCard(r, c);
    return c;
  }

  // Keyboard, pointer and click handling of one editable card.
  function bindCard(r, c) {
    const index = () => r.cards.indexOf(c);
    c.card.addEventListener("keydown", (ev) => {
      const i = index(), n = r.cards.length, s = ctx.state();
      const g = s[r.list][i];
      let handled = true;
      if (ev.key === "ArrowLeft" && i > 0) move(r, i, i - 1);
      else if (ev.key === "ArrowRight" && i < n - 1) move(r, i, i + 1);
      else if (ev.key === "Home" && i > 0) move(r, i, 0);
      else if (ev.key === "End" && i < n - 1) move(r, i, n - 1);
      else if (ev.key === "ArrowUp" && g < ctx.max) setGrade(r, i, g + 1);
      else if (ev.key === "ArrowDown" && g > 0) setGrade(r, i, g - 1);
      else if (/^[0-9]$/.test(ev.key) && Number(ev.key) <= ctx.max) setGrade(r, i, Number(ev.key));
      else handled = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(ev.key);
      if (handled) ev.preventDefault();
    });
    let drag = null;
    c.card.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0) return;
      drag = { x: ev.clientX, y: ev.clientY, moving: false, id: ev.pointerId };
      c.card.setPointerCapture?.(ev.pointerId);
    });
    c.card.addEventListener("pointermove", (ev) => {
      if (!drag) return;
      const dx = ev.clientX - drag.x;
      if (!drag.moving && Math.abs(dx) < 8) return;
      drag.moving = true;
      c.card.classList.add("dcglab-dragging");
      c.card.style.transform = `translateX(${dx}px)`;
      const to = dropIndex(r, ev.clientX);
      r.cards.forEach((o, j) => o.card.classList.toggle("dcglab-drop", j === to && o !== c));
    });
    const end = (ev, cancelled) => {
      if (!drag) return;
      const d = drag;
      drag = null;
      c.card.classList.remove("dcglab-dragging");
      c.card.style.transform = "";
      r.cards.forEach((o) => o.card.classList.remove("dcglab-drop"));
      if (cancelled) return;
      const i = index();
      if (d.moving) {
        const to = dropIndex(r, ev.clientX);
        if (to !== i) move(r, i, to);
      } else {
        const g = gradeAt(c, ev.clientY);
        if (g !== null && g !== ctx.state()[r.list][i]) setGrade(r, i, g);
      }
    };
    c.card.addEventListener("pointerup", (ev) => end(ev, false));
    c.card.addEventListener("pointercancel", (ev) => end(ev, true));
  }

  // The rank whose column centre is nearest to a pointer's x.
  function dropIndex(r, x) {
    let best = 0, dist = Infinity;
    r.cards.forEach((o, j) => {
      const b = o.card.getBoundingClientRect();
      const d = Math.abs(b.left + b.width / 2 - x);
      if (d < dist) { dist = d; best = j; }
    });
    return best;
  }

  // The grade whose gain level (on the strip's scale) is nearest to a click's height;
  // null for a click below the bar area (on the labels).
  function gradeAt(c, y) {
    const b = c.area.getBoundingClientRect();
    if (y > b.bottom + 2) return null;
    const up = b.bottom - y;
    let best = 0, dist = Infinity;
    for (let g = 0; g <= ctx.max; g++) {
      const d = Math.abs(gainValue(g, ctx.gain) * ctx.scale - up);
      if (d < dist) { dist = d; best = g; }
    }
    return best;
  }

  function move(r, from, to) {
    const s = ctx.state();
    const list = s[r.list];
    r.ids = moved(r.ids, from, to);
    r.focus = r.ids[to];
    ctx.write(r.list, moved(list, from, to),
      `Moved the grade-${list[from]} document from rank ${from + 1} to rank ${to + 1}.`);
  }

  function setGrade(r, i, g) {
    const list = ctx.state()[r.list].slice();
    list[i] = g;
    r.focus = r.ids[i];
    ctx.write(r.list, list, `Rank ${i + 1} now has grade ${g}.`);
  }

  function update(state, result) {
    const v = spec(state, result, ctx);
    box.hidden = v.rows.length === 0;
    if (box.hidden) return;
    const disc = v.discount;
    const max = v.max ?? 3;
    const n = Math.max(...v.rows.map((row) => row.grades.length));
    const w = disc ? weights(n, disc) : new Array(n).fill(1);
    const top = gainValue(max, v.gain) * Math.max(1, ...w);
    ctx.max = max;
    ctx.gain = v.gain;
    ctx.scale = BAR_PX / (top || 1);
    const seen = new Set();
    const fills = {};
    for (const row of v.rows) {
      seen.add(row.key);
      if (!rows.has(row.key)) rows.set(row.key, makeRow(row));
      const r = rows.get(row.key);
      setText(r.title, row.title);
      fills[row.key] = drawRow(r, row, v, w);
    }
    for (const [key, r] of rows) if (!seen.has(key)) { r.wrap.remove(); rows.delete(key); }
    help.hidden = !v.rows.some((row) => row.list);
    kinds = Object.fromEntries(v.rows.map((row) => [row.key, row.kind || "system"]));
    // the legend names the cutoff's marks only when some rank lies after k
    const cut = v.rows.some((row) => (rowCut(row, v) ?? row.grades.length) < row.grades.length);
    setText(legend, v.legend ?? (v.discount
      ? "Outlined bar: the gain. Filled: gain × discount, what the rank adds to DCG. Hatched: what the discount takes away."
        + (cut ? " Dashed and grey: after the cutoff k." : "") + " Dotted line: the filled height before your last change."
      : `Each bar is a gain.${cut ? " Dashed and grey: after the cutoff k, not counted." : ""}`));
    drawTotals(v, fills);
  }

  function drawRow(r, row, v, w) {
    const g = row.grades, n = g.length, k = Math.min(rowCut(row, v) ?? n, n);
    const editable = Boolean(row.list);
    if (r.all === undefined || r.all.length !== n) {
      (r.all || []).forEach((c) => c.card.remove());
      r.all = Array.from({ length: n }, () => makeCard(r, editable));
      r.ids = r.all.map((_, i) => i);
    }
    // cards follow their document: a move permutes r.ids before the state changes
    const order = r.ids.map((id) => r.all[id]);
    // a move is drawn without reading the layout: the cards' old ranks and the column
    // pitch (measured by a ResizeObserver after a layout) give each card's slide
    const reorder = r.drawn !== undefined && r.ids.some((id, i) => r.drawn[i] !== id);
    const was = reorder ? new Map(r.drawn.map((id, i) => [id, i])) : null;
    r.drawn = r.ids.slice();
    if (!r.sizer && typeof ResizeObserver !== "undefined") {
      r.sizer = new ResizeObserver(() => { if (r.cards.length) r.pitch = r.cards[0].card.offsetWidth + 2; });
      r.sizer.observe(r.strip);
    }
    const focused = document.activeElement;
    const held = order.find((c) => c.card === focused);
    if (held && reorder) placeAround(r.strip, order, held);
    else order.forEach((c, i) => {
      if (r.strip.children[i] !== c.card) r.strip.insertBefore(c.card, r.strip.children[i] || null);
    });
    r.cards = order;
    const want = r.focus !== undefined ? r.all[r.focus].card : held ? focused : null;
    if (want && document.activeElement !== want) want.focus({ preventScroll: true });
    r.focus = undefined;
    const parts = [];
    const labels = [];
    order.forEach((c, i) => {
      // an unranked row (documents no ranking placed) has no discount: the bar is its gain
      const gain = gainValue(g[i], v.gain), dg = row.unranked ? gain : gain * w[i];
      const barPx = gain * ctx.scale, fillPx = dg * ctx.scale;
      const below = i >= k;
      if (!below) parts.push(dg);
      const cls = ["dcglab-card", below ? "dcglab-below" : "", i === k && k < n ? "dcglab-cut" : "",
        g[i] === 0 ? "dcglab-zero" : "", (row.marks && row.marks[i]) || ""].filter(Boolean).join(" ");
      if (c.card.className !== cls) c.card.className = cls;
      if (c.barPx !== null && c.barPx !== barPx) animateFrom(c.bar, [{ height: `${c.barPx}px` }, { height: `${barPx}px` }]);
      if (c.fillPx !== null && c.fillPx !== fillPx) animateFrom(c.fill, [{ height: `${c.fillPx}px` }, { height: `${fillPx}px` }]);
      const still = c.fillPx === null || Math.abs(c.fillPx - fillPx) < 0.5;
      if (!still) setStyle(c.ghost, "bottom", `${c.fillPx}px`);
      if (c.ghost.hidden !== still) c.ghost.hidden = still;
      setStyle(c.bar, "height", `${barPx}px`);
      setStyle(c.fill, "height", `${fillPx}px`);
      c.barPx = barPx;
      c.fillPx = fillPx;
      const gl = v.gain === "linear" ? "" : ` → ${gainLabel(g[i], v.gain)}`;
      setText(c.grade, `${g[i]}${gl}`);
      setText(c.rank, row.unranked ? `d${i + 1}` : `#${i + 1}`);
      const what = (row.unranked ? `document d${i + 1}, not ranked` : `rank ${i + 1}`)
        + `: grade ${g[i]}, gain ${gainLabel(g[i], v.gain)}`
        + (v.discount && !row.unranked ? `, discounted gain ${fmt(dg)}` : "") + (below ? `, after the cutoff ${k}` : "")
        + (row.marks && row.marks[i] === "dcglab-missed" ? ", not retrieved" : "");
      if (editable) setText(c.sr, `, ${what}`);
      setText(c.tip, what.charAt(0).toUpperCase() + what.slice(1));
      labels.push(what);
    });
    const name = `${row.title}. ${labels.join("; ")}`;
    if (!editable && r.strip.getAttribute("aria-label") !== name) r.strip.setAttribute("aria-label", name);
    // slide moved cards from where they were
    if (reorder && r.pitch) order.forEach((c, i) => {
      const dx = (was.get(r.ids[i]) - i) * r.pitch;
      if (dx !== 0) animateFrom(c.card, [{ transform: `translateX(${dx}px)` }, { transform: "none" }]);
    });
    return parts;
  }

  function drawTotals(v, fills) {
    const totals = v.totals || [];
    totalsBox.hidden = totals.length === 0;
    if (!totals.length) return;
    const sums = totals.map((t) => (fills[t.row] || []).reduce((a, b) => a + b, 0));
    const top = Math.max(1e-12, ...sums);
    while (totalsEls.length < totals.length) {
      const col = h("div", { class: "dcglab-total", role: "img" });
      const stack = h("span", { class: "dcglab-stack" });
      const ghost = h("span", { class: "dcglab-ghost" });
      const label = h("span", { class: "dcglab-total-label" });
      const value = h("span", { class: "dcglab-total-value" });
      stack.append(ghost);
      col.append(stack, label, value);
      totalsBox.insertBefore(col, ratioEl);
      totalsEls.push({ col, stack, ghost, label, value, segs: [], px: null });
    }
    if (!ratioEl) {
      ratioEl = h("p", { class: "dcglab-ratio" });
      totalsBox.append(ratioEl);
    }
    totals.forEach((t, j) => {
      const e = totalsEls[j];
      const parts = fills[t.row] || [];
      const scale = BAR_PX / top;
      while (e.segs.length < parts.length) {
        const seg = h("span", { class: "dcglab-seg" });
        e.stack.append(seg);
        e.segs.push(seg);
      }
      e.segs.forEach((seg, i) => {
        if (seg.hidden !== i >= parts.length) seg.hidden = i >= parts.length;
        if (i < parts.length) setStyle(seg, "height", `${parts[i] * scale}px`);
      });
      const px = sums[j] * scale;
      if (e.px !== null && Math.abs(e.px - px) > 0.5) {
        animateFrom(e.stack, [{ height: `${e.px}px` }, { height: `${px}px` }]);
        e.ghost.hidden = false;
        setStyle(e.ghost, "bottom", `${e.px}px`);
      } else if (!e.ghost.hidden) e.ghost.hidden = true;
      setStyle(e.stack, "height", `${px}px`);
      e.px = px;
      setText(e.label, t.label);
      setText(e.value, fmt(sums[j]));
      const cls = `dcglab-total dcglab-total-${kinds[t.row]}`;
      if (e.col.className !== cls) e.col.className = cls;
      const name = `${t.label} = ${fmt(sums[j])}`;
      if (e.col.getAttribute("aria-label") !== name) e.col.setAttribute("aria-label", name);
    });
    totalsEls.forEach((e, j) => { if (e.col.hidden !== j >= totals.length) e.col.hidden = j >= totals.length; });
    setText(ratioEl, v.ratio || "");
  }

  const help = h("p", { class: "dcglab-help", id: helpId },
    "Drag a card to another rank, or focus it and press ← or → to move it; "
    + "click a bar at a height, or press a digit or ↑ ↓, to set its grade.");
  box.prepend(help, legend);
  // Reset puts every card back where it started.
  const home = () => { for (const r of rows.values()) if (r.ids) r.ids = r.ids.map((_, i) => i); };
  return { el: box, update, home };
}

// ---- predict, then reveal --------------------------------------------------------------
// spec.predict: {question(state), choices: [..], apply(state) -> new state (optional),
//                answer(before, after, state) -> one of choices,
//                why(before, after, state, starting state) -> the one-line reason}
function predictBox(p, ctx) {
  const box = h("div", { class: "dcglab-predict", role: "group" });
  const q = h("p", { class: "dcglab-predict-q" });
  const buttons = h("div", { class: "dcglab-predict-choices" });
  const verdict = h("p", { class: "dcglab-predict-verdict" });
  box.append(q, buttons, verdict);
  const start = ctx.state();
  q.textContent = `Predict first: ${p.question(start)}`;
  box.setAttribute("aria-label", "Predict, then reveal");
  for (const choice of p.choices) {
    const b = h("button", { type: "button", class: "dcglab-chip" }, choice);
    b.addEventListener("click", () => {
      const s0 = ctx.initial();
      const before = ctx.compute(s0);
      const s1 = p.apply ? p.apply(JSON.parse(JSON.stringify(s0))) : s0;
      const after = ctx.compute(s1);
      const right = p.answer(before, after, s1);
      const mark = right === choice ? "✓ Right" : `✗ Not quite: ${right}`;
      verdict.textContent = `${mark}. ${p.why(before, after, s1, s0)}`;
      verdict.setAttribute("data-verdict", right === choice ? "right" : "wrong");
      box.setAttribute("data-answered", choice);
      if (p.apply) ctx.setAll(s1, p.said ? p.said(s1) : "");
    });
    buttons.append(b);
  }
  return box;
}

// Up, down or the same: how a result moved between two states.
export function direction(before, after, key) {
  const a = before[key], b = after[key];
  if (a === null || b === null) return a === b ? "the same" : "undefined";
  return b > a + 1e-12 ? "up" : b < a - 1e-12 ? "down" : "the same";
}

export const UP_DOWN = ["up", "down", "the same"];

// ---- presets and the state in the URL ----------------------------------------------------
// spec.presets(initial) -> [[label, state patch]]; the state of every explorer also lives
// in the page address as #dcglab.<name>=<JSON>, so an exercise can link to a set-up state.
function presetChips(presets, ctx) {
  const box = h("div", { class: "dcglab-presets", role: "group", "aria-label": "Preset states" });
  box.append(h("span", { class: "dcglab-presets-label" }, "Load:"));
  for (const [label, patch] of presets) {
    const b = h("button", { type: "button", class: "dcglab-chip" }, label);
    b.addEventListener("click", () => ctx.setAll(Object.assign(ctx.state(), JSON.parse(JSON.stringify(patch))),
      `Loaded ${label}.`));
    box.append(b);
  }
  return box;
}

export function stateFromHash(name, hash) {
  const key = `dcglab.${name}=`;
  for (const part of (hash || "").replace(/^#/, "").split("&")) {
    if (!part.startsWith(key)) continue;
    try {
      const v = JSON.parse(decodeURIComponent(part.slice(key.length)));
      return v && typeof v === "object" && !Array.isArray(v) ? v : null;
    } catch (e) {
      return null;
    }
  }
  return null;
}

// Keep only known parameters whose value has the type of the current one.
function sanitize(patch, state, params) {
  const out = {};
  for (const p of params) {
    if (!(p in patch)) continue;
    const a = patch[p], b = state[p];
    const ok = Array.isArray(b)
      ? Array.isArray(a) && a.length === b.length && a.every((x) => Number.isInteger(x) && x >= 0 && x <= 9)
      : typeof a === typeof b && (typeof a !== "number" || Number.isFinite(a));
    if (ok) out[p] = a;
  }
  return out;
}

// Standard chips for an explorer whose ranking is the list parameter `list`.
export function rankingPresets(s, list = "grades", gain = "linear") {
  const g = s[list];
  return [
    ["worked example", { [list]: g.slice() }],
    ["ideal order", { [list]: idealOrder(g, gain) }],
    ["reverse", { [list]: idealOrder(g, gain).reverse() }],
    ["all zeros", { [list]: g.map(() => 0) }],
  ];
}

// spec: {name, title, params, controls(state), compute(state), draw(view, state, result),
//        readouts(state, result) -> [[label, key, text]]}; optional: ranking (the rank
//        strip, see rankView), predict (see predictBox), presets(initial) -> [[label, patch]].
export function mount(model, el, spec) {
  const readState = () => Object.fromEntries(spec.params.map((p) => [p, copy(model.get(p))]));
  const initial = readState();
  const root = h("div", { class: "dcglab-explorer", "data-explorer": spec.name, tabindex: "-1" });
  const head = h("div", { class: "dcglab-head" });
  const uid = `dcglab-${spec.name}-${Math.random().toString(36).slice(2, 8)}`;
  const titleId = `${uid}-title`;
  head.append(h("div", { class: "dcglab-title", id: titleId }, spec.title));
  const tools = h("div", { class: "dcglab-tools" });
  const link = h("a", { class: "dcglab-link", href: "#" }, "Link to this state");
  const reset = h("button", { type: "button", class: "dcglab-reset" }, "Reset");
  tools.append(link, reset);
  head.append(tools);
  root.setAttribute("role", "group");
  root.setAttribute("aria-labelledby", titleId);
  const panel = h("div", { class: "dcglab-controls" });
  let said = "";
  const write = (c, value) => {
    const state = readState();
    writeInto(state, c.param, value);
    clampState(state, controls);
    setAll(state);
  };
  const setAll = (state, message = "") => {
    said = message;
    let changed = false;
    for (const p of spec.params) {
      if (state[p] !== model.get(p) && JSON.stringify(state[p]) !== JSON.stringify(model.get(p))) {
        model.set(p, state[p]);
        changed = true;
      }
    }
    model.save_changes();
    if (!changed && message) update();
    // the message stays through the updates of every parameter set above
    said = "";
  };
  const controls = spec.controls(initial).map((c) => makeControl(c, write));
  // controls with a group (e.g. the grades as sliders, beside the rank strip) sit in an
  // open disclosure after the others
  const groups = new Map();
  for (const c of controls) {
    const g = c.control.group;
    if (!g) { panel.append(c.row); continue; }
    if (!groups.has(g)) {
      const d = h("details", { class: "dcglab-group", open: "" });
      d.append(h("summary", {}, g));
      const inner = h("div", { class: "dcglab-controls" });
      d.append(inner);
      groups.set(g, inner);
    }
    groups.get(g).append(c.row);
  }
  const tunable = [...new Set(controls.map((c) => c.control.param.split(".")[0])
    .concat(spec.ranking ? spec.editable || ["grades"] : []))];
  const ctx = {
    id: uid,
    state: readState,
    initial: () => copy(initial),
    compute: (s) => computeOnce(s),
    setAll: (s, message) => { clampState(s, controls); setAll(s, message); },
    write: (param, value, message) => {
      const s = readState();
      s[param] = value;
      clampState(s, controls);
      setAll(s, message);
    },
  };
  ctx.local = {};
  ctx.refresh = () => update();
  const rank = spec.ranking ? rankView(spec.ranking, ctx) : null;
  reset.addEventListener("click", () => {
    if (rank) rank.home();
    setAll(Object.assign(readState(), copy(initial)), "Back to the starting state.");
    root.focus({ preventScroll: true });
  });
  const view = h("div", { class: "dcglab-output" });
  const live = h("div", { class: "dcglab-readouts", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const saidEl = h("span", { class: "dcglab-said" });
  root.append(head);
  if (spec.predict) root.append(predictBox(spec.predict, ctx));
  if (spec.presets) root.append(presetChips(spec.presets(copy(initial)), ctx));
  if (rank) root.append(rank.el);
  root.append(panel, ...Array.from(groups.values(), (inner) => inner.parentElement), view, live);
  el.append(root);
  // The picture (the rank strip, else the charts) comes first and stays at the top of a
  // narrow screen while the controls below it are used (styles.css); controls scroll
  // into view below it, by its height.
  const picture = rank ? rank.el : view;
  picture.classList.add("dcglab-picture");
  if (typeof ResizeObserver !== "undefined") {
    new ResizeObserver(([e]) => {
      root.style.setProperty("--dcglab-picture-h", `${Math.ceil(e.borderBoxSize?.[0]?.blockSize ?? e.contentRect.height)}px`);
      // a picture cut to half the screen scrolls on its own: then it takes the focus too
      const scrolls = picture.scrollHeight > picture.clientHeight + 1;
      if (scrolls === picture.hasAttribute("tabindex")) return;
      if (scrolls) {
        picture.setAttribute("tabindex", "0");
        picture.setAttribute("role", "region");
        picture.setAttribute("aria-label", `${spec.title}: the picture (scrolls)`);
      } else ["tabindex", "role", "aria-label"].forEach((a) => picture.removeAttribute(a));
    }).observe(picture);
  }
  // the width charts are drawn for, kept current by a ResizeObserver (no layout read per step)
  let width = Math.max(280, root.clientWidth - 24 || 420);
  if (typeof ResizeObserver !== "undefined") {
    let last = width;
    new ResizeObserver(([e]) => {
      const w = Math.max(280, Math.round(e.contentRect.width));
      if (Math.abs(w - last) > 8) { last = w; width = w; update(); }
    }).observe(view);
  }
  let items = [];
  // Results of recent states (a slider dragged back and forth, chapter 5's orderings).
  const memo = new Map();
  const computeOnce = (state) => {
    const key = JSON.stringify(tunable.map((p) => state[p]));
    if (!memo.has(key)) {
      if (memo.size >= 64) memo.delete(memo.keys().next().value);
      memo.set(key, spec.compute(state));
    }
    return memo.get(key);
  };
  // JSON.stringify(state), with the JSON of the parameters no control changes kept
  const fixedJson = new Map();
  const stateJson = (state) => "{" + spec.params.map((p) => {
    if (tunable.includes(p)) return `${JSON.stringify(p)}:${JSON.stringify(state[p])}`;
    if (!fixedJson.has(p)) fixedJson.set(p, JSON.stringify(state[p]));
    return `${JSON.stringify(p)}:${fixedJson.get(p)}`;
  }).join(",") + "}";
  const update = () => {
    const state = readState();
    for (const c of controls) c.sync(state);
    const same = tunable.every((p) => JSON.stringify(state[p]) === JSON.stringify(initial[p]));
    reset.disabled = same;
    const result = computeOnce(state);
    if (rank) rank.update(state, result);
    if (spec.update) spec.update(view, state, result, ctx);
    else {
      const fresh = h("div", { class: "dcglab-output" });
      available = width;
      patterns = { prefix: uid, count: 0 };
      spec.draw(fresh, state, result, ctx);
      morph(view, fresh);
    }
    const rows = spec.readouts(state, result);
    if (items.length !== rows.length) {
      live.replaceChildren(saidEl);
      items = rows.map(([, key]) => {
        const item = h("span", { class: "dcglab-readout" });
        const label = h("span", { class: "dcglab-readout-label" });
        const out = h("span", { class: "dcglab-readout-value", "data-out": key });
        item.append(label, " ", out);
        live.append(item, " ");
        return { label, out };
      });
    }
    saidEl.textContent = said;
    rows.forEach(([label, key, text], i) => {
      if (items[i].label.textContent !== label) items[i].label.textContent = label;
      items[i].out.setAttribute("data-out", key);
      if (items[i].out.textContent !== text) items[i].out.textContent = text;
    });
    const patch = Object.fromEntries(tunable.map((p) => [p, state[p]]));
    link.setAttribute("href", `#dcglab.${spec.name}=${encodeURIComponent(JSON.stringify(patch))}`);
    root.setAttribute("data-state", stateJson(state));
    root.setAttribute("data-result", JSON.stringify(result));
  };
  // A state set from a kernel may break a dependent range: clamp it once, like a slider would.
  const fixed = clampState(readState(), controls);
  if (JSON.stringify(fixed) !== JSON.stringify(readState())) setAll(fixed);
  // Parameters without a control (data) change only from a kernel: forget old results
  // and their JSON (written once, not at every step).
  const forget = () => { memo.clear(); fixedJson.clear(); };
  const fixedParams = spec.params.filter((p) => !tunable.includes(p));
  for (const p of fixedParams) model.on(`change:${p}`, forget);
  model.on("change", update);
  update();
  // A state in the page address (a "load into the explorer" link) applies at mount and
  // whenever the address changes, e.g. when a link in the text is followed; then the
  // explorer scrolls into view and takes the focus.
  const loadHash = () => {
    const fromUrl = stateFromHash(spec.name, location.hash);
    const patch = fromUrl ? sanitize(fromUrl, readState(), tunable) : {};
    if (!Object.keys(patch).length) return false;
    setAll(clampState(Object.assign(readState(), patch), controls), "Loaded the state in the link.");
    return true;
  };
  const onHash = () => {
    if (!loadHash()) return;
    root.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
    root.focus({ preventScroll: true });
  };
  // a link to the address already shown fires no hashchange: load its state again
  const onClick = (ev) => {
    const a = ev.target.closest ? ev.target.closest('a[href^="#dcglab."]') : null;
    if (a && !root.contains(a) && a.hash === location.hash) onHash();
  };
  const hasWindow = typeof window !== "undefined" && typeof location !== "undefined";
  if (hasWindow) {
    loadHash();
    window.addEventListener("hashchange", onHash);
    document.addEventListener("click", onClick);
  }
  return () => {
    if (hasWindow) {
      window.removeEventListener("hashchange", onHash);
      document.removeEventListener("click", onClick);
    }
    model.off("change", update);
    for (const p of fixedParams) model.off(`change:${p}`, forget);
  };
}

// The module an explorer's file exports: anywidget calls render() for each view.
export function explorer(spec) {
  return { render: ({ model, el }) => mount(model, el, spec) };
}

// A table from a header row and data rows, in a labelled box that scrolls sideways.
// rowClass(i) may name a class for data row i (e.g. rows below the cutoff).
export function table(headers, rows, label, rowClass = () => "") {
  const t = h("table", { class: "dcglab-table" });
  const head = h("tr");
  // words read from the left, numbers line up on the right (a column of words, its header too)
  const number = (x) => /^[-+−]?[\d.]+$/.test(String(x)) || x === "";
  headers.forEach((x, j) => head.append(h("th", rows.length && rows.every((r) => !number(r[j]))
    ? { scope: "col", class: "dcglab-text" } : { scope: "col" }, x)));
  t.append(h("thead"));
  t.firstChild.append(head);
  const body = h("tbody");
  rows.forEach((r, i) => {
    const tr = h("tr");
    const cls = rowClass(i);
    if (cls) tr.setAttribute("class", cls);
    for (const x of r) tr.append(h("td", number(x) ? {} : { class: "dcglab-text" }, String(x)));
    body.append(tr);
  });
  t.append(body);
  return scrollBox(t, label);
}

function niceStep(span) {
  const raw = span / 4, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
}

// y-axis ticks at round steps, with as many decimals as the step needs.
function yTicks(ymin, ymax) {
  const step = niceStep(ymax - ymin);
  let digits = 0;
  while (digits < 4 && Math.abs(Math.round(step * 10 ** digits) - step * 10 ** digits) > 1e-9) digits++;
  const ticks = [];
  for (let i = Math.ceil(ymin / step - 1e-9); i * step <= ymax + step * 1e-9; i++) ticks.push(i * step);
  return { ticks, digits };
}

function summarise(s) {
  const pts = s.xs.map((x, i) => `${x}: ${fmt(s.ys[i], 2)}`);
  const list = pts.length <= 12 ? pts : pts.slice(0, 5).concat(["…"], pts.slice(-3));
  return `${s.label}, ${list.join(", ")}`;
}

// Details on demand in a chart, tip = {x, xs, lines(x) -> [text], pick(x)}: a box with the
// numbers at x (the inspected value, which the keyboard moves with its slider); pointing
// at the chart shows them at the nearest of xs instead, and a click picks that x. The
// box is redrawn in place while the pointer moves (no new drawing of the chart).
function chartTip(svg, tip, { X, W, m, H, xmin, xmax }) {
  const make = (parent, tag, attrs) => {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.append(e);
    return e;
  };
  const g = make(svg, "g", { class: "dcglab-chart-tip", "aria-hidden": "true" });
  const guide = make(g, "line", { y1: m.t, y2: H - m.b, style: "stroke: var(--dcglab-fg); stroke-width: 1; stroke-opacity: 0.5" });
  // the box is a backdrop for its text (a little translucent), not a mark of the chart
  const box = make(g, "rect", { rx: 4, style: "fill: var(--dcglab-bg); fill-opacity: 0.94; stroke: var(--dcglab-border)" });
  const rows = tip.lines(tip.x).map(() => make(g, "text", { "font-size": 12, style: "fill: var(--dcglab-fg)" }));
  const place = (x) => {
    const lines = tip.lines(x);
    const w = 12 + 6.8 * Math.max(...lines.map((t) => t.length)), px = X(x);
    const left = Math.max(2, px + 8 + w > W - m.r ? px - 8 - w : px + 8);
    guide.setAttribute("x1", px);
    guide.setAttribute("x2", px);
    g.setAttribute("data-x", x);
    for (const [k, v] of Object.entries({ x: left, y: m.t, width: w, height: 8 + 15 * lines.length })) box.setAttribute(k, v);
    rows.forEach((t, i) => {
      t.setAttribute("x", left + 6);
      t.setAttribute("y", m.t + 16 + 15 * i);
      t.textContent = lines[i] ?? "";
    });
  };
  place(tip.x);
  const nearest = (ev) => {
    const b = svg.getBoundingClientRect();
    const vx = ((ev.clientX - b.left) * W) / (b.width || 1);
    const x = xmin + ((vx - m.l) / (W - m.l - m.r)) * (xmax - xmin);
    return tip.xs.reduce((best, v) => (Math.abs(v - x) < Math.abs(best - x) ? v : best), tip.xs[0]);
  };
  const area = make(svg, "rect", { class: "dcglab-chart-pick", x: m.l, y: m.t, width: W - m.l - m.r, height: H - m.t - m.b,
                                   style: "fill: transparent; cursor: crosshair" });
  area.onpointermove = (ev) => place(nearest(ev));
  area.onpointerleave = () => place(tip.x);
  area.onclick = (ev) => tip.pick(nearest(ev));
}

// A legend's piece of line as a CSS image: the dash pattern "a,b,c,d" (px on, off, on,
// off) in the swatch's colour, repeated; no pattern is a solid line.
function dashImage(dash) {
  const steps = String(dash || "").split(",").map(Number).filter((x) => x > 0);
  if (steps.length < 2) return "linear-gradient(var(--dcglab-swatch), var(--dcglab-swatch))";
  let at = 0;
  const stops = steps.map((len, i) => {
    const stop = `${i % 2 ? "transparent" : "var(--dcglab-swatch)"} ${at}px ${at + len}px`;
    at += len;
    return stop;
  });
  return `repeating-linear-gradient(to right, ${stops.join(", ")})`;
}

// Ids of the hatch patterns: the explorer's id and a count that restarts with each
// drawing (set by mount), so a redrawn chart keeps its ids.
let patterns = { prefix: "dcglab", count: 0 };

// A small line/bar/area chart that scales with its container (viewBox, no fixed width).
// series: [{label, xs, ys, color: "c0".."c4"|"muted"|"marker", kind: "line"|"bar"|"area"|"marker",
//           y0s (area), dash, markers}]
// opts: {title, xlabel, xticks, xmin, xmax, ymin, ymax, width, height, alt}
// The chart's accessible name (role="img") states the title and the numbers of every
// labelled series; the legend is HTML below it.
// Chart width in px: the width the explorer has (set by mount before each draw).
let available = 420;

export function chart(series, opts) {
  const W = Math.round(opts.width ? Math.min(opts.width, available) : Math.min(available, 720));
  const H = opts.height || 220;
  const m = { l: 44, r: 12, t: 22, b: 34 };
  const xs = series.flatMap((s) => s.xs);
  const ys = series.filter((s) => s.kind !== "marker").flatMap((s) => s.ys.concat(s.y0s || []))
    .filter((y) => y !== null && y !== undefined);
  const xmin = opts.xmin ?? Math.min(...xs), xmax = opts.xmax ?? Math.max(...xs);
  let ymin = opts.ymin ?? Math.min(0, ...ys), ymax = opts.ymax ?? Math.max(...ys) * 1.05;
  if (!(ymax - ymin > 1e-12)) ymax = ymin + 1;
  const tx = opts.xlog ? Math.log : (x) => x;
  const X = (x) => m.l + ((tx(x) - tx(xmin)) / (tx(xmax) - tx(xmin) || 1)) * (W - m.l - m.r);
  const Y = (y) => H - m.b - ((y - ymin) / (ymax - ymin)) * (H - m.t - m.b);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "dcglab-chart");
  svg.setAttribute("style", `max-width: ${W}px`);
  svg.setAttribute("role", "img");
  const pointed = (s) => ["marker", "ratio", "focus"].includes(s.kind);
  const named = series.filter((s) => s.label && !pointed(s));
  const markers = series.filter((s) => pointed(s) && s.label);
  const alt = [opts.title || "chart"].concat(named.map(summarise),
    markers.map((s) => `${s.label} at ${s.xs[0]}${s.text ? `: ${s.text}` : ""}`)).join(". ");
  svg.setAttribute("aria-label", (opts.alt ? opts.alt + ". " : "") + alt);
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  const paint = (s, j) => `var(--dcglab-${s.color || COLORS[j % COLORS.length]})`;
  add("line", { x1: m.l, y1: H - m.b, x2: W - m.r, y2: H - m.b, class: "dcglab-axis" });
  add("line", { x1: m.l, y1: m.t, x2: m.l, y2: H - m.b, class: "dcglab-axis" });
  const { ticks, digits } = yTicks(ymin, ymax);
  for (const yv of ticks)
    add("text", { x: m.l - 4, y: Y(yv) + 4, "text-anchor": "end", "font-size": 12 }, yv.toFixed(digits));
  const xt = opts.xticks || [xmin, xmax];
  for (const xv of xt)
    add("text", { x: X(xv), y: H - m.b + 15, "text-anchor": "middle", "font-size": 12 }, String(xv));
  if (opts.xlabel)
    add("text", { x: (W + m.l) / 2, y: H - 4, "text-anchor": "middle", "font-size": 12 }, opts.xlabel);
  if (opts.title) add("text", { x: m.l, y: 14, "font-size": 13, "font-weight": "bold" }, opts.title);
  if (opts.note) add("text", { x: (W + m.l) / 2, y: (H - m.b + m.t) / 2, "text-anchor": "middle", "font-size": 13 }, opts.note);
  if (opts.zero && ymin < 0 && ymax > 0)
    add("line", { x1: m.l, y1: Y(0), x2: W - m.r, y2: Y(0), class: "dcglab-axis", "stroke-dasharray": "2,2" });
  for (const ref of opts.refs || [])
    add("line", { x1: m.l, y1: Y(ref), x2: W - m.r, y2: Y(ref), style: "stroke: var(--dcglab-marker); stroke-width: 1.5; stroke-dasharray: 6,3" });
  series.forEach((s, j) => {
    const color = paint(s, j);
    if (s.kind === "bar") {
      // bars one x unit apart; `share` (of the unit) and `shift` put two series side by side
      const bw = Math.abs(X(xmin + 1) - X(xmin)) * (s.share ?? 0.7);
      s.xs.forEach((x, i) => add("rect", {
        x: X(x) + (s.shift ?? 0) * Math.abs(X(xmin + 1) - X(xmin)) - bw / 2, y: Y(Math.max(0, s.ys[i])), width: bw,
        ...(s.cls ? { class: s.cls } : {}),
        height: Math.abs(Y(0) - Y(s.ys[i])),
        style: s.hollow ? `fill: none; stroke: ${color}; stroke-width: 2` : `fill: ${color}`,
      }));
    } else if (s.kind === "area") {
      // a hatch (full-contrast lines) over a light tint: the area reads without colour
      const id = `${patterns.prefix}-hatch-${++patterns.count}`;
      const pat = add("pattern", { id, patternUnits: "userSpaceOnUse", width: 6, height: 6,
                                   patternTransform: "rotate(45)" });
      const ln = document.createElementNS(SVG_NS, "line");
      for (const [k, v] of Object.entries({ x1: 0, y1: 0, x2: 0, y2: 6, style: `stroke: ${color}; stroke-width: 1.5` }))
        ln.setAttribute(k, v);
      pat.append(ln);
      const top = s.xs.map((x, i) => `${X(x)},${Y(s.ys[i])}`);
      const bottom = s.xs.map((x, i) => `${X(x)},${Y(s.y0s[i])}`).reverse();
      const pts = top.concat(bottom).join(" ");
      add("polygon", { points: pts, style: `fill: ${color}; fill-opacity: 0.12` });
      add("polygon", { points: pts, fill: `url(#${id})` });
    } else if (s.kind === "ratio") {
      // a bracket at x: its outline reaches ys (the denominator), its filled part y0s
      // (the numerator), so the filled share of the bracket is the ratio
      const x = X(s.xs[0]), w = 14, top = Y(s.ys[0]), mid = Y(s.y0s[0]), base = Y(0);
      add("rect", { class: "dcglab-ratio-whole", x: x - w / 2, y: top, width: w, height: base - top,
                    style: `fill: none; stroke: ${color}; stroke-width: 2` });
      add("rect", { class: "dcglab-ratio-part", x: x - w / 2, y: mid, width: w, height: base - mid,
                    style: `fill: ${color}` });
      if (s.text) add("text", { x: x + w / 2 + 3 > W - 90 ? x - w / 2 - 3 : x + w / 2 + 3, y: Math.max(m.t + 10, top - 4),
                                "text-anchor": x + w / 2 + 3 > W - 90 ? "end" : "start", "font-size": 12,
                                style: `fill: ${color}` }, s.text);
    } else if (s.kind === "focus") {
      // one point ringed and named: the value the ratio on another chart gives
      if (s.ys[0] === null) return;
      const x = X(s.xs[0]), y = Y(s.ys[0]);
      add("circle", { class: "dcglab-focus", cx: x, cy: y, r: 7, style: `fill: none; stroke: ${color}; stroke-width: 3` });
      if (s.text) add("text", { x: x > W - 90 ? x - 10 : x + 10, y: Math.max(m.t + 10, y - 10),
                                "text-anchor": x > W - 90 ? "end" : "start", "font-size": 12,
                                style: `fill: ${color}` }, s.text);
    } else if (s.kind === "marker") {
      const x = X(s.xs[0]);
      add("line", { x1: x, y1: m.t, x2: x, y2: H - m.b,
                    style: `stroke: ${color}; stroke-width: 1.5; stroke-dasharray: 3,2` });
    } else {
      // an undefined value (null) breaks the line: nothing is drawn there
      let run = [];
      const flush = () => {
        if (run.length > 1 && !s.points) add("polyline", {
          points: run.join(" "),
          style: `fill: none; stroke: ${color}; stroke-width: 2; stroke-dasharray: ${s.dash || "none"}`,
        });
        run = [];
      };
      s.xs.forEach((x, i) => (s.ys[i] === null ? flush() : run.push(`${X(x)},${Y(s.ys[i])}`)));
      flush();
      const rad = s.big ? 5 : s.points ? 3.5 : 3;
      const ring = `fill: none; stroke: ${color}; stroke-width: 2`;
      if ((s.markers || s.points) && s.titles)
        s.xs.forEach((x, i) => {
          if (s.ys[i] === null) return;
          const c = add("circle", { cx: X(x), cy: Y(s.ys[i]), r: rad,
                                    style: s.open && s.open[i] ? ring : `fill: ${color}` });
          const t = document.createElementNS(SVG_NS, "title");
          t.textContent = s.titles[i];
          c.append(t);
        });
      else if (s.markers || s.points) {
        // points without a tooltip: one path of circles per style (filled or open), so
        // that hundreds of points are one element to draw and lay out
        const dots = { filled: "", open: "" };
        const r2 = 2 * rad;
        s.xs.forEach((x, i) => {
          if (s.ys[i] === null) return;
          dots[s.open && s.open[i] ? "open" : "filled"] += `M${(X(x) - rad).toFixed(1)},${Y(s.ys[i]).toFixed(1)}`
            + `a${rad},${rad} 0 1,0 ${r2},0a${rad},${rad} 0 1,0 ${-r2},0`;
        });
        if (dots.filled) add("path", { d: dots.filled, style: `fill: ${color}` });
        if (dots.open) add("path", { d: dots.open, style: ring });
      }
    }
  });
  if (opts.tip) chartTip(svg, opts.tip, { X, W, m, H, xmin, xmax });
  const fig = h("figure", { class: "dcglab-figure" });
  fig.append(svg);
  const legend = h("ul", { class: "dcglab-legend", "aria-hidden": "true" });
  series.forEach((s, j) => {
    if (!s.label) return;
    const li = h("li");
    const kind = s.kind === "ratio" || s.kind === "focus" ? s.kind : s.points ? "point" : s.kind === "bar" ? (s.hollow ? "hollow" : "bar") : s.kind === "area" ? "area"
      : s.kind === "marker" ? "marker" : s.dash && s.dash.startsWith("1,") ? "dot" : s.dash ? "dash" : "line";
    const sw = h("span", { class: `dcglab-swatch dcglab-swatch-${kind}`, style: `--dcglab-swatch: ${paint(s, j)}` });
    // a line's swatch is a piece of that line, with its dash pattern; a marker's is upright
    if (kind === "line" || kind === "dash" || kind === "dot") sw.style.backgroundImage = dashImage(s.dash);
    li.append(sw, document.createTextNode(s.label));
    legend.append(li);
  });
  if (legend.childElementCount) fig.append(legend);
  return fig;
}
