// Chapter 1: cumulative gain ignores order; binary judgments flatten grades.
export default explorer({
  name: "cumulative_gain",
  title: "Cumulative gain: change the grades and the cutoff",
  params: ["grades", "k"],
  controls: (s) => listSliders(s, "grades").concat([cutoffSlider(s)]),
  compute: (s) => ({
    cg: cg(s.grades, s.k, "linear"),
    cg_binary: cg(relevant(s.grades), s.k, "linear"),
    dcg: dcgCurve(s.grades, "linear", LOG2)[Math.min(s.k, s.grades.length) - 1],
  }),
  draw(out, s) {
    const xs = s.grades.map((_, i) => i + 1);
    out.append(chart([
      { kind: "bar", xs: xs.slice(0, s.k), ys: s.grades.slice(0, s.k), color: "c0", label: `in the top ${s.k}` },
      { kind: "bar", xs: xs.slice(s.k), ys: s.grades.slice(s.k), color: "muted", hollow: true, label: "below the cutoff" },
    ], { title: "Grade at each rank", xlabel: "rank", xticks: xs, xmin: 0.5, xmax: s.grades.length + 0.5,
         ymin: 0, ymax: 3.2 }));
  },
  readouts: (s, r) => [
    [`CG@${s.k} (graded) =`, "cg", fmt(r.cg)],
    [`CG@${s.k} (binary) =`, "cg_binary", fmt(r.cg_binary)],
    [`DCG@${s.k} (log2, linear) =`, "dcg", fmt(r.dcg)],
  ],
});
