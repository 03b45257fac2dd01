// Chapter 9: nDCG, AP, RR, RBP and ERR, and the weight each gives to each rank.
const LOG2U = { kind: "log", base: 2 };

function umState(model) {
  return { grades: model.get("grades").slice(), p: model.get("p") };
}

function umCompute(s) {
  const n = s.grades.length;
  return {
    ndcg: curves(s.grades, null, "linear", LOG2U, n).ndcg[n - 1],
    ap: averagePrecision(s.grades),
    rr: reciprocalRank(s.grades),
    rbp: rbp(s.grades, s.p),
    err: err(s.grades),
  };
}

function umDraw(out, s, r) {
  const n = s.grades.length;
  const xs = Array.from({ length: n }, (_, i) => i + 1);
  const ideal = curves(s.grades, null, "linear", LOG2U, n).idcg[n - 1] || 1;
  const reach = errReach(s.grades);
  const recip = weights(n, { kind: "reciprocal" });
  out.append(chart([
    { xs, ys: weights(n, LOG2U).map((w) => w / ideal), label: "nDCG: w_i / IDCG", markers: true },
    { xs, ys: weights(n, { kind: "geometric", p: s.p }).map((w) => (1 - s.p) * w), label: `RBP: (1−p)p^(i−1)`, markers: true },
    { xs, ys: reach.map((x, i) => x * recip[i]), label: "ERR: P(reach i) / i", markers: true, dash: "5,3" },
  ], { title: "Weight of each rank", xlabel: "rank i", xticks: xs, ymin: 0,
       alt: "Weight per rank under nDCG, RBP and ERR" }));
  out.append(readouts([
    ["nDCG =", "ndcg", r.ndcg === null ? "undefined (IDCG = 0)" : fmt(r.ndcg)], ["AP =", "ap", fmt(r.ap)],
    ["RR =", "rr", fmt(r.rr)], ["RBP =", "rbp", fmt(r.rbp)], ["ERR =", "err", fmt(r.err)],
  ]));
}

export default {
  render({ model, el }) {
    return mount(model, el, {
      name: "user_models",
      title: "User models: one ranking, five measures",
      controls: (m) => [{ param: "p", label: "patience p (RBP)", min: 0.5, max: 0.95, step: 0.05 }]
        .concat(listSliders(m, "grades")),
      state: umState, compute: umCompute, draw: umDraw,
    });
  },
};
