// Tables and SVG line charts of the explorers, concatenated after ui_mount.js (base.py's UI).

// A verdict's words for a value before and after (both as shown): "went from 3 to 5", or
// "stays 3" when they read the same. went = "" gives "from 3 to 5" (a verb said earlier).
export function fromTo(a, b, went = "went ") {
  return String(a) === String(b) ? `stays ${b}` : `${went}from ${a} to ${b}`;
}

// A described table from a header row and data rows, in a labelled box that scrolls
// sideways. opts: rowClass(i), a class for data row i (e.g. rows below the cutoff);
// cellClass(i, j), a class for the cell in column j of data row i (i = -1: the header);
// cell(i, j, text), what a data cell holds instead of its text (e.g. a button).
export function table(headers, rows, label, opts = {}) {
  const { rowClass = () => "", cellClass = () => "", cell = (i, j, x) => x } = opts;
  // words read from the left, numbers line up on the right (a column of words, its header too)
  const number = (x) => /^[-+−]?[\d.]+$/.test(String(x)) || x === "";
  const classes = (...names) => {
    const c = names.filter(Boolean).join(" ");
    return c ? { class: c } : {};
  };
  const t = node("table", { class: "dcglab-table" });
  const head = node("tr");
  headers.forEach((x, j) => head.append(node("th", { scope: "col",
    ...classes(rows.length && rows.every((r) => !number(r[j])) && "dcglab-text", cellClass(-1, j)) }, x)));
  const thead = node("thead");
  thead.append(head);
  const body = node("tbody");
  rows.forEach((r, i) => {
    const tr = node("tr", classes(rowClass(i)));
    r.forEach((x, j) => {
      const td = node("td", classes(!number(x) && "dcglab-text", cellClass(i, j)));
      td.append(cell(i, j, String(x)));
      tr.append(td);
    });
    body.append(tr);
  });
  t.append(thead, body);
  return scrollBox(t, label);
}

// A round step of about a quarter of span; whole: a whole number (1, 2, 5, 10, 20, ...),
// for values counted in whole units such as percents.
function niceStep(span, whole = false) {
  const raw = span / 4, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / mag;
  const step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
  return whole ? Math.max(1, step === 2.5 ? 2 : step) : step;
}

// y-axis ticks at round steps, with as many decimals as the step needs (none if whole).
function yTicks(ymin, ymax, whole = false) {
  const step = niceStep(ymax - ymin, whole);
  let digits = 0;
  while (digits < 4 && Math.abs(Math.round(step * 10 ** digits) - step * 10 ** digits) > 1e-9) digits++;
  const ticks = [];
  for (let i = Math.ceil(ymin / step - 1e-9); i * step <= ymax + step * 1e-9; i++) ticks.push(i * step);
  return { ticks, digits };
}

function summarise(s) {
  const pts = s.xs.map((x, i) => `${x}: ${fmt(s.ys[i], 2)}`);
  const list = pts.length <= 12 ? pts : pts.slice(0, 5).concat(["…"], pts.slice(-3));
  return `${plainText(s.label)}, ${list.join(", ")}`;
}

// The radius of a tip's dots (px).
const TIP_DOT = 4;

// Sideways shifts (px) for dots at heights ys (null: not drawn) on one vertical guide:
// dots nearer than a dot's width (with its ring) in y form a group, and a group's dots sit
// side by side, centred on the guide, so that none hides another. Their heights are kept.
function dotShifts(ys, r = TIP_DOT) {
  const step = 2 * r + 1.5;
  const shifts = ys.map(() => 0);
  const order = ys.map((y, j) => j).filter((j) => ys[j] !== null && ys[j] !== undefined).sort((a, b) => ys[a] - ys[b]);
  let group = [];
  const flush = () => {
    group.forEach((j, i) => { shifts[j] = (i - (group.length - 1) / 2) * step; });
    group = [];
  };
  for (const j of order) {
    if (group.length && ys[j] - ys[group[group.length - 1]] >= step) flush();
    group.push(j);
  }
  flush();
  return shifts;
}

// Details on demand in a chart, tip = {x, xs, lines(x) -> [text], pick(x)}: a box with the
// numbers at x (the inspected value, which the keyboard moves with its slider); pointing
// at the chart shows them at the nearest of xs instead, and a click picks that x. While
// the pointer moves, the live box is written in place (no new drawing of the chart).
function chartTip(svg, tip, frame) {
  const { W, m, H, xmin, xmax, dots = [] } = frame;
  const at = tipPlace(tip, tip.x, frame);
  // hoverOnly: the tip shows while the chart is pointed at (the chart marks k otherwise)
  const g = svgNode("g", { class: "dcglab-chart-tip", "aria-hidden": "true", "data-x": tip.x,
                           ...(tip.hoverOnly ? { visibility: "hidden" } : {}) });
  g.append(svgNode("line", { x1: at.px, x2: at.px, y1: m.t, y2: H - m.b,
                             style: "stroke: var(--dcglab-fg); stroke-width: 1; stroke-opacity: 0.5" }));
  // a dot on each line at x, in the line's colour, ringed in the background colour;
  // dots that would overlap sit side by side across the guide (dotShifts)
  const dotAt = (d, x) => d.at(x);
  const dotGroup = svgNode("g", { class: "dcglab-tip-dots" });
  const ys0 = dots.map((d) => dotAt(d, tip.x)), dx0 = dotShifts(ys0);
  dots.forEach((d, j) => {
    const y = ys0[j];
    dotGroup.append(svgNode("circle", { cx: at.px + dx0[j], cy: y ?? 0, r: TIP_DOT, visibility: y === null ? "hidden" : "visible",
                                        style: `fill: ${d.color}; stroke: var(--dcglab-bg); stroke-width: 1.5` }));
  });
  // the box is a backdrop for its text (a little translucent), not a mark of the chart
  g.append(svgNode("rect", { rx: 4, ...at.box, style: "fill: var(--dcglab-bg); fill-opacity: 0.94; stroke: var(--dcglab-border)" }));
  for (const row of at.rows) g.append(svgNode("text", { x: row.x, y: row.y, "font-size": 12, style: "fill: var(--dcglab-fg)" }, row.text));
  g.append(dotGroup);
  svg.append(g);
  const nearest = (ev) => {
    const b = ev.currentTarget.ownerSVGElement.getBoundingClientRect();
    const vx = ((ev.clientX - b.left) * W) / (b.width || 1);
    const x = xmin + ((vx - m.l) / (W - m.l - m.r)) * (xmax - xmin);
    return tip.xs.reduce((best, v) => (Math.abs(v - x) < Math.abs(best - x) ? v : best), tip.xs[0]);
  };
  // the live tip shows the numbers at x
  const show = (ev, x) => {
    const live = ev.currentTarget.parentNode.querySelector(".dcglab-chart-tip");
    const [guide, box, ...rest] = live.children;
    const texts = rest.slice(0, -1), marks = rest[rest.length - 1];
    const now = tipPlace(tip, x, frame);
    const ys = dots.map((d) => dotAt(d, x)), dx = dotShifts(ys);
    Array.from(marks.children).forEach((c, j) => {
      const y = ys[j];
      c.setAttribute("cx", now.px + dx[j]);
      c.setAttribute("cy", y ?? 0);
      c.setAttribute("visibility", y === null ? "hidden" : "visible");
    });
    live.setAttribute("data-x", x);
    if (tip.hoverOnly) live.setAttribute("visibility", ev.type === "pointerleave" ? "hidden" : "visible");
    guide.setAttribute("x1", now.px);
    guide.setAttribute("x2", now.px);
    for (const k in now.box) box.setAttribute(k, now.box[k]);
    texts.forEach((t, i) => {
      const row = now.rows[i];
      if (row) { t.setAttribute("x", row.x); t.setAttribute("y", row.y); }
      t.textContent = row ? row.text : "";
    });
  };
  const area = svgNode("rect", { class: "dcglab-chart-pick", x: m.l, y: m.t, width: W - m.l - m.r, height: H - m.t - m.b,
                                 style: "fill: transparent; cursor: crosshair" });
  area.on = {
    pointermove: (ev) => show(ev, nearest(ev)),
    pointerleave: (ev) => show(ev, tip.x),
    click: (ev) => tip.pick(nearest(ev)),
  };
  svg.append(area);
}

// A point's tip: its text in a box above the point (below it near the top), kept inside
// the chart; text null hides it. Written in place, as the line charts' tip.
function pointTip(ev, text, x = 0, y = 0, W = 0) {
  const live = ev.currentTarget.ownerSVGElement.querySelector(".dcglab-point-tip");
  if (!live) return;
  if (text === null) { live.setAttribute("visibility", "hidden"); return; }
  const [box, label] = live.children;
  const w = 12 + 6.8 * text.length, left = Math.max(2, Math.min(W - w - 2, x - w / 2));
  const top = y - 34 < 2 ? y + 12 : y - 34;
  box.setAttribute("x", left);
  box.setAttribute("y", top);
  box.setAttribute("width", w);
  label.setAttribute("x", left + 6);
  label.setAttribute("y", top + 16);
  label.textContent = text;
  live.setAttribute("visibility", "visible");
}

// Where the tip's guide, box and lines of text go for the numbers at x: at one of a few
// heights in the plot, beside the guide or further along it, wherever the box covers
// fewest of the lines' points (pts: the lines sampled densely); among those, nearest the
// guide, then the right of it, then the top.
function tipPlace(tip, x, { X, W, H, m, pts = [] }) {
  const lines = tip.lines(x);
  const w = 12 + 6.8 * Math.max(...lines.map((t) => t.length)), px = X(x), h = 8 + 15 * lines.length;
  // beside the guide first; then further along the plot, where the box covers no line
  const lefts = [px + 8, px - 8 - w];
  for (let l = m.l + 4; l + w <= W - m.r; l += 24) lefts.push(l);
  const fits = lefts.filter((l) => l >= m.l && l + w <= W - 2 && !(l < px + 4 && l + w > px - 4));
  if (!fits.length) fits.push(Math.max(2, px + 8 + w > W - m.r ? px - 8 - w : px + 8));
  const low = Math.max(m.t, H - m.b - h - 2), tops = [0, 1, 2, 3].map((i) => m.t + ((low - m.t) * i) / 3);
  const covered = (left, top) => pts.filter(([a, b]) => a >= left - 4 && a <= left + w + 4 && b >= top - 4 && b <= top + h + 4).length;
  // each covered point costs more than any distance from the guide
  const far = (left) => Math.min(Math.abs(left - px), Math.abs(left + w - px)) / (W + 1);
  let best = null;
  for (const left of fits) for (const top of tops) {
    const c = covered(left, top) + far(left);
    if (best === null || c < best.c) best = { c, left, top };
  }
  const { left, top } = best;
  return {
    px,
    box: { x: left, y: top, width: w, height: h },
    rows: lines.map((text, i) => ({ x: left + 6, y: top + 16 + 15 * i, text })),
  };
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
//           y0s (area), dash, markers, stroke (a line's width), opacity (a faint line's)}]
// opts: {title, xlabel, xticks, xmin, xmax, ymin, ymax, yround, ywhole, width, height, alt, labels}
// ywhole: y is counted in whole units (a percent): its ticks are whole numbers, and a
// series that is 0 everywhere keeps the axis 0 to 10 (not 0 to 1).
// The chart's accessible name (role="img") states the title and the numbers of every
// labelled series; the legend is HTML below it.
// Chart width in px: the width the explorer has (set by mount before each draw).
let available = 420;

export function chart(series, opts) {
  const W = Math.round(opts.width ? Math.min(opts.width, available) : Math.min(available, 720));
  // square: the plot area as tall as it is wide, so that both axes have one scale (a
  // scatter of a score against the same score)
  const square = (mm) => W - mm.l - mm.r + mm.t + mm.b;
  // a ratio's or a ringed point's name goes on a line of its own above the plot, over
  // its x (never across a curve)
  const named1 = series.some((s) => (s.kind === "ratio" || s.kind === "focus") && s.text);
  const m = { l: opts.ylabel ? 56 : 44, r: 12, t: named1 ? 40 : 22, b: 34 };
  const H = opts.square ? Math.min(square(m), opts.height || Infinity) : opts.height || 220;
  const xs = series.flatMap((s) => s.xs);
  const ys = series.filter((s) => s.kind !== "marker").flatMap((s) => s.ys.concat(s.y0s || []))
    .filter((y) => y !== null && y !== undefined);
  const xmin = opts.xmin ?? Math.min(...xs), xmax = opts.xmax ?? Math.max(...xs);
  let ymin = opts.ymin ?? Math.min(0, ...ys), ymax = opts.ymax ?? Math.max(...ys) * 1.05;
  if (!(ymax - ymin > 1e-12)) ymax = ymin + (opts.ywhole ? 10 : 1);
  else if (opts.ywhole && opts.ymax === undefined) ymax = Math.max(ymax, ymin + 1);
  // yround: the y axis widened to whole tick steps, so a tick stands beyond the data on
  // both sides (e.g. one above 0 for a gap that is mostly below it)
  // (the wider span can ask for a larger step: round again until the step holds)
  for (let i = 0; opts.yround && i < 3; i++) {
    const step = niceStep(ymax - ymin, opts.ywhole);
    [ymin, ymax] = [Math.floor(ymin / step + 1e-9) * step, Math.ceil(ymax / step - 1e-9) * step];
  }
  const tx = opts.xlog ? Math.log : (x) => x;
  const X = (x) => m.l + ((tx(x) - tx(xmin)) / (tx(xmax) - tx(xmin) || 1)) * (W - m.l - m.r);
  const Y = (y) => H - m.b - ((y - ymin) / (ymax - ymin)) * (H - m.t - m.b);
  const svg = svgNode("svg", { viewBox: `0 0 ${W} ${H}`, class: "dcglab-chart", style: `max-width: ${W}px`, role: "img" });
  const pointed = (s) => ["marker", "ratio", "focus"].includes(s.kind);
  const named = series.filter((s) => s.label && !pointed(s));
  const markers = series.filter((s) => pointed(s) && s.label);
  const alt = [plainText(opts.title || "chart")].concat(named.map(summarise),
    markers.map((s) => `${plainText(s.label)} at ${s.xs[0]}${s.text ? `: ${s.text}` : ""}`)).join(". ");
  svg.attrs["aria-label"] = (opts.alt ? opts.alt + ". " : "") + alt;
  const add = (tag, attrs, text) => {
    const e = svgNode(tag, attrs, text);
    svg.append(e);
    return e;
  };
  // a text on the line above the plot, centred on x as far as the chart's edges allow,
  // with a short tick down to the plot
  const aboveAt = (x, text, color) => {
    const half = 3.4 * text.length;
    const cx = Math.min(W - m.r - half, Math.max(m.l + half, x));
    add("text", { x: cx, y: m.t - 8, "text-anchor": "middle", "font-size": 12, style: `fill: ${color}` }, text);
    add("line", { x1: x, x2: x, y1: m.t - 5, y2: m.t, style: `stroke: ${color}; stroke-width: 1.5` });
  };
  const paint = (s, j) => `var(--dcglab-${s.color || COLORS[j % COLORS.length]})`;
  add("line", { x1: m.l, y1: H - m.b, x2: W - m.r, y2: H - m.b, class: "dcglab-axis" });
  add("line", { x1: m.l, y1: m.t, x2: m.l, y2: H - m.b, class: "dcglab-axis" });
  const { ticks, digits } = yTicks(ymin, ymax, opts.ywhole);
  for (const yv of ticks)
    add("text", { x: m.l - 4, y: Y(yv) + 4, "text-anchor": "end", "font-size": 12 }, yv.toFixed(digits).replace(/^-/, "−"));
  const xt = opts.xticks || [xmin, xmax];
  // tick labels: the first given (it matters most), the axis's end ticks, then the rest in
  // the order given; one that would touch a label already written is left out. Where the
  // ticks are unevenly spaced (one gap over 1.5 times another), one within a tenth of the
  // axis of a tick already written is left out too (so 20 does not crowd an end tick 22).
  const byX = [...xt].sort((a, b) => X(a) - X(b));
  const gaps = byX.slice(1).map((x, i) => X(x) - X(byX[i]));
  const uneven = gaps.length > 1 && Math.max(...gaps) > 1.5 * Math.min(...gaps);
  const ends = [byX[0], byX[byX.length - 1]];
  const order = [...new Set([xt[0], ...ends, ...xt])];
  const written = [], near = [];
  for (const xv of order) {
    const text = opts.xfmt ? opts.xfmt(xv) : String(xv).replace(/^-/, "−");
    const half = 3.5 * text.length + 2, x = X(xv);
    if (written.some(([a, b]) => x - half < b && a < x + half)) continue;
    if (uneven && xv !== xt[0] && !ends.includes(xv) && near.some((at) => Math.abs(x - at) < 0.1 * (W - m.l - m.r))) continue;
    near.push(x);
    written.push([x - half, x + half]);
    add("text", { x, y: H - m.b + 15, "text-anchor": "middle", "font-size": 12 }, text);
  }
  if (opts.xlabel)
    richInto(add("text", { x: (W + m.l) / 2, y: H - 4, "text-anchor": "middle", "font-size": 12 }), opts.xlabel, true);
  if (opts.ylabel)
    add("text", { x: 12, y: (H - m.b + m.t) / 2, "text-anchor": "middle", "font-size": 12,
                  transform: `rotate(-90 12 ${(H - m.b + m.t) / 2})` }, plainText(opts.ylabel));
  if (opts.title) richInto(add("text", { x: m.l, y: 14, "font-size": 13, "font-weight": "bold" }), opts.title, true);
  if (opts.note) add("text", { x: (W + m.l) / 2, y: (H - m.b + m.t) / 2, "text-anchor": "middle", "font-size": 13 }, opts.note);
  if (opts.zero && ymin < 0 && ymax > 0)
    add("line", { x1: m.l, y1: Y(0), x2: W - m.r, y2: Y(0), class: "dcglab-axis", "stroke-dasharray": "2,2" });
  for (const ref of opts.refs || [])
    add("line", { x1: m.l, y1: Y(ref), x2: W - m.r, y2: Y(ref), style: "stroke: var(--dcglab-marker); stroke-width: 1.5; stroke-dasharray: 6,3" });
  // counts written inside circles go on top of every series' points; the points of a
  // series marked `top` go on top of those
  const counts = [], late = [];
  series.forEach((s, j) => {
    const color = paint(s, j);
    if (s.kind === "bar") {
      // bars one x unit apart; `share` (of the unit) and `shift` put two series side by side
      // (`width`: the x units between bars, 1 unless given)
      const unit = Math.abs(X(xmin + (s.width ?? 1)) - X(xmin));
      const bw = unit * (s.share ?? 0.7);
      s.xs.forEach((x, i) => add("rect", {
        x: X(x) + (s.shift ?? 0) * unit - bw / 2, y: Y(Math.max(0, s.ys[i])), width: bw,
        ...(s.cls ? { class: s.cls } : {}),
        height: Math.abs(Y(0) - Y(s.ys[i])),
        style: s.hollow ? `fill: none; stroke: ${color}; stroke-width: 2` : `fill: ${color}`,
      }));
    } else if (s.kind === "area") {
      // a hatch (full-contrast lines) over a light tint: the area reads without colour
      const id = `${patterns.prefix}-hatch-${++patterns.count}`;
      const pat = add("pattern", { id, patternUnits: "userSpaceOnUse", width: 6, height: 6,
                                   patternTransform: "rotate(45)" });
      pat.append(svgNode("line", { x1: 0, y1: 0, x2: 0, y2: 6, style: `stroke: ${color}; stroke-width: 1.5` }));
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
      if (s.text) aboveAt(x, s.text, color);
    } else if (s.kind === "focus") {
      // one point ringed and named: the value the ratio on another chart gives
      if (s.ys[0] === null) return;
      const x = X(s.xs[0]), y = Y(s.ys[0]);
      add("circle", { class: "dcglab-focus", cx: x, cy: y, r: 7, style: `fill: none; stroke: ${color}; stroke-width: 3` });
      if (s.text) aboveAt(x, s.text, color);
    } else if (s.kind === "marker") {
      const x = X(s.xs[0]);
      add("line", { x1: x, y1: m.t, x2: x, y2: H - m.b,
                    style: `stroke: ${color}; stroke-width: 1.5; stroke-dasharray: 3,2` });
    } else {
      // an undefined value (null) breaks the line: nothing is drawn there
      // a line marked `top` goes over every point
      let run = [];
      const flush = () => {
        if (run.length > 1 && !s.points) {
          const line = svgNode("polyline", {
            points: run.join(" "),
            style: `fill: none; stroke: ${color}; stroke-width: ${s.stroke ?? 2}; stroke-dasharray: ${s.dash || "none"}`
              + (s.opacity ? `; stroke-opacity: ${s.opacity}` : ""),
          });
          if (s.top) late.push(line);
          else svg.append(line);
        }
        run = [];
      };
      s.xs.forEach((x, i) => (s.ys[i] === null ? flush() : run.push(`${X(x)},${Y(s.ys[i])}`)));
      flush();
      const rad = s.big ? 5 : s.points ? 3.5 : 3;
      const ring = `fill: none; stroke: ${color}; stroke-width: 2`;
      if ((s.markers || s.points) && s.titles)
        s.xs.forEach((x, i) => {
          if (s.ys[i] === null) return;
          // sizes: a radius per point (e.g. by how many queries share it); counts: a number
          // written inside a point large enough to hold it
          const r = s.sizes ? s.sizes[i] : rad;
          const c = svgNode("circle", { cx: X(x), cy: Y(s.ys[i]), r, ...(s.cls ? { class: s.cls } : {}),
                                        style: s.open && s.open[i] ? ring : `fill: ${color}` });
          if (s.top) late.push(c);
          else svg.append(c);
          c.append(svgNode("title", {}, s.titles[i]));
          // a tip with the point's numbers while it is pointed at (as the line charts' tip)
          if (s.tips) c.on = { pointerenter: (ev) => pointTip(ev, s.titles[i], X(x), Y(s.ys[i]), W),
                               pointerleave: (ev) => pointTip(ev, null) };
          // a name written beside the point, with a halo, on top of the marks; points that
          // (nearly) coincide share one label that names them all
          const twin = s.names && counts.find((c) => c.name && Math.hypot(c.at[0] - X(x), c.at[1] - Y(s.ys[i])) < 2 * r);
          if (twin) twin.text += ` & ${s.names[i]}`;
          else if (s.names) counts.push({ name: true, at: [X(x), Y(s.ys[i]), r], attrs: { x: X(x) + r + 3, y: Y(s.ys[i]) + 4, "font-size": 11,
            ...(X(x) + r + 3 + 6.2 * s.names[i].length > W - m.r ? { x: X(x) - r - 3, "text-anchor": "end" } : {}),
            style: "pointer-events: none; paint-order: stroke; stroke: var(--dcglab-bg); stroke-width: 3px; stroke-linejoin: round" },
            text: s.names[i] });
          if (s.counts && s.counts[i] > 1 && r >= 7)
            counts.push({ attrs: { x: X(x), y: Y(s.ys[i]) + 4, "text-anchor": "middle", "font-size": 11, "font-weight": "bold",
                                   style: "pointer-events: none; paint-order: stroke; stroke: var(--dcglab-bg); stroke-width: 3px; stroke-linejoin: round" },
                           text: String(s.counts[i]) });
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
  // a label that grew by a shared point goes left of its point where it would leave the chart
  for (const c of counts)
    if (c.name && !c.attrs["text-anchor"] && c.attrs.x + 6.2 * c.text.length > W - m.r)
      Object.assign(c.attrs, { x: c.at[0] - c.at[2] - 3, "text-anchor": "end" });
  // names that would overlap move apart vertically (12 px a line), nearest first
  const names = counts.filter((c) => c.name).sort((a, b) => a.attrs.y - b.attrs.y);
  const span = (c) => { const w = 6.2 * c.text.length; return c.attrs["text-anchor"] === "end" ? [c.attrs.x - w, c.attrs.x] : [c.attrs.x, c.attrs.x + w]; };
  names.forEach((c, i) => {
    for (let j = 0; j < i; j++) {
      const [a0, a1] = span(c), [b0, b1] = span(names[j]);
      if (a0 < b1 && b0 < a1 && c.attrs.y - names[j].attrs.y < 12) c.attrs.y = names[j].attrs.y + 12;
    }
  });
  // counts in circles: the largest first, and a count whose box would touch one already
  // written is left out (its circle's tooltip still gives it)
  const placed = [];
  const nums = counts.filter((c) => !c.name).sort((a, b) => Number(b.text) - Number(a.text));
  const keep = new Set(nums.filter((c) => {
    const w = 6.6 * c.text.length + 2, x0 = c.attrs.x - w / 2, y0 = c.attrs.y - 11;
    if (placed.some(([a, b, aw]) => x0 < a + aw && a < x0 + w && y0 < b + 12 && b < y0 + 12)) return false;
    placed.push([x0, y0, w]);
    return true;
  }));
  for (const c of counts) if (c.name || keep.has(c)) add("text", c.attrs, c.text);
  svg.append(...late);
  // opts.labels: [{x, y, lines, bold}], texts centred at a point of the plot, one line
  // under another, over every mark, with a halo in the background colour
  for (const l of opts.labels || []) {
    const y0 = Y(l.y) + 4 - (6.5 * (l.lines.length - 1));
    l.lines.forEach((line, i) => add("text", { x: X(l.x), y: y0 + 13 * i, "text-anchor": "middle", "font-size": 11,
      class: "dcglab-chart-label", ...(l.bold && i === 0 ? { "font-weight": "bold" } : {}),
      style: "pointer-events: none; paint-order: stroke; stroke: var(--dcglab-bg); stroke-width: 3px; stroke-linejoin: round" }, line));
  }
  if (series.some((s) => s.tips)) {
    const g = add("g", { class: "dcglab-point-tip", "aria-hidden": "true", visibility: "hidden", style: "pointer-events: none" });
    g.append(svgNode("rect", { rx: 4, x: 0, y: 0, width: 10, height: 22, style: "fill: var(--dcglab-bg); fill-opacity: 0.94; stroke: var(--dcglab-border)" }));
    g.append(svgNode("text", { x: 0, y: 0, "font-size": 12, style: "fill: var(--dcglab-fg)" }));
  }
  if (opts.tip) {
    // the lines in pixels, sampled along each segment, which the tip's box avoids where it can
    const lines = series.filter((s) => s.kind !== "marker" && s.kind !== "bar" && s.kind !== "area");
    const pts = lines.flatMap((s) => s.xs.flatMap((x, i) => {
      const y = s.ys[i], x1 = s.xs[i + 1], y1 = s.ys[i + 1];
      if (y === null || y === undefined) return [];
      const here = [[X(x), Y(y)]];
      if (x1 === undefined || y1 === null || y1 === undefined) return here;
      for (let t = 1; t < 6; t++) here.push([X(x + ((x1 - x) * t) / 6), Y(y + ((y1 - y) * t) / 6)]);
      return here;
    }));
    // a dot on each named line at the tip's x (none where the line has no value there)
    const dots = lines.filter((s) => s.label && !s.points).map((s) => ({
      color: paint(s, series.indexOf(s)),
      at: (x) => { const i = s.xs.indexOf(x); return i < 0 || s.ys[i] === null || s.ys[i] === undefined ? null : Y(s.ys[i]); },
    }));
    chartTip(svg, opts.tip, { X, W, m, H, xmin, xmax, pts, dots });
  }
  const fig = node("figure", { class: "dcglab-figure" });
  fig.append(svg);
  const legend = node("ul", { class: "dcglab-legend", "aria-hidden": "true" });
  series.forEach((s, j) => {
    if (!s.label) return;
    const li = node("li");
    const kind = s.kind === "ratio" || s.kind === "focus" ? s.kind : s.points ? "point" : s.kind === "bar" ? (s.hollow ? "hollow" : "bar") : s.kind === "area" ? "area"
      : s.kind === "marker" ? "marker" : s.dash && s.dash.startsWith("1,") ? "dot" : s.dash ? "dash" : "line";
    // a line's swatch is a piece of that line, with its dash pattern; a marker's is upright
    const image = kind === "line" || kind === "dash" || kind === "dot" ? `; background-image: ${dashImage(s.dash)}` : "";
    li.append(node("span", { class: `dcglab-swatch dcglab-swatch-${kind}`, style: `--dcglab-swatch: ${paint(s, j)}${image}` }));
    const name = richInto(node("span"), s.label);
    li.kids.push(...name.kids);
    legend.append(li);
  });
  if (legend.kids.length) fig.append(legend);
  return fig;
}
