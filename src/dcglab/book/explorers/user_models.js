// Chapter 9: nDCG, AP, RR, RBP and ERR, and what each rank adds to each of them.
const MEASURES = [
  ["ndcg", "nDCG", "g_{i} / log₂(i + 1) / IDCG"],
  ["ap", "AP", "P@i / R at each relevant rank"],
  ["rr", "RR", "1/i at the first relevant rank"],
  ["rbp", "RBP", "(1 − p) p^{i−1} if relevant"],
  ["err", "ERR", "P(reach i) × s_{i} / i"],
];
const DRAWN = [MEASURES[3], ...MEASURES.filter(([key]) => key !== "rbp")];

export default explorer({
  name: "user_models",
  title: "User models: one ranking, five measures",
  // on a phone the measures' panels are the band (the patience changes only RBP's)
  picture: "view",
  params: ["grades", "p"],
  controls: () => [{ param: "p", label: "patience p (RBP)", min: 0.5, max: 0.95, step: 0.05 }],
  compute: (s) => ({
    ndcg: ndcgAt(s.grades, null, s.grades.length, "linear", LOG2),
    ap: averagePrecision(s.grades),
    rr: reciprocalRank(s.grades),
    rbp: rbp(s.grades, s.p),
    err: err(s.grades),
  }),
  ranking: (s) => ({
    rows: [{ key: "system", title: "The ranking", grades: s.grades, list: "grades" }],
    gain: "linear", discount: LOG2, k: s.grades.length,
  }),
  presets: (s) => rankingPresets(s),
  predict: {
    question: (s) => `the patience p falls from ${s.p} to 0.5 (a reader who gives up sooner). Does RBP go up, down or stay the same?`,
    choices: UP_DOWN,
    fits: (s) => s.p > 0.5,
    apply: (s) => Object.assign(s, { p: 0.5 }),
    answer: (a, b) => direction(a, b, "rbp"),
    why: (a, b, s) => `RBP ${fromTo(fmt(a.rbp), fmt(b.rbp))}. An impatient reader puts more weight on rank 1, `
      + `and this ranking's rank 1 is ${s.grades[0] > 0 ? "relevant" : "not relevant"}.`,
  },
  draw(out, s, r, ctx) {
    // one bar chart per measure: the bars of a measure add up to its score; a pinned state is drawn as outlined bars beside the current ones
    const parts = contributions(s.grades, s.p);
    const pin = ctx.local.pin || null;
    const xs = s.grades.map((_, i) => i + 1);
    // each panel on its own axis, up to its largest bar (a shared axis left RBP's and
    // ERR's bars a few pixels tall); the bars of a panel add up to its score
    // the axis ends at one of five round values, always a labelled tick, so that panels of
    // similar range share a scale and a bar's height is read against its own axis
    const topOf = (key) => {
      const big = Math.max(1e-12, ...parts[key].concat(pin ? pin.parts[key] : []));
      return [0.2, 0.4, 0.6, 0.8, 1].find((t) => big <= t + 1e-9) ?? big;
    };
    const tools = node("div", { class: "dcglab-presets" });
    const pinButton = node("button", { type: "button", class: "dcglab-chip dcglab-pin" }, "Pin this state");
    pinButton.on = { click: () => {
      ctx.local.pin = { parts: contributions(s.grades, s.p), result: { ...r }, grades: s.grades.slice(), p: s.p };
      ctx.refresh();
    } };
    tools.append(pinButton);
    if (pin) {
      const clear = node("button", { type: "button", class: "dcglab-chip dcglab-unpin" }, "Clear the pin");
      clear.on = { click: () => { ctx.local.pin = null; ctx.refresh(); } };
      tools.append(clear);
    }
    out.append(tools);
    if (pin) {
      const change = MEASURES.map(([key, name]) => {
        const a = pin.result[key], b = r[key];
        if (a === null || b === null) return `${name} undefined`;
        const sign = Math.abs(b - a) < 5e-4 ? "" : b > a ? "+" : "−";
        return `${name} ${sign}${fmt(Math.abs(b - a))}`;
      });
      out.append(para(`Pinned: grades ${pin.grades.join(", ")}, p = ${pin.p}. Change since the pin: ${change.join(", ")}.`));
    }
    const row = node("div", { class: "dcglab-charts" });
    // RBP's panel first: the patience p, the one control, changes it and no other panel
    for (const [key, name, formula] of DRAWN) {
      const value = key === "ndcg" ? fmtNdcg(r.ndcg) : fmt(r[key]);
      const series = [{ kind: "bar", xs, ys: parts[key], color: "c0", label: `${name}: ${formula}`, cls: "dcglab-now",
                        ...(pin ? { share: 0.4, shift: 0.2 } : {}) }];
      let title = `${name} = ${value}, the bars' sum`;
      if (pin) {
        series.unshift({ kind: "bar", xs, ys: pin.parts[key], color: "muted", hollow: true, share: 0.4, shift: -0.2,
                         label: "pinned", cls: "dcglab-pinned" });
        const was = key === "ndcg" ? fmtNdcg(pin.result.ndcg) : fmt(pin.result[key]);
        title = `${name} = ${value} (pinned: ${was})`;
      }
      row.append(chart(series, { title, xlabel: "rank i", xticks: xs, xmin: 0.5,
        xmax: xs.length + 0.5, ymin: 0, ymax: topOf(key), width: 300, height: 170, alt: `${name} = ${value}` }));
    }
    out.append(row);
    out.append(para("RBP comes first: the patience p changes its panel and no other. "
      + "Each panel has its own axis, ending at 0.2, 0.4, 0.6, 0.8 or 1 (its top tick): "
      + "compare the numbers on the axes, not the heights of bars in different panels."));
  },
  readouts: (s, r) => [
    ["nDCG =", "ndcg", fmtNdcg(r.ndcg)], ["AP =", "ap", fmt(r.ap)],
    ["RR =", "rr", fmt(r.rr)], ["RBP =", "rbp", fmt(r.rbp)], ["ERR =", "err", fmt(r.err)],
  ],
});
