// Chapter 6: the base cancels for 1/log_b(i+1) but not for the Järvelin-Kekäläinen form.
function baseState(model) {
  return { grades: model.get("grades").slice(), k: model.get("k"), gain: model.get("gain"), base: model.get("base") };
}

function baseCompute(s) {
  const out = {};
  for (const kind of ["log", "jk"]) {
    const c = curves(s.grades, null, s.gain, { kind, base: s.base }, s.k);
    out[`dcg_${kind}`] = c.dcg[s.k - 1];
    out[`idcg_${kind}`] = c.idcg[s.k - 1];
    out[`ndcg_${kind}`] = c.ndcg[s.k - 1];
  }
  return out;
}

function baseDraw(out, s, r) {
  const bs = [];
  for (let b = 1.5; b <= 20.001; b += 0.5) bs.push(b);
  const at = (kind, b) => curves(s.grades, null, s.gain, { kind, base: b }, s.k).ndcg[s.k - 1] ?? 0;
  out.append(chart([
    { xs: bs, ys: bs.map((b) => at("log", b)), label: "1/log_b(i+1)" },
    { xs: bs, ys: bs.map((b) => at("jk", b)), label: "Järvelin–Kekäläinen", dash: "5,3" },
    { xs: [s.base, s.base], ys: [0, 1], color: "#999999", dash: "2,2" },
  ], { title: `nDCG@${s.k} against the base b`, xlabel: "base b", xticks: [1.5, 5, 10, 15, 20], ymin: 0, ymax: 1.05,
       alt: "nDCG against the logarithm base for the two discount forms" }));
  const u = (x) => (x === null ? "undefined (IDCG = 0)" : fmt(x));
  out.append(readouts([
    [`log form: DCG@${s.k} =`, "dcg_log", fmt(r.dcg_log)], ["IDCG =", "idcg_log", fmt(r.idcg_log)],
    ["nDCG =", "ndcg_log", u(r.ndcg_log)],
  ]));
  out.append(readouts([
    [`JK form: DCG@${s.k} =`, "dcg_jk", fmt(r.dcg_jk)], ["IDCG =", "idcg_jk", fmt(r.idcg_jk)],
    ["nDCG =", "ndcg_jk", u(r.ndcg_jk)],
  ]));
}

export default {
  render({ model, el }) {
    return mount(model, el, {
      name: "log_base",
      title: "Which logarithm? Move the base b",
      controls: (m) => [{ param: "base", label: "log base b", min: 1.5, max: 20, step: 0.5 }]
        .concat(listSliders(m, "grades"))
        .concat([
          { param: "k", label: "cutoff k", min: 1, max: m.get("grades").length, step: 1 },
          { param: "gain", label: "gain", options: ["linear", "exponential"] },
        ]),
      state: baseState, compute: baseCompute, draw: baseDraw,
    });
  },
};
