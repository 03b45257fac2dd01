// Chapter 11: mean nDCG@k of three models on Cranfield, recomputed from the embedded
// per-query top-100 code lists (code 1..4 judged, -1 judged non-relevant, 0 unjudged).
const LOG2C = { kind: "log", base: 2 };
const MODEL_NAMES = { bim: "BIM", tfidf: "TF-IDF", bm25: "BM25" };

function crState(model) {
  return { data: model.get("data"), k: model.get("k"), gain: model.get("gain"), versus: model.get("versus") };
}

// One character per code, as dcglab.cranfield.encode_codes writes them ("-" is -1).
function decodeCodes(text) {
  return Array.from(text, (ch) => (ch === "-" ? -1 : Number(ch)));
}

function perQuery(data, modelName, k, gainName) {
  const gain = { map: data.gains[gainName] };
  return data.runs[modelName].map((codes, q) =>
    curves(decodeCodes(codes), decodeCodes(data.judged[q]), gain, LOG2C, k).ndcg[k - 1]);
}

function sign(x) {
  return Math.abs(x) <= 1e-12 ? 0 : Math.sign(x);
}

function crCompute(s, data) {
  const out = {};
  for (const m of Object.keys(MODEL_NAMES)) {
    const v = perQuery(data, m, s.k, s.gain);
    out[m] = v.reduce((a, b) => a + b, 0) / v.length;
  }
  const [a1, b1] = ["bm25", "tfidf"].map((m) => perQuery(data, m, s.k, s.gain));
  const [a2, b2] = ["bm25", "tfidf"].map((m) => perQuery(data, m, s.k, s.versus));
  out.changes = a1.filter((_, q) => sign(a1[q] - b1[q]) * sign(a2[q] - b2[q]) < 0).length;
  return out;
}

function crDraw(out, s, r, data) {
  const ks = [1, 2, 3, 5, 10, 15, 20, 30, 50, 100];
  const series = Object.keys(MODEL_NAMES).map((m) => ({
    xs: ks, label: MODEL_NAMES[m], markers: true,
    ys: ks.map((k) => { const v = perQuery(data, m, k, s.gain); return v.reduce((a, b) => a + b, 0) / v.length; }),
  }));
  series.push({ xs: [s.k, s.k], ys: [0, 1], color: "#999999", dash: "2,2" });
  out.append(chart(series, { title: `Mean nDCG@k, ${s.gain} gain (225 queries)`, xlabel: "cutoff k",
                             xticks: [1, 10, 20, 50, 100], ymin: 0, ymax: 1, alt: "Mean nDCG at each cutoff for BIM, TF-IDF and BM25" }));
  out.append(readouts([
    [`BIM nDCG@${s.k} =`, "bim", fmt(r.bim)], ["TF-IDF =", "tfidf", fmt(r.tfidf)], ["BM25 =", "bm25", fmt(r.bm25)],
    [`queries where BM25 vs TF-IDF flips (${s.gain} vs ${s.versus}):`, "changes", String(r.changes)],
  ]));
}

export default {
  render({ model, el }) {
    const data = model.get("data");
    const gains = Object.keys(data.gains);
    return mount(model, el, {
      name: "cranfield",
      title: "Cranfield: three models, any cutoff, any gain",
      controls: () => [
        { param: "k", label: "cutoff k", min: 1, max: 100, step: 1 },
        { param: "gain", label: "gain", options: gains },
        { param: "versus", label: "flips against", options: gains },
      ],
      state: crState,
      compute: (s) => crCompute(s, s.data),
      draw: (o, s, r) => crDraw(o, s, r, data),
    });
  },
};
