// Chapter 7: where the ideal ranking comes from.
const LOG2 = { kind: "log", base: 2 };

function idealState(model) {
  return { retrieved: model.get("retrieved").slice(), missing: model.get("missing").slice(),
           n_missing: model.get("n_missing"), k: model.get("k") };
}

function ndcgAt(grades, judged, k) {
  // no cutoff (k = null): DCG over the whole list, ideal over every judged document
  const len = k === null ? Math.max(grades.length, judged.length) : k;
  return curves(grades, judged, "linear", LOG2, len).ndcg[len - 1];
}

function idealCompute(s) {
  const judged = s.retrieved.concat(s.missing.slice(0, s.n_missing));
  return {
    retrieved: ndcgAt(s.retrieved, null, s.k),
    qrels_cut: ndcgAt(s.retrieved, judged, s.k),
    qrels_full: ndcgAt(s.retrieved, judged, null),
  };
}

function idealDraw(out, s, r) {
  const missing = s.missing.slice(0, s.n_missing);
  const p = document.createElement("p");
  p.textContent = `Retrieved: ${s.retrieved.join(", ")}. Judged but not retrieved: ${missing.length ? missing.join(", ") : "none"}.`;
  out.append(p);
  const u = (x) => (x === null ? "undefined (IDCG = 0)" : fmt(x));
  out.append(table(["ideal built from", "as in", `nDCG`], [
    ["retrieved items", "scikit-learn ndcg_score, torchmetrics", u(r.retrieved)],
    [`all judged, cut at k = ${s.k}`, "trec_eval ndcg_cut, ranx, ir_measures", u(r.qrels_cut)],
    ["all judged, no cutoff", "trec_eval ndcg", u(r.qrels_full)],
  ]));
  out.append(readouts([
    ["retrieved:", "retrieved", u(r.retrieved)], ["qrels cut:", "qrels_cut", u(r.qrels_cut)],
    ["qrels uncut:", "qrels_full", u(r.qrels_full)],
  ]));
}

export default {
  render({ model, el }) {
    return mount(model, el, {
      name: "ideal_source",
      title: "Where does the ideal come from? Add judged documents the system missed",
      controls: (m) => listSliders(m, "retrieved", (i) => `retrieved rank ${i + 1}`)
        .concat([{ param: "n_missing", label: "judged, not retrieved", min: 0, max: m.get("missing").length, step: 1 }])
        .concat(listSliders(m, "missing", (i) => `missed doc ${i + 1} grade`))
        .concat([{ param: "k", label: "cutoff k", min: 1, max: m.get("retrieved").length, step: 1 }]),
      state: idealState, compute: idealCompute, draw: idealDraw,
    });
  },
};
