// Chapter 10: which cutoff? Two systems over several queries, mean nDCG@k as k moves.
function meanAt(s, system, k) {
  return meanNdcg(s[system], s.judged, k, "linear", LOG2, s.zero_idcg);
}

export default explorer({
  name: "choose_k",
  title: "Choosing k: does the better system depend on the cutoff?",
  params: ["system_a", "system_b", "judged", "k", "zero_idcg"],
  controls: (s) => [
    { param: "k", label: "cutoff k", min: 1, max: Math.max(...s.system_a.map((x) => x.length)), step: 1 },
    { param: "zero_idcg", label: "IDCG = 0 scores", options: ["zero", "one", "skip"] },
  ],
  predict: {
    question: (s) => `the cutoff moves from k = ${s.k} to k = 5. Which system has the higher mean nDCG@5?`,
    choices: ["A", "B", "tie"],
    apply: (s) => Object.assign(s, { k: 5 }),
    answer: (a, b) => (b.mean_a > b.mean_b + 1e-12 ? "A" : b.mean_b > b.mean_a + 1e-12 ? "B" : "tie"),
    why: (a, b) => `At k = 5, A ${fmt(b.mean_a)} against B ${fmt(b.mean_b)}: B's good documents at ranks 2 and 3 `
      + "count once k reaches them, while A has little beyond its first document.",
  },
  compute: (s) => ({ mean_a: meanAt(s, "system_a", s.k), mean_b: meanAt(s, "system_b", s.k) }),
  draw(out, s, r) {
    const kmax = Math.max(...s.system_a.concat(s.system_b).map((x) => x.length));
    const ks = Array.from({ length: kmax }, (_, i) => i + 1);
    const m = (sys) => ks.map((k) => meanAt(s, sys, k) ?? 0);
    out.append(chart([
      { xs: ks, ys: m("system_a"), label: "system A", markers: true },
      { xs: ks, ys: m("system_b"), label: "system B", markers: true, dash: "5,3" },
      { kind: "marker", xs: [s.k], ys: [0], color: "marker", label: "cutoff k" },
    ], { title: "Mean nDCG@k over the queries", xlabel: "cutoff k", xticks: ks, ymin: 0, ymax: 1.05,
         xmin: 0.5, xmax: kmax + 0.5 }));
    const per = (sys) => s[sys].map((g, q) => {
      const v = ndcgAt(g, s.judged[q], s.k, "linear", LOG2);
      return v === null ? `— (${s.zero_idcg})` : fmt(v);
    });
    const a = per("system_a"), b = per("system_b");
    out.append(table(["query", `A nDCG@${s.k}`, `B nDCG@${s.k}`, "A grades", "B grades"],
      s.system_a.map((g, q) => [q + 1, a[q], b[q], g.join(","), s.system_b[q].join(",")]),
      `nDCG@${s.k} of each query for systems A and B`));
    const winner = r.mean_a === null || r.mean_b === null ? "—" : r.mean_a > r.mean_b ? "A" : r.mean_b > r.mean_a ? "B" : "tie";
    out.prepend(para(`At k = ${s.k} the better system is ${winner}.`));
  },
  readouts: (s, r) => [[`mean nDCG@${s.k}: A =`, "mean_a", fmt(r.mean_a)], ["B =", "mean_b", fmt(r.mean_b)]],
});
