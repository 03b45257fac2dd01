// Chapter 6: the base cancels for 1/log_b(i+1) but not for the Järvelin-Kekäläinen form.
function atBase(s, kind, b) {
  return curves(s.grades, null, s.gain, { kind, base: b }, s.k);
}

export default explorer({
  name: "log_base",
  title: "Which logarithm? Move the base b",
  params: ["grades", "k", "gain", "base"],
  controls: (s) => [{ param: "base", label: "log base b", min: 1.5, max: 20, step: 0.5 }]
    .concat(listSliders(s, "grades"))
    .concat([
      cutoffSlider(s),
      { param: "gain", label: "gain", options: ["linear", "exponential"], enabled: gradedAbove1 },
    ]),
  compute(s) {
    const out = {};
    for (const kind of ["log", "jk"]) {
      const c = atBase(s, kind, s.base);
      out[`dcg_${kind}`] = c.dcg[s.k - 1];
      out[`idcg_${kind}`] = c.idcg[s.k - 1];
      out[`ndcg_${kind}`] = c.ndcg[s.k - 1];
    }
    return out;
  },
  draw(out, s) {
    const bs = [];
    for (let b = 1.5; b <= 20.001; b += 0.5) bs.push(b);
    const at = (kind, b) => atBase(s, kind, b).ndcg[s.k - 1] ?? 0;
    const ideal = idealOrder(s.grades, s.gain);
    const cut = (g) => `${g.slice(0, s.k).join(" ")} | ${g.slice(s.k).join(" ")}`;
    out.append(para(`Ranking: ${cut(s.grades)}; ideal: ${cut(ideal)} (the bar marks the cutoff k = ${s.k}).`));
    out.append(chart([
      { xs: bs, ys: bs.map((b) => at("log", b)), label: "1/log_b(i+1)" },
      { xs: bs, ys: bs.map((b) => at("jk", b)), label: "Järvelin–Kekäläinen", dash: "5,3" },
      { kind: "marker", xs: [s.base], ys: [0], color: "marker", label: "current b" },
    ], { title: `nDCG@${s.k} against the base b`, xlabel: "base b", xticks: [1.5, 5, 10, 15, 20], ymin: 0, ymax: 1.05 }));
  },
  readouts: (s, r) => [
    [`log form: DCG@${s.k} =`, "dcg_log", fmt(r.dcg_log)], ["IDCG =", "idcg_log", fmt(r.idcg_log)],
    ["nDCG =", "ndcg_log", fmtNdcg(r.ndcg_log)],
    [`JK form: DCG@${s.k} =`, "dcg_jk", fmt(r.dcg_jk)], ["IDCG =", "idcg_jk", fmt(r.idcg_jk)],
    ["nDCG =", "ndcg_jk", fmtNdcg(r.ndcg_jk)],
  ],
});
