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
    // a missed document carries its name from the strip of missed documents (d1, d2, ...)
    marks: order.map(([, i]) => (i >= s.retrieved.length ? `dcglab-missed dcglab-doc-${i - s.retrieved.length + 1}` : "")),
  };
}

export default explorer({
  name: "ideal_source",
  title: "Where does the ideal come from?",
  params: ["retrieved", "missing", "n_missing", "k"],
  editable: ["retrieved", "missing"],
  // k first: the documents added below it never move it
  controls: (s) => [
    cutoffSlider(s, "retrieved", "cutoff k"),
    { param: "n_missing", label: "judged documents the system missed", min: 0, max: s.missing.length, step: 1,
      stepper: ["Remove one", "Add one"] },
  ],
  compute: (s) => ({
    retrieved: ndcgAt(s.retrieved, null, s.k, "linear", LOG2),
    qrels_cut: ndcgAt(s.retrieved, judgedOf(s), s.k, "linear", LOG2),
    qrels_full: ndcgAt(s.retrieved, judgedOf(s), null, "linear", LOG2),
  }),
  ranking: (s, r) => {
    const full = idealWithMarks(s);
    const missed = s.missing.slice(0, s.n_missing);
    return {
      rows: [
        { key: "system", title: "Retrieved ranking", grades: s.retrieved, list: "retrieved" },
        { key: "missed", title: "Judged, not retrieved: the documents the system missed", grades: missed, list: "missing",
          marks: missed.map(() => "dcglab-missed"), k: null, unranked: true },
        { key: "from_run", kind: "ideal", title: `1. Ideal from the retrieved documents: nDCG@${s.k} ${fmtNdcg(r.retrieved)}`,
          grades: idealOrder(s.retrieved, "linear") },
        { key: "from_qrels", kind: "ideal",
          title: `2. Ideal from all judged documents, cut at k (orange: missed): nDCG@${s.k} ${fmtNdcg(r.qrels_cut)}`,
          grades: full.grades, marks: full.marks },
        { key: "uncut", kind: "ideal",
          title: `3. The uncut ideal, every judged document (orange: missed): nDCG ${fmtNdcg(r.qrels_full)}`,
          grades: full.grades, marks: full.marks, k: null },
      ],
      gain: "linear", discount: LOG2, k: s.k,
      totals: [
        { row: "system", label: `DCG@${s.k}` }, { row: "from_run", label: `1. IDCG@${s.k}` },
        { row: "from_qrels", label: `2. IDCG@${s.k}` }, { row: "uncut", label: "3. IDCG" },
      ],
      ratio: `Lists 1 and 2 differ only when a missed document is good enough to reach the top ${s.k}; `
        + "list 3 counts every judged document, and the uncut nDCG also counts the whole retrieved list.",
    };
  },
  presets: (s) => rankingPresets(s, "retrieved").concat([["no missed documents", { n_missing: 0 }]]),
  predict: {
    question: (s) => `one more judged document that the system missed is added (grade ${s.missing[s.n_missing] ?? s.missing[0]}). `
      + `Does trec_eval's nDCG@${s.k} (ideal from all judged documents, cut at k) go up, down or stay the same?`,
    choices: UP_DOWN,
    fits: (s) => s.n_missing < s.missing.length,
    apply: (s) => Object.assign(s, { n_missing: Math.min(s.n_missing + 1, s.missing.length) }),
    answer: (a, b) => direction(a, b, "qrels_cut"),
    why: (a, b, s1, s0) => {
      if (s1.n_missing === s0.n_missing) return `Every missed document is already in, so nothing changed (${fmtNdcg(b.qrels_cut)}).`;
      const g = s1.missing[s1.n_missing - 1];
      const top = idealOrder(judgedOf(s0), "linear").slice(0, s0.k).join(", ");
      const uncut = `The uncut nDCG ${fromTo(fmtNdcg(a.qrels_full), fmtNdcg(b.qrels_full))}.`;
      if (fmtNdcg(a.qrels_cut) === fmtNdcg(b.qrels_cut)) {
        return `It stays ${fmtNdcg(b.qrels_cut)}: IDCG@${s0.k} already holds grades ${top}; a new grade ${g} adds nothing. ${uncut}`;
      }
      return `It ${fromTo(fmtNdcg(a.qrels_cut), fmtNdcg(b.qrels_cut))}: the new grade ${g} enters IDCG@${s0.k} `
        + `(top grades ${top} before). The ideal from the retrieved items misses it `
        + `(${fromTo(fmtNdcg(a.retrieved), fmtNdcg(b.retrieved), "")}).`;
    },
  },
  draw(out, s, r) {
    out.append(table(["ideal built from", "nDCG", "as in"], [
      ["retrieved items", fmtNdcg(r.retrieved), "scikit-learn ndcg_score, torchmetrics"],
      [`all judged, cut at k = ${s.k}`, fmtNdcg(r.qrels_cut), "trec_eval ndcg_cut, ranx, ir_measures"],
      ["all judged, no cutoff", fmtNdcg(r.qrels_full), "trec_eval ndcg"],
    ], "nDCG for each source of the ideal"));
  },
  quietReadouts: true,
  readouts: (s, r) => [
    // named as the lists above: a change reads e.g. "nDCG, uncut ideal 0.657 → 0.595"
    ["nDCG, ideal from the retrieved:", "retrieved", fmtNdcg(r.retrieved)],
    ["nDCG, ideal cut at k:", "qrels_cut", fmtNdcg(r.qrels_cut)],
    ["nDCG, uncut ideal:", "qrels_full", fmtNdcg(r.qrels_full)],
  ],
});
