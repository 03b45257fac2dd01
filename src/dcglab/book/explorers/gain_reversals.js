// Chapter 5: how often linear gain and a^rel - 1 rank two orderings in opposite orders.
const MAX_CURVE = 50000; // orderings up to which the curve over a is drawn
const CURVE_AS = [1.1, 1.25, 1.5, 2, 3, 4, 6, 10];

function revState(model) {
  return { grades: model.get("grades").slice(), n: model.get("n"), k: model.get("k"), a: model.get("a") };
}

function revCount(s, a) {
  const judged = s.grades.slice(0, s.n);
  if (!judged.some((g) => g > 0)) return { orderings: 1, pairs: 0, reversed: 0 };
  return countReversals(judged, Math.min(s.k, s.n), ["linear", { exponential: a }]);
}

function revCompute(s) {
  const r = revCount(s, s.a);
  return { orderings: r.orderings, pairs: r.pairs, reversed: r.reversed, share: r.pairs ? r.reversed / r.pairs : 0 };
}

function revDraw(out, s, r) {
  const judged = s.grades.slice(0, s.n);
  const p = document.createElement("p");
  p.textContent = `Judged grades: ${judged.join(", ")}; nDCG@${Math.min(s.k, s.n)}; linear gain against ${s.a}^rel − 1.`;
  out.append(p);
  if (r.orderings <= MAX_CURVE) {
    const shares = CURVE_AS.map((a) => { const c = revCount(s, a); return c.pairs ? (100 * c.reversed) / c.pairs : 0; });
    out.append(chart([
      { xs: CURVE_AS, ys: shares, label: "reversed pairs (%)", markers: true },
      { xs: [s.a], ys: [100 * r.share], color: "#d62728", markers: true, label: "current a" },
    ], { title: "Reversed pairs against the gain base a", xlabel: "a in a^rel − 1", xticks: [1.1, 2, 3, 4, 6, 10], ymin: 0,
         alt: "Share of reversed pairs of orderings against the exponential gain base" }));
  }
  out.append(readouts([
    ["orderings =", "orderings", String(r.orderings)],
    ["pairs =", "pairs", String(r.pairs)],
    ["reversed =", "reversed", String(r.reversed)],
    ["share =", "share", fmt(r.share)],
  ]));
}

export default {
  render({ model, el }) {
    return mount(model, el, {
      name: "gain_reversals",
      title: "Reversals between linear and exponential gain",
      controls: (m) => [{ param: "n", label: "documents judged", min: 2, max: m.get("grades").length, step: 1 }]
        .concat(listSliders(m, "grades", (i) => `grade of document ${i + 1}`, 9))
        .concat([
          { param: "k", label: "cutoff k", min: 1, max: m.get("grades").length, step: 1 },
          { param: "a", label: "gain base a", min: 1.1, max: 10, step: 0.1 },
        ]),
      state: revState, compute: revCompute, draw: revDraw,
    });
  },
};
