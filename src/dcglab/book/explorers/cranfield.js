// Chapter 13: mean nDCG@k of three models on Cranfield, recomputed from the embedded
// per-query top-100 code lists (code 1..4 judged, -1 judged non-relevant, 0 unjudged).
const MODEL_NAMES = { bim: "BIM", tfidf: "TF-IDF", bm25: "BM25" };
const KMAX = 100;
const KS = Array.from({ length: KMAX }, (_, i) => i + 1);

// Per data object: the decoded code lists, and for each model and gain every query's
// nDCG at k = 1..100 (one curves() call per query), so a cutoff change is a lookup.
const cache = new WeakMap();
function store(data) {
  if (!cache.has(data)) {
    const runs = Object.fromEntries(Object.entries(data.runs).map(([m, r]) => [m, r.map(decodeCodes)]));
    cache.set(data, { runs, judged: data.judged.map(decodeCodes), curves: new Map() });
  }
  return cache.get(data);
}

// nDCG at k = 1..100 of queries from..to-1 of one model, into `into`.
function fillCurves(c, data, model, gainName, into, from, to) {
  const gain = { map: data.gains[gainName] };
  for (let q = from; q < to; q++) into[q] = curves(c.runs[model][q], c.judged[q], gain, LOG2, KMAX).ndcg;
  return into;
}

function ndcgCurves(data, model, gainName) {
  const c = store(data), key = `${model}|${gainName}`;
  if (!c.curves.has(key)) {
    const queries = c.runs[model].length;
    c.curves.set(key, fillCurves(c, data, model, gainName, new Array(queries), 0, queries));
  }
  return c.curves.get(key);
}

// Mean over queries at every k of value(q, i) (i = k - 1): (1/Q) sum_q value(q, i), the
// sum taken in query order from 0, as mean() takes it, so the numbers are mean()'s. One
// pass over the queries fills every k, with no array per k.
function meanOverQueries(queries, value) {
  const sums = new Float64Array(KMAX);
  for (let q = 0; q < queries; q++) for (let i = 0; i < KMAX; i++) sums[i] += value(q, i);
  return Array.from(sums, (x) => x / queries);
}

// Once per model and gain: the mean nDCG curve, and the mean gap BM25 − TF-IDF.
function meanCurve(data, model, gainName) {
  const c = store(data), key = `mean|${model}|${gainName}`;
  if (!c.curves.has(key)) {
    const v = ndcgCurves(data, model, gainName);
    c.curves.set(key, meanOverQueries(v.length, (q, i) => v[q][i]));
  }
  return c.curves.get(key);
}

function gapCurve(data, gainName) {
  const c = store(data), key = `gap|${gainName}`;
  if (!c.curves.has(key)) {
    const b = ndcgCurves(data, "bm25", gainName), t = ndcgCurves(data, "tfidf", gainName);
    c.curves.set(key, meanOverQueries(b.length, (q, i) => b[q][i] - t[q][i]));
  }
  return c.curves.get(key);
}

// The queries on which BM25 against TF-IDF flips between two gains at k (1-based ids).
function flipped(data, k, gain, versus) {
  const c = store(data), key = `flips|${k}|${gain}|${versus}`;
  if (!c.curves.has(key)) {
    const pair = (g) => ["bm25", "tfidf"].map((m) => perQuery(data, m, k, g));
    c.curves.set(key, directionChanges(pair(gain), pair(versus)).strict);
  }
  return c.curves.get(key);
}

function perQuery(data, model, k, gainName) {
  return ndcgCurves(data, model, gainName).map((v) => v[k - 1]);
}

// Fill the cache after the first drawing, in tasks of QUERY_CHUNK queries (each well under
// a frame): every model's per-query curves for each gain, then its mean curve, then each
// gain's gap curve, so that a gain change is a lookup. A step that needs a curve not yet
// filled computes it whole.
const QUERY_CHUNK = 40;
function warm(data) {
  const c = store(data), todo = [];
  for (const g of Object.keys(data.gains)) {
    for (const m of Object.keys(MODEL_NAMES)) {
      const key = `${m}|${g}`, queries = c.runs[m].length, part = new Array(queries);
      for (let from = 0; from < queries; from += QUERY_CHUNK) {
        const to = Math.min(queries, from + QUERY_CHUNK);
        todo.push(() => {
          if (c.curves.has(key)) return;
          fillCurves(c, data, m, g, part, from, to);
          if (to === queries) c.curves.set(key, part);
        });
      }
      todo.push(() => meanCurve(data, m, g));
    }
    todo.push(() => gapCurve(data, g));
  }
  const step = () => {
    const next = todo.shift();
    if (!next) return;
    next();
    setTimeout(step, 0);
  };
  setTimeout(step, 0);
}
const warmed = new WeakSet();
// per data object, the scatters' last 64 layouts of circles, by cutoff, gains, width and scatter
const layouts = new WeakMap();

// A scatter's circles: a group of n queries has radius min(18, 3 + 3.52·√(n − 1)) px,
// drawn as a ring 2 px wide; the centres of two circles are at least SEP px further apart
// than the sum of their radii, so 2 px of background show between their rings.
const RADIUS_MAX = 18;
const SEP = 4;
const radius = (n) => Math.min(RADIUS_MAX, 3 + 3.52 * Math.sqrt(n - 1));

// Lists of groups of queries [{x, y, queries}] as circles (one series per list) that do
// not overlap, at scale = [px per unit of x, of y]. The largest are placed first, each at
// its own place if that is free, otherwise at the free place nearest to it
// (nearestFree: a few px away as a rule). With a hole =
// [half width, half height] in px about (0, 0), no circle reaches into it: one that
// would moves out the shortest way first. A circle's tooltip names its queries.
function bubbles(lists, [sx, sy], hole) {
  const want = lists.flatMap((list, l) => list.map((p) => ({ x: p.x * sx, y: p.y * sy, queries: p.queries, l })))
    .map((p, i) => ({ ...p, i, r: radius(p.queries.length) }))
    .sort((a, b) => b.r - a.r || a.i - b.i);
  const placed = [];
  const inHole = (x, y, r) => hole && Math.abs(x) < hole[0] + r - 1e-6 && Math.abs(y) < hole[1] + r - 1e-6;
  const free = (x, y, r, near) => !inHole(x, y, r) && near.every((b) => Math.hypot(x - b.x, y - b.y) >= r + b.r + SEP - 1e-6);
  for (const p of want) {
    let { x, y } = p;
    const r = p.r;
    if (inHole(x, y, r)) {
      const [ox, oy] = [hole[0] + r - Math.abs(x), hole[1] + r - Math.abs(y)];
      if (ox < oy) x = (Math.sign(x) || 1) * (hole[0] + r);
      else y = (Math.sign(y) || 1) * (hole[1] + r);
    }
    if (!free(x, y, r, placed)) [x, y] = nearestFree(x, y, r, placed, free);
    placed.push({ ...p, x, y });
  }
  placed.sort((a, b) => a.i - b.i);
  for (const p of placed) Object.assign(p, { x: p.x / sx, y: p.y / sy });
  return lists.map((_, l) => circlesOf(placed.filter((p) => p.l === l)));
}

// The free place for a circle of radius r nearest to (x, y): first among the places that
// touch one circle within reach (the nearest point of its ring) or two of the ten nearest
// (where their rings cross), with a reach of REACH px, then twice and four times that;
// failing those, along a spiral out from (x, y).
const REACH = 2 * RADIUS_MAX + 2 * SEP;
function nearestFree(x, y, r, placed, free) {
  for (const reach of [REACH, 2 * REACH, 4 * REACH]) {
    const best = touching(x, y, r, placed, free, reach);
    if (best) return best;
  }
  // the circles by their distance from (x, y), measured once
  const away = placed.map((b) => [Math.hypot(x - b.x, y - b.y), b]).sort((m, n) => m[0] - n[0]);
  for (let rho = 1; rho < 4096; rho += 1) {
    // on a ring of radius rho about (x, y), only circles that cross its band can touch
    const ring = [];
    for (const [d, b] of away) {
      if (d - rho >= r + RADIUS_MAX + SEP) break;
      if (Math.abs(d - rho) < r + b.r + SEP) ring.push(b);
    }
    const steps = Math.ceil(Math.PI * rho);
    for (let i = 0; i < steps; i++) {
      const [u, v] = [x + rho * Math.cos((2 * Math.PI * i) / steps), y + rho * Math.sin((2 * Math.PI * i) / steps)];
      if (free(u, v, r, ring)) return [u, v];
    }
  }
  return [x, y];
}

// The free place nearest to (x, y), within reach px of it, among the places that touch one
// circle or two of the ten nearest; null if there is none.
function touching(x, y, r, placed, free, reach) {
  // the circles within reach, nearest (edge to edge) first
  const near = [];
  for (const b of placed) {
    const e = Math.hypot(x - b.x, y - b.y) - b.r;
    if (e < r + SEP + reach) near.push([e, b]);
  }
  near.sort((m, n) => m[0] - n[0]);
  const circles = near.map(([, b]) => b);
  // a circle out of reach cannot touch a place within reach of (x, y)
  let best = null, bestD = reach;
  const consider = (u, v) => {
    const d = Math.hypot(u - x, v - y);
    if (d <= bestD && free(u, v, r, circles)) [best, bestD] = [[u, v], d];
  };
  for (const b of circles) {
    const d = Math.hypot(x - b.x, y - b.y), R = r + b.r + SEP;
    const [ux, uy] = d > 1e-9 ? [(x - b.x) / d, (y - b.y) / d] : [Math.SQRT1_2, -Math.SQRT1_2];
    consider(b.x + ux * R, b.y + uy * R);
  }
  const close = Math.min(circles.length, 10);
  for (let i = 0; i < close; i++) for (let j = i + 1; j < close; j++) {
    const [a, b] = [circles[i], circles[j]], [ra, rb] = [r + a.r + SEP, r + b.r + SEP];
    const d = Math.hypot(b.x - a.x, b.y - a.y);
    if (d < 1e-9 || d > ra + rb || d < Math.abs(ra - rb)) continue;
    const t = (ra * ra - rb * rb + d * d) / (2 * d), h = Math.sqrt(Math.max(0, ra * ra - t * t));
    const [mx, my, ex, ey] = [a.x + ((b.x - a.x) * t) / d, a.y + ((b.y - a.y) * t) / d, (b.y - a.y) / d, (b.x - a.x) / d];
    consider(mx + h * ex, my - h * ey);
    consider(mx - h * ex, my + h * ey);
  }
  return best;
}

// A scatter series of circles from groups of queries.
function circlesOf(pts) {
  return {
    xs: pts.map((p) => p.x), ys: pts.map((p) => p.y), counts: pts.map((p) => p.queries.length),
    sizes: pts.map((p) => radius(p.queries.length)),
    titles: pts.map((p) => (p.queries.length === 1 ? `query ${p.queries[0]}`
      : `${p.queries.length} queries: ${p.queries.slice(0, 12).join(", ")}${p.queries.length > 12 ? ", …" : ""}`)),
  };
}

export default explorer({
  name: "cranfield",
  title: "Cranfield: three models, any cutoff, any gain",
  params: ["data", "k", "gain", "versus"],
  controls: (s) => [
    { param: "k", label: "cutoff k", min: 1, max: 100, step: 1 },
    { param: "gain", label: "gain", options: Object.keys(s.data.gains), swap: "versus" },
    // compared with another gain only: the current one is not offered
    { param: "versus", label: "compare with gain", options: Object.keys(s.data.gains), swap: "gain",
      offer: (st, o) => o !== st.gain },
  ],
  compute(s) {
    const out = {};
    for (const m of Object.keys(MODEL_NAMES)) out[m] = mean(perQuery(s.data, m, s.k, s.gain));
    out.changes = flipped(s.data, s.k, s.gain, s.versus).length;
    return out;
  },
  // a question whose answer is no near-tie: at k = 1 both models' nDCG is the gain of their
  // top document over one ideal gain, and every gain here orders the grades alike
  predict: {
    question: (s) => `k falls from ${s.k} to 1. On how many queries does BM25 against TF-IDF flip `
      + `between ${s.gain} and ${s.versus} gain?`,
    choices: ["none", "fewer, but some", "as many or more"],
    fits: (s) => s.k > 1,
    apply: (s) => Object.assign(s, { k: 1 }),
    answer: (a, b) => (b.changes === 0 ? "none" : b.changes < a.changes ? "fewer, but some" : "as many or more"),
    why: (a, b) => `Flipped queries ${fromTo(a.changes, b.changes)}. At k = 1 each model scores its top document's gain `
      + "over one ideal gain. Both gains order grades alike: ties, never reversals.",
  },
  draw(out, s) {
    if (!warmed.has(s.data)) { warmed.add(s.data); warm(s.data); }
    const ticks = [1, 2, 5, 10, 20, 50, 100];
    const row = node("div", { class: "dcglab-charts" });
    const series = Object.keys(MODEL_NAMES).map((m) => ({
      xs: KS, label: MODEL_NAMES[m], color: m === "bm25" ? "c0" : m === "tfidf" ? "c4" : "c3",
      dash: m === "tfidf" ? "5,3" : m === "bim" ? "1,3" : "", ys: meanCurve(s.data, m, s.gain) }));
    series.push({ kind: "marker", xs: [s.k], ys: [0], color: "marker", label: "cutoff k" });
    // the k axis starts a little before 1, so a marker at k = 1 stands clear of the y axis
    row.append(chart(series, { title: `Mean nDCG@k, ${s.gain} gain`,
      alt: `Mean over ${s.data.judged.length} queries`,
      xlabel: "cutoff k (log scale)", xticks: ticks, xlog: true, xmin: 0.8, ymin: 0, ymax: 1, width: 340 }));
    const gap = (gain) => gapCurve(s.data, gain);
    row.append(chart([
      { xs: KS, ys: gap(s.gain), label: `BM25 − TF-IDF, ${s.gain}`, color: "c0" },
      { xs: KS, ys: gap(s.versus), label: `BM25 − TF-IDF, ${s.versus}`, color: "c1", dash: "5,3" },
      { kind: "marker", xs: [s.k], ys: [0], color: "marker", label: "cutoff k" },
    ], { title: "Mean gap BM25 − TF-IDF against k", xlabel: "cutoff k (log scale)", xticks: ticks, xlog: true,
         xmin: 0.8, zero: true, yround: true, width: 340 }));
    const diff = (gain) => {
      const b = perQuery(s.data, "bm25", s.k, gain), t = perQuery(s.data, "tfidf", s.k, gain);
      return b.map((v, q) => v - t[q]);
    };
    const dx = diff(s.gain), dy = diff(s.versus);
    const flips = new Set(flipped(s.data, s.k, s.gain, s.versus));
    // both axes to the largest difference, in steps of 0.25 (up to 1)
    const lim = Math.min(1, Math.max(0.25, Math.ceil(4 * Math.max(...dx.map(Math.abs), ...dy.map(Math.abs)) - 1e-9) / 4));
    // the centre square, where most queries sit (and the flipped ones that are near-ties),
    // is drawn ZOOM times larger in a second scatter; the first leaves its queries to it
    const ZOOM = 5, Z = lim / ZOOM;
    const tick = (x) => String(+x.toFixed(2)).replace(/^-/, "−");
    const central = (q) => Math.abs(dx[q]) <= Z + 1e-12 && Math.abs(dy[q]) <= Z + 1e-12;
    // queries at the same place (to a 25th of the half axis, or steps = [of x, of y]) are one group
    const groups = (flipped, centre, steps = [(centre ? Z : lim) / 25, (centre ? Z : lim) / 25]) => {
      const at = new Map(), [sx, sy] = steps;
      dx.forEach((x, q) => {
        if (flips.has(q + 1) !== flipped || central(q) !== centre) return;
        const [i, j] = [Math.round(x / sx), Math.round(dy[q] / sy)];
        if (!at.has(`${i},${j}`)) at.set(`${i},${j}`, { x: i * sx, y: j * sy, queries: [] });
        at.get(`${i},${j}`).queries.push(q + 1);
      });
      return [...at.values()];
    };
    const total = (g) => g.counts.reduce((a, b) => a + b, 0);
    const H = 280, W = Math.round(Math.min(340, available));
    const scatter = (centre, title, extra = [], opts = {}) => {
      const half = centre ? Z : lim;
      // each scatter counts the queries it draws: the first those outside the centre square
      const where = centre ? "queries" : "outside the centre";
      // pad each axis by the largest circle's radius and 4 px, so no circle reaches the
      // axes or their labels (the plot is W − 68 px wide and H − 74 px tall inside its margins)
      const rmax = RADIUS_MAX + 4;
      const padFor = (inner) => Math.max(half / 20, (2 * rmax * half) / (inner - 2 * rmax));
      const px = padFor(W - 68), py = padFor(H - 74);
      // px per unit of each axis; the first scatter keeps its circles off the centre square
      const scale = [(W - 68) / (2 * (half + px)), (H - 74) / (2 * (half + py))];
      const hole = centre ? null : [Z * scale[0] + 3, Z * scale[1] + 3];
      // queries less than a smallest circle apart (7 px) share one
      const steps = scale.map((unit) => Math.max(half / 25, 7 / unit));
      // (a layout is kept: going back to a cutoff, gain or width draws it again at no cost)
      const key = JSON.stringify([s.k, s.gain, s.versus, W, centre]);
      if (!layouts.has(s.data)) layouts.set(s.data, new Map());
      const kept = layouts.get(s.data);
      if (!kept.has(key)) {
        if (kept.size >= 64) kept.delete(kept.keys().next().value);
        kept.set(key, bubbles([groups(false, centre, steps), groups(true, centre, steps)], scale, hole));
      }
      const [same, flip] = kept.get(key);
      return chart([
        { ...same, points: true, color: "muted", label: `same direction (${total(same)} ${where})`, open: same.xs.map(() => true) },
        // (the first scatter names its flipped queries only where it has some outside the centre)
        { ...flip, points: true, top: true, color: "c1", label: centre || total(flip) ? `flipped (${total(flip)} ${where})` : "",
          open: flip.xs.map(() => true) },
        ...extra,
      ], { title, xlabel: `${s.gain} gain`, ylabel: `${s.versus} gain`, xmin: -half - px, xmax: half + px,
           ymin: -half - py, ymax: half + py, xticks: [-half, 0, half], xfmt: tick, zero: true, width: W, height: H,
           alt: `x: ${s.gain} gain, y: ${s.versus} gain`, ...opts });
    };
    const inside = dx.filter((_, q) => central(q)).length;
    // the square goes over the circles, which keep 3 px clear of it, with its count inside
    const square = { xs: [-Z, Z, Z, -Z, -Z], ys: [-Z, -Z, Z, Z, -Z], color: "marker", dash: "3,2", top: true,
                     label: `the centre, |both| ≤ ${tick(Z)} (${inside} of ${dx.length} queries): the next scatter, ×${ZOOM}` };
    // a centre whose queries all sit at one place (at k = 1, all tie at 0) says so in its title
    const one = [groups(false, true), groups(true, true)].flat().map((p) => [p.x, p.y]);
    const alone = one.length === 1 && inside > 1
      ? (one[0][0] === 0 && one[0][1] === 0 ? `all ${inside} tie at 0` : `all ${inside} at one point`) : "";
    row.append(scatter(false, `BM25 − TF-IDF per query at k = ${s.k}`, [square],
                       { labels: [{ x: 0, y: 0, lines: [String(inside), inside === 1 ? "query" : "queries"], bold: true }] }),
               scatter(true, alone ? `The centre ×${ZOOM}: ${alone}` : `The centre ×${ZOOM} (|both| ≤ ${tick(Z)})`));
    out.append(row);
    out.append(para("In the scatters, queries close together share a circle: its area grows with their number, "
      + `written inside from 3 on; point at it for the queries. The dashed square's ${inside} queries are drawn `
      + `${ZOOM} times larger in the second scatter.`));
  },
  readouts: (s, r) => [
    [`BIM nDCG@${s.k} =`, "bim", fmt(r.bim)], ["TF-IDF =", "tfidf", fmt(r.tfidf)], ["BM25 =", "bm25", fmt(r.bm25)],
    [`queries where BM25 against TF-IDF flips (${s.gain} against ${s.versus} gain):`, "changes", String(r.changes)],
  ],
});
