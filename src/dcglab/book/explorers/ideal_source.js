// Chapter 7: where the ideal ranking comes from.
function judgedOf(s) {
  return s.retrieved.concat(s.missing.slice(0, s.n_missing));
}

// The ideal order of the judged documents, with the ones the system missed marked.
function idealWithMarks(s) {
  const judged = judgedOf(s);
  const order = judged.map((g, i) => [g, i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return {
    grades: idealOrder(judged, "linear"),
    marks: order.map(([, i]) => (i >= s.retrieved.length ? "dcglab-missed" : "")),
  };
}

export default explorer({
  name: "ideal_source",
  title: "Where does the ideal come from? Add judged documents the system missed",
  params: ["retrieved", "missing", "n_missing", "k"],
  editable: ["retrieved"],
  controls: (s) => [{ param: "n_missing", label: "judged, not retrieved", min: 0, max: s.missing.length, step: 1 }]
    .concat(listSliders(s, "missing", { label: (i) => `missed doc ${i + 1} grade`, shown: (st, i) => i < st.n_missing }))
    .concat([cutoffSlider(s, "retrieved")]),
  compute: (s) => ({
    retrieved: ndcgAt(s.retrieved, null, s.k, "linear", LOG2),
    qrels_cut: ndcgAt(s.retrieved, judgedOf(s), s.k, "linear", LOG2),
    qrels_full: ndcgAt(s.retrieved, judgedOf(s), null, "linear", LOG2),
  }),
  ranking: (s, r) => {
    const full = idealWithMarks(s);
    return {
      rows: [
        { key: "system", title: "Retrieved ranking", grades: s.retrieved, list: "retrieved" },
        { key: "from_run", kind: "ideal", title: `Ideal from the retrieved items: nDCG ${fmtNdcg(r.retrieved)}`,
          grades: idealOrder(s.retrieved, "linear") },
        { key: "from_qrels", kind: "ideal",
          title: `Ideal from all judged documents (orange: missed): nDCG@${s.k} ${fmtNdcg(r.qrels_cut)}, `
            + `uncut ${fmtNdcg(r.qrels_full)}`, grades: full.grades, marks: full.marks },
      ],
      gain: "linear", discount: LOG2, k: s.k,
    };
  },
  presets: (s) => rankingPresets(s, "retrieved").concat([["no missed documents", { n_missing: 0 }]]),
  predict: {
    question: (s) => `one more judged document that the system missed is added (grade ${s.missing[s.n_missing] ?? s.missing[0]}). `
      + `Does trec_eval's nDCG@${s.k} (ideal from all judged documents, cut at k) go up, down or stay the same?`,
    choices: UP_DOWN,
    apply: (s) => Object.assign(s, { n_missing: Math.min(s.n_missing + 1, s.missing.length) }),
    answer: (a, b) => direction(a, b, "qrels_cut"),
    why: (a, b) => `It went from ${fmtNdcg(a.qrels_cut)} to ${fmtNdcg(b.qrels_cut)}: the ideal may now hold a document `
      + `the run never returned. The ideal from the retrieved items cannot see it (${fmtNdcg(a.retrieved)} → ${fmtNdcg(b.retrieved)}).`,
  },
  draw(out, s, r) {
    out.append(table(["ideal built from", "nDCG", "as in"], [
      ["retrieved items", fmtNdcg(r.retrieved), "scikit-learn ndcg_score, torchmetrics"],
      [`all judged, cut at k = ${s.k}`, fmtNdcg(r.qrels_cut), "trec_eval ndcg_cut, ranx, ir_measures"],
      ["all judged, no cutoff", fmtNdcg(r.qrels_full), "trec_eval ndcg"],
    ], "nDCG for each source of the ideal"));
  },
  readouts: (s, r) => [
    ["retrieved:", "retrieved", fmtNdcg(r.retrieved)], ["qrels cut:", "qrels_cut", fmtNdcg(r.qrels_cut)],
    ["qrels uncut:", "qrels_full", fmtNdcg(r.qrels_full)],
  ],
});
