// Chapter 12: build a pool from the first runs at some depth, score every run on it.
const RULE_NAMES = { zero: "zero rule", condensed: "condensed list" };
const otherRule = (rule) => (rule === "zero" ? "condensed" : "zero");
const fmtTau = (x) => (x === null ? "undefined (all tied)" : fmt(x));
const fmtOr = (x) => (x === null ? "— (every run is in the pool)" : fmt(x));

// A run's name that breaks only between its words ("TF-IDF 2/F" never as "TF-" / "IDF").
function unbroken(name) {
  const out = node("span");
  name.split(" ").forEach((word, i) => out.append(...(i ? [" "] : []), node("span", { class: "dcglab-nowrap" }, word)));
  return out;
}

export default explorer({
  name: "pool",
  title: "A pool: which runs, how deep, which rule",
  params: ["data", "depth", "contributors", "rule"],
  controls: (s) => [
    { param: "depth", label: "pool depth h", min: 1, max: s.data.k, step: 1 },
    { param: "contributors", label: "runs in the pool", min: 1, max: s.data.names.length, step: 1 },
    { param: "rule", label: "unjudged documents", options: Object.keys(RULE_NAMES) },
  ],
  predict: {
    question: (s) => `switch unjudged documents from the ${RULE_NAMES[s.rule]} to the ${RULE_NAMES[otherRule(s.rule)]}. `
      + `Does the mean change in nDCG@${s.data.k} (pooled − complete) of the runs outside the pool go up, down or stay the same?`,
    choices: UP_DOWN,
    fits: () => true,
    apply: (s) => Object.assign(s, { rule: otherRule(s.rule) }),
    answer: (a, b) => direction(a, b, "change_out"),
    why: (a, b) => "The condensed list moves judged documents up; the zero rule scores unjudged ones 0. "
      + (a.change_out === null ? "Every run is in the pool: no run is outside it. "
        : `Outside runs' mean change ${fromTo(fmt(a.change_out), fmt(b.change_out))}; `)
      + `Kendall's tau ${fromTo(fmtTau(a.tau), fmtTau(b.tau), "")}.`,
  },
  compute: (s) => poolResults(s.data, s.depth, s.contributors, s.rule),
  draw(out, s) {
    const { runs, sizes } = poolScores(s.data, s.depth, s.contributors, s.rule);
    const k = s.data.k, inPool = (i) => i < s.contributors;
    const top = Math.max(...runs.flatMap((r) => [r.full, r.pool]), 0.1);
    // one scale on both axes (a square plot, the same ticks): the diagonal is "no change"
    const lim = Math.min(1, top * 1.1), { ticks, digits } = yTicks(0, lim);
    out.append(chart([
      { xs: [0, lim], ys: [0, lim], label: "no change", color: "muted", dash: "5,3" },
      { xs: runs.map((r) => r.full), ys: runs.map((r) => r.pool), points: true, color: "c0",
        open: runs.map((_, i) => !inPool(i)), label: "runs (filled: in the pool)", tips: true,
        names: s.data.names,
        titles: runs.map((r, i) => `${s.data.names[i]}: complete ${fmt(r.full)}, pooled ${fmt(r.pool)}`) },
    ], { title: `nDCG@${k}: pooled (y), complete (x)`, xlabel: "complete judgments", ylabel: "pooled judgments",
         xmin: 0, xmax: lim, ymin: 0, ymax: lim, width: 460, height: 460, square: true,
         xticks: ticks, xfmt: (x) => x.toFixed(digits) }));
    // the columns the lesson compares come first; short headers that may break (a
    // zero-width space in Judged@k) let the table fit a phone (styles.css) without scrolling
    out.append(table(["run", `complete nDCG@${k}`, `pooled nDCG@${k}`, "change", "in pool", `Judged\u200b@${k}`],
      runs.map((r, i) => [s.data.names[i], fmt(r.full), fmt(r.pool), fmt(r.pool - r.full),
                          inPool(i) ? "yes" : "no", fmt(mean(r.judged))]),
      `Each run's nDCG@${k} with complete and with pooled judgments (${RULE_NAMES[s.rule]})`,
      { cell: (i, j, x) => (j === 0 ? unbroken(x) : x) }));
    out.prepend(para(`The pool judges ${fmt(mean(sizes), 1)} documents per query on average; `
      + `unjudged documents follow the ${RULE_NAMES[s.rule]}.`));
  },
  readouts: (s, r) => [
    ["Kendall's tau =", "tau", fmtTau(r.tau)],
    ["mean judged per query =", "pooled_per_query", r.pooled_per_query.toFixed(1)],
    ["mean change, pool runs =", "change_in", fmt(r.change_in)],
    ["others =", "change_out", fmtOr(r.change_out)],
    [`others' Judged@${s.data.k} =`, "judged_out", r.judged_out === null ? "—" : fmt(r.judged_out)],
  ],
});
