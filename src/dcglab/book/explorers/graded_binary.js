// Chapter 8: AP (binary) against nDCG@6 (graded) for two rankings.
const LOG2B = { kind: "log", base: 2 };

function gbState(model) {
  return { first: model.get("first").slice(), second: model.get("second").slice() };
}

function gbCompute(s) {
  const out = {};
  for (const name of ["first", "second"]) {
    out[`ap_${name}`] = averagePrecision(s[name]);
    out[`ndcg_linear_${name}`] = curves(s[name], null, "linear", LOG2B, 6).ndcg[5];
    out[`ndcg_exponential_${name}`] = curves(s[name], null, "exponential", LOG2B, 6).ndcg[5];
  }
  return out;
}

function gbDraw(out, s, r) {
  const u = (x) => (x === null ? "undefined" : fmt(x));
  const pick = (a, b) => (a > b + 1e-12 ? "first" : b > a + 1e-12 ? "second" : "tie");
  out.append(table(["ranking", "grades", "AP", "nDCG@6 linear", "nDCG@6 exponential"], [
    ["first", s.first.join(", "), fmt(r.ap_first), u(r.ndcg_linear_first), u(r.ndcg_exponential_first)],
    ["second", s.second.join(", "), fmt(r.ap_second), u(r.ndcg_linear_second), u(r.ndcg_exponential_second)],
    ["prefers", "", pick(r.ap_first, r.ap_second), pick(r.ndcg_linear_first ?? 0, r.ndcg_linear_second ?? 0),
     pick(r.ndcg_exponential_first ?? 0, r.ndcg_exponential_second ?? 0)],
  ]));
  out.append(readouts([
    ["AP first =", "ap_first", fmt(r.ap_first)], ["AP second =", "ap_second", fmt(r.ap_second)],
    ["nDCG lin first =", "ndcg_linear_first", u(r.ndcg_linear_first)],
    ["nDCG lin second =", "ndcg_linear_second", u(r.ndcg_linear_second)],
    ["nDCG exp first =", "ndcg_exponential_first", u(r.ndcg_exponential_first)],
    ["nDCG exp second =", "ndcg_exponential_second", u(r.ndcg_exponential_second)],
  ]));
}

export default {
  render({ model, el }) {
    const grades = (name) => (m) => listSliders(m, name, (i) => `${name}: rank ${i + 1}`);
    return mount(model, el, {
      name: "graded_binary",
      title: "Graded versus binary: build two rankings",
      controls: (m) => grades("first")(m).concat(grades("second")(m)),
      state: gbState, compute: gbCompute, draw: gbDraw,
    });
  },
};
