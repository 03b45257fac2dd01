// Chapter 6: the base cancels for 1/log_b(i+1) but not for the Järvelin-Kekäläinen form.
const logBase = (x, b) => Math.log(x) / Math.log(b);
function atBase(s, kind, b) {
  return curves(s.grades, null, s.gain, { kind, base: b }, s.k);
}

const BASES = Array.from({ length: 38 }, (_, i) => 1.5 + 0.5 * i);

// The curves over every base depend on the grades, the gain and k, not on the base shown:
// moving the base only redraws them.
let sweep = { key: null };
function overBases(s) {
  const key = JSON.stringify([s.grades, s.gain, s.k]);
  if (sweep.key !== key) {
    sweep = { key, log: BASES.map((b) => atBase(s, "log", b)), jk: BASES.map((b) => atBase(s, "jk", b)) };
  }
  return sweep;
}

export default explorer({
  name: "log_base",
  title: "Which logarithm? Move the base b",
  params: ["grades", "k", "gain", "base"],
  controls: (s) => [
    { param: "base", label: "log base b", min: 1.5, max: 20, step: 0.5 },
    cutoffSlider(s),
    { param: "gain", label: "gain", options: ["linear", "exponential"], enabled: gradedAbove1, why: SAME_GAIN },
  ],
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
  ranking: (s, r) => ({
    rows: [
      { key: "system", title: `Your ranking, discount 1/log${subscript(s.base)}(i + 1)`, grades: s.grades, list: "grades" },
      { key: "ideal", kind: "ideal", title: "Ideal ranking", grades: idealOrder(s.grades, s.gain) },
    ],
    gain: s.gain, discount: { kind: "log", base: s.base }, k: s.k,
    totals: [{ row: "system", label: `DCG@${s.k}` }, { row: "ideal", label: `IDCG@${s.k}` }],
    ratio: (s.base > 2
      ? `At b = ${s.base} the weight at rank 1 is 1/log${subscript(s.base)}2 = ${fmt(1 / logBase(2, s.base), 2)}, above 1: `
        + "each bar reaches above its gain's outline (the striped part is what the weight adds). "
      : s.base < 2 ? `At b = ${s.base} every weight is below 1/log₂: the bars shrink. ` : "")
      + `Both stacks scale by the same factor as b moves, so their ratio, nDCG = ${fmtNdcg(r.ndcg_log)}, stays put.`,
  }),
  presets: (s) => rankingPresets(s),
  predict: {
    question: (s) => `the base b goes from ${s.base} to 10. Does nDCG@${s.k} with 1/log_{b}(i + 1) go up, down or stay the same?`,
    choices: UP_DOWN,
    fits: (s) => s.base !== 10,
    apply: (s) => Object.assign(s, { base: 10 }),
    answer: (a, b) => direction(a, b, "ndcg_log"),
    why: (a, b) => `DCG ${fromTo(fmt(a.dcg_log), fmt(b.dcg_log))} and IDCG by the same factor, `
      + `so nDCG stays ${fmtNdcg(b.ndcg_log)}. The Järvelin–Kekäläinen form ${fromTo(fmtNdcg(a.ndcg_jk), fmtNdcg(b.ndcg_jk), "moved ")}.`,
  },
  draw(out, s) {
    const row = node("div", { class: "dcglab-charts" });
    const { log, jk } = overBases(s);
    const at = (cs, key) => cs.map((c) => c[key][s.k - 1]);
    row.append(chart([
      { xs: BASES, ys: at(log, "dcg"), label: "DCG, log form", color: "c0" },
      { xs: BASES, ys: at(log, "idcg"), label: "IDCG, log form", color: "ideal", dash: "5,3" },
      { kind: "marker", xs: [s.base], ys: [0], color: "c3", label: "current b" },
    ], { title: `DCG@${s.k} and IDCG@${s.k} against b`, xlabel: "base b", xticks: [1.5, 5, 10, 15, 20], ymin: 0, width: 400 }));
    const nd = at(log, "ndcg").concat(at(jk, "ndcg")).filter((v) => v !== null);
    const lo = nd.length ? Math.min(...nd) : 0;
    const ymin = Math.max(0, Math.floor((lo - 0.02) * 20) / 20);
    row.append(chart([
      { xs: BASES, ys: at(log, "ndcg"), label: "nDCG, 1/log_{b}(i + 1)", color: "c0" },
      { xs: BASES, ys: at(jk, "ndcg"), label: "nDCG, Järvelin–Kekäläinen", color: "c1", dash: "5,3" },
      { kind: "marker", xs: [s.base], ys: [0], color: "c3", label: "current b" },
    ], { title: `nDCG@${s.k} against b (axis from ${ymin.toFixed(2)})`, xlabel: "base b", xticks: [1.5, 5, 10, 15, 20],
         ymin, ymax: 1.0001, width: 400, note: nd.length ? "" : "undefined: IDCG = 0" }));
    out.append(row);
  },
  readouts: (s, r) => [
    [`log form: DCG@${s.k} =`, "dcg_log", fmt(r.dcg_log)], ["IDCG =", "idcg_log", fmt(r.idcg_log)],
    ["nDCG =", "ndcg_log", fmtNdcg(r.ndcg_log)],
    [`JK form: DCG@${s.k} =`, "dcg_jk", fmt(r.dcg_jk)], ["IDCG =", "idcg_jk", fmt(r.idcg_jk)],
    ["nDCG =", "ndcg_jk", fmtNdcg(r.ndcg_jk)],
  ],
});
