// Chapter 10: which cutoff? Two systems over several queries, mean nDCG@k as k moves.
// The reader reorders either system's documents for one query at a time (the grades are
// the judges', so a system only chooses the order) and sees the mean under all three
// rules for a query with IDCG = 0.
const POLICIES = ["zero", "skip", "one"];
const POLICY_WORDS = { zero: "scores 0", one: "scores 1", skip: "is skipped" };
const SYSTEMS = [["system_a", "A"], ["system_b", "B"]];

function meanAt(s, system, k, policy = s.zero_idcg) {
  return meanNdcg(s[system], s.judged, k, "linear", LOG2, policy);
}

const queryOf = (s) => Math.min(Math.max(1, s.query ?? 1), s.system_a.length);

function winner(a, b) {
  return a === null || b === null ? "—" : a > b + 1e-12 ? "A" : b > a + 1e-12 ? "B" : "tie";
}

export default explorer({
  name: "choose_k",
  title: "Choosing k: does the better system depend on the cutoff?",
  params: ["system_a", "system_b", "judged", "k", "zero_idcg", "query"],
  editable: ["system_a", "system_b", "query"],
  bounds: { system_a: [0, 9], system_b: [0, 9] },
  controls: (s) => [
    { param: "k", label: "cutoff k", min: 1, max: Math.max(...s.system_a.map((x) => x.length)), step: 1 },
    { param: "query", label: "query shown", min: 1, max: s.system_a.length, step: 1 },
    { param: "zero_idcg", label: "IDCG = 0 scores", options: ["zero", "one", "skip"] },
  ],
  predict: {
    question: (s) => `the cutoff moves from k = ${s.k} to k = 5. Which system has the higher mean nDCG@5?`,
    choices: ["A", "B", "tie"],
    apply: (s) => Object.assign(s, { k: 5 }),
    answer: (a, b) => (b.mean_a > b.mean_b + 1e-12 ? "A" : b.mean_b > b.mean_a + 1e-12 ? "B" : "tie"),
    why: (a, b) => `At k = 5, A ${fmt(b.mean_a)} against B ${fmt(b.mean_b)}: B's good documents at ranks 2 and 3 `
      + "count once k reaches them; A has little after its first.",
  },
  compute: (s) => ({ mean_a: meanAt(s, "system_a", s.k), mean_b: meanAt(s, "system_b", s.k) }),
  // the shown query's two rankings, movable, above the ideal order of its judged documents
  ranking: (s) => {
    const q = queryOf(s), judged = s.judged[q - 1];
    const a = ndcgAt(s.system_a[q - 1], judged, s.k, "linear", LOG2);
    const b = ndcgAt(s.system_b[q - 1], judged, s.k, "linear", LOG2);
    return {
      rows: [
        ...SYSTEMS.map(([list, name], j) => ({
          key: list, kind: j ? "v" : undefined, title: `System ${name}, query ${q}`,
          grades: s[list][q - 1], list: `${list}.${q - 1}`, movesOnly: true,
        })),
        // padded with grade 0 to the rankings' length: the same IDCG, cards in line
        { key: "ideal", kind: "ideal", title: `Ideal order of query ${q}'s judged documents`,
          grades: idealOrder(judged, "linear").concat(new Array(Math.max(0, s.system_a[q - 1].length - judged.length)).fill(0)) },
      ],
      gain: "linear", discount: LOG2, k: s.k,
      totals: [{ row: "system_a", label: `A DCG@${s.k}` }, { row: "system_b", label: `B DCG@${s.k}` },
               { row: "ideal", label: `IDCG@${s.k}` }],
      ratio: a === null
        ? `Query ${q}: nothing judged relevant, IDCG@${s.k} = 0, so the query ${POLICY_WORDS[s.zero_idcg]} `
          + "for both systems (the rule is the IDCG = 0 control)."
        : `Query ${q}: nDCG@${s.k} of A = ${fmt(a)}, of B = ${fmt(b)} (each stack over the ideal's).`,
    };
  },
  draw(out, s, r) {
    const kmax = Math.max(...s.system_a.concat(s.system_b).map((x) => x.length));
    const ks = Array.from({ length: kmax }, (_, i) => i + 1);
    const m = (sys, policy) => ks.map((k) => meanAt(s, sys, k, policy));
    // the rule chosen: bold lines with points; the other two rules: thin, faint lines of
    // the same systems, so the chart shows how far the rule alone moves each mean
    const series = [];
    for (const policy of POLICIES.filter((p) => p !== s.zero_idcg))
      SYSTEMS.forEach(([sys], j) => series.push({ xs: ks, ys: m(sys, policy), color: j ? "c4" : "c0",
        dash: j ? "5,3" : undefined, stroke: 1.5, opacity: 0.45 }));
    SYSTEMS.forEach(([sys, name], j) => series.push({ xs: ks, ys: m(sys, s.zero_idcg), color: j ? "c4" : "c0",
      dash: j ? "5,3" : undefined, markers: true, stroke: 3,
      label: `system ${name} (IDCG = 0 ${POLICY_WORDS[s.zero_idcg]})` }));
    // the thin lines' legend marks in their own colours and dashes
    SYSTEMS.forEach(([, name], j) => series.push({ xs: [], ys: [], color: j ? "c4" : "c0", dash: j ? "5,3" : undefined,
      stroke: 1.5, opacity: 0.45, label: `thin: system ${name}, the other two IDCG = 0 rules` }));
    series.push({ kind: "marker", xs: [s.k], ys: [0], color: "marker", label: "cutoff k" });
    out.append(chart(series, { title: "Mean nDCG@k over the queries", xlabel: "cutoff k", xticks: ks,
                               ymin: 0, ymax: 1.05, xmin: 0.5, xmax: kmax + 0.5 }));
    // does the rule ever change the winner? (a query with IDCG = 0 counts the same for both)
    const wins = POLICIES.map((p) => ks.map((k) => winner(meanAt(s, "system_a", k, p), meanAt(s, "system_b", k, p))));
    const differ = ks.filter((_, i) => new Set(wins.map((w) => w[i])).size > 1);
    out.append(para(differ.length
      ? `The rule for IDCG = 0 changes the winner at k = ${differ.join(", ")}.`
      : "At each k the three IDCG = 0 rules pick the same winner: "
        + "a rule moves both means alike (it scores 0, scores 1 or drops the same empty query for both)."));
    const q = queryOf(s);
    const per = (sys) => s[sys].map((g, i) => {
      const v = ndcgAt(g, s.judged[i], s.k, "linear", LOG2);
      return v === null ? `— (${s.zero_idcg})` : fmt(v);
    });
    const a = per("system_a"), b = per("system_b");
    out.append(table(["query", `A nDCG@${s.k}`, `B nDCG@${s.k}`],
      s.system_a.map((_, i) => [i + 1 === q ? `${i + 1} (shown)` : i + 1, a[i], b[i]]),
      `nDCG@${s.k} of each query for systems A and B`, { rowClass: (i) => (i + 1 === q ? "dcglab-current" : "") }));
    out.prepend(para(`At k = ${s.k} the better system is ${winner(r.mean_a, r.mean_b)}.`));
  },
  readouts: (s, r) => [[`mean nDCG@${s.k}: A =`, "mean_a", fmt(r.mean_a)], ["B =", "mean_b", fmt(r.mean_b)]],
});
