// Shared front-end plumbing for the explorers: number formats, DOM helpers, controls bound
// to model traits and the morph that updates the DOM in place. The interface files (this
// one, ui_strip.js, ui_mount.js, ui_charts.js) are concatenated after the JS twin and
// before an explorer's own file into one ES module (see base.py).
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

// One format for the numbers of every explorer: scores with three decimals, counts
// grouped by thousands (16,110), signed changes with a true minus sign (−0.151).
export function fmtCount(n) {
  return n === null || n === undefined ? "undefined" : n.toLocaleString("en-US");
}

export function fmtSigned(x, digits = 3) {
  if (x === null || x === undefined) return "undefined";
  const v = Number(x.toFixed(digits));
  return `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v).toFixed(digits)}`;
}

// A share as a percentage with one decimal: 0.0622 -> "6.2%".
export function fmtPercent(x) {
  return x === null || x === undefined ? "undefined" : `${(100 * x).toFixed(1)}%`;
}

// A number as subscript digits, for log bases: log₁₀.
export function subscript(x) {
  return String(x).replace(/[0-9.]/g, (c) => (c === "." ? "." : "₀₁₂₃₄₅₆₇₈₉"[Number(c)]));
}

// Sub- and superscripts of the book's notation in a text: "log_{b}" and "p^{i−1}" are
// written with real sub- and superscripts (HTML sub/sup, SVG tspan), as on notation.md.
// Returns [[kind, text]], kind "" (plain), "sub" or "sup".
export function richParts(text) {
  const out = [];
  const re = /([_^])\{([^}]*)\}/g;
  let at = 0, m;
  while ((m = re.exec(text))) {
    if (m.index > at) out.push(["", text.slice(at, m.index)]);
    out.push([m[1] === "_" ? "sub" : "sup", m[2]]);
    at = re.lastIndex;
  }
  if (at < text.length) out.push(["", text.slice(at)]);
  return out;
}

// The text without its markers, for accessible names: "log_{b}" -> "log b".
export function plainText(text) {
  return String(text).replace(/_\{([^}]*)\}/g, "$1").replace(/\^\{([^}]*)\}/g, "^$1");
}

// Write a text with sub- and superscripts into a live element (only when it changed).
function setRich(el, text) {
  if (!/[_^]\{/.test(text)) { if (el.dcglabRich !== undefined || el.textContent !== text) el.textContent = text; el.dcglabRich = undefined; return; }
  if (el.dcglabRich === text) return;
  el.dcglabRich = text;
  el.replaceChildren(...richParts(text).map(([k, t]) => (k ? h(k, {}, t) : document.createTextNode(t))));
}

// The same into a description: HTML sub/sup, or SVG tspans shifted up or down.
function richInto(sketch, text, svg = false) {
  sketch.kids = [];
  for (const [k, t] of richParts(String(text))) {
    if (!k) sketch.append(t);
    else if (svg) sketch.append(svgNode("tspan", { "baseline-shift": k === "sub" ? "sub" : "super", "font-size": "75%" }, t));
    else sketch.append(node(k, {}, t));
  }
  return sketch;
}

// "undefined (IDCG = 0)" for a skipped nDCG, else three decimals.
export function fmtNdcg(x) {
  return x === null ? "undefined (IDCG = 0)" : fmt(x);
}

export function h(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text) e.textContent = text;
  return e;
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
    param: `${name}.${i}`, label: label(i), min: 0, max, step: 1, group: opts.group, groupOpen: opts.open,
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
    // a select may leave out options that make no sense in a state (`offer(state, option)`)
    if (c.offer) {
      for (const o of input.options) {
        const off = !c.offer(state, o.value);
        if (o.disabled !== off) { o.disabled = off; o.hidden = off; }
      }
    }
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

// ---- drawings: described first, then made real by morph ----------------------------------
// An explorer's draw() describes its output with node() and svgNode() (and para(), chart(),
// table(), which use them): plain objects, not DOM elements. morph() then makes the live
// DOM match the description, keeping every element that is still there. A step thus
// creates no DOM node that is not shown; what it leaves behind are short-lived JS objects,
// which the young-generation collector frees cheaply, and not DOM nodes, which only a
// full collection (a pause of several milliseconds inside some later step) can free.
class Sketch {
  constructor(tag, attrs, text, ns) {
    this.tag = ns ? tag : tag.toUpperCase();  // as the live element's nodeName
    this.ns = ns;
    this.attrs = attrs;
    this.kids = text === "" || text === undefined ? [] : [String(text)];
    this.on = null;    // event handlers by type: {click, focus, pointerenter, ...}
    this.made = null;  // called with the element when morph creates it
  }

  append(...xs) {
    this.kids.push(...xs.map(kid));
  }

  prepend(...xs) {
    this.kids.unshift(...xs.map(kid));
  }
}

// A child of a description: another description, or a text.
const kid = (x) => (x instanceof Sketch ? x : String(x));

// A described HTML element: attributes, optional text; children are added with append().
export function node(tag, attrs = {}, text = "") {
  return new Sketch(tag, attrs, text, null);
}

// A described SVG element.
export function svgNode(tag, attrs = {}, text = "") {
  return new Sketch(tag, attrs, text, SVG_NS);
}

// A paragraph of text, for the explorer's drawing area.
export function para(text) {
  return node("p", { class: "dcglab-note" }, text);
}

// Attributes the page sets after drawing: a disclosure's open state, a box's overflow.
const kept = (x, name) => (name === "open" && x.nodeName === "DETAILS") || name === "data-overflow";

// The event types a described element may handle. The live element has one listener per
// type, which calls the handler of the latest description (kept on the element).
const HANDLERS = ["click", "focus", "blur", "keydown", "pointerdown", "pointerenter", "pointermove", "pointerup",
                  "pointercancel", "pointerleave"];

function dispatch(ev) {
  const f = this.dcglabOn && this.dcglabOn[ev.type];
  if (f) f(ev);
}

// Make the children of the live element `live` match the description `want`: an element
// of the same tag (or a text) in the same place is kept, and only its changed attributes,
// text and handlers are written. The browser then lays out again only what changed, a
// focused button keeps the focus, and a disclosure keeps the reader's open or closed state.
export function morph(live, want) {
  let x = live.firstChild;
  for (const y of want.kids) {
    const text = typeof y === "string";
    if (x && text && x.nodeType === 3) {
      if (x.data !== y) x.data = y;
      x = x.nextSibling;
    } else if (x && !text && x.nodeName === y.tag) {
      write(x, y);
      morph(x, y);
      x = x.nextSibling;
    } else if (x) {
      const next = x.nextSibling;
      live.replaceChild(make(y), x);
      x = next;
    } else live.append(make(y));
  }
  while (x) {
    const next = x.nextSibling;
    x.remove();
    x = next;
  }
}

// The live element (or text) a description stands for, with its children.
function make(y) {
  if (typeof y === "string") return document.createTextNode(y);
  const el = y.ns ? document.createElementNS(y.ns, y.tag) : document.createElement(y.tag);
  write(el, y);
  for (const kid of y.kids) el.append(make(kid));
  if (y.made) y.made(el);
  return el;
}

// Write y's attributes and handlers onto x where they differ; drop the attributes that an
// earlier description wrote and y lacks (the page's own, the kept ones, stay).
function write(x, y) {
  const had = x.dcglabAttrs;
  for (const name in y.attrs) {
    const value = String(y.attrs[name]);
    if (x.getAttribute(name) !== value && !kept(x, name)) x.setAttribute(name, value);
  }
  if (had) for (const name in had) if (!(name in y.attrs) && !kept(x, name)) x.removeAttribute(name);
  x.dcglabAttrs = y.attrs;
  if (!y.on && !x.dcglabOn) return;
  const before = x.dcglabOn;
  x.dcglabOn = y.on;
  if (y.on) for (const type of HANDLERS) if (y.on[type] && !(before && before[type])) x.addEventListener(type, dispatch);
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
  const box = node("div", { class: "dcglab-scroll", role: "region", "aria-label": label, tabindex: "0" });
  box.append(child);
  box.made = watchOverflow;
  return box;
}

function watchOverflow(box) {
  if (typeof ResizeObserver === "undefined") return;
  const check = () => box.toggleAttribute("data-overflow", box.scrollWidth > box.clientWidth + 1);
  const watch = new ResizeObserver(check);
  watch.observe(box);
  watch.observe(box.firstChild);
}
