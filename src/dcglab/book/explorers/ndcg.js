// Chapter 3: DCG, the ideal ranking and nDCG, rank by rank.
export default explorer({
  name: "ndcg",
  title: "nDCG: change the grades, the cutoff, the gain and the log base",
  params: ["grades", "k", "gain", "base"],
  controls: (s) => listSliders(s, "grades").concat([
    cutoffSlider(s),
    { param: "gain", label: "gain", options: ["linear", "exponential"], enabled: gradedAbove1 },
    { param: "base", label: "log base b", min: 1.5, max: 10, step: 0.5 },
  ]),
  compute(s) {
    const c = curves(s.grades, null, s.gain, { kind: "log", base: s.base }, s.k);
    return { dcg: c.dcg[s.k - 1], idcg: c.idcg[s.k - 1], ndcg: c.ndcg[s.k - 1] };
  },
  draw(out, s) {
    // every rank is listed (the ideal uses them all); ranks below the cutoff are dimmed
    const disc = { kind: "log", base: s.base };
    const w = weights(s.grades.length, disc);
    const ideal = idealOrder(s.grades, s.gain);
    const dg = discountedGains(s.grades, s.gain, disc), idg = discountedGains(ideal, s.gain, disc);
    const rows = s.grades.map((g, i) => [i + 1, fmt(w[i]), g, fmt(dg[i]), ideal[i], fmt(idg[i])]);
    out.append(table(["rank", "discount", "grade", "discounted gain", "ideal grade", "ideal discounted gain"],
      rows, `Discounted gain by rank; ranks after ${s.k} are below the cutoff`,
      (i) => (i >= s.k ? "dcglab-below" : "")));
  },
  readouts: (s, r) => [
    [`DCG@${s.k} =`, "dcg", fmt(r.dcg)],
    [`IDCG@${s.k} =`, "idcg", fmt(r.idcg)],
    [`nDCG@${s.k} =`, "ndcg", fmtNdcg(r.ndcg)],
  ],
});
