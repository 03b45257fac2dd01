// The JavaScript twin of dcglab.formulas.reversals, concatenated after measures.js (base.py's
// TWIN): orderings of a multiset and the reversals between two gains over them.
// tests/test_js_twin.py locks these functions to dcglab like those of measures.js.

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

// Scores equal to twelve decimals tie, as in dcglab.formulas.reversals.tie_keys.
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

// Each reversed pair of a basis (reversalBasis) against the second gain's tie keys b, in
// the order examplesAgainst finds them, given to visit(x, y).
function eachReversed(basis, b, visit) {
  const { keys: a, order: idx } = basis;
  let best = -1, groupBest = -1;
  for (let t = 0; t < idx.length; t++) {
    const i = idx[t];
    if (t > 0 && a[i] !== a[idx[t - 1]]) {
      if (groupBest >= 0 && (best < 0 || b[groupBest] > b[best])) best = groupBest;
      groupBest = -1;
    }
    if (best >= 0 && b[i] < b[best]) visit(best, i);
    if (groupBest < 0 || b[i] > b[groupBest]) groupBest = i;
  }
}

// The same examples from a basis (reversalBasis) and the second gain's tie keys b. The
// pairs are counted first, then only the picked ones are kept: a step allocates `limit`
// pairs, not one per reversed pair.
export function examplesAgainst(basis, b, limit = 5) {
  let total = 0;
  eachReversed(basis, b, () => { total++; });
  const all = total <= limit, picked = [];
  let seen = 0;
  // spread evenly: the m-th example is pair floor(m * total / limit)
  eachReversed(basis, b, (x, y) => {
    if (all || (picked.length < limit && seen === Math.floor((picked.length * total) / limit))) picked.push([x, y]);
    seen++;
  });
  return picked.map((pair) => pair.map((i) => rowOf(basis.values, basis.codes, basis.n, i)));
}
