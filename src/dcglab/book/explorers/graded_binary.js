// Chapter 8: AP (binary) against nDCG@6 (graded) for two rankings.
const RANKINGS = ["first", "second"];

export default explorer({
  name: "graded_binary",
  title: "Graded versus binary: build two rankings",
  params: RANKINGS,
  controls: (s) => RANKINGS.flatMap((name) => listSliders(s, name, { label: (i) => `${name}: rank ${i + 1}` })),
  compute(s) {
    const out = {};
    for (const name of RANKINGS) {
      out[`ap_${name}`] = averagePrecision(s[name]);
      out[`ndcg_linear_${name}`] = ndcgAt(s[name], null, 6, "linear", LOG2);
      out[`ndcg_exponential_${name}`] = ndcgAt(s[name], null, 6, "exponential", LOG2);
    }
    return out;
  },
  draw(out, s, r) {
    const pick = (a, b) => (a > b + 1e-12 ? "first" : b > a + 1e-12 ? "second" : "tie");
    out.append(table(["ranking", "grades", "AP", "nDCG@6 linear", "nDCG@6 exponential"], [
      ["first", s.first.join(", "), fmt(r.ap_first), fmtNdcg(r.ndcg_linear_first), fmtNdcg(r.ndcg_exponential_first)],
      ["second", s.second.join(", "), fmt(r.ap_second), fmtNdcg(r.ndcg_linear_second), fmtNdcg(r.ndcg_exponential_second)],
      ["prefers", "", pick(r.ap_first, r.ap_second), pick(r.ndcg_linear_first ?? 0, r.ndcg_linear_second ?? 0),
       pick(r.ndcg_exponential_first ?? 0, r.ndcg_exponential_second ?? 0)],
    ], "AP and nDCG@6 of the two rankings"));
  },
  readouts: (s, r) => [
    ["AP first =", "ap_first", fmt(r.ap_first)], ["AP second =", "ap_second", fmt(r.ap_second)],
    ["nDCG lin first =", "ndcg_linear_first", fmtNdcg(r.ndcg_linear_first)],
    ["nDCG lin second =", "ndcg_linear_second", fmtNdcg(r.ndcg_linear_second)],
    ["nDCG exp first =", "ndcg_exponential_first", fmtNdcg(r.ndcg_exponential_first)],
    ["nDCG exp second =", "ndcg_exponential_second", fmtNdcg(r.ndcg_exponential_second)],
  ],
});
