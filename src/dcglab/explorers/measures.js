// The JavaScript twin of dcglab's formulas, used by the explorers on the static site.
// Each function mirrors one Python function; tests/test_js_twin.py evaluates this file in
// Chromium over exhaustive small inputs and requires agreement with dcglab within 1e-12.
//   gainValue      <-> dcglab.gains.gain_values
//   weights        <-> dcglab.discounts.Discount.weights
//   dcgCurve       <-> dcglab.measures.dcg_curve
//   idealOrder     <-> dcglab.ideal.ideal_order
//   curves         <-> dcglab.measures.curves

// gain: "linear" | "exponential" | {exponential: a}; grade -> gain.
export function gainValue(grade, gain) {
  if (gain === "linear") return grade;
  const a = gain === "exponential" ? 2 : gain.exponential;
  return Math.pow(a, grade) - 1;
}

// discount: {kind: "log"|"jk"|"geometric"|"reciprocal", base, p}; weights of ranks 1..n.
export function weights(n, discount) {
  const w = new Array(n);
  for (let i = 1; i <= n; i++) {
    if (discount.kind === "log") w[i - 1] = Math.log(discount.base) / Math.log(i + 1);
    else if (discount.kind === "jk")
      w[i - 1] = i < discount.base ? 1 : Math.log(discount.base) / Math.log(i);
    else if (discount.kind === "geometric") w[i - 1] = Math.pow(discount.p, i - 1);
    else w[i - 1] = 1 / i;
  }
  return w;
}

// Prefix sums of gain * weight: DCG at every cutoff 1..n.
export function dcgCurve(grades, gain, discount) {
  const w = weights(grades.length, discount);
  const out = new Array(grades.length);
  let s = 0;
  for (let i = 0; i < grades.length; i++) {
    s += gainValue(grades[i], gain) * w[i];
    out[i] = s;
  }
  return out;
}

// Grades sorted by decreasing gain (a stable sort, as in Python).
export function idealOrder(grades, gain) {
  return grades
    .map((g, i) => [gainValue(g, gain), i, g])
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .map((t) => t[2]);
}

function atCutoff(curve, k) {
  return curve[Math.min(k, curve.length) - 1];
}

// DCG, IDCG and nDCG at cutoffs 1..kmax; nDCG is null where IDCG is 0.
// judged: all judged grades (null means the ranking itself).
export function curves(grades, judged, gain, discount, kmax) {
  const source = judged === null ? grades : judged;
  const sys = dcgCurve(grades, gain, discount);
  const best = dcgCurve(idealOrder(source, gain), gain, discount);
  const dcg = [], idcg = [], ndcg = [];
  for (let k = 1; k <= kmax; k++) {
    const d = atCutoff(sys, k), i = atCutoff(best, k);
    dcg.push(d);
    idcg.push(i);
    ndcg.push(i > 0 ? d / i : null);
  }
  return { dcg, idcg, ndcg };
}

// Cumulative gain at cutoff k (order-blind).
export function cg(grades, k, gain) {
  let s = 0;
  for (let i = 0; i < Math.min(k, grades.length); i++) s += gainValue(grades[i], gain);
  return s;
}
