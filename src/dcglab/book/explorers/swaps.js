// Chapter 10: the change in nDCG from swapping each pair of documents (LambdaRank's weights).
// With nothing relevant no swap changes nDCG, so the cutoff and gain controls are disabled.
const anyRelevant = (s) => s.grades.some((g) => g > 0);

// Cell shading: an opaque tint of green (helps) or red (hurts) over white, with dark
// text, so the text keeps at least 4.5:1 in light and dark mode.
function tint(v, big) {
  const a = 0.55 * Math.min(1, Math.abs(v) / big);
  const [r, g, b] = v > 0 ? [44, 160, 44] : [214, 39, 40];
  const mix = (c) => Math.round(255 + (c - 255) * a);
  return `rgb(${mix(r)}, ${mix(g)}, ${mix(b)})`;
}

export default explorer({
  name: "swaps",
  title: "ΔnDCG of swapping two documents (the LambdaRank weight)",
  params: ["grades", "k", "gain"],
  controls: (s) => listSliders(s, "grades").concat([
    cutoffSlider(s, "grades", "cutoff k", { enabled: anyRelevant }),
    { param: "gain", label: "gain", options: ["exponential", "linear"], enabled: gradedAbove1 },
  ]),
  compute: (s) => (anyRelevant(s) ? bestSwap(swapDeltas(s.grades, s.k, s.gain, LOG2))
    : { max_delta: 0, best_i: 0, best_j: 0, total: 0 }),
  draw(out, s) {
    const n = s.grades.length;
    if (!anyRelevant(s)) {
      out.append(para(`Grades: ${s.grades.join(", ")}. Nothing is relevant: no swap changes nDCG.`));
      return;
    }
    out.append(para(`ΔnDCG@${s.k} (${s.gain} gain) when the documents at ranks i (row) and j (column) swap;`
      + " green cells raise nDCG, red cells lower it."));
    const d = swapDeltas(s.grades, s.k, s.gain, LOG2);
    const big = Math.max(1e-12, ...d.flat().map(Math.abs));
    const rows = d.map((row, i) => [`${i + 1} (grade ${s.grades[i]})`].concat(row.map((v, j) => (j <= i ? "" : fmt(v)))));
    const box = table(["rank"].concat(Array.from({ length: n }, (_, j) => String(j + 1))), rows,
      `Change in nDCG@${s.k} for each swap`);
    box.querySelectorAll("tbody tr").forEach((tr, i) => {
      tr.querySelectorAll("td").forEach((td, j) => {
        if (j === 0 || j - 1 <= i || d[i][j - 1] === 0) return;
        td.style.background = tint(d[i][j - 1], big);
        td.style.color = "#111";
      });
    });
    out.append(box);
  },
  readouts: (s, r) => [
    ["best swap gains", "max_delta", fmt(r.max_delta)],
    ["at ranks", "best_i", String(r.best_i)], ["and", "best_j", String(r.best_j)],
    ["sum of |ΔnDCG| over pairs =", "total", fmt(r.total)],
  ],
});
