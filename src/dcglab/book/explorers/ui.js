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
  return state[name].map((_, i) => ({
    param: `${name}.${i}`, label: label(i), min: 0, max: opts.max ?? 3, step: 1,
    shown: opts.shown ? (s) => opts.shown(s, i) : undefined,
  }));
}

// Linear and exponential gain (2^g - 1) differ only for grades above 1.
export function gradedAbove1(s) {
  return s.grades.some((g) => g > 1);
}

// The cutoff k over a list parameter: 1 up to the number of documents in it.
export function cutoffSlider(s, list = "grades", label = "cutoff k", extra = {}) {
  return { param: "k", label, min: 1, max: s[list].length, step: 1, ...extra };
}

// A control: {param, label, min, max, step} for a slider (max may be a function of the
// state: dependent ranges) or {param, label, options} for a choice; optional
// shown(state) hides it and enabled(state) disables it where it cannot matter.
function makeControl(c, onInput) {
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
  row.append(input, value);
  const sync = (state) => {
    const shown = c.shown ? c.shown(state) : true;
    row.hidden = !shown;
    input.disabled = !shown || (c.enabled ? !c.enabled(state) : false);
    if (!c.options) input.max = evaluate(c.max, state);
    const v = readParam(state, c.param);
    input.value = v;
    value.textContent = c.options ? "" : String(v);
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

// Wrap a wide element (a table) in a labelled box that scrolls sideways on its own.
export function scrollBox(child, label) {
  const box = h("div", { class: "dcglab-scroll", role: "region", "aria-label": label, tabindex: "0" });
  box.append(child);
  return box;
}

// spec: {name, title, params, controls(state), compute(state), draw(view, state, result),
//        readouts(state, result) -> [[label, key, text]]}
export function mount(model, el, spec) {
  const readState = () => Object.fromEntries(spec.params.map((p) => [p, copy(model.get(p))]));
  const initial = readState();
  const root = h("div", { class: "dcglab-explorer", "data-explorer": spec.name });
  const head = h("div", { class: "dcglab-head" });
  const titleId = `dcglab-${spec.name}-${Math.random().toString(36).slice(2, 8)}`;
  head.append(h("div", { class: "dcglab-title", id: titleId }, spec.title));
  const reset = h("button", { type: "button", class: "dcglab-reset" }, "Reset");
  head.append(reset);
  root.setAttribute("role", "group");
  root.setAttribute("aria-labelledby", titleId);
  const panel = h("div", { class: "dcglab-controls" });
  const write = (c, value) => {
    const state = readState();
    writeInto(state, c.param, value);
    clampState(state, controls);
    setAll(state);
  };
  const setAll = (state) => {
    for (const p of spec.params) {
      if (JSON.stringify(state[p]) !== JSON.stringify(model.get(p))) model.set(p, state[p]);
    }
    model.save_changes();
  };
  const controls = spec.controls(initial).map((c) => makeControl(c, write));
  for (const c of controls) panel.append(c.row);
  const tunable = [...new Set(controls.map((c) => c.control.param.split(".")[0]))];
  reset.addEventListener("click", () => setAll(Object.assign(readState(), copy(initial))));
  const view = h("div", { class: "dcglab-output" });
  const live = h("div", { class: "dcglab-readouts", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  root.append(head, panel, view, live);
  el.append(root);
  let items = [];
  // Results of recent states (a slider dragged back and forth, chapter 5's 9! orderings).
  const memo = new Map();
  const computeOnce = (state) => {
    const key = JSON.stringify(tunable.map((p) => state[p]));
    if (!memo.has(key)) {
      if (memo.size >= 64) memo.delete(memo.keys().next().value);
      memo.set(key, spec.compute(state));
    }
    return memo.get(key);
  };
  const update = () => {
    const state = readState();
    for (const c of controls) c.sync(state);
    const same = tunable.every((p) => JSON.stringify(state[p]) === JSON.stringify(initial[p]));
    reset.disabled = same;
    const result = computeOnce(state);
    const fresh = h("div", { class: "dcglab-output" });
    spec.draw(fresh, state, result);
    view.replaceChildren(...fresh.childNodes);
    const rows = spec.readouts(state, result);
    if (items.length !== rows.length) {
      live.replaceChildren();
      items = rows.map(([, key]) => {
        const item = h("span", { class: "dcglab-readout" });
        const label = h("span", { class: "dcglab-readout-label" });
        const out = h("span", { class: "dcglab-readout-value", "data-out": key });
        item.append(label, " ", out);
        live.append(item, " ");
        return { label, out };
      });
    }
    rows.forEach(([label, key, text], i) => {
      if (items[i].label.textContent !== label) items[i].label.textContent = label;
      items[i].out.setAttribute("data-out", key);
      if (items[i].out.textContent !== text) items[i].out.textContent = text;
    });
    root.setAttribute("data-state", JSON.stringify(state));
    root.setAttribute("data-result", JSON.stringify(result));
  };
  // A state set from a kernel may break a dependent range: clamp it once, like a slider would.
  const fixed = clampState(readState(), controls);
  if (JSON.stringify(fixed) !== JSON.stringify(readState())) setAll(fixed);
  // Parameters without a control (data) change only from a kernel: forget old results.
  const forget = () => memo.clear();
  const fixedParams = spec.params.filter((p) => !tunable.includes(p));
  for (const p of fixedParams) model.on(`change:${p}`, forget);
  model.on("change", update);
  update();
  return () => {
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
  for (const x of headers) head.append(h("th", { scope: "col" }, x));
  t.append(h("thead"));
  t.firstChild.append(head);
  const body = h("tbody");
  rows.forEach((r, i) => {
    const tr = h("tr");
    const cls = rowClass(i);
    if (cls) tr.setAttribute("class", cls);
    for (const x of r) tr.append(h("td", {}, String(x)));
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

let patternCount = 0;

// A small line/bar/area chart that scales with its container (viewBox, no fixed width).
// series: [{label, xs, ys, color: "c0".."c4"|"muted"|"marker", kind: "line"|"bar"|"area"|"marker",
//           y0s (area), dash, markers}]
// opts: {title, xlabel, xticks, xmin, xmax, ymin, ymax, width, height, alt}
// The chart's accessible name (role="img") states the title and the numbers of every
// labelled series; the legend is HTML below it.
export function chart(series, opts) {
  const W = opts.width || 420, H = opts.height || 220;
  const m = { l: 44, r: 12, t: 22, b: 34 };
  const xs = series.flatMap((s) => s.xs);
  const ys = series.filter((s) => s.kind !== "marker").flatMap((s) => s.ys.concat(s.y0s || []));
  const xmin = opts.xmin ?? Math.min(...xs), xmax = opts.xmax ?? Math.max(...xs);
  let ymin = opts.ymin ?? Math.min(0, ...ys), ymax = opts.ymax ?? Math.max(...ys) * 1.05;
  if (!(ymax - ymin > 1e-12)) ymax = ymin + 1;
  const X = (x) => m.l + ((x - xmin) / (xmax - xmin || 1)) * (W - m.l - m.r);
  const Y = (y) => H - m.b - ((y - ymin) / (ymax - ymin)) * (H - m.t - m.b);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "dcglab-chart");
  svg.setAttribute("style", `max-width: ${W}px`);
  svg.setAttribute("role", "img");
  const named = series.filter((s) => s.label && s.kind !== "marker");
  const markers = series.filter((s) => s.kind === "marker" && s.label);
  const alt = [opts.title || "chart"].concat(named.map(summarise),
    markers.map((s) => `${s.label} at ${s.xs[0]}`)).join(". ");
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
    add("text", { x: m.l - 4, y: Y(yv) + 4, "text-anchor": "end", "font-size": 10 }, yv.toFixed(digits));
  const xt = opts.xticks || [xmin, xmax];
  for (const xv of xt)
    add("text", { x: X(xv), y: H - m.b + 14, "text-anchor": "middle", "font-size": 10 }, String(xv));
  if (opts.xlabel)
    add("text", { x: (W + m.l) / 2, y: H - 4, "text-anchor": "middle", "font-size": 11 }, opts.xlabel);
  if (opts.title) add("text", { x: m.l, y: 13, "font-size": 12, "font-weight": "bold" }, opts.title);
  series.forEach((s, j) => {
    const color = paint(s, j);
    if (s.kind === "bar") {
      const bw = Math.abs(X(xmin + 1) - X(xmin)) * 0.7;  // bars one x unit apart
      s.xs.forEach((x, i) => add("rect", {
        x: X(x) - bw / 2, y: Y(Math.max(0, s.ys[i])), width: bw,
        height: Math.abs(Y(0) - Y(s.ys[i])),
        style: s.hollow ? `fill: none; stroke: ${color}; stroke-width: 2` : `fill: ${color}`,
      }));
    } else if (s.kind === "area") {
      // a hatch (full-contrast lines) over a light tint: the area reads without colour
      const id = `dcglab-hatch-${++patternCount}`;
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
    } else if (s.kind === "marker") {
      const x = X(s.xs[0]);
      add("line", { x1: x, y1: m.t, x2: x, y2: H - m.b,
                    style: `stroke: ${color}; stroke-width: 1.5; stroke-dasharray: 3,2` });
    } else {
      add("polyline", {
        points: s.xs.map((x, i) => `${X(x)},${Y(s.ys[i])}`).join(" "),
        style: `fill: none; stroke: ${color}; stroke-width: 2; stroke-dasharray: ${s.dash || "none"}`,
      });
      if (s.markers)
        s.xs.forEach((x, i) => add("circle", { cx: X(x), cy: Y(s.ys[i]), r: s.big ? 5 : 3, style: `fill: ${color}` }));
    }
  });
  const fig = h("figure", { class: "dcglab-figure" });
  fig.append(svg);
  const legend = h("ul", { class: "dcglab-legend", "aria-hidden": "true" });
  series.forEach((s, j) => {
    if (!s.label) return;
    const li = h("li");
    const kind = s.kind === "bar" ? (s.hollow ? "hollow" : "bar") : s.kind === "area" ? "area"
      : s.dash && s.dash.startsWith("1,") ? "dot" : s.dash || s.kind === "marker" ? "dash" : "line";
    const sw = h("span", { class: `dcglab-swatch dcglab-swatch-${kind}`, style: `--dcglab-swatch: ${paint(s, j)}` });
    li.append(sw, document.createTextNode(s.label));
    legend.append(li);
  });
  if (legend.childElementCount) fig.append(legend);
  return fig;
}
