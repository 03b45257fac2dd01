// Chapter 8: AP (binary) against nDCG@k (graded) for two rankings, U and V.
const RANKINGS = ["first", "second"];
const NAMES = { first: "U", second: "V" };
const kOf = (s) => s.k ?? 6;

function pick(a, b) {
  return a > b + 1e-12 ? "U" : b > a + 1e-12 ? "V" : "tie";
}

// The prediction's choices: AP's preferred ranking and nDCG's, as one pair, or a tie.
const PAIRS = [["U", "U"], ["U", "V"], ["V", "U"], ["V", "V"]];
const pairName = (ap, nd) => `AP ${ap}, nDCG ${nd}`;
const TIE = "a tie in either";

export default explorer({
  name: "graded_binary",
  title: "Graded versus binary: two rankings, U and V",
  params: ["first", "second", "k"],
  controls: (s) => [cutoffSlider(s, "first", "cutoff k (nDCG)")].concat(RANKINGS.flatMap((name) =>
    listSliders(s, name, { label: (i) => `${NAMES[name]}: rank ${i + 1} grade`, group: "The grades as sliders" }))),
  compute(s) {
    const out = {};
    for (const name of RANKINGS) {
      out[`ap_${name}`] = averagePrecision(s[name]);
      out[`ndcg_linear_${name}`] = ndcgAt(s[name], null, kOf(s), "linear", LOG2);
      out[`ndcg_exponential_${name}`] = ndcgAt(s[name], null, kOf(s), "exponential", LOG2);
    }
    return out;
  },
  editable: RANKINGS,
  ranking: (s) => ({
    rows: RANKINGS.map((name) => ({ key: name, kind: name === "second" ? "v" : undefined,
                                    title: `Ranking ${NAMES[name]}`, grades: s[name], list: name })),
    gain: "linear", discount: LOG2, k: kOf(s),
  }),
  presets: (s) => [
    ["starting U and V", { first: s.first.slice(), second: s.second.slice() }],
    ["U = V", { second: s.first.slice() }],
    ["V reversed U", { second: s.first.slice().reverse() }],
  ],
  // one choice names both preferences, so the reader commits to nDCG's as well as AP's
  predict: {
    question: (s) => `which ranking does AP prefer, and which does nDCG@${kOf(s)} (linear gain) prefer? `
      + "Pick both.",
    choices: PAIRS.map(([ap, nd]) => pairName(ap, nd)).concat([TIE]),
    fits: () => true,
    answer: (a) => {
      const ap = pick(a.ap_first, a.ap_second), nd = pick(a.ndcg_linear_first ?? 0, a.ndcg_linear_second ?? 0);
      return ap === "tie" || nd === "tie" ? TIE : pairName(ap, nd);
    },
    why: (a) => `AP: U ${fmt(a.ap_first)}, V ${fmt(a.ap_second)}. nDCG (linear): U ${fmtNdcg(a.ndcg_linear_first)}, `
      + `V ${fmtNdcg(a.ndcg_linear_second)}. AP sees only relevant or not, so it prefers `
      + `${pick(a.ap_first, a.ap_second)}; nDCG weighs grades and prefers ${pick(a.ndcg_linear_first ?? 0, a.ndcg_linear_second ?? 0)}.`,
  },
  draw(out, s, r) {
    const k = kOf(s);
    // what each rank adds to AP and to nDCG@k, U and V side by side: each ranking's bars
    // add up to its score, so AP's indifference to grades shows as bars of one height
    const xs = s.first.map((_, i) => i + 1);
    const ndcgParts = (g) => {
      const ideal = dcgCurve(idealOrder(g, "linear"), "linear", LOG2)[Math.min(k, g.length) - 1];
      return discountedGains(g, "linear", LOG2).map((x, i) => (i < k ? ndcgRatio(x, ideal, "zero") : 0));
    };
    const parts = {
      ap: RANKINGS.map((name) => contributions(s[name], 0.8).ap),
      ndcg: RANKINGS.map((name) => ndcgParts(s[name])),
    };
    const top = Math.max(1e-12, ...parts.ap.flat(), ...parts.ndcg.flat());
    const row = node("div", { class: "dcglab-charts" });
    const pair = (key, what, values) => RANKINGS.map((name, j) => ({
      kind: "bar", xs, ys: parts[key][j], color: j ? "c4" : "c0", share: 0.4, shift: j ? 0.2 : -0.2,
      label: `${NAMES[name]}: ${what} (sum ${values[j]})`,
    }));
    row.append(chart(pair("ap", "P@i / R at each relevant rank", [fmt(r.ap_first), fmt(r.ap_second)]),
      { title: `AP: U ${fmt(r.ap_first)}, V ${fmt(r.ap_second)} (${pick(r.ap_first, r.ap_second)})`,
        xlabel: "rank i", xticks: xs, xmin: 0.5, xmax: xs.length + 0.5, ymin: 0, ymax: top * 1.05,
        width: 340, height: 190, alt: "What each rank adds to AP" }));
    const nd = (x) => (x === null ? "undefined" : fmt(x));
    row.append(chart(pair("ndcg", `gain × discount / IDCG@${k}`, [nd(r.ndcg_linear_first), nd(r.ndcg_linear_second)]),
      { title: `nDCG@${k}: U ${nd(r.ndcg_linear_first)}, V ${nd(r.ndcg_linear_second)} `
          + `(${pick(r.ndcg_linear_first ?? 0, r.ndcg_linear_second ?? 0)})`,
        xlabel: "rank i", xticks: xs, xmin: 0.5, xmax: xs.length + 0.5, ymin: 0, ymax: top * 1.05,
        width: 340, height: 190, alt: `What each rank adds to nDCG@${k}, linear gain` }));
    out.append(row);
    out.append(table(["ranking", "AP", `nDCG@${k} linear`, `nDCG@${k} exponential`, "grades"], [
      ["prefers", pick(r.ap_first, r.ap_second), pick(r.ndcg_linear_first ?? 0, r.ndcg_linear_second ?? 0),
       pick(r.ndcg_exponential_first ?? 0, r.ndcg_exponential_second ?? 0), ""],
      ["U", fmt(r.ap_first), fmtNdcg(r.ndcg_linear_first), fmtNdcg(r.ndcg_exponential_first), s.first.join(" ")],
      ["V", fmt(r.ap_second), fmtNdcg(r.ndcg_linear_second), fmtNdcg(r.ndcg_exponential_second), s.second.join(" ")],
    ], `AP and nDCG@${k} of U and V; the verdicts come first`, {
      // the verdicts (U or V) line up with the numbers under them; the grades stand apart
      cellClass: (i, j) => (j === 4 ? "dcglab-nowrap dcglab-gap" : i === 0 && j > 0 ? "dcglab-right" : "") }));
  },
  // on a wide screen the table shows the results and the readouts' line says what moved;
  // on a phone the table is under the dock, so the dock shows nDCG@k (linear) and AP of
  // U and V on one line (styles.css), the numbers a change of k or of a grade moves
  quietReadouts: true,
  readouts: (s, r) => [
    ["AP U", "ap_first", fmt(r.ap_first)], ["AP V", "ap_second", fmt(r.ap_second)],
    [`nDCG@${kOf(s)} lin U`, "ndcg_linear_first", fmtNdcg(r.ndcg_linear_first)],
    ["lin V", "ndcg_linear_second", fmtNdcg(r.ndcg_linear_second)],
    ["exp U", "ndcg_exponential_first", fmtNdcg(r.ndcg_exponential_first)],
    ["exp V", "ndcg_exponential_second", fmtNdcg(r.ndcg_exponential_second)],
  ],
});
