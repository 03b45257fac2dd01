// Chapter "Comparing systems": move each query's difference and the number of queries,
// and watch the mean difference, d_z, the t-test and the exact randomization test.
const DELTA_MAX = 50;  // hundredths of nDCG
const differences = (s) => s.deltas.slice(0, s.n).map((x) => x / 100);
const fmtP = (p) => (p === null ? "undefined (no spread)" : p.toFixed(3));
// The standard error of the mean difference, sd / sqrt(n).
const stdError = (s) => pairedStats(differences(s)).sd / Math.sqrt(s.n);
// The prediction halves the number of queries (at least 2 stay).
const halved = (n) => Math.max(2, Math.ceil(n / 2));
const fmtStat = (x) => (x === null ? "undefined (no spread)" : fmt(x));

export default explorer({
  name: "paired_test",
  title: "A paired test, query by query",
  params: ["deltas", "n"],
  controls: (s) => [
    { param: "n", label: "queries n", min: 2, max: s.deltas.length, step: 1 },
  ].concat(s.deltas.map((_, i) => ({
    param: `deltas.${i}`, label: `query ${i + 1}: A − B (×0.01)`, min: -DELTA_MAX, max: DELTA_MAX,
    step: 1, shown: (st) => i < st.n,
  }))),
  predict: {
    question: (s) => `keep only the first ${halved(s.n)} of the ${s.n} queries. `
      + "Does the t-test's p-value go up, down or stay the same?",
    choices: UP_DOWN,
    apply: (s) => Object.assign(s, { n: halved(s.n) }),
    answer: (a, b) => direction(a, b, "p_t"),
    why: (a, b, s1, s0) => `With ${s1.n} queries instead of ${s0.n} the standard error sd / √n is `
      + `${fmt(stdError(s1))} (was ${fmt(stdError(s0))}): t went from ${fmtStat(a.t)} to ${fmtStat(b.t)}, `
      + `p from ${fmtP(a.p_t)} to ${fmtP(b.p_t)}.`,
  },
  compute(s) {
    const d = differences(s), st = pairedStats(d);
    return { mean: st.mean, d_z: st.d_z, t: st.t,
             p_t: st.t === null ? null : studentTwoSided(st.t, d.length - 1),
             p_rand: exactRandomization(d) };
  },
  draw(out, s, r) {
    const d = differences(s), xs = d.map((_, i) => i + 1);
    out.append(chart([
      { kind: "bar", xs, ys: d, label: "A − B on each query" },
      { xs: [0.5, d.length + 0.5], ys: [r.mean, r.mean], label: "mean difference", dash: "5,3" },
    ], { title: `Per-query differences, ${d.length} queries`, xlabel: "query", xticks: xs,
         xmin: 0.5, xmax: d.length + 0.5, ymin: -DELTA_MAX / 100, ymax: DELTA_MAX / 100 }));
    const ahead = d.filter((x) => x > 0).length, behind = d.filter((x) => x < 0).length;
    out.append(para(`A is ahead on ${ahead} and behind on ${behind} of ${d.length} queries; `
      + `the randomization test compares the mean with all ${2 ** d.length} sign patterns.`));
  },
  readouts: (s, r) => [
    ["mean A − B =", "mean", fmt(r.mean)],
    ["d_z =", "d_z", fmtStat(r.d_z)],
    ["t =", "t", fmtStat(r.t)],
    ["p (t-test) =", "p_t", fmtP(r.p_t)],
    ["p (randomization) =", "p_rand", fmtP(r.p_rand)],
  ],
});
