// Chapter 10: which cutoff? Two systems over several queries, mean nDCG@k as k moves.
const LOG2K = { kind: "log", base: 2 };

function ckState(model) {
  return { system_a: model.get("system_a"), system_b: model.get("system_b"), judged: model.get("judged"),
           k: model.get("k"), zero_idcg: model.get("zero_idcg") };
}

function ckCompute(s) {
  return {
    mean_a: meanNdcg(s.system_a, s.judged, s.k, "linear", LOG2K, s.zero_idcg),
    mean_b: meanNdcg(s.system_b, s.judged, s.k, "linear", LOG2K, s.zero_idcg),
  };
}

function ckDraw(out, s, r) {
  const kmax = Math.max(...s.system_a.concat(s.system_b).map((x) => x.length));
  const ks = Array.from({ length: kmax }, (_, i) => i + 1);
  const m = (sys) => ks.map((k) => meanNdcg(sys, s.judged, k, "linear", LOG2K, s.zero_idcg) ?? 0);
  out.append(chart([
    { xs: ks, ys: m(s.system_a), label: "system A", markers: true },
    { xs: ks, ys: m(s.system_b), label: "system B", markers: true, dash: "5,3" },
    { xs: [s.k, s.k], ys: [0, 1], color: "#999999", dash: "2,2" },
  ], { title: "Mean nDCG@k over the queries", xlabel: "cutoff k", xticks: ks, ymin: 0, ymax: 1.05,
       alt: "Mean nDCG at each cutoff for two systems" }));
  const per = (sys) => sys.map((g, q) => {
    const v = curves(g, s.judged[q], "linear", LOG2K, s.k).ndcg[s.k - 1];
    return v === null ? `— (${s.zero_idcg})` : fmt(v);
  });
  const a = per(s.system_a), b = per(s.system_b);
  out.append(table(["query", "A grades", `A nDCG@${s.k}`, "B grades", `B nDCG@${s.k}`],
    s.system_a.map((g, q) => [q + 1, g.join(","), a[q], s.system_b[q].join(","), b[q]])));
  const u = (x) => (x === null ? "undefined" : fmt(x));
  const winner = r.mean_a === null || r.mean_b === null ? "—" : r.mean_a > r.mean_b ? "A" : r.mean_b > r.mean_a ? "B" : "tie";
  out.append(readouts([[`mean nDCG@${s.k}: A =`, "mean_a", u(r.mean_a)], ["B =", "mean_b", u(r.mean_b)]]));
  const p = document.createElement("p");
  p.textContent = `At k = ${s.k} the better system is ${winner}.`;
  out.append(p);
}

export default {
  render({ model, el }) {
    return mount(model, el, {
      name: "choose_k",
      title: "Choosing k: does the better system depend on the cutoff?",
      controls: (m) => [
        { param: "k", label: "cutoff k", min: 1, max: Math.max(...m.get("system_a").map((x) => x.length)), step: 1 },
        { param: "zero_idcg", label: "IDCG = 0 scores", options: ["zero", "one", "skip"] },
      ],
      state: ckState, compute: ckCompute, draw: ckDraw,
    });
  },
};
