// Chapter 12's pooling arithmetic, the JS twin of dcglab.collections.pooling (pool, kendall_tau), of
// Judged@k (dcglab.evaluation.batch.binary) and of PoolExplorer.compute; nDCG itself comes from measures.js.
// Concatenated after measures.js; tests/test_pool_explorer.py locks it to Python.

// Document indices from fixed-width base-36 digits (dcglab's encode_indices).
export function decodeIndices(text) {
  const out = [];
  for (let i = 0; i < text.length; i += 2) out.push(parseInt(text.slice(i, i + 2), 36));
  return out;
}

// Pool of depth `depth` of the first `n` runs: per query, the set of local documents some
// contributor ranks in its top `depth`.
export function poolOf(lists, n, depth) {
  return lists[0].map((_, q) => {
    const pooled = new Set();
    for (const run of lists.slice(0, n)) for (const d of run[q].slice(0, depth)) pooled.add(d);
    return pooled;
  });
}

// Kendall's tau-b between two scorings of the same systems (null when either ties all).
export function kendallTau(x, y) {
  let s = 0, nx = 0, ny = 0;
  for (let i = 0; i < x.length; i++)
    for (let j = i + 1; j < x.length; j++) {
      const a = Math.sign(x[i] - x[j]), b = Math.sign(y[i] - y[j]);
      s += a * b;
      nx += a !== 0;
      ny += b !== 0;
    }
  return nx === 0 || ny === 0 ? null : s / Math.sqrt(nx * ny);
}

// Judged@k: the judged share of the top min(k, n) documents (0 for an empty list).
export function judgedAt(flags, k) {
  const depth = Math.min(k, flags.length);
  return depth === 0 ? 0 : flags.slice(0, depth).filter(Boolean).length / depth;
}

const orZero = (grades) => (grades.length ? grades : [0]);
// DCG@k of a list in rank order (0 for an empty list): dcgCurve's sum, with the weights
// of ranks 1..k computed once per k.
const rankWeights = new Map();
function weightsTo(k) {
  if (!rankWeights.has(k)) rankWeights.set(k, weights(k, LOG2));
  return rankWeights.get(k);
}
function dcgAt(grades, k) {
  const w = weightsTo(k);
  let s = 0;
  for (let i = 0; i < Math.min(k, grades.length); i++) s += gainValue(grades[i], "linear") * w[i];
  return s;
}

// What does not depend on the sliders, once per data object: decoded lists and grades,
// and each run's mean nDCG@k with complete judgments; plus the last scores computed.
const prepared = new WeakMap();
function prepare(data) {
  if (!prepared.has(data)) {
    const lists = data.lists.map((run) => run.map(decodeIndices));
    const grades = data.grades.map((text) => Array.from(text, Number));
    const full = lists.map((run) => mean(run.map((docs, q) => ndcgAt(
      orZero(docs.map((d) => grades[q][d])), orZero(Array.from(data.ideal[q], Number)),
      data.k, "linear", LOG2, "zero"))));
    prepared.set(data, { lists, grades, full, last: null });
  }
  return prepared.get(data);
}

// Every run's mean nDCG@k with complete judgments and on the pool, its Judged@k on each
// query, and the pool's size per query. The same sums as dcgAt, judgedAt and ndcgRatio,
// term by term, over each run's first k documents (the zero rule) or its first k pooled
// ones (the condensed list), with the pool of a query as a mask over its documents.
export function poolScores(data, depth, n, rule) {
  const p = prepare(data), key = `${depth}|${n}|${rule}`, k = data.k;
  if (p.last && p.last.key === key) return p.last.value;
  const w = weightsTo(k), condensed = rule === "condensed";
  const pooled = poolOf(p.lists, n, depth);
  const idcg = pooled.map((set, q) => dcgAt(idealOrder(Array.from(set, (d) => p.grades[q][d]), "linear"), k));
  const masks = pooled.map((set, q) => {
    const mask = new Uint8Array(p.grades[q].length);
    for (const d of set) mask[d] = 1;
    return mask;
  });
  const runs = p.lists.map((run, r) => {
    let sum = 0;
    const judged = new Array(run.length);
    run.forEach((docs, q) => {
      const g = p.grades[q], mask = masks[q], top = Math.min(k, docs.length);
      let hits = 0, dcg = 0;
      for (let i = 0; i < top; i++) hits += mask[docs[i]];
      // an unjudged document adds 0 under the zero rule, and takes no rank in the condensed list
      if (condensed) {
        for (let i = 0, rank = 0; i < docs.length && rank < k; i++)
          if (mask[docs[i]]) dcg += gainValue(g[docs[i]], "linear") * w[rank++];
      } else {
        for (let i = 0; i < top; i++) if (mask[docs[i]]) dcg += gainValue(g[docs[i]], "linear") * w[i];
      }
      sum += ndcgRatio(dcg, idcg[q], "zero");
      judged[q] = top === 0 ? 0 : hits / top;
    });
    return { full: p.full[r], pool: sum / run.length, judged };
  });
  const value = { runs, sizes: pooled.map((set) => set.size) };
  p.last = { key, value };
  return value;
}

// The explorer's results, as PoolExplorer.compute returns them.
export function poolResults(data, depth, n, rule) {
  const { runs, sizes } = poolScores(data, depth, n, rule);
  const change = runs.map((r) => r.pool - r.full);
  const others = runs.slice(n);
  return {
    tau: kendallTau(runs.map((r) => r.full), runs.map((r) => r.pool)),
    pooled_per_query: mean(sizes),
    change_in: mean(change.slice(0, n)),
    change_out: others.length ? mean(change.slice(n)) : null,
    judged_out: others.length ? mean(others.flatMap((r) => r.judged)) : null,
  };
}
