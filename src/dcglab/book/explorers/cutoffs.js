// Chapter 4: DCG, IDCG and nDCG at every cutoff.
export default explorer({
  name: "cutoffs",
  title: "nDCG at each cutoff: change the grades and the highlighted k",
  params: ["grades", "k"],
  controls: (s) => [cutoffSlider(s, "grades", "highlighted k")],
  compute(s) {
    const n = s.grades.length;
    const lin = curves(s.grades, null, "linear", LOG2, n);
    const exp = curves(s.grades, null, "exponential", LOG2, n);
    return {
      dcg: lin.dcg[s.k - 1], idcg: lin.idcg[s.k - 1],
      ndcg_linear: lin.ndcg[s.k - 1], ndcg_exponential: exp.ndcg[s.k - 1], drops: countDrops(lin.ndcg),
    };
  },
  ranking: (s, r) => ({
    rows: [
      { key: "system", title: "Your ranking", grades: s.grades, list: "grades" },
      { key: "ideal", kind: "ideal", title: "Ideal ranking", grades: idealOrder(s.grades, "linear") },
    ],
    gain: "linear", discount: LOG2, k: s.k,
    totals: [{ row: "system", label: `DCG@${s.k}` }, { row: "ideal", label: `IDCG@${s.k}` }],
    ratio: r.ndcg_linear === null ? `nDCG@${s.k} is undefined: nothing is relevant, IDCG@${s.k} = 0.`
      : `nDCG@${s.k} = ${fmt(r.dcg)} / ${fmt(r.idcg)} = ${fmt(r.ndcg_linear)} (linear gain): the filled share of the bracket at k, and the ringed dot on the nDCG chart.`,
  }),
  presets: (s) => rankingPresets(s),
  predict: {
    question: (s) => `k goes from ${s.k} to ${s.k + 1}. DCG@k can only grow; does nDCG@k (linear) go up, down or stay the same?`,
    choices: UP_DOWN,
    fits: (s) => s.k < s.grades.length,
    apply: (s) => Object.assign(s, { k: Math.min(s.k + 1, s.grades.length) }),
    answer: (a, b) => direction(a, b, "ndcg_linear"),
    // nDCG@(k+1) = (DCG@k + d) / (IDCG@k + i) lies between nDCG@k and d / i, so it falls
    // exactly when the added share d / i is below nDCG@k
    why: (a, b) => {
      const d = b.dcg - a.dcg, i = b.idcg - a.idcg;
      const head = `nDCG ${fromTo(fmtNdcg(a.ndcg_linear), fmtNdcg(b.ndcg_linear))}: DCG gained ${fmt(d)}, IDCG ${fmt(i)}. `;
      if (a.ndcg_linear === null) return head + "nDCG is undefined while the ideal has gained nothing.";
      if (Math.abs(i) < 1e-12) return head + (d > 0 ? "The ideal had nothing left to add, so the ranking's gain raised nDCG." : "Neither gained, so nDCG stayed.");
      const share = d / i, before = a.ndcg_linear;
      const [side, so] = Math.abs(share - before) < 1e-9 ? ["equal to", "nDCG stays"]
        : share < before ? ["below", "nDCG falls"] : ["above", "nDCG rises"];
      return head + `The added share ${fmt(d)} / ${fmt(i)} = ${fmt(share)} is ${side} the old score, ${fmt(before)}, so ${so}.`;
    },
  },
  draw(out, s, r, ctx) {
    const n = s.grades.length;
    const xs = Array.from({ length: n }, (_, i) => i + 1);
    const lin = curves(s.grades, null, "linear", LOG2, n);
    const exp = curves(s.grades, null, "exponential", LOG2, n);
    const at = lin.ndcg[s.k - 1];
    // the bracket at k (DCG@k filled inside IDCG@k) and the ringed dot at k are one
    // colour and one name: the filled share of the bracket is the dot's height
    const ratio = `DCG@${s.k} / IDCG@${s.k}`;
    const row = node("div", { class: "dcglab-charts" });
    row.append(chart([
      { kind: "area", xs, ys: lin.idcg, y0s: lin.dcg, color: "c1", label: "gap to the ideal" },
      { xs, ys: lin.idcg, color: "ideal", dash: "5,3", label: "IDCG@k", markers: true },
      { xs, ys: lin.dcg, color: "c0", label: "DCG@k", markers: true },
      { kind: "ratio", xs: [s.k], ys: [lin.idcg[s.k - 1]], y0s: [lin.dcg[s.k - 1]], color: "c3",
        label: `${ratio} at the highlighted k`, text: at === null ? `${ratio} = 0 / 0` : ratio },
    ], { title: "Cumulative DCG (linear gain)", xlabel: "cutoff k", xticks: xs, xmin: 0.5, xmax: n + 0.5, width: 400 }));
    const undefinedAt = lin.ndcg.every((v) => v === null);
    // the axis starts below the lowest value (in tenths), so the dips show
    const defined = lin.ndcg.concat(exp.ndcg).filter((v) => v !== null);
    const ymin = defined.length ? Math.max(0, Math.floor((Math.min(...defined) - 0.05) * 10) / 10) : 0;
    row.append(chart([
      { xs, ys: lin.ndcg, label: "nDCG@k linear", markers: true },
      { xs, ys: exp.ndcg, label: "nDCG@k exponential", markers: true, dash: "5,3" },
      { kind: "focus", xs: [s.k], ys: [at], color: "c3", label: `nDCG@${s.k} = ${ratio}`,
        text: at === null ? "" : `${fmt(at)} = ${ratio}` },
    ], { title: ymin > 0 ? `nDCG at each cutoff (axis from ${ymin.toFixed(1)})` : "nDCG at each cutoff",
         xlabel: "cutoff k", xticks: xs, ymin, ymax: 1.02, xmin: 0.5, xmax: n + 0.5, width: 400,
         note: undefinedAt ? "undefined at every k: IDCG = 0" : "",
         tip: { x: s.k, xs, hoverOnly: true, pick: (k) => ctx.write("k", k, `Cutoff k = ${k}.`),
                lines: (k) => [`k = ${k}`, `linear: ${fmtNdcg(lin.ndcg[k - 1])}`, `exponential: ${fmtNdcg(exp.ndcg[k - 1])}`] } }));
    out.append(row);
  },
  readouts: (s, r) => [
    [`DCG@${s.k} =`, "dcg", fmt(r.dcg)],
    [`IDCG@${s.k} =`, "idcg", fmt(r.idcg)],
    [`nDCG@${s.k} linear =`, "ndcg_linear", fmtNdcg(r.ndcg_linear)],
    ["exponential =", "ndcg_exponential", fmtNdcg(r.ndcg_exponential)],
    ["drops in nDCG (linear) as k grows:", "drops", String(r.drops)],
  ],
});
