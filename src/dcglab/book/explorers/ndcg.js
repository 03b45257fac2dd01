// Chapter 3: DCG, the ideal ranking and nDCG, rank by rank.
function ndcgState(model) {
  return { grades: model.get("grades").slice(), k: model.get("k"), gain: model.get("gain"), base: model.get("base") };
}

function ndcgCompute(s) {
  const c = curves(s.grades, null, s.gain, { kind: "log", base: s.base }, s.k);
  return { dcg: c.dcg[s.k - 1], idcg: c.idcg[s.k - 1], ndcg: c.ndcg[s.k - 1] };
}

function ndcgDraw(out, s, r) {
  const disc = { kind: "log", base: s.base };
  const w = weights(s.grades.length, disc);
  const ideal = idealOrder(s.grades, s.gain);
  const rows = s.grades.map((g, i) => [
    i + 1, fmt(w[i]), g, fmt(gainValue(g, s.gain) * w[i]), ideal[i], fmt(gainValue(ideal[i], s.gain) * w[i]),
  ]).slice(0, s.k);
  out.append(table(["rank", "discount", "grade", "discounted gain", "ideal grade", "ideal discounted gain"], rows));
  out.append(readouts([
    [`DCG@${s.k} =`, "dcg", fmt(r.dcg)],
    [`IDCG@${s.k} =`, "idcg", fmt(r.idcg)],
    [`nDCG@${s.k} =`, "ndcg", r.ndcg === null ? "undefined (IDCG = 0)" : fmt(r.ndcg)],
  ]));
}

export default {
  render({ model, el }) {
    return mount(model, el, {
      name: "ndcg",
      title: "nDCG: change the grades, the cutoff, the gain and the log base",
      controls: (m) => listSliders(m, "grades")
        .concat([
          { param: "k", label: "cutoff k", min: 1, max: m.get("grades").length, step: 1 },
          { param: "gain", label: "gain", options: ["linear", "exponential"] },
          { param: "base", label: "log base b", min: 1.5, max: 10, step: 0.5 },
        ]),
      state: ndcgState, compute: ndcgCompute, draw: ndcgDraw,
    });
  },
};
