// Chapter 5: how often linear gain and a^rel - 1 rank two orderings in opposite orders.
const CURVE_AS = [1.1, 1.25, 1.5, 2, 3, 4, 6, 10];

// Grades beyond "documents judged" are not part of the multiset: their sliders hide.
const judgedOf = (s) => s.grades.slice(0, s.n);

// Everything depends on the judged multiset (not its order) and k: its orderings and their
// linear nDCG keys are found once for each, then each gain base a adds one count.
const multisetOf = (s) => judgedOf(s).sort((x, y) => x - y);
const memoKey = (s) => JSON.stringify([multisetOf(s), Math.min(s.k, s.n)]);

function remember(memo, key, size, make) {
  if (!memo.has(key)) {
    if (memo.size >= size) memo.delete(memo.keys().next().value);
    memo.set(key, make());
  }
  return memo.get(key);
}

// the orderings depend on the multiset only; their scores on k too
const codeMemo = new Map();
const baseMemo = new Map();
function basisOf(s) {
  const codes = remember(codeMemo, JSON.stringify(multisetOf(s)), 4, () => orderingCodes(multisetOf(s)));
  return remember(baseMemo, memoKey(s), 16, () => ({
    basis: reversalBasis(multisetOf(s), Math.min(s.k, s.n), "linear", LOG2, codes),
    byA: new Map(),
  }));
}

// The counts are kept, not the tie keys behind them (60 kB per count at nine documents):
// a heap of kept keys makes the garbage collector's pauses longer than a frame.
function against(b, a) {
  return remember(b.byA, a, 24, () => {
    const count = reversalsAgainst(b.basis, { exponential: a });
    delete count.keys;
    return count;
  });
}

function revCount(s, a) {
  if (!judgedOf(s).some((g) => g > 0)) return { orderings: 1, pairs: 0, reversed: 0, share: 0 };
  const { orderings: n, pairs, reversed, share } = against(basisOf(s), a);
  return { orderings: n, pairs, reversed, share };
}

// The curve over a, as far as it is known: a point not yet counted is null (not drawn).
function curveOver(s) {
  const b = basisOf(s);
  return CURVE_AS.map((a) => (b.byA.has(a) ? 100 * b.byA.get(a).share : null));
}
const curveDone = (s) => curveOver(s).every((y) => y !== null);

// A step counts the reversals at the current a only (about a millisecond at nine
// documents). The other points of the curve are counted while the page is idle, one count
// per job, and the explorer is drawn again once its curve is whole; then the curves and
// examples of the other cutoffs of the same multiset, nearest first, so that a change of k
// is mostly a lookup.
const idle = typeof requestIdleCallback === "function"
  ? (job) => requestIdleCallback(job)
  : (job) => setTimeout(() => job({ timeRemaining: () => 50 }), 0);
// One job of nine documents takes one or two milliseconds. A callback runs jobs for at
// most BUDGET_MS (an input that arrives meanwhile waits less than a frame), and starts
// one only with IDLE_MS of the idle period left.
const IDLE_MS = 4;
const BUDGET_MS = 8;
let pending = null;
function jobsFor(s) {
  return [() => basisOf(s), ...CURVE_AS.map((a) => () => revCount(s, a)), () => examples(s)];
}
function fill(s, ctx) {
  const n = s.n, k = Math.min(s.k, n), key = memoKey(s);
  const others = Array.from({ length: n }, (_, i) => i + 1).filter((j) => j !== k)
    .sort((x, y) => Math.abs(x - k) - Math.abs(y - k) || x - y).map((j) => ({ ...s, k: j }));
  const redraw = Object.assign(() => { if (memoKey(ctx.state()) === key) ctx.refresh(); }, { alone: true });
  const todo = curveDone(s) ? [] : [...jobsFor(s), redraw];
  for (const o of others) todo.push(...jobsFor(o));
  const start = pending === null;
  pending = todo;
  if (start) idle(function run(deadline) {
    const t0 = performance.now();
    // a redrawing (job.alone) is a callback of its own
    for (let ran = 0; pending.length && deadline.timeRemaining() >= IDLE_MS
      && performance.now() - t0 < BUDGET_MS && !(ran && pending[0].alone); ran++) {
      const job = pending.shift();
      job();
      if (job.alone) break;
    }
    if (pending.length) idle(run);
    else pending = null;
  });
}

const exampleMemo = new Map();
function examples(s) {
  return remember(exampleMemo, JSON.stringify([memoKey(s), s.a]), 32, () => {
    if (!judgedOf(s).some((g) => g > 0)) return [];
    const { basis } = basisOf(s);
    return examplesAgainst(basis, orderingKeys(basis, { exponential: s.a }));
  });
}

const group = fmtCount;
// a^rel, with rel as a superscript
const power = (a) => `${a}ʳᵉˡ`;

export default explorer({
  name: "gain_reversals",
  title: "Reversals between linear and exponential gain",
  params: ["grades", "n", "k", "a"],
  controls: (s) => [{ param: "n", label: "documents judged", min: 2, max: s.grades.length, step: 1 }]
    .concat(listSliders(s, "grades", { label: (i) => `document ${i + 1} grade`, max: 3, shown: (st, i) => i < st.n,
                                       group: "The judged grades as sliders", open: true }))
    .concat([
      { param: "k", label: "cutoff k", min: 1, max: (st) => st.n, step: 1 },
      { param: "a", label: "gain base a", min: 1.1, max: 10, step: 0.1 },
    ]),
  compute: (s) => revCount(s, s.a),
  ranking: (s, r, ctx) => {
    const ex = examples(s);
    const k = Math.min(s.k, s.n);
    if (!ex.length) return { rows: [], gain: "linear", discount: LOG2, k, legend: "" };
    const m = (ctx.local.example || 0) % ex.length;
    const [x, y] = ex[m];
    const score = (g, gain) => fmtNdcg(ndcgAt(g, null, k, gain, LOG2));
    const e = { exponential: s.a };
    // the same two orderings under each gain, in colours of their own (not the ranking's
    // and the ideal's): the linear pair, then the exponential pair on a scale of its own
    const row = (key, g, gain, name) => ({ key, kind: key[0], gain, grades: g,
      title: `${key[0].toUpperCase()}, ${name}: nDCG@${k} = ${score(g, gain)}` });
    return {
      rows: [
        row("x_lin", x, "linear", "linear gain"), row("y_lin", y, "linear", "linear gain"),
        row("x_exp", x, e, `gain ${power(s.a)} − 1`), row("y_exp", y, e, `gain ${power(s.a)} − 1`),
      ],
      gain: "linear", discount: LOG2, k,
      legend: `A reversal (example ${m + 1} of ${ex.length}): linear gain prefers Y, ${power(s.a)} − 1 prefers X. `
        + "Each bar is gain × discount; the two gains have their own scales.",
    };
  },
  predict: {
    question: (s) => `the gain base a rises from ${s.a} to 4, so a grade-3 document counts far more. `
      + "Do more or fewer pairs of orderings reverse?",
    choices: ["more", "fewer", "the same"],
    fits: (s) => s.a < 4,
    apply: (s) => Object.assign(s, { a: 4 }),
    answer: (a, b) => ({ up: "more", down: "fewer" })[direction(a, b, "reversed")] || "the same",
    why: (a, b) => `Reversed pairs ${fromTo(group(a.reversed), group(b.reversed))} of ${group(b.pairs)}: `
      + "the further aʳᵉˡ − 1 is from linear, the more often the two gains disagree.",
  },
  draw(out, s, r, ctx) {
    if (judgedOf(s).some((g) => g > 0)) fill(s, ctx);
    const ex = examples(s);
    if (ex.length > 1) {
      const next = node("button", { type: "button", class: "dcglab-chip" }, "Show another reversal");
      next.on = { click: () => { ctx.local.example = (ctx.local.example || 0) + 1; ctx.refresh(); } };
      out.append(next);
    } else if (!ex.length) out.append(para("No pair of orderings reverses for this multiset, cutoff and a."));
    out.append(para(`Judged grades: ${judgedOf(s).join(", ")}; nDCG@${Math.min(s.k, s.n)}; linear gain against ${power(s.a)} − 1.`));
    // a percent axis: whole-number ticks, and 0 to 10 when no pair reverses at any a
    const curve = curveOver(s);
    const none = curve.every((y) => y === 0);
    out.append(chart([
      { xs: CURVE_AS, ys: curve, label: "reversed pairs (%)", markers: true },
      { xs: [s.a], ys: [100 * r.share], color: "c1", points: true, big: true, label: "current a" },
    ], { title: "Reversed pairs (%) by gain base a", xlabel: "a in aʳᵉˡ − 1", xticks: [1.1, 2, 3, 4, 6, 10],
         ymin: 0, ywhole: true, ...(none ? { note: "no reversals at any a" } : {}) }));
  },
  readouts: (s, r) => [
    ["orderings =", "orderings", fmtCount(r.orderings)],
    ["pairs =", "pairs", fmtCount(r.pairs)],
    ["reversed =", "reversed", fmtCount(r.reversed)],
    ["share reversed =", "share", fmtPercent(r.share)],
  ],
});
