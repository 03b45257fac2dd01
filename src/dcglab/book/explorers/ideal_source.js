// Chapter 7: where the ideal ranking comes from.
function judgedOf(s) {
  return s.retrieved.concat(s.missing.slice(0, s.n_missing));
}

export default explorer({
  name: "ideal_source",
  title: "Where does the ideal come from? Add judged documents the system missed",
  params: ["retrieved", "missing", "n_missing", "k"],
  controls: (s) => listSliders(s, "retrieved", { label: (i) => `retrieved rank ${i + 1}` })
    .concat([{ param: "n_missing", label: "judged, not retrieved", min: 0, max: s.missing.length, step: 1 }])
    .concat(listSliders(s, "missing", { label: (i) => `missed doc ${i + 1} grade`, shown: (st, i) => i < st.n_missing }))
    .concat([cutoffSlider(s, "retrieved")]),
  compute: (s) => ({
    retrieved: ndcgAt(s.retrieved, null, s.k, "linear", LOG2),
    qrels_cut: ndcgAt(s.retrieved, judgedOf(s), s.k, "linear", LOG2),
    qrels_full: ndcgAt(s.retrieved, judgedOf(s), null, "linear", LOG2),
  }),
  draw(out, s, r) {
    const missing = s.missing.slice(0, s.n_missing);
    out.append(para(`Retrieved: ${s.retrieved.join(", ")}. Judged but not retrieved: ${missing.length ? missing.join(", ") : "none"}.`));
    out.append(table(["ideal built from", "as in", "nDCG"], [
      ["retrieved items", "scikit-learn ndcg_score, torchmetrics", fmtNdcg(r.retrieved)],
      [`all judged, cut at k = ${s.k}`, "trec_eval ndcg_cut, ranx, ir_measures", fmtNdcg(r.qrels_cut)],
      ["all judged, no cutoff", "trec_eval ndcg", fmtNdcg(r.qrels_full)],
    ], "nDCG for each source of the ideal"));
  },
  readouts: (s, r) => [
    ["retrieved:", "retrieved", fmtNdcg(r.retrieved)], ["qrels cut:", "qrels_cut", fmtNdcg(r.qrels_cut)],
    ["qrels uncut:", "qrels_full", fmtNdcg(r.qrels_full)],
  ],
});
