// Chapter 2: four discounts and the user each assumes.
export default explorer({
  name: "discounts",
  title: "Discounts: change the base b, the patience p and the ranks shown",
  params: ["base", "p", "n", "rank", "view"],
  controls: () => [
    { param: "view", label: "weights shown", options: ["relative to rank 1", "absolute"] },
    { param: "base", label: "log base b", min: 1.5, max: 10, step: 0.5 },
    { param: "p", label: "RBP patience p", min: 0.5, max: 0.95, step: 0.05 },
    { param: "n", label: "ranks shown", min: 5, max: 50, step: 1 },
    { param: "rank", label: "inspect rank", min: 1, max: (s) => s.n, step: 1 },
  ],
  compute(s) {
    const at = (d) => weights(s.rank, d)[s.rank - 1];
    const log = { kind: "log", base: s.base };
    return {
      log: at(log),
      log_relative: relativeWeight(s.rank, log),
      jk: at({ kind: "jk", base: s.base }),
      geometric: at({ kind: "geometric", p: s.p }),
      reciprocal: at({ kind: "reciprocal" }),
    };
  },
  predict: {
    question: (s) => `the base b goes from ${s.base} to 10. Does the weight of rank ${s.rank} relative to rank 1, `
      + "under 1/log_{b}(i + 1), go up, down or stay the same?",
    choices: UP_DOWN,
    fits: (s) => s.base !== 10,
    apply: (s) => Object.assign(s, { base: 10 }),
    answer: (a, b) => direction(a, b, "log_relative"),
    why: (a, b) => `It stays ${fmt(b.log_relative)}: changing b multiplies every weight by the same factor, `
      + `so rank 1's weight changes too (the absolute weight ${fromTo(fmt(a.log), fmt(b.log))}).`,
  },
  draw(out, s, r, ctx) {
    const xs = Array.from({ length: s.n }, (_, i) => i + 1);
    // the legend names the curves as the chapter's figure does
    const b = Number.isInteger(s.base) ? String(s.base) : s.base.toFixed(1);
    const rel = s.view !== "absolute";
    const curve = (d) => {
      const w = weights(s.n, d);
      return rel ? w.map((x) => x / w[0]) : w;
    };
    // the tip names each curve as the legend does (log's base as a subscript)
    const sub = (x) => x.replace(/\d/g, (c) => "₀₁₂₃₄₅₆₇₈₉"[c]);
    const families = [
      [`1/log${sub(b)}(i + 1)`, { kind: "log", base: s.base }], [`Järvelin–Kekäläinen, b=${b}`, { kind: "jk", base: s.base }],
      [`geometric (RBP), p=${+s.p.toFixed(2)}`, { kind: "geometric", p: s.p }], ["1/i", { kind: "reciprocal" }],
    ];
    const shown = families.map(([, d]) => curve(d));
    // details on demand: the four weights of a rank (the inspected one, or the one pointed at)
    const tip = {
      x: s.rank, xs, pick: (i) => ctx.write("rank", i, `Inspecting rank ${i}.`),
      // shown while the chart is pointed at (the readouts give the inspected rank's weights)
      hoverOnly: true,
      lines: (i) => [`rank ${i}${rel ? ", relative to rank 1" : ""}`]
        .concat(families.map(([name], j) => `${name}: ${fmt(shown[j][i - 1])}`)),
    };
    // the inspected rank's tick first: it is written whatever it crowds
    const ticks = [...new Set([s.rank, 1, s.n, ...[5, 10, 20, 30, 40, 50].filter((x) => x <= s.n)])];
    out.append(chart([
      { xs, ys: curve({ kind: "log", base: s.base }), label: `1/log_{${b}}(i + 1)` },
      { xs, ys: curve({ kind: "jk", base: s.base }), label: `Järvelin–Kekäläinen, b=${b}`, dash: "5,3" },
      { xs, ys: curve({ kind: "geometric", p: s.p }), label: `geometric (RBP), p=${+s.p.toFixed(2)}`, dash: "1,3" },
      { xs, ys: curve({ kind: "reciprocal" }), label: "1/i", dash: "8,3,2,3" },
      { kind: "marker", xs: [s.rank], ys: [0], color: "marker", label: "inspected rank" },
    ], { title: rel ? "Weight by rank, relative to rank 1" : "Weight by rank",
         xlabel: "rank i", xticks: ticks, ymin: 0, ymax: rel ? 1.05 : undefined, refs: rel ? [0.1] : [], tip }));
    out.append(para(rel ? "The grey dashed line across the chart marks a tenth of rank 1's weight. "
      + "Point at the chart for the weights of any rank; click to inspect it."
      : "Point at the chart for the weights of any rank; click to inspect it."));
  },
  readouts: (s, r) => [
    [`rank ${s.rank}: 1/log_{b}(i + 1) =`, "log", fmt(r.log)],
    ["relative to rank 1 =", "log_relative", fmt(r.log_relative)],
    ["Järvelin–Kekäläinen =", "jk", fmt(r.jk)],
    ["geometric (RBP) =", "geometric", fmt(r.geometric)],
    ["1/i =", "reciprocal", fmt(r.reciprocal)],
  ],
});
