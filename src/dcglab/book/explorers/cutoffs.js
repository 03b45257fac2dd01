// Chapter 4: DCG, IDCG and nDCG at every cutoff.
function cutState(model) {
  return { grades: model.get("grades").slice(), k: model.get("k") };
}

const LOG2 = { kind: "log", base: 2 };

function cutCompute(s) {
  const n = s.grades.length;
  const lin = curves(s.grades, null, "linear", LOG2, n);
  const exp = curves(s.grades, null, "exponential", LOG2, n);
  let drops = 0;
  for (let k = 1; k < n; k++) if (lin.ndcg[k] !== null && lin.ndcg[k - 1] !== null && lin.ndcg[k] < lin.ndcg[k - 1]) drops++;
  return {
    dcg: lin.dcg[s.k - 1], idcg: lin.idcg[s.k - 1],
    ndcg_linear: lin.ndcg[s.k - 1], ndcg_exponential: exp.ndcg[s.k - 1], drops,
  };
}

function cutDraw(out, s, r) {
  const n = s.grades.length;
  const xs = Array.from({ length: n }, (_, i) => i + 1);
  const lin = curves(s.grades, null, "linear", LOG2, n);
  const exp = curves(s.grades, null, "exponential", LOG2, n);
  const row = document.createElement("div");
  row.className = "dcglab-charts";
  row.append(chart([
    { kind: "area", xs, ys: lin.idcg, y0s: lin.dcg, color: "#d62728", label: "gap to the ideal" },
    { xs, ys: lin.idcg, color: "#444444", dash: "5,3", label: "IDCG@k", markers: true },
    { xs, ys: lin.dcg, color: "#1f77b4", label: "DCG@k", markers: true },
  ], { title: "Cumulative DCG (linear gain)", xlabel: "cutoff k", xticks: xs, width: 360,
       alt: "DCG@k and IDCG@k against k with the gap shaded" }));
  const val = (c) => c.ndcg.map((v) => (v === null ? 0 : v));
  row.append(chart([
    { xs, ys: val(lin), label: "nDCG@k linear", markers: true },
    { xs, ys: val(exp), label: "nDCG@k exponential", markers: true, dash: "5,3" },
    { xs: [s.k, s.k], ys: [0, 1], color: "#999999", dash: "2,2" },
  ], { title: "nDCG at each cutoff", xlabel: "cutoff k", xticks: xs, ymin: 0, ymax: 1.05, width: 360,
       alt: "nDCG@k against k for linear and exponential gain" }));
  out.append(row);
  out.append(readouts([
    [`DCG@${s.k} =`, "dcg", fmt(r.dcg)],
    [`IDCG@${s.k} =`, "idcg", fmt(r.idcg)],
    [`nDCG@${s.k} linear =`, "ndcg_linear", fmt(r.ndcg_linear)],
    [`exponential =`, "ndcg_exponential", fmt(r.ndcg_exponential)],
    ["drops in nDCG (linear) as k grows:", "drops", String(r.drops)],
  ]));
}

export default {
  render({ model, el }) {
    return mount(model, el, {
      name: "cutoffs",
      title: "nDCG at each cutoff: change the grades and the highlighted k",
      controls: (m) => listSliders(m, "grades")
        .concat([{ param: "k", label: "highlighted k", min: 1, max: m.get("grades").length, step: 1 }]),
      state: cutState, compute: cutCompute, draw: cutDraw,
    });
  },
};
