// Chapter 9: nDCG, AP, RR, RBP and ERR, and the weight each gives to each rank.
export default explorer({
  name: "user_models",
  title: "User models: one ranking, five measures",
  params: ["grades", "p"],
  controls: (s) => [{ param: "p", label: "patience p (RBP)", min: 0.5, max: 0.95, step: 0.05 }]
    .concat(listSliders(s, "grades")),
  compute: (s) => ({
    ndcg: ndcgAt(s.grades, null, s.grades.length, "linear", LOG2),
    ap: averagePrecision(s.grades),
    rr: reciprocalRank(s.grades),
    rbp: rbp(s.grades, s.p),
    err: err(s.grades),
  }),
  draw(out, s) {
    const xs = s.grades.map((_, i) => i + 1);
    out.append(chart([
      { xs, ys: ndcgWeights(s.grades, "linear", LOG2), label: "nDCG: w_i / IDCG", markers: true },
      { xs, ys: rbpWeights(s.grades.length, s.p), label: "RBP: (1−p)p^(i−1)", markers: true, dash: "1,3" },
      { xs, ys: errWeights(s.grades), label: "ERR: P(reach i) / i", markers: true, dash: "5,3" },
    ], { title: "Weight of each rank", xlabel: "rank i", xticks: xs, ymin: 0 }));
  },
  readouts: (s, r) => [
    ["nDCG =", "ndcg", fmtNdcg(r.ndcg)], ["AP =", "ap", fmt(r.ap)],
    ["RR =", "rr", fmt(r.rr)], ["RBP =", "rbp", fmt(r.rbp)], ["ERR =", "err", fmt(r.err)],
  ],
});
