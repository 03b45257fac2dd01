// Chapter 1: cumulative gain ignores order; binary judgments flatten grades.
function cgState(model) {
  return { grades: model.get("grades").slice(), k: model.get("k") };
}

function cgCompute(s) {
  const binary = s.grades.map((g) => (g > 0 ? 1 : 0));
  return {
    cg: cg(s.grades, s.k, "linear"),
    cg_binary: cg(binary, s.k, "linear"),
    dcg: dcgCurve(s.grades, "linear", { kind: "log", base: 2 })[Math.min(s.k, s.grades.length) - 1],
  };
}

function cgDraw(out, s, r) {
  const xs = s.grades.map((_, i) => i + 1);
  out.append(chart([
    { kind: "bar", xs: xs.slice(0, s.k), ys: s.grades.slice(0, s.k), color: "#1f77b4", label: `in the top ${s.k}` },
    { kind: "bar", xs: xs.slice(s.k), ys: s.grades.slice(s.k), color: "#bbbbbb", label: "below the cutoff" },
  ], { title: "Grade at each rank", xlabel: "rank", xticks: xs, xmin: 0.5, xmax: s.grades.length + 0.5, ymin: 0, ymax: 3.2,
       alt: "Bar chart of the grade at each rank, top-k bars highlighted" }));
  out.append(readouts([
    [`CG@${s.k} (graded) =`, "cg", fmt(r.cg)],
    [`CG@${s.k} (binary) =`, "cg_binary", fmt(r.cg_binary)],
    [`DCG@${s.k} (log2, linear) =`, "dcg", fmt(r.dcg)],
  ]));
}

export default {
  render({ model, el }) {
    return mount(model, el, {
      name: "cumulative_gain",
      title: "Cumulative gain: change the grades and the cutoff",
      controls: (m) => listSliders(m, "grades")
        .concat([{ param: "k", label: "cutoff k", min: 1, max: m.get("grades").length, step: 1 }]),
      state: cgState, compute: cgCompute, draw: cgDraw,
    });
  },
};
