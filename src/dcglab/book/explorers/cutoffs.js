// Chapter 4: DCG, IDCG and nDCG at every cutoff.
export default explorer({
  name: "cutoffs",
  title: "nDCG at each cutoff: change the grades and the highlighted k",
  params: ["grades", "k"],
  controls: (s) => listSliders(s, "grades").concat([cutoffSlider(s, "grades", "highlighted k")]),
  compute(s) {
    const n = s.grades.length;
    const lin = curves(s.grades, null, "linear", LOG2, n);
    const exp = curves(s.grades, null, "exponential", LOG2, n);
    return {
      dcg: lin.dcg[s.k - 1], idcg: lin.idcg[s.k - 1],
      ndcg_linear: lin.ndcg[s.k - 1], ndcg_exponential: exp.ndcg[s.k - 1], drops: countDrops(lin.ndcg),
    };
  },
  draw(out, s) {
    const n = s.grades.length;
    const xs = Array.from({ length: n }, (_, i) => i + 1);
    const lin = curves(s.grades, null, "linear", LOG2, n);
    const exp = curves(s.grades, null, "exponential", LOG2, n);
    const row = h("div", { class: "dcglab-charts" });
    row.append(chart([
      { kind: "area", xs, ys: lin.idcg, y0s: lin.dcg, color: "c1", label: "gap to the ideal" },
      { xs, ys: lin.idcg, color: "ideal", dash: "5,3", label: "IDCG@k", markers: true },
      { xs, ys: lin.dcg, color: "c0", label: "DCG@k", markers: true },
      { kind: "marker", xs: [s.k], ys: [0], color: "marker", label: "highlighted k" },
    ], { title: "Cumulative DCG (linear gain)", xlabel: "cutoff k", xticks: xs, width: 360 }));
    const val = (c) => c.ndcg.map((v) => (v === null ? 0 : v));
    row.append(chart([
      { xs, ys: val(lin), label: "nDCG@k linear", markers: true },
      { xs, ys: val(exp), label: "nDCG@k exponential", markers: true, dash: "5,3" },
      { kind: "marker", xs: [s.k], ys: [0], color: "marker", label: "highlighted k" },
    ], { title: "nDCG at each cutoff", xlabel: "cutoff k", xticks: xs, ymin: 0, ymax: 1.05, width: 360 }));
    out.append(row);
  },
  readouts: (s, r) => [
    [`DCG@${s.k} =`, "dcg", fmt(r.dcg)],
    [`IDCG@${s.k} =`, "idcg", fmt(r.idcg)],
    [`nDCG@${s.k} linear =`, "ndcg_linear", fmt(r.ndcg_linear)],
    ["exponential =", "ndcg_exponential", fmt(r.ndcg_exponential)],
    ["drops in nDCG (linear) as k grows:", "drops", String(r.drops)],
  ],
});
