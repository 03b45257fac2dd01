// The JavaScript twin of dcglab's formulas, used by the explorers on the static site.
// Each function mirrors one Python function; tests/test_js_twin.py evaluates this file in
// Chromium over exhaustive small inputs and requires agreement with dcglab within 1e-12.
//   gainValue      <-> dcglab.formulas.gains.gain_values
//   weights, relativeWeight <-> dcglab.formulas.discounts.Discount.weights (w_r, w_r / w_1)
//   discountedGains <-> gain_values(grades) * Discount.weights(n)
//   dcgCurve       <-> dcglab.formulas.measures.dcg_curve
//   idealOrder     <-> dcglab.formulas.ideal.ideal_order
//   ndcgRatio      <-> dcglab.formulas.measures.ndcg_ratio (the division and the IDCG = 0 policy)
//   curves, ndcgAt <-> dcglab.formulas.measures.curves, dcglab.formulas.measures.ndcg
//   averagePrecision, reciprocalRank, rbpWeights, rbp, err, errReach <-> dcglab.formulas.usermodels
//   contributions  <-> the same measures, one share per rank (the shares sum to the score)
//   (in reversals.js) orderings, ndcgOfOrderings, discordantPairs, countReversals <-> dcglab.formulas.reversals
//   reversalBasis, orderingKeys, reversalsAgainst: the same count, the first gain's part kept
//   reversalExamples: pairs of orderings that the two gains rank in opposite orders
//   meanNdcg       <-> dcglab.formulas.measures.mean_ndcg
//   swapDeltas     <-> dcglab.formulas.ltr.swap_deltas
//   decodeCodes    <-> dcglab.book.cranfield_payload.decode_codes
//   directionChanges <-> dcglab.collections.cranfield.direction_changes
// Every explorer computes through these functions only; the explorers' own files
// draw and label.

// The usual discount, 1/log2(i + 1).
export const LOG2 = { kind: "log", base: 2 };

// gain: "linear" | "exponential" | {exponential: a} | {map: {grade: gain}}; grade -> gain.
export function gainValue(grade, gain) {
  if (gain === "linear") return grade;
  if (gain.map !== undefined) {
    const v = gain.map[String(grade)];
    if (v === undefined) throw new Error(`gain map has no entry for grade ${grade}`);
    return v;
  }
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

// Weight of rank r relative to rank 1: w_r / w_1.
export function relativeWeight(r, discount) {
  const w = weights(r, discount);
  return w[r - 1] / w[0];
}

// Discounted gain of each rank: gain(g_i) * w_i.
export function discountedGains(grades, gain, discount) {
  const w = weights(grades.length, discount);
  return grades.map((g, i) => gainValue(g, gain) * w[i]);
}

// Prefix sums of the discounted gains: DCG at every cutoff 1..n.
export function dcgCurve(grades, gain, discount) {
  let s = 0;
  return discountedGains(grades, gain, discount).map((x) => (s += x));
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

// nDCG = DCG / IDCG; where IDCG <= 0 the policy decides: "zero" | "one" | "skip" (null).
export function ndcgRatio(dcg, idcg, policy = "skip") {
  if (idcg > 0) return dcg / idcg;
  if (policy === "zero") return 0;
  if (policy === "one") return 1;
  if (policy === "skip") return null;
  throw new Error(`IDCG is 0 and the policy is ${policy}`);
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
    ndcg.push(ndcgRatio(d, i));
  }
  return { dcg, idcg, ndcg };
}

// nDCG@k of one ranking (k = null: no cutoff, the ideal over every judged grade).
export function ndcgAt(grades, judged, k, gain, discount, policy = "skip") {
  const len = k === null ? Math.max(grades.length, (judged || grades).length) : k;
  const c = curves(grades, judged, gain, discount, len);
  return ndcgRatio(c.dcg[len - 1], c.idcg[len - 1], policy);
}

// Arithmetic mean (null for no values).
export function mean(values) {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

// Times a sequence decreases from one entry to the next (null entries ignored).
export function countDrops(values) {
  let drops = 0;
  for (let i = 1; i < values.length; i++)
    if (values[i] !== null && values[i - 1] !== null && values[i] < values[i - 1]) drops++;
  return drops;
}

// Cumulative gain at cutoff k (order-blind).
export function cg(grades, k, gain) {
  let s = 0;
  for (let i = 0; i < Math.min(k, grades.length); i++) s += gainValue(grades[i], gain);
  return s;
}

// ---- user models (dcglab.formulas.usermodels) ---------------------------------------------

// Binary relevance: 1 where the grade reaches the threshold.
export function relevant(grades, threshold = 1) {
  return grades.map((g) => (g >= threshold ? 1 : 0));
}

// AP = (1/R) * sum over relevant ranks of P@i; R counts relevant judged documents.
export function averagePrecision(grades, judged = null, threshold = 1) {
  const rel = relevant(grades, threshold);
  const nRel = relevant(judged === null ? grades : judged, threshold).reduce((a, b) => a + b, 0);
  if (nRel === 0) return 0;
  let hits = 0, sum = 0;
  rel.forEach((r, i) => {
    hits += r;
    if (r) sum += hits / (i + 1);
  });
  return sum / nRel;
}

export function reciprocalRank(grades, threshold = 1) {
  const i = relevant(grades, threshold).indexOf(1);
  return i < 0 ? 0 : weights(i + 1, { kind: "reciprocal" })[i];
}

// RBP's weight of ranks 1..n: (1 - p) p^(i-1).
export function rbpWeights(n, p) {
  return weights(n, { kind: "geometric", p }).map((w) => (1 - p) * w);
}

// RBP = sum r_i (1 - p) p^(i-1), binary r_i.
export function rbp(grades, p, threshold = 1) {
  const w = rbpWeights(grades.length, p);
  return relevant(grades, threshold).reduce((s, r, i) => s + r * w[i], 0);
}

// ERR's stop probability R = (2^g - 1) / 2^maxGrade.
function stopProbability(g, maxGrade) {
  return gainValue(g, "exponential") / Math.pow(2, maxGrade);
}

// Probability that ERR's cascade user reaches each rank.
export function errReach(grades, maxGrade = 3) {
  const reach = [1];
  for (let i = 1; i < grades.length; i++)
    reach.push(reach[i - 1] * (1 - stopProbability(grades[i - 1], maxGrade)));
  return reach;
}

// ERR's weight of each rank: P(reach i) / i.
export function errWeights(grades, maxGrade = 3) {
  const w = weights(grades.length, { kind: "reciprocal" });
  return errReach(grades, maxGrade).map((r, i) => r * w[i]);
}

export function err(grades, maxGrade = 3) {
  const w = errWeights(grades, maxGrade);
  return grades.reduce((s, g, i) => s + w[i] * stopProbability(g, maxGrade), 0);
}

// nDCG's weight of each rank: w_i / IDCG (0 where IDCG is 0).
export function ndcgWeights(grades, gain, discount) {
  const ideal = dcgCurve(idealOrder(grades, gain), gain, discount)[grades.length - 1];
  return weights(grades.length, discount).map((w) => ndcgRatio(w, ideal, "zero"));
}

// Each rank's share of each measure (linear gain, log2 discount); a measure's shares sum
// to its score. nDCG: g_i w_i / IDCG; AP: r_i P@i / R; RR: 1/i at the first relevant rank;
// RBP: (1 - p) p^(i-1) r_i; ERR: P(reach i) R_i / i.
export function contributions(grades, p, maxGrade = 3) {
  const n = grades.length;
  const dg = discountedGains(grades, "linear", LOG2);
  const ideal = dcgCurve(idealOrder(grades, "linear"), "linear", LOG2)[n - 1];
  const rel = relevant(grades);
  const nRel = rel.reduce((a, b) => a + b, 0);
  let hits = 0;
  const ap = rel.map((r, i) => {
    hits += r;
    return r ? hits / (i + 1) / nRel : 0;
  });
  const first = rel.indexOf(1);
  const rw = rbpWeights(n, p), ew = errWeights(grades, maxGrade);
  return {
    ndcg: dg.map((x) => ndcgRatio(x, ideal, "zero")),
    ap,
    rr: rel.map((_, i) => (i === first ? weights(i + 1, { kind: "reciprocal" })[i] : 0)),
    rbp: rel.map((r, i) => r * rw[i]),
    err: grades.map((g, i) => ew[i] * stopProbability(g, maxGrade)),
  };
}

// ---- aggregation (dcglab.formulas.measures.mean_ndcg) ---------------------------------------

// Mean nDCG@k over queries; policy for IDCG = 0: "zero" | "one" | "skip" (null if all skipped).
export function meanNdcg(rankings, judged, k, gain, discount, policy) {
  const values = rankings.map((r, q) => ndcgAt(r, judged[q] ?? null, k, gain, discount, policy));
  return mean(values.filter((v) => v !== null));
}

// ---- learning to rank (dcglab.formulas.ltr) ---------------------------------------------------

// deltas[i][j]: change in nDCG@k when the documents at ranks i+1 and j+1 swap.
export function swapDeltas(grades, k, gain, discount) {
  const n = grades.length, kk = Math.min(k, n);
  const w = weights(kk, discount).concat(new Array(n - kk).fill(0));
  const g = grades.map((x) => gainValue(x, gain));
  const ideal = dcgCurve(idealOrder(grades, gain), gain, discount)[kk - 1];
  return g.map((gi, i) => g.map((gj, j) => ndcgRatio((gj - gi) * (w[i] - w[j]), ideal, "zero")));
}

// The swap that raises nDCG most (ranks from 1; 0, 0 if none does) and the sum of |delta|.
export function bestSwap(deltas) {
  let best = 0, bi = 0, bj = 0, total = 0;
  for (let i = 0; i < deltas.length; i++)
    for (let j = i + 1; j < deltas.length; j++) {
      total += Math.abs(deltas[i][j]);
      if (deltas[i][j] > best + 1e-15) { best = deltas[i][j]; bi = i + 1; bj = j + 1; }
    }
  return { max_delta: best, best_i: bi, best_j: bj, total };
}

// ---- Cranfield (chapter 11) ------------------------------------------------------------

// One character per qrels code, as dcglab.book.cranfield_payload.encode_codes writes them.
export function decodeCodes(text) {
  return Array.from(text, (ch) => (ch === "-" ? -1 : Number(ch)));
}

// Sign with a tie band: 0 within tol.
export function signWithin(x, tol = 1e-12) {
  return Math.abs(x) <= tol ? 0 : Math.sign(x);
}

// Queries (numbered from 1) whose A-versus-B difference changes sign between two gains:
// strict when one is > 0 and the other < 0, lenient when the signs merely differ.
export function directionChanges([ga, gb], [ba, bb], tol = 1e-12) {
  const strict = [], lenient = [];
  ga.forEach((_, q) => {
    const sg = signWithin(ga[q] - gb[q], tol), sb = signWithin(ba[q] - bb[q], tol);
    if (sg * sb < 0) strict.push(q + 1);
    if (sg !== sb) lenient.push(q + 1);
  });
  return { strict, lenient };
}
