// The JavaScript twin of dcglab's formulas, used by the explorers on the static site.
// Each function mirrors one Python function; tests/test_js_twin.py evaluates this file in
// Chromium over exhaustive small inputs and requires agreement with dcglab within 1e-12.
//   gainValue      <-> dcglab.gains.gain_values
//   weights, relativeWeight <-> dcglab.discounts.Discount.weights (w_r, w_r / w_1)
//   discountedGains <-> gain_values(grades) * Discount.weights(n)
//   dcgCurve       <-> dcglab.measures.dcg_curve
//   idealOrder     <-> dcglab.ideal.ideal_order
//   ndcgRatio      <-> dcglab.measures.ndcg_ratio (the division and the IDCG = 0 policy)
//   curves, ndcgAt <-> dcglab.measures.curves, dcglab.measures.ndcg
//   averagePrecision, reciprocalRank, rbpWeights, rbp, err, errReach <-> dcglab.usermodels
//   contributions  <-> the same measures, one share per rank (the shares sum to the score)
//   orderings, ndcgOfOrderings, discordantPairs, countReversals <-> dcglab.reversals
//   reversalBasis, orderingKeys, reversalsAgainst: the same count, the first gain's part kept
//   reversalExamples: pairs of orderings that the two gains rank in opposite orders
//   meanNdcg       <-> dcglab.measures.mean_ndcg
//   swapDeltas     <-> dcglab.ltr.swap_deltas
//   decodeCodes    <-> dcglab.book.cranfield_payload.decode_codes
//   directionChanges <-> dcglab.cranfield.direction_changes
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

// ---- user models (dcglab.usermodels) ---------------------------------------------

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

// ---- reversals (dcglab.reversals) ----------------------------------------------

// Every distinguishable ordering of a multiset, in lexicographic order (next permutation).
export function orderings(grades) {
  const { values, codes, n, count } = orderingCodes(grades);
  return Array.from({ length: count }, (_, i) => rowOf(values, codes, n, i));
}

// The same orderings as one flat array: row i is codes[i*n .. i*n + n), each entry an
// index into the distinct grades (values, ascending); count = n! / prod_g c_g!.
export function orderingCodes(grades) {
  const sorted = grades.slice().sort((a, b) => a - b), n = sorted.length;
  const values = sorted.filter((g, i) => i === 0 || g !== sorted[i - 1]);
  const cur = Uint8Array.from(sorted, (g) => values.indexOf(g));
  let count = 1;
  for (let i = 1, run = 1; i < n; i++) {
    run = cur[i] === cur[i - 1] ? run + 1 : 1;
    count = (count * (i + 1)) / run;  // n! / prod c_g!, one factor at a time, exact
  }
  const codes = new Uint8Array(count * n);
  const swap = (a, b) => {
    const x = cur[a];
    cur[a] = cur[b];
    cur[b] = x;
  };
  for (let o = 0; ; ) {
    for (let j = 0; j < n; j++) codes[o++] = cur[j];
    let i = n - 2;
    while (i >= 0 && cur[i] >= cur[i + 1]) i--;
    if (i < 0) return { values, codes, n, count };
    let j = n - 1;
    while (cur[j] <= cur[i]) j--;
    swap(i, j);
    for (let a = i + 1, b = n - 1; a < b; a++, b--) swap(a, b);
  }
}

function rowOf(values, codes, n, i) {
  return Array.from(codes.subarray(i * n, i * n + n), (c) => values[c]);
}

// nDCG@k of each ordering of one judged multiset (they share the ideal).
export function ndcgOfOrderings(rows, k, gain, discount) {
  const n = rows[0].length, kk = Math.min(k, n);
  const w = weights(kk, discount);
  const ideal = dcgCurve(idealOrder(rows[0], gain), gain, discount)[kk - 1];
  return rows.map((r) => {
    let s = 0;
    for (let i = 0; i < kk; i++) s += gainValue(r[i], gain) * w[i];
    return ndcgRatio(s, ideal);
  });
}

// Scores equal to twelve decimals tie, as in dcglab.reversals.tie_keys.
export function tieKey(x) {
  return Math.floor(x * 1e12 + 0.5);
}

// Two work buffers, grown as needed and kept: a count allocates nothing, so counting
// thousands of orderings leaves no garbage whose collection would pause a step.
const BLOCK = 16;
let workA = new Float64Array(0), workB = new Float64Array(0);
function work(n) {
  if (workA.length < n) {
    workA = new Float64Array(n);
    workB = new Float64Array(n);
  }
}

// Pairs i < j with seq[i] > seq[j] strictly, for integer entries below 2^53 (tie keys):
// insertion sort of blocks of 16 (each shift is one inversion), then a bottom-up merge sort
// whose merge step has no data-dependent branch (x + c(y - x) is exact).
export function strictInversions(seq) {
  const n = seq.length;
  work(n);
  let src = workA, dst = workB, count = 0;
  for (let i = 0; i < n; i++) src[i] = seq[i];
  for (let lo = 0; lo < n; lo += BLOCK) {
    const hi = Math.min(lo + BLOCK, n);
    for (let t = lo + 1; t < hi; t++) {
      const x = src[t];
      let j = t;
      for (; j > lo && src[j - 1] > x; j--) src[j] = src[j - 1];
      src[j] = x;
      count += t - j;
    }
  }
  for (let width = BLOCK; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n);
      let i = lo, j = mid, o = lo;
      while (i < mid && j < hi) {
        const x = src[i], y = src[j], c = +(y < x);
        dst[o++] = x + c * (y - x);
        count += c * (mid - i);
        i += 1 - c;
        j += c;
      }
      while (i < mid) dst[o++] = src[i++];
      while (j < hi) dst[o++] = src[j++];
    }
    const swap = src;
    src = dst;
    dst = swap;
  }
  return count;
}

// Indices 0..n-1 sorted by integer key, ties in index order: one native sort of
// key * 2^b + index where that is exact (below 2^53), else a comparison sort.
function argsortKeys(keys) {
  const n = keys.length;
  let bits = 1;
  while (2 ** bits < n) bits++;
  const scale = 2 ** bits;
  let lo = 0, hi = 0;
  for (let i = 0; i < n; i++) {
    lo = Math.min(lo, keys[i]);
    hi = Math.max(hi, keys[i]);
  }
  const order = new Uint32Array(n);
  if (lo >= 0 && (hi + 1) * scale <= 2 ** 53) {
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = keys[i] * scale + i;
    packed.sort();
    for (let i = 0; i < n; i++) order[i] = packed[i] % scale;
    return order;
  }
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((i, j) => keys[i] - keys[j] || i - j);
}

// Strict inversions of b's keys taken in `order` (indices sorted by a's keys), where
// entries tied under a are first sorted by b: the pairs a and b rank strictly apart.
let runs = new Float64Array(0);
function inversionsWithin(order, ka, kb) {
  const n = order.length;
  if (runs.length < n) runs = new Float64Array(n);
  const seq = runs.subarray(0, n);
  let start = 0;
  for (let t = 0; t < n; t++) {
    // insertion sort into the run of entries tied under a
    const x = kb[order[t]];
    if (t > 0 && ka[order[t]] !== ka[order[t - 1]]) start = t;
    let j = t;
    for (; j > start && seq[j - 1] > x; j--) seq[j] = seq[j - 1];
    seq[j] = x;
  }
  return strictInversions(seq);
}

// Pairs ranked strictly one way by a and strictly the other way by b.
export function discordantPairs(a, b) {
  const qa = Float64Array.from(a, tieKey), qb = Float64Array.from(b, tieKey);
  return inversionsWithin(argsortKeys(qa), qa, qb);
}

// What every count of reversals against a first gain needs, computed once per judged
// multiset and cutoff: the orderings (orderingCodes, which may be passed in when known),
// the first gain's tie keys (keys) and the orderings sorted by them, ties in
// lexicographic order (order).
export function reversalBasis(judged, k, gain = "linear", discount = LOG2, codes = orderingCodes(judged)) {
  const basis = { ...codes };
  basis.kk = Math.min(k, basis.n);
  basis.discount = discount;
  basis.keys = orderingKeys(basis, gain);
  basis.order = argsortKeys(basis.keys);
  return basis;
}

// Tie keys of nDCG@k of every ordering of a basis under one gain: the same sums, term
// by term, and the same division as ndcgOfOrderings and ndcgRatio.
export function orderingKeys(basis, gain) {
  const { values, codes, n, count, kk, discount } = basis;
  const w = weights(kk, discount), table = values.map((g) => gainValue(g, gain));
  const first = rowOf(values, codes, n, 0);
  const ideal = dcgCurve(idealOrder(first, gain), gain, discount)[kk - 1];
  const keys = new Float64Array(count);
  // ndcgRatio's case depends on the shared ideal only: with IDCG = 0 every key is tieKey(null)
  if (!(ideal > 0)) return keys.fill(tieKey(ndcgRatio(0, ideal)));
  for (let i = 0; i < count; i++) {
    let s = 0;
    for (let j = 0, o = i * n; j < kk; j++, o++) s += table[codes[o]] * w[j];
    keys[i] = tieKey(s / ideal);
  }
  return keys;
}

// Reversals between a basis's first gain and `gain` over its orderings; share =
// reversed / pairs; keys: the second gain's tie keys.
export function reversalsAgainst(basis, gain) {
  const keys = orderingKeys(basis, gain);
  const n = keys.length, pairs = (n * (n - 1)) / 2;
  const reversed = inversionsWithin(basis.order, basis.keys, keys);
  return { orderings: n, pairs, reversed, share: pairs ? reversed / pairs : 0, keys };
}

// Reversals of two gains over every ordering of a judged multiset; share = reversed / pairs.
export function countReversals(judged, k, gains, discount = LOG2) {
  const { orderings: n, pairs, reversed, share } =
    reversalsAgainst(reversalBasis(judged, k, gains[0], discount), gains[1]);
  return { orderings: n, pairs, reversed, share };
}

// The same count from the two gains' nDCG of every ordering (a, b: one score per ordering).
export function reversalsOf(a, b) {
  const n = a.length, pairs = (n * (n - 1)) / 2, reversed = discordantPairs(a, b);
  return { orderings: n, pairs, reversed, share: pairs ? reversed / pairs : 0 };
}

// Up to `limit` reversed pairs, as [[x, y], ...]: orderings x, y of a judged multiset that
// gains[0] ranks x below y (strictly) and gains[1] ranks x above y (strictly). Found in one
// pass over the orderings sorted by the first gain, pairing each with the earlier ordering
// of highest second-gain score; spread evenly over the pairs found.
export function reversalExamples(judged, k, gains, limit = 5, discount = LOG2) {
  const basis = reversalBasis(judged, k, gains[0], discount);
  return examplesAgainst(basis, orderingKeys(basis, gains[1]), limit);
}

// The same examples from a basis (reversalBasis) and the second gain's tie keys b.
export function examplesAgainst(basis, b, limit = 5) {
  const { keys: a, order: idx } = basis;
  const found = [];
  let best = -1, groupBest = -1;
  for (let t = 0; t < idx.length; t++) {
    const i = idx[t];
    if (t > 0 && a[i] !== a[idx[t - 1]]) {
      if (groupBest >= 0 && (best < 0 || b[groupBest] > b[best])) best = groupBest;
      groupBest = -1;
    }
    if (best >= 0 && b[i] < b[best]) found.push([best, i]);
    if (groupBest < 0 || b[i] > b[groupBest]) groupBest = i;
  }
  const picked = found.length <= limit ? found
    : Array.from({ length: limit }, (_, m) => found[Math.floor((m * found.length) / limit)]);
  return picked.map((pair) => pair.map((i) => rowOf(basis.values, basis.codes, basis.n, i)));
}

// ---- aggregation (dcglab.measures.mean_ndcg) ---------------------------------------

// Mean nDCG@k over queries; policy for IDCG = 0: "zero" | "one" | "skip" (null if all skipped).
export function meanNdcg(rankings, judged, k, gain, discount, policy) {
  const values = rankings.map((r, q) => ndcgAt(r, judged[q] ?? null, k, gain, discount, policy));
  return mean(values.filter((v) => v !== null));
}

// ---- learning to rank (dcglab.ltr) ---------------------------------------------------

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
