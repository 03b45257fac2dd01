// Chapter 10: the change in nDCG from swapping each pair of documents (LambdaRank's weights).
// With nothing relevant no swap changes nDCG, so the cutoff and gain controls are disabled.
// Green cells raise nDCG, pink cells lower it (a diverging pair that no chart series
// uses); each value also carries its sign, so colour is never the only cue.
const anyRelevant = (s) => s.grades.some((g) => g > 0);

// A tint over the explorer's own background (white or dark), at most 60% of the mode's
// colour, so small changes stay faint in both modes and the text keeps >= 4.5:1.
function tint(v, big) {
  const pct = Math.round(60 * Math.min(1, Math.abs(v) / big));
  return `color-mix(in srgb, var(--dcglab-${v > 0 ? "up" : "down"}) ${pct}%, var(--dcglab-bg))`;
}

const signed = (v) => (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v).toFixed(3);

// The swap formula of ranks i < j (from 1) with its numbers filled in:
// ΔnDCG@k = (g_j − g_i)(d(i) − d(j)) / IDCG@k, where d is 0 below the cutoff.
function swapDetail(s, i, j) {
  const n = s.grades.length, k = Math.min(s.k, n);
  const d = weights(k, LOG2).concat(new Array(n - k).fill(0));
  const g = s.grades.map((x) => gainValue(x, s.gain));
  const idcg = dcgCurve(idealOrder(s.grades, s.gain), s.gain, LOG2)[k - 1];
  const v = swapDeltas(s.grades, s.k, s.gain, LOG2)[i - 1][j - 1];
  const num = (x) => (Number.isInteger(x) ? String(x) : fmt(x));
  const sub = (x) => String(x).replace(/\d/g, (c) => "₀₁₂₃₄₅₆₇₈₉"[c]);
  return `Ranks ${i} and ${j}: (g${sub(j)} − g${sub(i)})(d(${i}) − d(${j})) / IDCG@${k} = `
    + `(${num(g[j - 1])} − ${num(g[i - 1])})(${num(d[i - 1])} − ${num(d[j - 1])}) / ${fmt(idcg)} = ${signed(v)}`
    + (j > k && i > k ? ", both below the cutoff." : ".");
}

export default explorer({
  name: "swaps",
  title: "ΔnDCG of swapping two documents (the LambdaRank weight)",
  params: ["grades", "k", "gain"],
  controls: (s) => [
    cutoffSlider(s, "grades", "cutoff k", { enabled: anyRelevant, why: "nothing is relevant, so no swap changes nDCG" }),
    { param: "gain", label: "gain", options: ["exponential", "linear"], enabled: gradedAbove1, why: SAME_GAIN },
  ],
  compute(s) {
    const ndcg = ndcgAt(s.grades, null, s.k, s.gain, LOG2);
    if (!anyRelevant(s)) return { max_delta: 0, best_i: null, best_j: null, total: 0, ndcg };
    const b = bestSwap(swapDeltas(s.grades, s.k, s.gain, LOG2));
    return { ...b, best_i: b.best_i || null, best_j: b.best_j || null, ndcg };
  },
  ranking: (s) => ({
    rows: [{ key: "system", title: "The ranking", grades: s.grades, list: "grades" }],
    gain: s.gain, discount: LOG2, k: s.k,
  }),
  presets: (s) => rankingPresets(s, "grades", s.gain),
  predict: {
    question: (s) => `the documents at ranks 1 and 3 (grades ${s.grades[0]} and ${s.grades[2]}) swap. `
      + `Does nDCG@${s.k} go up, down or stay the same?`,
    choices: UP_DOWN,
    fits: () => true,
    apply: (s) => Object.assign(s, { grades: swapped(s.grades, 0, 2) }),
    answer: (a, b) => direction(a, b, "ndcg"),
    why: (a, b) => `nDCG ${fromTo(fmtNdcg(a.ndcg), fmtNdcg(b.ndcg))}: the cell at row 1, column 3 `
      + "gives the change, (gⱼ − gᵢ)(d(i) − d(j)) / IDCG.",
  },
  draw(out, s, r, ctx) {
    const n = s.grades.length;
    if (!anyRelevant(s)) {
      out.append(para(`Grades: ${s.grades.join(", ")}. Nothing is relevant: no swap changes nDCG, and nDCG is undefined.`));
      return;
    }
    out.append(para(`ΔnDCG@${s.k} (${s.gain} gain) when the documents at ranks i (row) and j (column) swap;`
      + " green (+) raises nDCG, pink (−) lowers it; the best swap is outlined; dashed lines mark the cutoff k."
      + " Point at or focus a cell for its formula (the arrow keys go from cell to cell); click it, or press"
      + " Enter, to make that swap."));
    const d = swapDeltas(s.grades, s.k, s.gain, LOG2);
    const big = Math.max(1e-12, ...d.flat().map(Math.abs));
    const rows = d.map((row, i) => [`${i + 1} (grade ${s.grades[i]})`].concat(row.map((v, j) => (j <= i ? "" : signed(v)))));
    const detailId = `${ctx.id}-swap`;
    const at = ctx.local.swap && ctx.local.swap[1] <= n ? ctx.local.swap : [r.best_i || 1, r.best_j || 2];
    const detail = node("p", { class: "dcglab-swap-detail", id: detailId }, swapDetail(s, at[0], at[1]));
    const show = (i, j) => () => {
      ctx.local.swap = [i, j];
      const live = document.getElementById(detailId);
      if (live) live.textContent = swapDetail(s, i, j);
    };
    // a cell above the diagonal is a button that makes its swap; the matrix is one tab
    // stop (the cell shown in the detail line), and the arrow keys go from cell to cell
    const step = (ev, i, j) => {
      const to = { ArrowLeft: [i, j - 1], ArrowRight: [i, j + 1], ArrowUp: [i - 1, j], ArrowDown: [i + 1, j],
                   Home: [i, i + 1], End: [i, n] }[ev.key];
      if (!to) return;
      ev.preventDefault();
      const [ti, tj] = to;
      if (ti < 1 || tj > n || tj <= ti) return;
      ev.currentTarget.closest("table").querySelector(`[data-cell="${ti},${tj}"]`)?.focus();
    };
    const roving = (ev) => {
      for (const c of ev.currentTarget.closest("table").querySelectorAll(".dcglab-cell"))
        c.tabIndex = c === ev.currentTarget ? 0 : -1;
    };
    const cell = (i, j, text) => {
      if (j === 0 || j - 1 <= i) return text;
      const v = d[i][j - 1];
      const b = node("button", { type: "button", class: i + 1 === r.best_i && j === r.best_j ? "dcglab-cell dcglab-best" : "dcglab-cell",
        "aria-label": `swap ranks ${i + 1} and ${j}: ΔnDCG ${signed(v)}`, "aria-describedby": detailId,
        "data-cell": `${i + 1},${j}`, tabindex: at[0] === i + 1 && at[1] === j ? "0" : "-1",
        ...(v !== 0 ? { style: `background: ${tint(v, big)}` } : {}) }, text);
      b.on = {
        focus: (ev) => { roving(ev); show(i + 1, j)(); },
        keydown: (ev) => step(ev, i + 1, j),
        pointerenter: show(i + 1, j),
        click: () => ctx.write("grades", swapped(s.grades, i, j - 1),
          `Swapped ranks ${i + 1} and ${j}: nDCG ${fmtNdcg(r.ndcg)} → `
          + `${fmtNdcg(ndcgAt(swapped(s.grades, i, j - 1), null, s.k, s.gain, LOG2))}.`),
      };
      return b;
    };
    // the cutoff: a dashed line after row k and after column k, as in the chapter's figure
    const cut = Math.min(s.k, n);
    const box = table(["rank"].concat(Array.from({ length: n }, (_, j) => String(j + 1))), rows,
      `Change in nDCG@${s.k} for each swap`, {
        rowClass: (i) => (cut < n && i === cut - 1 ? "dcglab-cut-row" : ""),
        // the value columns narrow (the cells' buttons keep their own padding), so 8 ranks fit 1280 px
        cellClass: (i, j) => [j === 0 ? "dcglab-nowrap" : "dcglab-tight", cut < n && j === cut ? "dcglab-cut-col" : ""]
          .filter(Boolean).join(" "),
        cell,
      });
    out.append(box, detail);
  },
  readouts: (s, r) => [
    [`nDCG@${s.k} =`, "ndcg", fmtNdcg(r.ndcg)],
    ["best swap gains", "max_delta", fmt(r.max_delta)],
    ["at ranks", "best_i", r.best_i === null ? "undefined (no swap helps)" : String(r.best_i)],
    ["and", "best_j", r.best_j === null ? "undefined" : String(r.best_j), true],
    ["sum of |ΔnDCG| over pairs =", "total", fmt(r.total)],
  ],
});
