// Self-check quiz: questions answered with a number or a choice, checked in the browser.
// Every right answer, every number an explanation quotes and every value a common mistake
// gives is computed here from the question's expressions with the functions of measures.js
// (the JS twin); dcglab.book.explorers.quiz.evaluate_expression computes the same expressions in
// Python and tests/test_quiz.py requires agreement within 1e-12.
// The quiz's data (wording, choices with their feedback, mistakes, one variant per number
// set) comes from the question banks (dcglab/book/quizzes/*.yaml) through Python in the
// "content" trait; the reader's answers stay in the page and are not model state.
//
// It follows the explorers' test protocol (see ui.js) without ui_mount.js's mount(): a root
// .dcglab-explorer[data-explorer=quiz] with data-state {quiz, variant} and data-result
// {q1: answer, ...}; one control (the "New numbers" button, data-param="variant"); a Reset
// button; one polite live region (.dcglab-readouts). Everything is inside one function so
// that no top-level name can collide with ui.js's.
const quizExplorer = (() => {
  // The value of an answer expression (dcglab.book.explorers.quiz.evaluate_expression in Python).
  function value(x, tie) {
    const side = (a, b) => (a > b + tie ? 0 : a < b - tie ? 1 : 2);
    switch (x.m) {
      case "cg": return cg(x.grades, x.k, "linear");
      case "weight": return weights(x.rank, x.discount)[x.rank - 1];
      case "dcg": return curves(x.grades, null, x.gain, x.discount, x.k).dcg[x.k - 1];
      case "idcg": return curves(x.judged, null, x.gain, x.discount, x.k).idcg[x.k - 1];
      case "ndcg": return ndcgAt(x.grades, x.judged, x.k, x.gain, x.discount, "zero");
      case "ap": return averagePrecision(x.grades, x.judged);
      case "rbp": return rbp(x.grades, x.p);
      case "err": return err(x.grades, x.max_grade ?? 3);
      case "mean_ndcg":
        return meanNdcg(x.rankings, x.judged, x.k, x.gain, x.discount, x.policy);
      case "swap": return swapDeltas(x.grades, x.k, x.gain, x.discount)[x.i - 1][x.j - 1];
      case "compare": return side(value(x.a, tie), value(x.b, tie));
      case "both": {
        const first = side(value(x.first[0], tie), value(x.first[1], tie));
        const second = side(value(x.second[0], tie), value(x.second[1], tie));
        if (first === 2 || second === 2) throw new Error("a 'both' comparison ties");
        return [[0, 2], [3, 1]][first][second];
      }
      case "match": {
        const target = value(x.value, tie);
        const hits = x.options.map((o, i) => [side(value(o, tie), target), i]).filter(([d]) => d === 2);
        if (hits.length !== 1) throw new Error(`${hits.length} options match, not one`);
        return hits[0][1];
      }
      case "fixed": return x.answer;
      default: throw new Error(`unknown quiz expression kind ${x.m}`);
    }
  }

  // A number as the feedback shows it: whole numbers plainly, others to three decimals.
  function show(x) {
    const r = Math.round(x);
    return Math.abs(x - r) < 1e-9 ? String(r) : x.toFixed(3);
  }

  // The reader's number: accepts a Unicode minus and a decimal comma; NaN if not a number.
  function parse(text) {
    const s = text.trim().replace(/\u2212/g, "-").replace(",", ".");
    return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(s) ? Number(s) : NaN;
  }

  // Which variant a question shows in number set v (fixed questions have one variant).
  const variantOf = (q, v) => q.variants[Math.min(v, q.variants.length) - 1];

  // Answers, quoted values and common-mistake values of every question in number set v.
  function solve(data, v) {
    return data.questions.map((q) => {
      const x = variantOf(q, v);
      return { answer: value(x.expr, data.tie), parts: x.parts.map((p) => value(p, data.tie)),
               mistakes: (x.mistakes || []).map((m) => value(m.expr, data.tie)) };
    });
  }

  // A template with the page's numbers: {answer}, {p0}, {p1}, ... and a mistake's {value}.
  function explain(template, solved, mistake = null) {
    return template
      .replace(/\{answer\}/g, show(solved.answer))
      .replace(/\{value\}/g, mistake === null ? "{value}" : show(mistake))
      .replace(/\{p(\d+)\}/g, (_, i) => show(solved.parts[Number(i)]));
  }

  let count = 0;

  function render({ model, el: host }) {
    const uid = `dcglab-quiz-${++count}-${Math.random().toString(36).slice(2, 7)}`;
    const data = model.get("content");
    const quiz = model.get("quiz");
    const initial = model.get("variant");
    const n = data.questions.length;
    const ext = /\.html?$/.test(window.location.pathname) ? ".html" : ".ipynb";

    const root = h("div", { class: "dcglab-explorer dcglab-quiz", "data-explorer": "quiz",
                             role: "group", "aria-labelledby": `${uid}-title` });
    const head = h("div", { class: "dcglab-head" });
    head.append(h("div", { class: "dcglab-title", id: `${uid}-title` }, data.title));
    const reset = h("button", { type: "button", class: "dcglab-reset" }, "Reset");
    head.append(reset);

    // one control for the numbers: "New numbers" steps through the sets (Reset goes
    // back to set 1); the set shown is written beside it
    const panel = h("div", { class: "dcglab-controls" });
    const row = h("div", { class: "dcglab-control dcglab-quiz-sets" });
    // data-step: one set forward, as a count's button (after the last set comes set 1)
    const fresh = h("button", { type: "button", class: "dcglab-quiz-button dcglab-quiz-new",
                                 "data-param": "variant", "data-step": "1", "aria-describedby": `${uid}-set` },
                     "New numbers");
    const shown = h("span", { class: "dcglab-quiz-set", id: `${uid}-set` });
    row.append(fresh, shown);
    panel.append(row);

    const note = h("p", { class: "dcglab-note" },
      `Number set 1 is the same for every reader; New numbers draws other grades. Give `
      + `numbers to three decimals: answers within ${data.tolerance} of the right one count.`);
    const view = h("div", { class: "dcglab-output" });
    const tally = h("p", { class: "dcglab-quiz-score" });
    // The one live region announces each verdict; on screen the verdict is shown under
    // its question, so the region itself is visually hidden.
    const live = h("div", { class: "dcglab-readouts dcglab-quiz-live", role: "status",
                             "aria-live": "polite", "aria-atomic": "true" });
    root.append(head, panel, note, tally, view, live);
    host.append(root);

    let solved = [], verdicts = [];

    const score = () => {
      const right = verdicts.filter((x) => x === true).length;
      return `${right} of ${n} right so far.`;
    };
    const showScore = () => {
      tally.textContent = `Score: ${score()}`;
    };
    const dirty = () => view.querySelector(".dcglab-quiz-feedback:not(:empty)") !== null
      || Array.from(view.querySelectorAll("input")).some((i) => (i.type === "radio" ? i.checked : i.value !== ""));
    const syncReset = () => {
      reset.disabled = model.get("variant") === initial && !dirty();
    };

    function question(q, idx, v) {
      const x = variantOf(q, v), s = solved[idx], id = `${uid}-q${idx + 1}`;
      const item = h("li", { class: "dcglab-quiz-q" });
      const form = h("form", { novalidate: "" });
      const text = h("p", { class: "dcglab-quiz-text", id: `${id}-text` });
      text.append(h("span", { class: "dcglab-quiz-number" }, `Question ${idx + 1}. `), explain(x.text, s));
      const feedback = h("p", { class: "dcglab-quiz-feedback", id: `${id}-feedback` });
      let read;
      if (q.form === "number") {
        form.append(text);
        const line = h("div", { class: "dcglab-quiz-answer" });
        const label = h("label", { for: `${id}-input` }, `Answer to question ${idx + 1}`);
        const input = h("input", { type: "text", id: `${id}-input`, inputmode: "decimal",
                                    autocomplete: "off", spellcheck: "false",
                                    "aria-describedby": `${id}-text ${id}-feedback` });
        line.append(label, input);
        form.append(line);
        read = () => parse(input.value);
      } else {
        const set = h("fieldset", { "aria-describedby": `${id}-feedback` });
        const legend = h("legend", { class: "dcglab-quiz-text", id: `${id}-text` });
        legend.append(...text.childNodes);
        set.append(legend);
        q.choices.forEach((c, j) => {
          const opt = h("label", { class: "dcglab-quiz-choice" });
          opt.append(h("input", { type: "radio", name: `${id}-choice`, value: String(j) }), ` ${c}`);
          set.append(opt);
        });
        form.append(set);
        read = () => {
          const on = form.querySelector("input[type=radio]:checked");
          return on ? Number(on.value) : null;
        };
      }
      const buttons = h("div", { class: "dcglab-quiz-buttons" });
      const check = h("button", { type: "submit", class: "dcglab-quiz-button",
                                   "aria-label": `Check question ${idx + 1}` }, "Check");
      const reveal = h("button", { type: "button", class: "dcglab-quiz-button",
                                    "aria-label": `Show answer to question ${idx + 1}` },
                        "Show answer");
      buttons.append(check, reveal);
      form.append(buttons, feedback);
      const link = h("p", { class: "dcglab-quiz-link" }, "Taught in ");
      const href = q.link.doc + ext + (q.link.anchor ? `#${q.link.anchor}` : "");
      link.append(h("a", { href }, q.link.text), ".");
      form.append(link);
      // The question's numbers in the chapter's explorer: the state rides in the URL hash
      // (ui_mount.js's stateFromHash reads #dcglab.<explorer>=<JSON>). The explorer shows
      // the answer, so its link waits until the question is checked or its answer shown;
      // before a right answer it says that it gives the answer away.
      let load = null, spoiler = null;
      if (x.explore) {
        load = h("p", { class: "dcglab-quiz-link dcglab-quiz-explore", hidden: "" });
        spoiler = h("span", { class: "dcglab-quiz-spoiler" }, " It shows the answer.");
        const shownIn = Number.parseInt(x.explore.doc, 10);
        const taughtIn = Number.parseInt(q.link.doc.split("/").pop(), 10);
        load.append(h("a", { href: `${x.explore.doc}${ext}#${x.explore.hash}`,
                              "aria-label": `Load into the explorer: question ${idx + 1}` },
                       "Load into the explorer"),
                    ` of chapter ${shownIn}`
                    // another chapter's explorer than the one the question is taught in: say so
                    + (taughtIn && taughtIn !== shownIn ? `, which shows these numbers (Chapter ${taughtIn} teaches them).` : ".")
                    + (x.explore.note ? ` ${x.explore.note}` : ""), spoiler);
        form.append(load);
      }
      item.append(form);

      let misses = 0;
      const say = (verdict, message) => {
        feedback.textContent = message;
        feedback.setAttribute("data-verdict", verdict);
        if (verdict === "right") verdicts[idx] = true;
        else if (verdict === "wrong" && verdicts[idx] !== true) verdicts[idx] = false;
        if (load && verdict !== "invalid") {
          load.hidden = false;
          spoiler.hidden = verdict !== "wrong" || verdicts[idx] === true;
        }
        live.textContent = `Question ${idx + 1}: ${message} ${verdict === "invalid" ? "" : score()}`.trim();
        showScore();
        syncReset();
      };
      // Enter submits (in a field) or presses (on a button) here, not through the page:
      // JupyterLab takes Enter in an output area for its own shortcuts.
      form.addEventListener("keydown", (ev) => {
        if (ev.key !== "Enter" || ev.isComposing) return;
        const target = ev.target;
        if (target.tagName !== "INPUT" && target.tagName !== "BUTTON") return;
        ev.preventDefault();
        ev.stopPropagation();
        if (target.tagName === "BUTTON") target.click();
        else form.requestSubmit(check);
      });
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const got = read();
        const near = (a, b) => Math.abs(a - b) <= data.tolerance + 1e-12;
        if (q.form === "number") {
          if (Number.isNaN(got)) return say("invalid", "Type a number, such as 0.861 or -0.25.");
          if (near(got, s.answer)) return say("right", `✓ Right. ${explain(x.why, s)}`);
          // A value a known mistake gives: say which mistake (the bank's feedback).
          const m = s.mistakes.findIndex((w) => near(got, w));
          if (m >= 0) {
            return say("wrong", `✗ Not right: ${explain(x.mistakes[m].feedback, s, s.mistakes[m])} `
              + "Try again, or press Show answer.");
          }
          return say("wrong", `✗ Not right: ${show(got)} is too ${got > s.answer ? "high" : "low"} (not within `
            + `${data.tolerance} of the answer). Try again, or press Show answer.`);
        }
        if (got === null) return say("invalid", "Choose one of the options first.");
        if (got === s.answer) return say("right", `✓ Right. ${explain(x.why, s)}`);
        // the first wrong choice gets the way to the answer, its numbers held back (a second
        // wrong choice, or Show answer, gives them): the next try is then worked, not looked up
        misses += 1;
        const full = explain(x.feedback[got], s);
        const hint = full.replace(/[−-]?\d+\.\d+/g, "…");
        if (misses === 1 && hint !== full) {
          return say("wrong", `✗ Not right: ${hint} Work out the numbers and try again; a second wrong `
            + "choice shows them, as does Show answer.");
        }
        return say("wrong", `✗ Not right: ${full} Try another option, or press Show answer.`);
      });
      reveal.addEventListener("click", () => {
        const answer = q.form === "number" ? show(s.answer) : `“${q.choices[s.answer]}”`;
        say("shown", `The answer is ${answer}. ${explain(x.why, s)}`);
      });
      return item;
    }

    function draw(announce) {
      const v = model.get("variant");
      solved = solve(data, v);
      verdicts = new Array(n).fill(null);
      fresh.value = String(v);
      shown.textContent = `Number set ${v} of ${data.variants}`;
      const list = h("ol", { class: "dcglab-quiz-list" });
      data.questions.forEach((q, i) => list.append(question(q, i, v)));
      view.replaceChildren(list);
      showScore();
      root.setAttribute("data-state", JSON.stringify({ quiz, variant: v }));
      root.setAttribute("data-result", JSON.stringify(
        Object.fromEntries(solved.map((s, i) => [`q${i + 1}`, s.answer]))));
      if (announce) {
        live.textContent = `Number set ${v} of ${data.variants}`
          + (v === 1 ? " (the fixed set)" : "") + ": questions redrawn, answers cleared.";
      }
      syncReset();
    }

    const setVariant = (v) => {
      model.set("variant", v);
      model.save_changes();
    };
    fresh.addEventListener("click", () => setVariant((model.get("variant") % data.variants) + 1));
    reset.addEventListener("click", () => {
      if (model.get("variant") !== initial) setVariant(initial);
      else draw(false);
      live.textContent = `Reset: number set ${initial}, answers cleared.`;
      syncReset();
    });
    view.addEventListener("input", syncReset);
    view.addEventListener("change", syncReset);
    const redraw = () => draw(true);
    model.on("change:variant", redraw);
    draw(false);
    return () => model.off("change:variant", redraw);
  }

  // solve is exported for tests/test_quiz.py (the JS answers against dcglab's).
  return { render, solve };
})();

export default quizExplorer;
