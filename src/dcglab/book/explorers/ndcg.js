// Chapter 3: DCG, the ideal ranking and nDCG, rank by rank.
const discountOf = (s) => ({ kind: "log", base: s.base });

export default explorer({
  name: "ndcg",
  title: "nDCG: your ranking against the ideal",
  params: ["grades", "k", "gain", "base"],
  controls: () => [
    { param: "k", label: "cutoff k", min: 1, max: (s) => s.grades.length, step: 1 },
    { param: "gain", label: "gain", options: ["linear", "exponential"], enabled: gradedAbove1, why: SAME_GAIN },
    { param: "base", label: "log base b", min: 1.5, max: 10, step: 0.5 },
  ],
  compute(s) {
    const c = curves(s.grades, null, s.gain, discountOf(s), s.k);
    return { dcg: c.dcg[s.k - 1], idcg: c.idcg[s.k - 1], ndcg: c.ndcg[s.k - 1] };
  },
  ranking: (s, r) => ({
    rows: [
      { key: "system", title: "Your ranking", grades: s.grades, list: "grades" },
      { key: "ideal", kind: "ideal", title: "Ideal ranking (same grades, best order)", grades: idealOrder(s.grades, s.gain) },
    ],
    gain: s.gain, discount: discountOf(s), k: s.k,
    totals: [{ row: "system", label: `DCG@${s.k}` }, { row: "ideal", label: `IDCG@${s.k}` }],
    ratio: r.ndcg === null ? `nDCG@${s.k} is undefined: IDCG@${s.k} = 0.`
      : `nDCG@${s.k} = DCG / IDCG = ${fmt(r.dcg)} / ${fmt(r.idcg)} = ${fmt(r.ndcg)}`,
  }),
  presets: (s) => rankingPresets(s),
  predict: {
    question: (s) => `the grade-${s.grades[2]} document at rank 3 moves up to rank 2. `
      + `Does nDCG@${s.k} go up, down or stay the same?`,
    choices: UP_DOWN,
    fits: () => true,
    apply: (s) => Object.assign(s, { grades: moved(s.grades, 2, 1) }),
    answer: (a, b) => direction(a, b, "ndcg"),
    why: (a, b, s1, s0) => `nDCG ${fromTo(fmt(a.ndcg), fmt(b.ndcg))}. IDCG uses the same grades and stays put; `
      + "only DCG moves"
      + (s0.k < 2 ? ": ranks 2 and 3 are both after the cutoff, so nothing changed."
        : s0.grades[2] === s0.grades[1] ? ": two equal grades traded places, so nothing changed."
        : `, and the ${s0.grades[2] > s0.grades[1] ? "larger" : "smaller"} gain now sits where the discount is milder.`),
  },
  draw(out, s) {
    // every rank is listed (the ideal uses them all); ranks below the cutoff are marked
    const disc = discountOf(s);
    const w = weights(s.grades.length, disc);
    const ideal = idealOrder(s.grades, s.gain);
    const dg = discountedGains(s.grades, s.gain, disc), idg = discountedGains(ideal, s.gain, disc);
    const gv = (g) => gainLabel(g, s.gain);
    // the columns the lesson compares come first: on a phone the rest scroll sideways
    const rows = s.grades.map((g, i) => [
      i < s.k ? i + 1 : `${i + 1} (after k)`, g, gv(g), fmt(dg[i]), fmt(idg[i]), fmt(w[i]), ideal[i], gv(ideal[i]),
    ]);
    const details = node("details", { class: "dcglab-numbers" });
    details.append(node("summary", {}, "Show the numbers"));
    details.append(table(["rank", "grade", "gain", "gain × discount", "ideal gain × discount", "discount",
      "ideal grade", "ideal gain"], rows, `Discounted gain by rank; ranks after ${s.k} are below the cutoff`,
      { rowClass: (i) => (i >= s.k ? "dcglab-below" : "") }));
    out.append(details);
  },
  readouts: (s, r) => [
    [`DCG@${s.k} =`, "dcg", fmt(r.dcg)],
    [`IDCG@${s.k} =`, "idcg", fmt(r.idcg)],
    [`nDCG@${s.k} =`, "ndcg", fmtNdcg(r.ndcg)],
  ],
});
