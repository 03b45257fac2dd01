// Chapter 5: how often linear gain and a^rel - 1 rank two orderings in opposite orders.
const MAX_CURVE = 50000; // orderings up to which the curve over a is drawn
const CURVE_AS = [1.1, 1.25, 1.5, 2, 3, 4, 6, 10];

// Grades beyond "documents judged" are not part of the multiset: their sliders hide.
function revCount(s, a) {
  const judged = s.grades.slice(0, s.n);
  if (!judged.some((g) => g > 0)) return { orderings: 1, pairs: 0, reversed: 0, share: 0 };
  return countReversals(judged, Math.min(s.k, s.n), ["linear", { exponential: a }]);
}

export default explorer({
  name: "gain_reversals",
  title: "Reversals between linear and exponential gain",
  params: ["grades", "n", "k", "a"],
  controls: (s) => [{ param: "n", label: "documents judged", min: 2, max: s.grades.length, step: 1 }]
    .concat(listSliders(s, "grades", { label: (i) => `document ${i + 1} grade`, max: 9, shown: (st, i) => i < st.n }))
    .concat([
      { param: "k", label: "cutoff k", min: 1, max: (st) => st.n, step: 1 },
      { param: "a", label: "gain base a", min: 1.1, max: 10, step: 0.1 },
    ]),
  compute: (s) => revCount(s, s.a),
  draw(out, s, r) {
    const judged = s.grades.slice(0, s.n);
    out.append(para(`Judged grades: ${judged.join(", ")}; nDCG@${Math.min(s.k, s.n)}; linear gain against ${s.a}^rel − 1.`));
    if (r.orderings <= MAX_CURVE) {
      const shares = CURVE_AS.map((a) => 100 * revCount(s, a).share);
      out.append(chart([
        { xs: CURVE_AS, ys: shares, label: "reversed pairs (%)", markers: true },
        { xs: [s.a], ys: [100 * r.share], color: "c1", markers: true, big: true, label: "current a" },
      ], { title: "Reversed pairs against the gain base a", xlabel: "a in a^rel − 1", xticks: [1.1, 2, 3, 4, 6, 10],
           ymin: 0 }));
    } else {
      out.append(para(`${r.orderings} orderings: too many to redraw the curve over a at every move.`));
    }
  },
  readouts: (s, r) => [
    ["orderings =", "orderings", String(r.orderings)],
    ["pairs =", "pairs", String(r.pairs)],
    ["reversed =", "reversed", String(r.reversed)],
    ["share =", "share", fmt(r.share)],
  ],
});
