// Chapter 10: the change in nDCG from swapping each pair of documents (LambdaRank's weights).
function swState(model) {
  return { grades: model.get("grades").slice(), k: model.get("k"), gain: model.get("gain") };
}

function swCompute(s) {
  if (!s.grades.some((g) => g > 0)) return { max_delta: 0, best_i: 0, best_j: 0, total: 0 };
  const d = swapDeltas(s.grades, s.k, s.gain, { kind: "log", base: 2 });
  let best = 0, bi = 0, bj = 0, total = 0;
  for (let i = 0; i < d.length; i++)
    for (let j = i + 1; j < d.length; j++) {
      total += Math.abs(d[i][j]);
      if (d[i][j] > best + 1e-15) { best = d[i][j]; bi = i + 1; bj = j + 1; }
    }
  return { max_delta: best, best_i: bi, best_j: bj, total };
}

function swDraw(out, s, r) {
  const n = s.grades.length;
  if (!s.grades.some((g) => g > 0)) {
    out.append(readouts([["nothing relevant: no swap changes nDCG", "max_delta", fmt(0)]]));
    return;
  }
  const d = swapDeltas(s.grades, s.k, s.gain, { kind: "log", base: 2 });
  const big = Math.max(1e-12, ...d.flat().map(Math.abs));
  const rows = d.map((row, i) => [`${i + 1} (grade ${s.grades[i]})`].concat(row.map((v, j) => (j <= i ? "" : fmt(v)))));
  const t = table(["rank"].concat(Array.from({ length: n }, (_, j) => String(j + 1))), rows);
  // shade cells by |delta|: green where the swap helps, red where it hurts
  t.querySelectorAll("tr").forEach((tr, i) => {
    if (i === 0) return;
    tr.querySelectorAll("td").forEach((td, j) => {
      if (j === 0 || j <= i) return;
      const v = d[i - 1][j - 1], a = Math.abs(v) / big;
      td.style.background = v > 0 ? `rgba(44,160,44,${a})` : v < 0 ? `rgba(214,39,40,${a})` : "";
    });
  });
  out.append(t);
  out.append(readouts([
    ["best swap gains", "max_delta", fmt(r.max_delta)],
    ["at ranks", "best_i", String(r.best_i)], ["and", "best_j", String(r.best_j)],
    ["sum of |ΔnDCG| over pairs =", "total", fmt(r.total)],
  ]));
}

export default {
  render({ model, el }) {
    return mount(model, el, {
      name: "swaps",
      title: "ΔnDCG of swapping two documents (the LambdaRank weight)",
      controls: (m) => listSliders(m, "grades")
        .concat([
          { param: "k", label: "cutoff k", min: 1, max: m.get("grades").length, step: 1 },
          { param: "gain", label: "gain", options: ["exponential", "linear"] },
        ]),
      state: swState, compute: swCompute, draw: swDraw,
    });
  },
};
