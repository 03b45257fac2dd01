// Mounting an explorer: predict-then-reveal, presets, the state in the URL and mount(),
// which binds the controls to the model's traits. Concatenated after ui_strip.js (base.py's UI).

// ---- predict, then reveal --------------------------------------------------------------
// spec.predict: {question(state), choices: [..], apply(state) -> new state (optional),
//                answer(before, after, state) -> one of choices,
//                why(before, after, state, state before) -> the one-line reason,
//                fits(state) -> whether the question makes sense for a state other than
//                the worked example (optional; without it only the example gets it)}
// The question is always about the state shown: the worked example, or the reader's own
// state where it fits. Where it does not, the question and its choices wait behind one
// button that restarts the example. A choice that changes the reader's own state, and
// that restart, can be undone in one step ("Back to your ranking").
function predictBox(p, ctx) {
  const box = h("div", { class: "dcglab-predict", role: "group", tabindex: "-1" });
  const q = h("p", { class: "dcglab-predict-q" });
  const buttons = h("div", { class: "dcglab-predict-choices" });
  const verdict = h("div", { class: "dcglab-predict-verdict" });
  const more = h("div", { class: "dcglab-predict-more" });
  const restart = h("button", { type: "button", class: "dcglab-chip dcglab-restart" },
    "Try the chapter's prediction (restarts the example)");
  const back = h("button", { type: "button", class: "dcglab-chip dcglab-back" }, ctx.backLabel);
  more.append(restart, back);
  // on a phone, once a prediction is answered and the explorer shows another state, the
  // box folds to this one line (styles.css), which opens it again
  const fold = h("button", { type: "button", class: "dcglab-chip dcglab-predict-toggle", "aria-expanded": "true", hidden: "" });
  const setFold = (folded) => {
    if (folded) box.setAttribute("data-folded", ""); else box.removeAttribute("data-folded");
    fold.setAttribute("aria-expanded", String(!folded));
    setText(fold, folded ? "Predict again ▸" : "Fold the prediction ▴");
  };
  fold.addEventListener("click", () => setFold(box.hasAttribute("data-folded") ? false : true));
  box.append(q, buttons, verdict, more, fold);
  box.setAttribute("aria-label", "Predict, then reveal");
  const exampleKey = ctx.key(ctx.initial());
  const fits = (s) => ctx.key(s) === exampleKey || Boolean(p.fits && p.fits(s));
  // the state the verdict describes (its key) and the state before the move
  let shown = null, base = null;
  // the reader's state to go back to, and the states this box showed since it was kept
  let saved = null;
  const ours = new Set();
  // the text of the last verdict, kept for the collapsed "Your last prediction" line
  let lastSaid = "", lastOk = null;
  const setQuestion = (s) => setRich(q, `Predict first: ${p.question(s)}`);
  const clearVerdict = () => {
    verdict.textContent = "";
    verdict.removeAttribute("data-verdict");
    box.removeAttribute("data-answered");
    for (const o of buttons.children) {
      o.setAttribute("aria-pressed", "false");
      o.removeAttribute("data-mark");
      o.removeAttribute("data-answer");
    }
  };
  for (const choice of p.choices) {
    const b = h("button", { type: "button", class: "dcglab-chip", "aria-pressed": "false" }, choice);
    b.addEventListener("click", () => {
      const now = ctx.state();
      const again = shown !== null && ctx.key(now) === shown;
      // a second choice answers the same question; otherwise the question is about the
      // state shown (or, where it does not fit, the worked example)
      const s0 = again ? copy(base) : fits(now) ? now : ctx.initial();
      if (!again && ctx.key(now) !== exampleKey) { saved = now; ours.clear(); }
      base = copy(s0);
      const before = ctx.compute(s0);
      const s1 = p.apply ? p.apply(JSON.parse(JSON.stringify(s0))) : s0;
      const after = ctx.compute(s1);
      const right = p.answer(before, after, s1);
      const mark = right === choice ? "✓ Right" : `✗ Not quite: ${right}`;
      lastSaid = `${mark}. ${p.why(before, after, s1, s0)}`;
      verdict.textContent = lastSaid;
      verdict.setAttribute("data-verdict", right === choice ? "right" : "wrong");
      box.setAttribute("data-answered", choice);
      ctx.answered();
      ctx.reveal(b);
      // the pick, marked right or wrong on the chip itself (styles.css), and where it is
      // wrong the chip of the answer outlined beside it
      for (const o of buttons.children) {
        o.setAttribute("aria-pressed", String(o === b));
        if (o === b) o.setAttribute("data-mark", right === choice ? "right" : "wrong");
        else o.removeAttribute("data-mark");
        if (o !== b && o.textContent === right) o.setAttribute("data-answer", "");
        else o.removeAttribute("data-answer");
      }
      shown = null;
      if (saved && ctx.key(s1) === ctx.key(saved)) saved = null;  // nothing to go back to
      ours.add(ctx.key(s1));
      // the explorer shows the state the verdict is about
      ctx.setAll(s1, p.said ? p.said(s1) : "");
      shown = ctx.key(ctx.state());
      ours.add(shown);
      sync(ctx.state());
    });
    buttons.append(b);
  }
  restart.addEventListener("click", () => {
    saved = ctx.state();
    ours.clear();
    ours.add(exampleKey);
    shown = null;
    clearVerdict();
    ctx.jumpTo(ctx.initial(), `Back to the worked example; "${ctx.backLabel}" returns to yours.`);
    buttons.firstChild.focus();
  });
  back.addEventListener("click", () => {
    const s = saved;
    saved = null;
    shown = null;
    clearVerdict();
    ctx.jumpTo(s, `${ctx.backLabel}: the state before the prediction.`);
    box.focus({ preventScroll: true });
  });
  // called at each update with the state now shown
  const sync = (state) => {
    const key = ctx.key(state);
    if (saved && !ours.has(key)) saved = null;  // the reader changed it: their state now
    back.hidden = !saved;
    if (shown !== null && key === shown) {
      setQuestion(base);
      buttons.hidden = false;
      restart.hidden = true;
      return;
    }
    // when the question gives way to the restart button, the box keeps the height of its
    // question and choices (not of a verdict), so the controls below do not jump (e.g.
    // when chapter 7's last missed document is added); mount's `steady` keeps the control
    // in use still on the screen where the box changes height all the same
    const ok = fits(state);
    if (ok !== lastOk) box.style.minHeight = ok || lastOk === null ? "" : `${box.offsetHeight - verdict.offsetHeight}px`;
    lastOk = ok;
    if (shown !== null) {
      // the verdict was about a state no longer shown: it stays reachable, collapsed and
      // labelled as being about that earlier state
      shown = null;
      clearVerdict();
      const last = h("details", { class: "dcglab-predict-last" });
      last.append(h("summary", {}, "Your last prediction (earlier state)"),
        h("p", {}, `For that earlier state: ${lastSaid}`));
      verdict.append(last);
      verdict.setAttribute("data-verdict", "stale");
      // folded, unless the reader is in the box (a touch or a click elsewhere counts,
      // even where it leaves the focus on a chip); never shown without its label
      const from = ctx.from();
      setFold(!(from ? box.contains(from) : box.contains(document.activeElement)));
      fold.hidden = false;
    }
    if (ok) setQuestion(state);
    else setRich(q, "Predict first: the chapter's question is about its worked example, not the state shown.");
    buttons.hidden = !ok;
    restart.hidden = ok;
  };
  return { el: box, sync };
}

// Up, down or the same: how a result moved between two states.
export function direction(before, after, key) {
  const a = before[key], b = after[key];
  if (a === null || b === null) return a === b ? "the same" : "undefined";
  return b > a + 1e-12 ? "up" : b < a - 1e-12 ? "down" : "the same";
}

export const UP_DOWN = ["up", "down", "the same"];

// ---- presets and the state in the URL ----------------------------------------------------
// spec.presets(initial) -> [[label, state patch]]; the state of every explorer also lives
// in the page address as #dcglab.<name>=<JSON>, so an exercise can link to a set-up state.
function presetChips(presets, ctx) {
  const box = h("div", { class: "dcglab-presets", role: "group", "aria-label": "Preset states" });
  box.append(h("span", { class: "dcglab-presets-label" }, "Load:"));
  // on a phone, once a prediction is answered, the chips fold behind this button (styles.css)
  const fold = h("button", { type: "button", class: "dcglab-chip dcglab-presets-toggle", "aria-expanded": "false" }, "a preset state ▸");
  fold.addEventListener("click", () => {
    const open = !box.hasAttribute("data-open");
    if (open) box.setAttribute("data-open", ""); else box.removeAttribute("data-open");
    fold.setAttribute("aria-expanded", String(open));
    setText(fold, open ? "fold ▴" : "a preset state ▸");
  });
  box.append(fold);
  for (const [label, patch] of presets) {
    const b = h("button", { type: "button", class: "dcglab-chip" }, label);
    b.addEventListener("click", () => ctx.jumpTo(Object.assign(ctx.state(), JSON.parse(JSON.stringify(patch))),
      `Loaded ${label}.`));
    box.append(b);
  }
  return box;
}

export function stateFromHash(name, hash) {
  const key = `dcglab.${name}=`;
  for (const part of (hash || "").replace(/^#/, "").split("&")) {
    if (!part.startsWith(key)) continue;
    try {
      const v = JSON.parse(decodeURIComponent(part.slice(key.length)));
      return v && typeof v === "object" && !Array.isArray(v) ? v : null;
    } catch (e) {
      return null;
    }
  }
  return null;
}

// Keep only known parameters whose value has the type of the current one; a list's
// entries are integers within bounds[param] (grades: 0 to 9), a list of lists has the
// shape of the current one.
function sanitize(patch, state, params, bounds = {}) {
  const [lo, hi] = [0, 1].map((j) => (p) => (bounds[p] || [0, 9])[j]);
  const fits = (a, b, p) => (Array.isArray(b)
    ? Array.isArray(a) && a.length === b.length && a.every((x, i) => fits(x, b[i], p))
    : Number.isInteger(a) && a >= lo(p) && a <= hi(p));
  const out = {};
  for (const p of params) {
    if (!(p in patch)) continue;
    const a = patch[p], b = state[p];
    const ok = Array.isArray(b) ? fits(a, b, p)
      : typeof a === typeof b && (typeof a !== "number" || Number.isFinite(a));
    if (ok) out[p] = a;
  }
  return out;
}

// Standard chips for an explorer whose ranking is the list parameter `list`.
export function rankingPresets(s, list = "grades", gain = "linear") {
  const g = s[list];
  return [
    ["worked example", { [list]: g.slice() }],
    ["ideal order", { [list]: idealOrder(g, gain) }],
    ["reverse", { [list]: idealOrder(g, gain).reverse() }],
    ["all zeros", { [list]: g.map(() => 0) }],
  ];
}

// spec: {name, title, params, controls(state), compute(state), draw(drawing, state, result, ctx)
//        (describes the output into `drawing` with node(), chart(), table(), para()),
//        readouts(state, result) -> [[label, key, text]]}; optional: ranking (the rank
//        strip, see rankView), predict (see predictBox), presets(initial) -> [[label, patch]].
export function mount(model, el, spec) {
  const readState = () => Object.fromEntries(spec.params.map((p) => [p, copy(model.get(p))]));
  const initial = readState();
  // quietReadouts: the results are in a table already; the readouts are then read to
  // screen readers only, and the line that says what changed is what shows
  const root = h("div", { class: spec.quietReadouts ? "dcglab-explorer dcglab-quiet-readouts" : "dcglab-explorer",
                          "data-explorer": spec.name, tabindex: "-1" });
  const head = h("div", { class: "dcglab-head" });
  const uid = `dcglab-${spec.name}-${Math.random().toString(36).slice(2, 8)}`;
  const titleId = `${uid}-title`;
  head.append(h("div", { class: "dcglab-title", id: titleId }, spec.title));
  const tools = h("div", { class: "dcglab-tools" });
  const link = h("a", { class: "dcglab-link", href: "#" }, "Link to this state");
  const reset = h("button", { type: "button", class: "dcglab-reset" }, "Reset");
  tools.append(link, reset);
  head.append(tools);
  root.setAttribute("role", "group");
  root.setAttribute("aria-labelledby", titleId);
  const panel = h("div", { class: "dcglab-controls" });
  let said = "";
  // What the reader is using keeps its place on the screen: where what is above it
  // changes height (a verdict, a readout line), the page scrolls by as much, so it never
  // slides from under a finger. The anchor is the control in use, else the explorer's
  // part (the picture, the controls) that the reader last touched, typed in or focused.
  let last = null;
  for (const type of ["pointerdown", "keydown", "focusin"]) root.addEventListener(type, (e) => { last = e.target; }, true);
  const steady = (anchor, change) => {
    if (anchor === undefined) anchor = last && last !== root ? Array.from(root.children).find((c) => c.contains(last)) || null : null;
    if (!anchor) { change(); return; }
    const y = anchor.getBoundingClientRect().top;
    const hold = () => {
      const dy = anchor.isConnected ? anchor.getBoundingClientRect().top - y : 0;
      if (Math.abs(dy) >= 1) window.scrollBy(0, dy);
    };
    change();
    hold();
    // what is laid out only in the next frame (a height a ResizeObserver sets, a chart
    // drawn late) is held there too
    requestAnimationFrame(hold);
  };
  // The figure a change redraws comes into view: after a control's change (or a
  // prediction's verdict), where the first figure whose content changed (a strip, the
  // totals, a chart, a table) is less than half visible between the page's header and
  // the dock (on a phone) or the screen's foot, the page scrolls so that it sits just
  // above them. A slider in the page's flow never scrolls it (see below). A
  // MutationObserver, whose records count only around a change, finds the figure.
  const FIGURE = ".dcglab-strip-row, .dcglab-totals, .dcglab-figure, .dcglab-scroll, table, svg";
  let armed = null, found = [], pressing = false, revealTimer = null;
  const seen = typeof MutationObserver === "undefined" ? null : new MutationObserver((records) => {
    if (!armed) return;
    for (const m of records) {
      const t = m.target.nodeType === 1 ? m.target : m.target.parentElement;
      if (!t || t.closest(".dcglab-key, .dcglab-help, .dcglab-detail, .dcglab-sr")) continue;
      const f = t.closest(FIGURE);
      if (!f || !root.contains(f) || f.closest(".dcglab-controls, .dcglab-readouts, .dcglab-predict")) continue;
      if (!found.includes(f)) found.push(f);
    }
  });
  const band = () => {
    const header = getComputedStyle(root).getPropertyValue("--dcglab-top");
    let bottom = window.innerHeight;
    for (const d of [live, panel]) {
      if (getComputedStyle(d).position !== "sticky") continue;
      const r = d.getBoundingClientRect();
      if (r.height > 0) bottom = Math.min(bottom, r.top);
    }
    return [parseFloat(header) || 0, bottom];
  };
  const docked = (e) => Boolean(e) && (panel.contains(e) || live.contains(e)) && getComputedStyle(panel).position === "sticky";
  const reveal = () => {
    revealTimer = null;
    const anchor = armed === root ? null : armed;
    // a verdict about the state already shown redraws nothing: its figure is the picture's first
    // (what a closed disclosure holds is laid out, unseen: it does not count)
    let figs = found.filter((f) => f.isConnected && f.getBoundingClientRect().height > 0 && !f.closest("details:not([open])"));
    if (!figs.length && anchor && anchor.closest(".dcglab-predict")) figs = [picture.querySelector(FIGURE)].filter(Boolean);
    armed = null;
    found = [];
    if (!figs.length || !root.isConnected) return;
    // a slider in the page's flow (a wide screen, the grades as sliders) never moves while
    // in use; a docked control, a chip, a select or a stepper's button (each used once)
    // may scroll the page, and one in the page's flow stays on the screen
    const chip = Boolean(anchor && anchor.closest(".dcglab-predict"));
    const once = chip || Boolean(anchor && anchor.matches && anchor.matches("select, button"));
    if (!docked(anchor) && !once) return;
    const [top, bottom] = band();
    const room = bottom - top;
    if (room <= 0) return;
    // a control that redraws a chart (or a table) as well as the rank strip is about the
    // chart: the strip only marks the new value (e.g. the cutoff k's line)
    if (!chip) {
      const charts = figs.filter((f) => !f.closest(".dcglab-rank"));
      if (charts.length) figs = charts;
    }
    const half = (r) => Math.max(0, Math.min(r.bottom, bottom) - Math.max(r.top, top)) >= 0.5 * Math.min(r.height, room);
    // one changed figure at least half in view is enough
    if (figs.some((f) => half(f.getBoundingClientRect()))) return;
    // else the first in the page's order, with as many of the next as fit beside it
    figs.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    const r = figs[0].getBoundingClientRect();
    let foot = r.bottom;
    for (const f of figs.slice(1)) {
      const b = f.getBoundingClientRect().bottom;
      if (b > foot && b - r.top + 16 <= room) foot = b;
    }
    // its foot just above the dock, or its head under the header where it is taller
    let dy = r.height + 8 <= room ? foot - (bottom - 8) : r.top - (top + 8);
    // on a phone (a sticky dock) a chip may scroll away: the verdict's figure matters more
    const chipOnPhone = chip && getComputedStyle(panel).position === "sticky";
    if (once && anchor.isConnected && !docked(anchor) && !chipOnPhone) {
      // it stays on the screen (a chip with its verdict under it)
      const a = anchor.getBoundingClientRect();
      dy = Math.max(a.bottom - window.innerHeight + 4, Math.min(a.top - top - 4, dy));
    }
    if (Math.abs(dy) >= 1) window.scrollBy({ top: dy, behavior: reducedMotion() ? "auto" : "smooth" });
  };
  // called before a change: the figure it redraws is looked for, and brought into view once
  // the changes settle (and the pointer is up)
  const arm = (anchor) => {
    if (!seen) return;
    armed = anchor || root;
    if (revealTimer !== null) clearTimeout(revealTimer);
    revealTimer = setTimeout(() => { if (pressing) revealTimer = null; else reveal(); }, 250);
  };
  // the reader moving on to another control (or anything else) before the reveal: it is
  // dropped, so the page never scrolls under what the reader uses now
  const moveOn = (e) => {
    if (!armed || armed === root || e.target === armed || (armed.contains && armed.contains(e.target))) return;
    if (revealTimer !== null) clearTimeout(revealTimer);
    revealTimer = null;
    armed = null;
    found = [];
  };
  root.addEventListener("focusin", moveOn, true);
  root.addEventListener("pointerdown", moveOn, true);
  panel.addEventListener("pointerdown", () => { pressing = true; }, true);
  const release = () => {
    if (!pressing) return;
    pressing = false;
    if (armed && revealTimer === null) revealTimer = setTimeout(reveal, 50);
  };
  if (typeof window !== "undefined") {
    window.addEventListener("pointerup", release, true);
    window.addEventListener("pointercancel", release, true);
  }
  // the element a control's change came from: the one pressed, touched, typed in or
  // focused (a tap on a slider does not focus it), else the control's first
  const source = (c) => {
    const els = Array.from(root.querySelectorAll("[data-param]")).filter((e) => e.dataset.param === c.param);
    return els.find((e) => e === last || e.contains(last)) || els.find((e) => e === document.activeElement) || els[0] || null;
  };
  const write = (c, value) => {
    const from = source(c);
    arm(from);
    const state = readState();
    // two selects that must differ (`swap`: the other's parameter) trade their values
    if (c.swap && state[c.swap] === value) state[c.swap] = readParam(state, c.param);
    writeInto(state, c.param, value);
    clampState(state, controls);
    steady(from || undefined, () => setAll(state));
  };
  const setAll = (state, message = "") => {
    said = message;
    let changed = false;
    for (const p of spec.params) {
      if (state[p] !== model.get(p) && JSON.stringify(state[p]) !== JSON.stringify(model.get(p))) {
        model.set(p, state[p]);
        changed = true;
      }
    }
    model.save_changes();
    if (!changed && message) update();
    // the message stays through the updates of every parameter set above
    said = "";
  };
  const controls = spec.controls(initial).map((c) => makeControl(c, write));
  // controls with a group (e.g. the grades as sliders, beside the rank strip) sit in an
  // open disclosure after the others
  const groups = new Map();
  for (const c of controls) {
    const g = c.control.group;
    if (!g) { panel.append(c.row); continue; }
    if (!groups.has(g)) {
      // open when these sliders are the only way to set their values (no cards)
      const d = h("details", c.control.groupOpen || !spec.ranking ? { class: "dcglab-group", open: "" } : { class: "dcglab-group" });
      d.append(h("summary", {}, g));
      const inner = h("div", { class: "dcglab-controls" });
      d.append(inner);
      groups.set(g, inner);
    }
    groups.get(g).append(c.row);
  }
  const tunable = [...new Set(controls.map((c) => c.control.param.split(".")[0])
    .concat(spec.editable || (spec.ranking ? ["grades"] : [])))];
  const ctx = {
    id: uid,
    state: readState,
    initial: () => copy(initial),
    compute: (s) => computeOnce(s),
    setAll: (s, message) => { clampState(s, controls); steady(undefined, () => setAll(s, message)); },
    // a prediction's verdict: the figure it changed comes into view (see arm)
    reveal: (from) => arm(from),
    // a prediction answered: on a phone the preset chips fold to one line
    answered: () => root.setAttribute("data-predicted", ""),
    // what the reader last pressed, touched, typed in or focused in the explorer
    from: () => (last && last !== root && root.contains(last) ? last : null),
    write: (param, value, message) => {
      const s = readState();
      writeInto(s, param, value);
      clampState(s, controls);
      steady(undefined, () => setAll(s, message));
    },
  };
  ctx.local = {};
  ctx.backLabel = spec.ranking ? "Back to your ranking" : "Back to your settings";
  // what tells two states apart: the parameters a reader can change (not the data)
  ctx.key = (s) => JSON.stringify(tunable.map((p) => s[p]));
  // a jump to a whole new state (a preset, Reset, a link): no "before your last change"
  // ghosts, which would compare two unrelated states
  ctx.jump = false;
  ctx.jumpTo = (s, message) => {
    ctx.jump = true;
    try { ctx.setAll(s, message); } finally { ctx.jump = false; }
  };
  ctx.refresh = () => update();
  const rank = spec.ranking ? rankView(spec.ranking, ctx) : null;
  reset.addEventListener("click", () => {
    if (rank) rank.home();
    ctx.jumpTo(Object.assign(readState(), copy(initial)), "Back to the starting state.");
    root.focus({ preventScroll: true });
  });
  const view = h("div", { class: "dcglab-output" });
  const live = h("div", { class: "dcglab-readouts", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const saidEl = h("span", { class: "dcglab-said" });
  root.append(head);
  const predict = spec.predict ? predictBox(spec.predict, ctx) : null;
  if (predict) root.append(predict.el);
  if (spec.presets) root.append(presetChips(spec.presets(copy(initial)), ctx));
  if (rank) root.append(rank.el);
  root.append(panel, ...Array.from(groups.values(), (inner) => inner.parentElement), view, live);
  el.append(root);
  // The picture (the rank strip, else the charts; spec.picture "view" picks the charts).
  // On a narrow screen (styles.css) it comes first, in the page's flow, and the dock (the
  // readouts, then the controls) sticks to the screen's bottom while the explorer is
  // scrolled through: a control and the numbers it changes share the screen with the
  // picture above them, and the dock never moves under a finger. Charts after the
  // controls come after the dock, which never covers them.
  const picture = rank && spec.picture !== "view" ? rank.el : view;
  picture.classList.add("dcglab-picture");
  if (seen) for (const part of [rank && rank.el, view]) {
    if (part) seen.observe(part, { subtree: true, childList: true, attributes: true, characterData: true });
  }
  if (typeof ResizeObserver !== "undefined") {
    // the dock's parts stack by their heights: the readouts sit on the controls, and
    // what scrolls into view (a focused card, a chip) stops above the dock
    const heights = () => {
      const c = panel.getBoundingClientRect().height, r = live.getBoundingClientRect().height;
      root.style.setProperty("--dcglab-controls-h", `${c}px`);
      root.style.setProperty("--dcglab-dock-h", `${c + r}px`);
    };
    const dock = new ResizeObserver(heights);
    dock.observe(panel);
    dock.observe(live);
    // the page's own sticky header (the book theme's, if any) stays above what scrolls into view
    const header = document.querySelector(".bd-header-article");
    if (header) {
      new ResizeObserver(() => {
        const sticky = getComputedStyle(header).position === "sticky";
        root.style.setProperty("--dcglab-top", `${sticky ? Math.ceil(header.getBoundingClientRect().height) : 0}px`);
      }).observe(header);
    }
  }
  // the width charts are drawn for, kept current by a ResizeObserver (no layout read per step)
  let width = Math.max(280, root.clientWidth - 24 || 420);
  if (typeof ResizeObserver !== "undefined") {
    let last = width;
    new ResizeObserver(([e]) => {
      const w = Math.max(280, Math.round(e.contentRect.width));
      if (Math.abs(w - last) > 8) { last = w; width = w; update(); }
    }).observe(view);
  }
  let items = [];
  // Results of recent states (a slider dragged back and forth, chapter 5's orderings).
  const memo = new Map();
  const computeOnce = (state) => {
    const key = JSON.stringify(tunable.map((p) => state[p]));
    if (!memo.has(key)) {
      if (memo.size >= 64) memo.delete(memo.keys().next().value);
      memo.set(key, spec.compute(state));
    }
    return memo.get(key);
  };
  // JSON.stringify(state), with the JSON of the parameters no control changes kept
  const fixedJson = new Map();
  const stateJson = (state) => "{" + spec.params.map((p) => {
    if (tunable.includes(p)) return `${JSON.stringify(p)}:${JSON.stringify(state[p])}`;
    if (!fixedJson.has(p)) fixedJson.set(p, JSON.stringify(state[p]));
    return `${JSON.stringify(p)}:${fixedJson.get(p)}`;
  }).join(",") + "}";
  const update = () => {
    const state = readState();
    for (const c of controls) c.sync(state);
    const same = tunable.every((p) => JSON.stringify(state[p]) === JSON.stringify(initial[p]));
    reset.disabled = same;
    const result = computeOnce(state);
    if (predict) predict.sync(state);
    if (rank) rank.update(state, result);
    // draw() describes the output (see node in ui.js); morph writes what changed
    const drawing = node("div");
    available = width;
    patterns = { prefix: uid, count: 0 };
    spec.draw(drawing, state, result, ctx);
    morph(view, drawing);
    const rows = spec.readouts(state, result);
    if (items.length !== rows.length) {
      live.replaceChildren(saidEl);
      // a row marked `true` (4th entry) continues the one before it ("at ranks 1 and 3")
      let last = null;
      items = rows.map(([, key, , joined]) => {
        const item = h("span", { class: "dcglab-readout" });
        const label = h("span", { class: "dcglab-readout-label" });
        const out = h("span", { class: "dcglab-readout-value", "data-out": key });
        item.append(label, " ", out);
        if (joined && last) last.append(" ", item);
        else { live.append(item, " "); last = item; }
        return { label, out };
      });
    }
    // with quiet readouts, what changed is the line that shows: the results that moved
    let line = said;
    if (spec.quietReadouts && items.length) {
      const moved = [];
      rows.forEach(([l, , text], i) => {
        const was = items[i].out.textContent;
        if (was && was !== text && items[i].label.dcglabLabel === l) moved.push(`${plainText(l).replace(/[\s=:]+$/, "")} ${was} → ${text}`);
      });
      if (moved.length) line = `${said ? `${said} ` : ""}${moved.join("; ")}.`;
    }
    saidEl.textContent = line;
    rows.forEach(([label, key, text], i) => {
      setRich(items[i].label, label);
      items[i].label.dcglabLabel = label;
      items[i].out.setAttribute("data-out", key);
      if (items[i].out.textContent !== text) items[i].out.textContent = text;
    });
    const patch = Object.fromEntries(tunable.map((p) => [p, state[p]]));
    link.setAttribute("href", `#dcglab.${spec.name}=${encodeURIComponent(JSON.stringify(patch))}`);
    root.setAttribute("data-state", stateJson(state));
    root.setAttribute("data-result", JSON.stringify(result));
  };
  // A state set from a kernel may break a dependent range: clamp it once, like a slider would.
  const fixed = clampState(readState(), controls);
  if (JSON.stringify(fixed) !== JSON.stringify(readState())) setAll(fixed);
  // Parameters without a control (data) change only from a kernel: forget old results
  // and their JSON (written once, not at every step).
  const forget = () => { memo.clear(); fixedJson.clear(); };
  const fixedParams = spec.params.filter((p) => !tunable.includes(p));
  for (const p of fixedParams) model.on(`change:${p}`, forget);
  model.on("change", update);
  update();
  // A state in the page address (a "load into the explorer" link) applies at mount and
  // whenever the address changes, e.g. when a link in the text is followed; then the
  // explorer scrolls into view and takes the focus.
  const loadHash = () => {
    const fromUrl = stateFromHash(spec.name, location.hash);
    const patch = fromUrl ? sanitize(fromUrl, readState(), tunable, spec.bounds) : {};
    if (!Object.keys(patch).length) return false;
    ctx.jumpTo(Object.assign(readState(), patch), "Loaded the state in the link.");
    return true;
  };
  // Scroll to the explorer and focus it. The page above may still grow (other widgets
  // render, MathJax typesets), so on a page opened from a link the scroll is repeated a
  // few times in its first seconds, until the reader scrolls or types.
  const land = (smooth) => {
    root.scrollIntoView({ block: "start", behavior: smooth && !reducedMotion() ? "smooth" : "auto" });
    root.focus({ preventScroll: true });
  };
  const landOnOpen = () => {
    let moved = false;
    const stop = () => { moved = true; };
    const away = (ev) => { if (ev.target !== root) moved = true; };
    const events = ["wheel", "touchstart", "keydown", "pointerdown"];
    for (const e of events) window.addEventListener(e, stop, { once: true, passive: true });
    document.addEventListener("focusin", away);
    let top = null;
    const again = (i) => {
      if (moved || !root.isConnected) return;
      const now = root.getBoundingClientRect().top;
      if (top === null || Math.abs(now - top) > 2) {
        land(false);
        top = root.getBoundingClientRect().top;
      }
      if (i < 8) setTimeout(() => again(i + 1), 400);
      else {
        for (const e of events) window.removeEventListener(e, stop);
        document.removeEventListener("focusin", away);
      }
    };
    requestAnimationFrame(() => again(0));
  };
  const onHash = () => {
    if (!loadHash()) return;
    land(true);
  };
  // a link to the address already shown fires no hashchange: load its state again
  const onClick = (ev) => {
    const a = ev.target.closest ? ev.target.closest('a[href^="#dcglab."]') : null;
    if (a && !root.contains(a) && a.hash === location.hash) onHash();
  };
  const hasWindow = typeof window !== "undefined" && typeof location !== "undefined";
  if (hasWindow) {
    if (loadHash()) landOnOpen();
    window.addEventListener("hashchange", onHash);
    document.addEventListener("click", onClick);
  }
  return () => {
    if (hasWindow) {
      window.removeEventListener("hashchange", onHash);
      document.removeEventListener("click", onClick);
    }
    model.off("change", update);
    for (const p of fixedParams) model.off(`change:${p}`, forget);
    if (seen) seen.disconnect();
    if (revealTimer !== null) clearTimeout(revealTimer);
    if (typeof window !== "undefined") {
      window.removeEventListener("pointerup", release, true);
      window.removeEventListener("pointercancel", release, true);
    }
  };
}

// The module an explorer's file exports: anywidget calls render() for each view.
export function explorer(spec) {
  return { render: ({ model, el }) => mount(model, el, spec) };
}
