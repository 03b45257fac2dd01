// Shared front-end plumbing for the explorers: controls bound to model traits,
// readouts, and small SVG charts. Concatenated after measures.js and before an
// explorer's own file into one ES module (see dcglab/explorers/base.py).
//
// Test protocol (tests/test_site.py relies on it): the root element has class
// "dcglab-explorer" and data-explorer=<name>; every control carries data-param;
// after each update the root's data-state holds the parameters as JSON and
// data-result the unrounded results as JSON.

const SVG_NS = "http://www.w3.org/2000/svg";
export const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"];

export function fmt(x, digits = 3) {
  return x === null || x === undefined ? "undefined" : x.toFixed(digits);
}

function h(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

function readParam(model, param) {
  const [name, idx] = param.split(".");
  const v = model.get(name);
  return idx === undefined ? v : v[Number(idx)];
}

function writeParam(model, param, value) {
  const [name, idx] = param.split(".");
  if (idx === undefined) model.set(name, value);
  else {
    const arr = model.get(name).slice();
    arr[Number(idx)] = value;
    model.set(name, arr);
  }
  model.save_changes();
}

// control: {param, label, min, max, step} for a slider, or {param, label, options} for a choice.
function makeControl(model, c) {
  const row = h("label", { class: "dcglab-control" });
  row.append(h("span", { class: "dcglab-label" }, c.label));
  let input;
  const value = h("span", { class: "dcglab-value" });
  if (c.options) {
    input = h("select", { "data-param": c.param, "aria-label": c.label });
    for (const o of c.options) input.append(h("option", { value: o }, o));
    input.value = readParam(model, c.param);
    input.addEventListener("change", () => writeParam(model, c.param, input.value));
  } else {
    input = h("input", {
      type: "range", min: c.min, max: c.max, step: c.step, "data-param": c.param,
      "aria-label": c.label,
    });
    input.value = readParam(model, c.param);
    input.addEventListener("input", () => writeParam(model, c.param, Number(input.value)));
  }
  row.append(input, value);
  return { row, sync: () => {
    input.value = readParam(model, c.param);
    value.textContent = c.options ? "" : String(readParam(model, c.param));
  } };
}

// One slider per entry of a list trait, e.g. the grade at each rank.
export function listSliders(model, name, label = (i) => `grade at rank ${i + 1}`, max = 3) {
  return model.get(name).map((_, i) => ({ param: `${name}.${i}`, label: label(i), min: 0, max, step: 1 }));
}

// spec: {name, title, controls, state(model), compute(state), draw(out, state, result)}
export function mount(model, el, spec) {
  const root = h("div", { class: "dcglab-explorer", "data-explorer": spec.name });
  root.append(h("div", { class: "dcglab-title" }, spec.title));
  const panel = h("div", { class: "dcglab-controls" });
  const controls = spec.controls(model).map((c) => makeControl(model, c));
  for (const c of controls) panel.append(c.row);
  const out = h("div", { class: "dcglab-output" });
  root.append(panel, out);
  el.append(root);
  const update = () => {
    for (const c of controls) c.sync();
    const state = spec.state(model);
    const result = spec.compute(state);
    out.replaceChildren();
    spec.draw(out, state, result);
    root.setAttribute("data-state", JSON.stringify(state));
    root.setAttribute("data-result", JSON.stringify(result));
  };
  model.on("change", update);
  update();
  return () => model.off("change", update);
}

// A table from a header row and data rows; cells with data-out keys where given.
export function table(headers, rows) {
  const t = h("table", { class: "dcglab-table" });
  const head = h("tr");
  for (const x of headers) head.append(h("th", {}, x));
  t.append(head);
  for (const r of rows) {
    const tr = h("tr");
    for (const x of r) tr.append(h("td", {}, String(x)));
    t.append(tr);
  }
  return t;
}

// Key figures: [[label, key, value]] rendered as "label: value" with data-out=key.
export function readouts(items) {
  const box = h("div", { class: "dcglab-readouts" });
  for (const [label, key, value] of items) {
    const item = h("span", { class: "dcglab-readout" });
    item.append(h("span", {}, label + " "), h("output", { "data-out": key }, value));
    box.append(item);
  }
  return box;
}

// A small line/bar chart. series: [{label, xs, ys, color, kind: "line"|"bar"|"area", y0s}]
export function chart(series, opts) {
  const legend = series.some((s) => s.label);
  const W = (opts.width || 420) + (legend ? 150 : 0), H = opts.height || 220;
  const m = { l: 44, r: legend ? 160 : 10, t: 18, b: 34 };
  const xs = series.flatMap((s) => s.xs);
  const ys = series.flatMap((s) => s.ys.concat(s.y0s || []));
  const xmin = opts.xmin ?? Math.min(...xs), xmax = opts.xmax ?? Math.max(...xs);
  const ymin = opts.ymin ?? Math.min(0, ...ys), ymax = opts.ymax ?? Math.max(...ys) * 1.05;
  const X = (x) => m.l + ((x - xmin) / (xmax - xmin || 1)) * (W - m.l - m.r);
  const Y = (y) => H - m.b - ((y - ymin) / (ymax - ymin || 1)) * (H - m.t - m.b);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", W);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", opts.alt || opts.title || "chart");
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  add("line", { x1: m.l, y1: H - m.b, x2: W - m.r, y2: H - m.b, stroke: "#444" });
  add("line", { x1: m.l, y1: m.t, x2: m.l, y2: H - m.b, stroke: "#444" });
  for (let t = 0; t <= 4; t++) {
    const yv = ymin + ((ymax - ymin) * t) / 4;
    add("text", { x: m.l - 4, y: Y(yv) + 4, "text-anchor": "end", "font-size": 10 }, yv.toFixed(2));
  }
  const xt = opts.xticks || [xmin, xmax];
  for (const xv of xt)
    add("text", { x: X(xv), y: H - m.b + 14, "text-anchor": "middle", "font-size": 10 }, String(xv));
  if (opts.xlabel)
    add("text", { x: (W + m.l) / 2, y: H - 4, "text-anchor": "middle", "font-size": 11 }, opts.xlabel);
  if (opts.title) add("text", { x: m.l, y: 12, "font-size": 12, "font-weight": "bold" }, opts.title);
  series.forEach((s, j) => {
    const color = s.color || COLORS[j % COLORS.length];
    if (s.kind === "bar") {
      const bw = (W - m.l - m.r) / (s.xs.length + 1) * 0.7;
      s.xs.forEach((x, i) => add("rect", {
        x: X(x) - bw / 2, y: Y(Math.max(0, s.ys[i])), width: bw,
        height: Math.abs(Y(0) - Y(s.ys[i])), fill: color,
      }));
    } else if (s.kind === "area") {
      const top = s.xs.map((x, i) => `${X(x)},${Y(s.ys[i])}`);
      const bottom = s.xs.map((x, i) => `${X(x)},${Y(s.y0s[i])}`).reverse();
      add("polygon", { points: top.concat(bottom).join(" "), fill: color, "fill-opacity": 0.25 });
    } else {
      add("polyline", {
        points: s.xs.map((x, i) => `${X(x)},${Y(s.ys[i])}`).join(" "),
        fill: "none", stroke: color, "stroke-width": 2,
        "stroke-dasharray": s.dash || "",
      });
      if (s.markers) s.xs.forEach((x, i) => add("circle", { cx: X(x), cy: Y(s.ys[i]), r: 3, fill: color }));
    }
  });
  let ly = m.t + 4;
  series.forEach((s, j) => {
    if (!s.label) return;
    const color = s.color || COLORS[j % COLORS.length];
    add("rect", { x: W - m.r + 10, y: ly - 8, width: 10, height: 10, fill: color });
    add("text", { x: W - m.r + 24, y: ly + 1, "font-size": 10 }, s.label);
    ly += 14;
  });
  return svg;
}
