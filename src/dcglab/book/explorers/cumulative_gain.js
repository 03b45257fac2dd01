// Chapter 1: cumulative gain ignores order; binary judgments flatten grades.
// CG of integer grades with linear gain is a whole number, and is written as one (3, not
// 3.000); DCG keeps three decimals.
export default explorer({
  name: "cumulative_gain",
  title: "Cumulative gain: the sum of the top k grades",
  params: ["grades", "k"],
  controls: (s) => [cutoffSlider(s)].concat(listSliders(s, "grades", { group: "The grades as sliders" })),
  compute: (s) => ({
    cg: cg(s.grades, s.k, "linear"),
    cg_binary: cg(relevant(s.grades), s.k, "linear"),
    dcg: dcgCurve(s.grades, "linear", LOG2)[Math.min(s.k, s.grades.length) - 1],
  }),
  ranking: (s, r) => ({
    rows: [
      { key: "system", title: "Graded: each bar is a document's grade", grades: s.grades, list: "grades" },
      { key: "binary", kind: "binary", title: "Binary: every grade above 0 counts 1", grades: relevant(s.grades) },
    ],
    gain: "linear", discount: null, k: s.k,
    totals: [{ row: "system", label: `CG@${s.k} graded`, format: fmtCount },
      { row: "binary", label: `CG@${s.k} binary`, format: fmtCount },
      { row: "system", kind: "dcg", label: `DCG@${s.k}`, parts: discountedGains(s.grades.slice(0, s.k), "linear", LOG2) }],
    ratio: `CG@${s.k} adds the top ${s.k} grades: ${s.grades.slice(0, s.k).join(" + ")} = ${fmtCount(r.cg)}. `
      + `DCG@${s.k} (faint, next chapter) adds each grade × 1/log₂(i + 1): `
      + `${discountedGains(s.grades.slice(0, s.k), "linear", LOG2).map((x) => fmt(x)).join(" + ")} = ${fmt(r.dcg)}.`,
  }),
  presets: (s) => rankingPresets(s),
  predict: {
    question: (s) => `the documents at ranks 1 and ${Math.min(3, s.k)} trade places. `
      + `Does CG@${s.k} go up, down or stay the same?`,
    choices: UP_DOWN,
    fits: (s) => s.k >= 2,
    apply: (s) => Object.assign(s, { grades: swapped(s.grades, 0, Math.min(2, s.k - 1)) }),
    answer: (a, b) => direction(a, b, "cg"),
    why: (a, b, s) => `CG@${s.k} adds the top ${s.k} grades in any order: it ${fromTo(fmtCount(a.cg), fmtCount(b.cg))}. `
      + `DCG@${s.k} discounts by rank: it ${fromTo(fmt(a.dcg), fmt(b.dcg))}.`,
  },
  draw() {},
  readouts: (s, r) => [
    [`CG@${s.k} (graded) =`, "cg", fmtCount(r.cg)],
    [`CG@${s.k} (binary) =`, "cg_binary", fmtCount(r.cg_binary)],
    [`DCG@${s.k} (log₂, linear) =`, "dcg", fmt(r.dcg)],
  ],
});
