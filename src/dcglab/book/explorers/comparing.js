// Chapter "Comparing systems": drag each query's difference (or focus its bar and press
// ↑ ↓), set the number of queries, and watch the mean difference, d_z, the t-test and the
// exact randomization test, whose p-value is drawn as a share of all sign patterns.
const DELTA_MAX = 50;  // hundredths of nDCG
const differences = (s) => s.deltas.slice(0, s.n).map((x) => x / 100);
const fmtP = (p) => (p === null ? "undefined (no spread)" : p.toFixed(3));
// The standard error of the mean difference, sd / sqrt(n).
const stdError = (s) => pairedStats(differences(s)).sd / Math.sqrt(s.n);
// The prediction halves the number of queries (at least 2 stay).
const halved = (n) => Math.max(2, Math.ceil(n / 2));
const fmtStat = (x) => (x === null ? "undefined (no spread)" : fmt(x));
// The mean difference rounded once to thousandths, from the whole hundredths (half away
// from 0), so that every place that prints it prints the same digits.
function shownMean(s) {
  const sum = s.deltas.slice(0, s.n).reduce((a, b) => a + b, 0);
  return (Math.sign(sum) * Math.round(Math.abs(10 * sum) / s.n)) / 1000;
}

// The keys that move a difference (in hundredths) and by how much; Shift with an arrow
// moves 5 times as far.
const KEY_STEPS = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 10, PageDown: -10 };
const SHIFT_TIMES = 5;

// The baseline y of each bar's value label (11 px text): every bar gets one. A label
// sits just beyond its bar's end; where that box would touch a label already placed,
// another bar (its body or its handle) or a box in `taken` (the title), it moves on
// outwards a line at a time, then inside its bar. The
// bar edited last is placed first, so its own label never moves for a neighbour's.
const LABEL_H = 14;
function valueLabels(values, X, Y, bw, first, { top, bottom, taken = [] }) {
  const width = (v) => 6.4 * fmtSigned(v / 100).length + 2;
  // the other bars' handles, and their bodies from the zero line to the handle: no label
  // touches them, except that the label of the bar edited last stays by its end
  const handles = values.map((v, j) => ({ x0: X(j) - bw / 2 - 3, x1: X(j) + bw / 2 + 3, y0: Y(v) - 2, y1: Y(v) + 2 }));
  const bodies = values.map((v, j) => ({ ...handles[j], y0: Math.min(Y(v), Y(0)) - 2, y1: Math.max(Y(v), Y(0)) + 2 }));
  const order = values.map((_, i) => i);
  if (first !== null && first < values.length) order.unshift(...order.splice(first, 1));
  const placed = [], out = new Array(values.length);
  for (const i of order) {
    const v = values[i], w = width(v), out1 = v >= 0 ? -1 : 1;
    const near = v >= 0 ? Y(v) - 6 : Y(v) + 15;
    const tries = [0, 1, 2, 3].map((t) => near + out1 * t * LABEL_H)
      .concat([1, 2].map((t) => near - out1 * (t * LABEL_H + 8)));
    // the text's box: 11 px glyphs from a little above the cap height to below the baseline
    const box = (y) => ({ x0: X(i) - w / 2, x1: X(i) + w / 2, y0: y - 11, y1: y + 3 });
    const free = (y) => {
      const b = box(y);
      return y - 11 >= top && y <= bottom
        && !placed.concat(taken, (i === first ? handles : bodies).filter((_, j) => j !== i))
          .some((o) => b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1);
    };
    const y = tries.find(free) ?? near;
    out[i] = y;
    placed.push(box(y));
  }
  return out;
}

// Query i's difference set to v hundredths (clamped); message: what the live region says.
function setDelta(ctx, i, v, message = "") {
  ctx.local.edited = i;
  const d = ctx.state().deltas.slice();
  d[i] = Math.max(-DELTA_MAX, Math.min(DELTA_MAX, Math.round(v)));
  ctx.write("deltas", d, message);
}

const said = (i, v) => `Query ${i + 1}: A − B = ${fmtSigned(v / 100)}.`;

// The per-query differences as bars that are themselves the controls: each query's column
// is a slider (role="slider", focusable) that a pointer drags up or down and the keyboard
// moves (↑ ↓ by 0.01, Shift+↑ ↓ by 0.05, Page Up / Page Down by 0.10, Home / End to the ends).
function differenceBars(s, r, ctx) {
  const n = s.n, W = Math.min(available, 340), H = 210;
  // the left margin holds a signed tick label ("+0.500") at 12 px
  const m = { l: 50, r: 12, t: 24, b: 34 };
  const pitch = (W - m.l - m.r) / n;
  const X = (i) => m.l + (i + 0.5) * pitch;
  const Y = (v) => m.t + ((DELTA_MAX - v) / (2 * DELTA_MAX)) * (H - m.t - m.b);
  const svg = svgNode("svg", { viewBox: `0 0 ${W} ${H}`, class: "dcglab-chart dcglab-bars", style: `max-width: ${W}px`,
                               role: "group", "aria-label": `Per-query differences A − B, ${n} queries: drag a bar or use the arrow keys` });
  const add = (tag, attrs, text) => { const e = svgNode(tag, attrs, text); svg.append(e); return e; };
  const title = `A − B per query, mean ${fmtSigned(shownMean(s))}`;
  add("text", { x: m.l, y: 14, "font-size": 13, "font-weight": "bold" }, title);
  for (const v of [-50, -25, 0, 25, 50])
    add("text", { x: m.l - 4, y: Y(v) + 4, "text-anchor": "end", "font-size": 12 }, fmtSigned(v / 100));
  add("line", { x1: m.l, y1: m.t, x2: m.l, y2: H - m.b, class: "dcglab-axis" });
  add("line", { x1: m.l, y1: Y(0), x2: W - m.r, y2: Y(0), class: "dcglab-axis" });
  // the mean line, broken where a value label would sit on it
  const my = Y(100 * r.mean);
  const bw = Math.min(36, pitch * 0.6);
  const labels = valueLabels(s.deltas.slice(0, n), X, Y, bw, ctx.local.edited ?? null,
                             { top: 2, bottom: H - m.b - 2, taken: [{ x0: m.l, x1: m.l + 7.5 * title.length, y0: 0, y1: 18 }] });
  const gaps = labels.map((ty, i) => [ty, i]).filter(([ty]) => my > ty - 10 && my < ty + 3)
    .map(([, i]) => [X(i) - 16, X(i) + 16]).sort((a, b) => a[0] - b[0]);
  let from = m.l, meanPath = "";
  for (const [a, b] of gaps) {
    if (a > from) meanPath += `M${from.toFixed(1)},${my.toFixed(1)}H${a.toFixed(1)}`;
    from = Math.max(from, b);
  }
  if (W - m.r > from) meanPath += `M${from.toFixed(1)},${my.toFixed(1)}H${(W - m.r).toFixed(1)}`;
  add("path", { d: meanPath || "M0,0", style: "fill: none; stroke: var(--dcglab-fg); stroke-width: 1.5; stroke-dasharray: 5,3" });
  // the bars' hit areas under the bars and labels: a pointed column's tint never covers a value
  const hits = add("g", {});
  add("text", { x: (W + m.l) / 2, y: H - 4, "text-anchor": "middle", "font-size": 12 }, "query (drag a bar)");
  s.deltas.slice(0, n).forEach((v, i) => {
    const top = Y(Math.max(0, v)), bottom = Y(Math.min(0, v));
    add("rect", { x: X(i) - bw / 2, y: top, width: bw, height: Math.max(0, bottom - top),
                  class: "dcglab-bar-body", "data-query": String(i), style: `fill: var(--dcglab-${v >= 0 ? "c0" : "c4"}); pointer-events: none` });
    // the handle: a thick line at the bar's end
    add("line", { x1: X(i) - bw / 2 - 3, x2: X(i) + bw / 2 + 3, y1: Y(v), y2: Y(v),
                  style: "stroke: var(--dcglab-fg); stroke-width: 3; pointer-events: none" });
    // a halo in the background colour keeps the value readable where it crosses the mean line
    add("text", { x: X(i), y: labels[i], "text-anchor": "middle", "font-size": 11, class: "dcglab-bar-value",
                  "data-query": String(i),
                  style: "pointer-events: none; paint-order: stroke; stroke: var(--dcglab-bg); stroke-width: 3px; stroke-linejoin: round" },
        fmtSigned(v / 100));
    add("text", { x: X(i), y: H - m.b + 15, "text-anchor": "middle", "font-size": 12 }, String(i + 1));
    const hit = svgNode("rect", {
      class: "dcglab-drag", x: X(i) - pitch / 2 + 1, y: m.t, width: pitch - 2, height: H - m.t - m.b,
      tabindex: "0", role: "slider", "aria-label": `query ${i + 1}: A − B`, "aria-orientation": "vertical",
      "aria-valuemin": "-0.5", "aria-valuemax": "0.5", "aria-valuenow": String(v / 100),
      "aria-valuetext": fmtSigned(v / 100), "data-query": String(i),
    });
    hits.append(hit);
    const valueAt = (ev) => {
      const b = ev.currentTarget.ownerSVGElement.getBoundingClientRect();
      const vy = ((ev.clientY - b.top) * H) / (b.height || 1);
      return DELTA_MAX - ((vy - m.t) / (H - m.t - m.b)) * 2 * DELTA_MAX;
    };
    hit.on = {
      pointerdown: (ev) => {
        if (ev.button !== 0) return;
        ev.preventDefault();
        ev.currentTarget.setPointerCapture?.(ev.pointerId);
        ev.currentTarget.focus({ preventScroll: true });
        ctx.local.drag = i;
        setDelta(ctx, i, valueAt(ev));
      },
      pointermove: (ev) => { if (ctx.local.drag === i) setDelta(ctx, i, valueAt(ev)); },
      pointerup: () => {
        if (ctx.local.drag !== i) return;
        ctx.local.drag = null;
        const now = ctx.state().deltas[i];
        setDelta(ctx, i, now, said(i, now));
      },
      pointercancel: () => { ctx.local.drag = null; },
      keydown: (ev) => {
        const now = ctx.state().deltas[i];
        const to = ev.key in KEY_STEPS ? now + KEY_STEPS[ev.key] * (ev.shiftKey && ev.key.startsWith("Arrow") ? SHIFT_TIMES : 1)
          : ev.key === "Home" ? -DELTA_MAX : ev.key === "End" ? DELTA_MAX : null;
        if (to === null) return;
        ev.preventDefault();
        const v1 = Math.max(-DELTA_MAX, Math.min(DELTA_MAX, to));
        setDelta(ctx, i, v1, said(i, v1));
      },
    };
  });
  const fig = node("figure", { class: "dcglab-figure" });
  fig.append(svg);
  return fig;
}

// The randomization distribution: the mean difference under each of the 2^n ways of
// flipping the signs, in bins; the patterns at least as far from 0 as the observed mean
// are red, and their share of all patterns is the p-value.
const DOTS_UP_TO = 64;
function randomizationChart(s, r) {
  const d = s.deltas.slice(0, s.n), n = d.length, all = 2 ** n;
  const observed = d.reduce((a, b) => a + b, 0), top = d.reduce((a, b) => a + Math.abs(b), 0);
  const bin = Math.max(1, Math.ceil((2 * top + 1) / 25));
  const count = new Map(), far = new Map();
  for (let mask = 0; mask < all; mask++) {
    let sum = 0;
    for (let q = 0; q < n; q++) sum += (mask >> q) & 1 ? -d[q] : d[q];
    const b = Math.round(sum / bin);
    count.set(b, (count.get(b) || 0) + 1);
    if (Math.abs(sum) >= Math.abs(observed)) far.set(b, (far.get(b) || 0) + 1);
  }
  const bins = [...count.keys()].sort((a, b) => a - b);
  const mean = (b) => (b * bin) / (100 * n);
  const xs = bins.map(mean), width = bin / (100 * n);
  const edge = Math.max(width, (top + bin) / (100 * n));
  const obs = observed / (100 * n), shown = shownMean(s);
  const tick = Math.abs(shown);
  const farLabel = `as far from 0 as the observed mean or further: ${fmtP(r.p_rand)} of all ${fmtCount(all)}`;
  // few patterns (up to 64): one dot each, stacked in its bin, the far ones at the bottom
  const dots = all <= DOTS_UP_TO;
  const stack = (red) => {
    const xs1 = [], ys1 = [], titles = [];
    for (const b of bins) {
      const nFar = far.get(b) || 0, from = red ? 0 : nFar, to = red ? nFar : count.get(b);
      for (let j = from; j < to; j++) {
        xs1.push(mean(b));
        ys1.push(j + 1);
        titles.push(`a sign pattern with mean ${fmtSigned(mean(b))}${red ? ", as far from 0 as the observed or further" : ""}`);
      }
    }
    return { xs: xs1, ys: ys1, titles };
  };
  const most = Math.max(...count.values());
  const rad = Math.max(1.5, Math.min(5, 60 / most));
  const marks = dots
    ? [
      { ...stack(false), points: true, color: "muted", cls: "dcglab-all", sizes: Array(all).fill(rad),
        label: "other sign patterns, one dot each" },
      { ...stack(true), points: true, color: "c1", cls: "dcglab-far", sizes: Array(all).fill(rad), label: farLabel },
    ]
    : [
      { kind: "bar", xs, ys: bins.map((b) => count.get(b) / all), color: "muted", width, share: 0.9,
        label: "other sign patterns", cls: "dcglab-all" },
      { kind: "bar", xs, ys: bins.map((b) => (far.get(b) || 0) / all), color: "c1", width, share: 0.9, cls: "dcglab-far",
        label: farLabel },
    ];
  return chart([
    ...marks,
    { kind: "marker", xs: [obs], ys: [0], color: "fg", label: `observed mean ${fmtSigned(shown)}` },
    { kind: "marker", xs: [-obs], ys: [0], color: "fg" },
  ], { title: `Randomization p = ${fmtP(r.p_rand)} (red share)`,
       xlabel: "mean A − B with the signs flipped", ylabel: dots ? "sign patterns" : "share", xmin: -edge, xmax: edge,
       ...(dots ? { ymax: most + 0.5 } : {}),
       xticks: tick > 0 ? [obs < 0 ? -tick : tick, 0, obs < 0 ? tick : -tick] : [0], xfmt: (x) => (x ? fmtSigned(x) : "0"), ymin: 0, width: 340, height: 210,
       alt: `Of the ${all} ways to flip the signs of the differences, a share of ${fmtP(r.p_rand)} gives a mean at least as far from 0 as the observed ${fmtSigned(shown)}` });
}

export default explorer({
  name: "paired_test",
  title: "A paired test, query by query",
  params: ["deltas", "n"],
  editable: ["deltas"],
  bounds: { deltas: [-DELTA_MAX, DELTA_MAX] },
  controls: (s) => [{ param: "n", label: "queries n", min: 2, max: s.deltas.length, step: 1 }],
  predict: {
    question: (s) => `keep only the first ${halved(s.n)} of the ${s.n} queries. `
      + "Does the t-test's p-value go up, down or stay the same?",
    choices: UP_DOWN,
    fits: (s) => halved(s.n) < s.n,
    apply: (s) => Object.assign(s, { n: halved(s.n) }),
    answer: (a, b) => direction(a, b, "p_t"),
    why: (a, b, s1, s0) => `With ${s1.n} queries instead of ${s0.n} the standard error sd / √n is `
      + `${fmt(stdError(s1))} (was ${fmt(stdError(s0))}): t ${fromTo(fmtStat(a.t), fmtStat(b.t))}, `
      + `p ${fromTo(fmtP(a.p_t), fmtP(b.p_t), "")}.`,
  },
  presets: (s) => [
    ["the example", { deltas: s.deltas.slice(), n: s.n }],
    ["all ahead by 0.05", { deltas: s.deltas.map(() => 5), n: s.n }],
    ["one big win", { deltas: s.deltas.map((_, i) => (i === 0 ? 50 : 0)), n: s.n }],
  ],
  compute(s) {
    const d = differences(s), st = pairedStats(d);
    return { mean: st.mean, d_z: st.d_z, t: st.t,
             p_t: st.t === null ? null : studentTwoSided(st.t, d.length - 1),
             p_rand: exactRandomization(d) };
  },
  draw(out, s, r, ctx) {
    const row = node("div", { class: "dcglab-charts" });
    row.append(differenceBars(s, r, ctx), randomizationChart(s, r));
    out.append(row);
    const d = differences(s);
    const ahead = d.filter((x) => x > 0).length, behind = d.filter((x) => x < 0).length;
    out.append(para(`A is ahead on ${ahead} and behind on ${behind} of ${d.length} queries. If A and B were `
      + `interchangeable, each difference would be as likely negative: the randomization test flips the signs in all `
      + `${fmtCount(2 ** d.length)} ways and counts how often the mean lands at least as far from 0.`));
  },
  readouts: (s, r) => [
    ["mean A − B =", "mean", fmtSigned(shownMean(s))],
    ["d_{z} =", "d_z", fmtStat(r.d_z)],
    ["t =", "t", fmtStat(r.t)],
    ["p (t-test) =", "p_t", fmtP(r.p_t)],
    ["p (randomization) =", "p_rand", fmtP(r.p_rand)],
  ],
});
