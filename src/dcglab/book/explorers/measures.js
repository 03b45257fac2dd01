// The JavaScript twin of dcglab's formulas, used by the explorers on the static site.
// Each function mirrors one Python function; tests/test_js_twin.py evaluates this file in
// Chromium over exhaustive small inputs and requires agreement with dcglab within 1e-12.
//   gainValue      <-> dcglab.gains.gain_values
//   weights        <-> dcglab.discounts.Discount.weights
//   dcgCurve       <-> dcglab.measures.dcg_curve
//   idealOrder     <-> dcglab.ideal.ideal_order
//   curves         <-> dcglab.measures.curves
//   averagePrecision, reciprocalRank, rbp, err, errReach <-> dcglab.usermodels
//   orderings, ndcgOfOrderings, discordantPairs, countReversals <-> dcglab.reversals
//   meanNdcg       <-> dcglab.measures.mean_ndcg
//   swapDeltas     <-> dcglab.ltr.swap_deltas

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

// ---- user models (dcglab.usermodels) ---------------------------------------------

function relevant(grades, threshold = 1) {
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

// RBP = (1 - p) * sum r_i p^(i-1), binary r_i.
export function rbp(grades, p, threshold = 1) {
  const w = weights(grades.length, { kind: "geometric", p });
  return (1 - p) * relevant(grades, threshold).reduce((s, r, i) => s + r * w[i], 0);
}

function stopProbability(g, maxGrade) {
  return (Math.pow(2, g) - 1) / Math.pow(2, maxGrade);
}

// Probability that ERR's cascade user reaches each rank.
export function errReach(grades, maxGrade = 3) {
  const reach = [1];
  for (let i = 1; i < grades.length; i++)
    reach.push(reach[i - 1] * (1 - stopProbability(grades[i - 1], maxGrade)));
  return reach;
}

export function err(grades, maxGrade = 3) {
  const reach = errReach(grades, maxGrade);
  const w = weights(grades.length, { kind: "reciprocal" });
  return grades.reduce((s, g, i) => s + w[i] * stopProbability(g, maxGrade) * reach[i], 0);
}

// ---- reversals (dcglab.reversals) ----------------------------------------------

// Every distinguishable ordering of a multiset, in lexicographic order (next permutation).
export function orderings(grades) {
  const cur = grades.slice().sort((a, b) => a - b);
  const out = [cur.slice()];
  const n = cur.length;
  for (;;) {
    let i = n - 2;
    while (i >= 0 && cur[i] >= cur[i + 1]) i--;
    if (i < 0) return out;
    let j = n - 1;
    while (cur[j] <= cur[i]) j--;
    [cur[i], cur[j]] = [cur[j], cur[i]];
    for (let a = i + 1, b = n - 1; a < b; a++, b--) [cur[a], cur[b]] = [cur[b], cur[a]];
    out.push(cur.slice());
  }
}

// nDCG@k of each ordering of one judged multiset (they share the ideal).
export function ndcgOfOrderings(rows, k, gain, discount) {
  const n = rows[0].length, kk = Math.min(k, n);
  const w = weights(kk, discount);
  const ideal = dcgCurve(idealOrder(rows[0], gain), gain, discount)[kk - 1];
  return rows.map((r) => {
    let s = 0;
    for (let i = 0; i < kk; i++) s += gainValue(r[i], gain) * w[i];
    return s / ideal;
  });
}

// Scores equal to twelve decimals tie, as in dcglab.reversals.tie_keys.
export function tieKey(x) {
  return Math.floor(x * 1e12 + 0.5);
}

// Pairs i < j with seq[i] > seq[j] strictly: bottom-up merge sort.
export function strictInversions(seq) {
  const n = seq.length;
  let src = Float64Array.from(seq), dst = new Float64Array(n), count = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n);
      let i = lo, j = mid, o = lo;
      while (i < mid && j < hi) {
        if (src[i] <= src[j]) dst[o++] = src[i++];
        else { count += mid - i; dst[o++] = src[j++]; }
      }
      while (i < mid) dst[o++] = src[i++];
      while (j < hi) dst[o++] = src[j++];
    }
    [src, dst] = [dst, src];
  }
  return count;
}

// Pairs ranked strictly one way by a and strictly the other way by b.
export function discordantPairs(a, b) {
  const qa = a.map(tieKey), qb = b.map(tieKey);
  const idx = qa.map((_, i) => i).sort((i, j) => qa[i] - qa[j] || qb[i] - qb[j]);
  return strictInversions(idx.map((i) => qb[i]));
}

export function countReversals(judged, k, gains, discount = { kind: "log", base: 2 }) {
  const rows = orderings(judged);
  const [a, b] = gains.map((g) => ndcgOfOrderings(rows, k, g, discount));
  const n = rows.length;
  return { orderings: n, pairs: (n * (n - 1)) / 2, reversed: discordantPairs(a, b) };
}

// ---- aggregation (dcglab.measures.mean_ndcg) ---------------------------------------

// Mean nDCG@k over queries; policy for IDCG = 0: "zero" | "one" | "skip" (null if all skipped).
export function meanNdcg(rankings, judged, k, gain, discount, policy) {
  let sum = 0, n = 0;
  rankings.forEach((r, q) => {
    const len = k === null ? Math.max(r.length, (judged[q] || r).length) : k;
    let v = curves(r, judged[q], gain, discount, len).ndcg[len - 1];
    if (v === null) {
      if (policy === "skip") return;
      v = policy === "one" ? 1 : 0;
    }
    sum += v;
    n += 1;
  });
  return n ? sum / n : null;
}

// ---- learning to rank (dcglab.ltr) ---------------------------------------------------

// deltas[i][j]: change in nDCG@k when the documents at ranks i+1 and j+1 swap.
export function swapDeltas(grades, k, gain, discount) {
  const n = grades.length, kk = Math.min(k, n);
  const w = weights(kk, discount).concat(new Array(n - kk).fill(0));
  const g = grades.map((x) => gainValue(x, gain));
  const ideal = dcgCurve(idealOrder(grades, gain), gain, discount)[Math.min(k, n) - 1];
  return g.map((gi, i) => g.map((gj, j) => ((gj - gi) * (w[i] - w[j])) / ideal));
}
