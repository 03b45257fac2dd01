// Chapter 11: mean nDCG@k of three models on Cranfield, recomputed from the embedded
// per-query top-100 code lists (code 1..4 judged, -1 judged non-relevant, 0 unjudged).
const MODEL_NAMES = { bim: "BIM", tfidf: "TF-IDF", bm25: "BM25" };
const CURVE_KS = [1, 2, 3, 5, 10, 15, 20, 30, 50, 100];

// The decoded code lists, once per data object (decoding 675 strings at every move is waste).
const decoded = new WeakMap();
function codesOf(data) {
  if (!decoded.has(data)) {
    const runs = Object.fromEntries(Object.entries(data.runs).map(([m, r]) => [m, r.map(decodeCodes)]));
    decoded.set(data, { runs, judged: data.judged.map(decodeCodes) });
  }
  return decoded.get(data);
}

function perQuery(data, model, k, gainName) {
  const c = codesOf(data), gain = { map: data.gains[gainName] };
  return c.runs[model].map((codes, q) => ndcgAt(codes, c.judged[q], k, gain, LOG2));
}

export default explorer({
  name: "cranfield",
  title: "Cranfield: three models, any cutoff, any gain",
  params: ["data", "k", "gain", "versus"],
  controls: (s) => [
    { param: "k", label: "cutoff k", min: 1, max: 100, step: 1 },
    { param: "gain", label: "gain", options: Object.keys(s.data.gains) },
    { param: "versus", label: "flips against", options: Object.keys(s.data.gains) },
  ],
  compute(s) {
    const out = {};
    for (const m of Object.keys(MODEL_NAMES)) out[m] = mean(perQuery(s.data, m, s.k, s.gain));
    const pair = (gain) => ["bm25", "tfidf"].map((m) => perQuery(s.data, m, s.k, gain));
    out.changes = directionChanges(pair(s.gain), pair(s.versus)).strict.length;
    return out;
  },
  draw(out, s) {
    const series = Object.keys(MODEL_NAMES).map((m) => ({
      xs: CURVE_KS, label: MODEL_NAMES[m], markers: true, dash: m === "tfidf" ? "5,3" : m === "bim" ? "1,3" : "",
      ys: CURVE_KS.map((k) => mean(perQuery(s.data, m, k, s.gain))),
    }));
    series.push({ kind: "marker", xs: [s.k], ys: [0], color: "marker", label: "cutoff k" });
    out.append(chart(series, { title: `Mean nDCG@k, ${s.gain} gain (${s.data.judged.length} queries)`,
                               xlabel: "cutoff k", xticks: [1, 10, 20, 50, 100], ymin: 0, ymax: 1 }));
  },
  readouts: (s, r) => [
    [`BIM nDCG@${s.k} =`, "bim", fmt(r.bim)], ["TF-IDF =", "tfidf", fmt(r.tfidf)], ["BM25 =", "bm25", fmt(r.bm25)],
    [`queries where BM25 vs TF-IDF flips (${s.gain} vs ${s.versus}):`, "changes", String(r.changes)],
  ],
});
