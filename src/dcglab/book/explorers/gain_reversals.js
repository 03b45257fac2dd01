// Chapter 5: how often linear gain and a^rel - 1 rank two orderings in opposite orders.
const CURVE_AS = [1.1, 1.25, 1.5, 2, 3, 4, 6, 10];

// Grades beyond "documents judged" are not part of the multiset: their sliders hide.
const judgedOf = (s) => s.grades.slice(0, s.n);

// The orderings of the judged multiset and their nDCG@k with linear gain, once per
// multiset and k; each gain base a then adds one score per ordering.
const baseMemo = new Map();
function orderingsOf(s) {
  const judged = judgedOf(s), k = Math.min(s.k, s.n);
  const key = JSON.stringify([judged, k]);
  if (!baseMemo.has(key)) {
    if (baseMemo.size >= 8) baseMemo.delete(baseMemo.keys().next().value);
    const rows = orderings(judged);
    baseMemo.set(key, { rows, k, linear: ndcgOfOrderings(rows, k, "linear", LOG2), byA: new Map() });
  }
  return baseMemo.get(key);
}

function exponentialScores(b, a) {
  if (!b.byA.has(a)) {
    if (b.byA.size >= 16) b.byA.delete(b.byA.keys().next().value);
    b.byA.set(a, ndcgOfOrderings(b.rows, b.k, { exponential: a }, LOG2));
  }
  return b.byA.get(a);
}

function revCount(s, a) {
  if (!judgedOf(s).some((g) => g > 0)) return { orderings: 1, pairs: 0, reversed: 0, share: 0 };
  const b = orderingsOf(s);
  return reversalsOf(b.linear, exponentialScores(b, a));
}

// The curve over a depends on the multiset and k only: computed once for each.
const curveMemo = new Map();
function curveOver(s) {
  const key = JSON.stringify([judgedOf(s), Math.min(s.k, s.n)]);
  if (!curveMemo.has(key)) {
    if (curveMemo.size > 32) curveMemo.delete(curveMemo.keys().next().value);
    curveMemo.set(key, CURVE_AS.map((a) => 100 * revCount(s, a).share));
  }
  return curveMemo.get(key);
}

const exampleMemo = new Map();
function examples(s) {
  const judged = judgedOf(s);
  const key = JSON.stringify([judged, Math.min(s.k, s.n), s.a]);
  if (!exampleMemo.has(key)) {
    if (exampleMemo.size > 32) exampleMemo.delete(exampleMemo.keys().next().value);
    const b = judged.some((g) => g > 0) ? orderingsOf(s) : null;
    exampleMemo.set(key, b ? reversalExamplesOf(b.rows, b.linear, exponentialScores(b, s.a)) : []);
  }
  return exampleMemo.get(key);
}

const group = (n) => n.toLocaleString("en-US");

export default explorer({
  name: "gain_reversals",
  title: "Reversals between linear and exponential gain",
  params: ["grades", "n", "k", "a"],
  controls: (s) => [{ param: "n", label: "documents judged", min: 2, max: s.grades.length, step: 1 }]
    .concat(listSliders(s, "grades", { label: (i) => `document ${i + 1} grade`, max: 3, shown: (st, i) => i < st.n }))
    .concat([
      { param: "k", label: "cutoff k", min: 1, max: (st) => st.n, step: 1 },
      { param: "a", label: "gain base a", min: 1.1, max: 10, step: 0.1 },
    ]),
  compute: (s) => revCount(s, s.a),
  ranking: (s, r, ctx) => {
    const ex = examples(s);
    const k = Math.min(s.k, s.n);
    if (!ex.length) return { rows: [], gain: "linear", discount: LOG2, k, legend: "" };
    const m = (ctx.local.example || 0) % ex.length;
    const [x, y] = ex[m];
    const score = (g, gain) => fmtNdcg(ndcgAt(g, null, k, gain, LOG2));
    const e = { exponential: s.a };
    return {
      rows: [
        { key: "x", title: `Ordering X: nDCG@${k} linear ${score(x, "linear")}, exponential ${score(x, e)}`, grades: x },
        { key: "y", kind: "ideal", title: `Ordering Y: nDCG@${k} linear ${score(y, "linear")}, exponential ${score(y, e)}`, grades: y },
      ],
      gain: "linear", discount: LOG2, k,
      legend: `A reversal (example ${m + 1} of ${ex.length}): linear gain prefers Y, ${s.a}^rel − 1 prefers X. `
        + "Bars show linear gain × discount.",
    };
  },
  predict: {
    question: (s) => `the gain base a rises from ${s.a} to 4, so a grade-3 document counts far more. `
      + "Do more or fewer pairs of orderings reverse?",
    choices: ["more", "fewer", "the same"],
    apply: (s) => Object.assign(s, { a: 4 }),
    answer: (a, b) => ({ up: "more", down: "fewer" })[direction(a, b, "reversed")] || "the same",
    why: (a, b) => `Reversed pairs went from ${group(a.reversed)} to ${group(b.reversed)} of ${group(b.pairs)}: `
      + "the further a^rel − 1 is from linear, the more often the two gains disagree.",
  },
  draw(out, s, r, ctx) {
    const ex = examples(s);
    if (ex.length > 1) {
      const next = h("button", { type: "button", class: "dcglab-chip" }, "Show another reversal");
      next.addEventListener("click", () => { ctx.local.example = (ctx.local.example || 0) + 1; ctx.refresh(); });
      out.append(next);
    } else if (!ex.length) out.append(para("No pair of orderings reverses for this multiset, cutoff and a."));
    out.append(para(`Judged grades: ${judgedOf(s).join(", ")}; nDCG@${Math.min(s.k, s.n)}; linear gain against ${s.a}^rel − 1.`));
    out.append(chart([
      { xs: CURVE_AS, ys: curveOver(s), label: "reversed pairs (%)", markers: true },
      { xs: [s.a], ys: [100 * r.share], color: "c1", points: true, big: true, label: "current a" },
    ], { title: "Reversed pairs (%) against the gain base a", xlabel: "a in a^rel − 1", xticks: [1.1, 2, 3, 4, 6, 10],
         ymin: 0 }));
  },
  readouts: (s, r) => [
    ["orderings =", "orderings", String(r.orderings)],
    ["pairs =", "pairs", String(r.pairs)],
    ["reversed =", "reversed", String(r.reversed)],
    [`share (${(100 * r.share).toFixed(1)}%) =`, "share", fmt(r.share)],
  ],
});
