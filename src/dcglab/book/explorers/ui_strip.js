// The rank strip of the explorers, concatenated after ui.js (base.py's UI).

// ---- the rank strip --------------------------------------------------------------------
// One picture of a ranking, shared by the chapters: each rank is a column whose outlined
// bar is the gain and whose filled part is gain x discount (the hatched rest is what the
// discount takes away). Ranks after the cutoff k are drawn muted. The ideal ranking (or
// any other read-only list) is a second strip on the same scale, and the totals are two
// stacks of the filled parts, so the ratio of their heights is nDCG. Cards of an editable
// strip move by drag or by keyboard and take a grade by a click at a height or a digit.
// The elements are kept between updates and animated to their new place and height,
// with a faint ghost line where each filled part was before.

const BAR_PX = 96;
// the details line's hint names the way the reader's device points at a card
const detailHint = () => (typeof matchMedia === "function" && matchMedia("(hover: none)").matches ? "Tap" : "Point at")
  + " a card, or focus it, for its numbers.";
const MOVE_HELP = "Drag a card to another rank, or press Shift + ← or → to move it (← → alone go from card to card)";
const GRADE_HELP = "; click a bar at a height, or press a digit or ↑ ↓, to set its grade.";

function reducedMotion() {
  return typeof window !== "undefined" && window.matchMedia
    && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function animateFrom(el, frames, ms = 240) {
  if (!reducedMotion() && el.animate) el.animate(frames, { duration: ms, easing: "ease-out" });
}

// A list with the entry at `from` moved to `to` (the others keep their order).
export function moved(list, from, to) {
  const out = list.slice();
  const [x] = out.splice(from, 1);
  out.splice(to, 0, x);
  return out;
}

// A list with the entries at i and j exchanged.
export function swapped(list, i, j) {
  const out = list.slice();
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

// A gain as a card label: at most three significant digits past the integer part
// (4.06, 97.0, 969), so that the label of a large gain fits its card.
export function gainLabel(g, gain) {
  const v = gainValue(g, gain);
  if (Number.isInteger(v)) return String(v);
  return v.toFixed(Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2);
}

// Put the cards in `order` into `strip`, moving only the cards out of place and never
// `held` (the focused card, which would lose the focus if it were taken out of the
// document and put back): a card taken out and put back is laid out anew.
function placeAround(strip, order, held) {
  const at = order.indexOf(held);
  for (let i = 0; i < at; i++)
    if (strip.children[i] !== order[i].card) strip.insertBefore(order[i].card, strip.children[i]);
  for (let i = at + 1; i < order.length; i++)
    if (order[i - 1].card.nextSibling !== order[i].card) order[i - 1].card.after(order[i].card);
}

// spec.ranking(state, result) -> {
//   rows: [{key, title, grades, list (param edited, for an editable strip), marks (class per rank),
//           k (this row's cutoff, null for none; else the view's k),
//           unranked (documents in no ranking: labelled d1, d2, ..., each bar its whole gain)}],
//   gain, discount (null: no discount, the filled part is the whole gain), k, max (top grade),
//   totals: [{row, label, parts (optional: the pieces to stack instead of the row's filled
//             parts), kind (optional: the stack's look, else the row's)}]
//   (stacks of the filled parts of the top k), ratio: text under them }
// a row kind's colour (as styles.css gives its cards) and, for some, its name in the legend
const KIND_COLOUR = {
  system: "var(--dcglab-c0)", ideal: "var(--dcglab-ideal)", v: "var(--dcglab-c4)",
  x: "var(--dcglab-n0)", y: "var(--dcglab-n1)", binary: "var(--dcglab-n0)",
};
const KIND_NAME = { ideal: "ideal ranking", x: "ordering X", y: "ordering Y" };

function rowCut(row, v) {
  return "k" in row ? row.k : v.k;
}

function rankView(spec, ctx) {
  const box = h("div", { class: "dcglab-rank" });
  const rowsBox = h("div", { class: "dcglab-rank-rows" });
  const totalsBox = h("div", { class: "dcglab-totals" });
  box.append(rowsBox, totalsBox);
  const rows = new Map();
  const helpId = `${ctx.id}-help`;
  let totalsEls = [];
  let kinds = {};
  const legend = h("div", { class: "dcglab-help dcglab-key" });
  let legendKey = "";
  let quiet = false, previewing = false;
  let ratioEl = null;
  // the details line: the pointed or focused card's numbers (aria-hidden: a card's name has them)
  const detail = h("p", { class: "dcglab-detail", "aria-hidden": "true" });
  let detailOf = null;
  // whether the reader last moved the pointer (else used a key): a card that slides under
  // a still pointer after a key is not pointed at, and the details follow the focused card
  let pointing = false;
  box.addEventListener("keydown", () => { pointing = false; }, true);
  function showDetail(c) {
    detailOf = c;
    setText(detail, c ? c.what : detailHint());
  }

  function makeRow(row) {
    const wrap = h("div", { class: "dcglab-strip-row", "data-row": row.key });
    const title = h("div", { class: "dcglab-strip-title" });
    const cls = ["dcglab-strip", row.list ? "dcglab-editable" : "", row.kind ? `dcglab-strip-${row.kind}` : ""];
    if (row.movesOnly) cls.push("dcglab-moves-only");
    const strip = h("div", { class: cls.filter(Boolean).join(" ") });
    wrap.append(title, strip);
    if (row.list) {
      // one tab stop per strip (roving tabindex): ← → go from card to card
      strip.setAttribute("role", "toolbar");
      strip.setAttribute("aria-label", row.title);
    } else {
      strip.setAttribute("role", "img");
    }
    rowsBox.append(wrap);
    return { wrap, title, strip, cards: [], list: row.list, movesOnly: Boolean(row.movesOnly) };
  }

  function makeCard(r, editable) {
    const card = h(editable ? "button" : "div", { class: "dcglab-card" });
    if (editable) {
      card.setAttribute("type", "button");
      card.setAttribute("aria-describedby", helpId);
    }
    const area = h("span", { class: "dcglab-bar-area" });
    const bar = h("span", { class: "dcglab-bar" });
    const fill = h("span", { class: "dcglab-fill" });
    const ghost = h("span", { class: "dcglab-ghost" });
    // the part of gain x discount above the gain, where a weight exceeds 1
    const extra = h("span", { class: "dcglab-extra" });
    area.append(bar, fill, extra, ghost);
    const grade = h("span", { class: "dcglab-card-grade" });
    const rank = h("span", { class: "dcglab-card-rank" });
    // a card's accessible name is its text: the visible grade and rank, then a fuller
    // description for screen readers (so the name contains what is seen)
    const sr = h("span", { class: "dcglab-sr" });
    card.append(area, grade, rank, sr);
    const c = { card, area, bar, fill, extra, ghost, grade, rank, sr, what: "", fillPx: null, barPx: null };
    // the numbers of the rank, on hover and keyboard focus, go to the details line under
    // the strips (never over text); the same text is in an editable card's name
    card.addEventListener("pointerenter", () => { if (pointing) showDetail(c); });
    card.addEventListener("pointermove", () => { pointing = true; if (detailOf !== c) showDetail(c); });
    card.addEventListener("pointerleave", () => { if (pointing) showDetail(null); });
    if (editable) {
      card.addEventListener("focus", () => { if (card.matches(":focus-visible")) showDetail(c); });
      card.addEventListener("blur", () => showDetail(null));
      bindCard(r, c);
    }
    return c;
  }

  // The one card of a strip in the tab order (roving tabindex): the last one focused.
  function setCurrent(r, c) {
    r.current = r.all.indexOf(c);
    for (const o of r.all) {
      const t = o === c ? "0" : "-1";
      if (o.card.getAttribute("tabindex") !== t) o.card.setAttribute("tabindex", t);
    }
  }

  // Keyboard, pointer and click handling of one editable card: ← → Home End move the
  // focus along the strip; with Shift they move the card; ↑ ↓ and digits set its grade.
  function bindCard(r, c) {
    const index = () => r.cards.indexOf(c);
    c.card.addEventListener("focus", () => setCurrent(r, c));
    c.card.addEventListener("keydown", (ev) => {
      const i = index(), n = r.cards.length, s = ctx.state();
      const g = readParam(s, r.list)[i];
      const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: n - 1 }[ev.key];
      let handled = true;
      if (ev.altKey || ev.ctrlKey || ev.metaKey) handled = false;
      else if (to !== undefined) {
        if (to >= 0 && to < n && to !== i) {
          if (ev.shiftKey) move(r, i, to);
          else r.cards[to].card.focus();
        }
      } else if (r.movesOnly) {
        // a key that would set a grade says why it does not
        handled = ["ArrowUp", "ArrowDown"].includes(ev.key) || /^[0-9]$/.test(ev.key);
        if (handled) ctx.write(r.list, readParam(s, r.list).slice(), "Grades are fixed here (they are the judgments); Shift+←/→ reorders.");
      }
      else if (ev.key === "ArrowUp" && g < ctx.max) setGrade(r, i, g + 1);
      else if (ev.key === "ArrowDown" && g > 0) setGrade(r, i, g - 1);
      else if (/^[0-9]$/.test(ev.key) && Number(ev.key) <= ctx.max) setGrade(r, i, Number(ev.key));
      // at the end of the scale the key changes nothing, and says why
      else if (ev.key === "ArrowUp" || ev.key === "ArrowDown") {
        ctx.write(r.list, readParam(s, r.list).slice(), ev.key === "ArrowUp"
          ? `Rank ${i + 1} already has the top grade, ${ctx.max}.` : `Rank ${i + 1} already has grade 0, the lowest.`);
      } else handled = false;
      if (handled) ev.preventDefault();
    });
    let drag = null;
    c.card.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0) return;
      drag = { x: ev.clientX, y: ev.clientY, moving: false, id: ev.pointerId };
      c.card.setPointerCapture?.(ev.pointerId);
    });
    c.card.addEventListener("pointermove", (ev) => {
      if (!drag) return;
      const dx = ev.clientX - drag.x;
      if (!drag.moving && Math.abs(dx) < 8) return;
      if (!drag.moving) {
        // the columns' centres before anything slides: where a drop lands
        drag.centres = r.cards.map((o) => { const b = o.card.getBoundingClientRect(); return b.left + b.width / 2; });
        drag.pitch = r.cards.length > 1 ? drag.centres[1] - drag.centres[0] : 0;
        drag.from = index();
        drag.to = drag.from;
      }
      drag.moving = true;
      c.card.classList.add("dcglab-dragging");
      c.card.style.transform = `translateX(${dx}px)`;
      // a preview of the move: the cards between slide over by one rank, every card shows
      // the rank it would take, and the cutoff's marks follow
      const to = nearestCentre(drag.centres, ev.clientX), from = drag.from, n = r.cards.length;
      r.cards.forEach((o, j) => {
        const shift = o === c ? to - j : from < to && j > from && j <= to ? -1 : to < from && j >= to && j < from ? 1 : 0;
        if (o !== c) {
          const t = shift ? `translateX(${shift * drag.pitch}px)` : "";
          if (o.card.style.transform !== t) o.card.style.transform = t;
        }
        const at = j + shift;
        setText(o.rank, `#${at + 1}`);
        o.card.classList.toggle("dcglab-below", at >= r.k);
        o.card.classList.toggle("dcglab-cut", at === r.k && r.k < n);
      });
      // the other strips and the stacks show the move the drop would make
      if (to !== drag.to) {
        drag.to = to;
        if (!drag.restore) drag.restore = snapshot();
        const s = ctx.state();
        writeInto(s, r.list, moved(readParam(s, r.list), from, to));
        update(s, ctx.compute(s), r);
      }
    });
    const end = (ev, cancelled) => {
      if (!drag) return;
      const d = drag;
      drag = null;
      c.card.classList.remove("dcglab-dragging");
      c.card.style.transform = "";
      r.cards.forEach((o) => { o.card.classList.remove("dcglab-drop"); o.card.style.transform = ""; });
      const i = index();
      const to = d.moving ? nearestCentre(d.centres, ev.clientX) : i;
      if (d.restore) d.restore();
      // the preview's ranks, marks, strips and stacks go back unless the move redraws them
      if (d.moving && (cancelled || to === i)) ctx.refresh();
      if (cancelled) return;
      if (d.moving) {
        if (to !== i) move(r, i, to);
      } else if (!r.movesOnly) {
        const g = gradeAt(c, ev.clientY);
        if (g !== null && g !== readParam(ctx.state(), r.list)[i]) setGrade(r, i, g);
      }
    };
    c.card.addEventListener("pointerup", (ev) => end(ev, false));
    c.card.addEventListener("pointercancel", (ev) => end(ev, true));
  }

  // The rank whose column centre is nearest to a pointer's x.
  function nearestCentre(centres, x) {
    let best = 0, dist = Infinity;
    centres.forEach((cx, j) => {
      const d = Math.abs(cx - x);
      if (d < dist) { dist = d; best = j; }
    });
    return best;
  }

  // The grade whose gain level (on the strip's scale) is nearest to a click's height;
  // null for a click below the bar area (on the labels).
  function gradeAt(c, y) {
    const b = c.area.getBoundingClientRect();
    if (y > b.bottom + 2) return null;
    const up = b.bottom - y;
    let best = 0, dist = Infinity;
    for (let g = 0; g <= ctx.max; g++) {
      const d = Math.abs(gainValue(g, ctx.gain) * ctx.scale - up);
      if (d < dist) { dist = d; best = g; }
    }
    return best;
  }

  function move(r, from, to) {
    const list = readParam(ctx.state(), r.list);
    r.ids = moved(r.ids, from, to);
    r.focus = r.ids[to];
    ctx.write(r.list, moved(list, from, to),
      `Moved the grade-${list[from]} document from rank ${from + 1} to rank ${to + 1}.`);
  }

  function setGrade(r, i, g) {
    const list = readParam(ctx.state(), r.list).slice();
    list[i] = g;
    r.focus = r.ids[i];
    ctx.write(r.list, list, `Rank ${i + 1} now has grade ${g}.`);
  }

  // hold: the strip whose card is being dragged; the other strips and the stacks are drawn
  // from the move it previews (state), the held strip as the drag leaves it
  function update(state, result, hold = null) {
    const v = spec(state, result, ctx);
    box.hidden = v.rows.length === 0;
    if (box.hidden) return;
    const disc = v.discount;
    const max = v.max ?? 3;
    const n = Math.max(...v.rows.map((row) => row.grades.length));
    const w = disc ? weights(n, disc) : new Array(n).fill(1);
    // one scale per gain (rows may each name a gain): the top grade's largest bar fills it
    const scales = {};
    for (const row of v.rows) {
      const gain = row.gain ?? v.gain, key = JSON.stringify(gain);
      scales[key] = BAR_PX / (gainValue(max, gain) * Math.max(1, ...w) || 1);
    }
    ctx.max = max;
    ctx.gain = v.gain;
    ctx.scale = scales[JSON.stringify(v.gain)] ?? Object.values(scales)[0];
    ctx.scales = scales;
    const seen = new Set();
    const fills = {};
    // a strip that shows another list (chapter 10's query): every bar and stack shows other
    // documents, so no "before your last change" ghost anywhere
    const switched = v.rows.some((row) => row.list && rows.has(row.key) && rows.get(row.key).list !== row.list);
    quiet = ctx.jump || switched || Boolean(hold);
    previewing = Boolean(hold);
    for (const row of v.rows) {
      seen.add(row.key);
      if (!rows.has(row.key)) rows.set(row.key, makeRow(row));
      const r = rows.get(row.key);
      if (r.list !== row.list) {  // another list in the same place (chapter 10's query)
        r.list = row.list;
        if (r.ids) r.ids = r.all.map((_, i) => i);
        r.drawn = undefined;
        // another ranking, not a change of this one: no ghosts, no animation from the old bars
        for (const c of r.all || []) { c.fillPx = c.barPx = null; c.dg = undefined; }
      }
      setRich(r.title, row.title);
      fills[row.key] = r === hold ? filledParts(row, v, w) : drawRow(r, row, v, w);
    }
    for (const [key, r] of rows) if (!seen.has(key)) { r.wrap.remove(); rows.delete(key); }
    help.hidden = !v.rows.some((row) => row.list);
    setText(help, v.rows.every((row) => !row.list || row.movesOnly) ? `${MOVE_HELP}. The grades are the judges': a system only orders its documents.` : MOVE_HELP + GRADE_HELP);
    kinds = Object.fromEntries(v.rows.map((row) => [row.key, row.kind || "system"]));
    // the legend names the cutoff's marks only when some rank lies after k
    const cut = v.rows.some((row) => (rowCut(row, v) ?? row.grades.length) < row.grades.length);
    const boost = Object.values(fills).some((f) => f.boost);
    // the marks take the rows' colour; rows of several colours get a swatch each, and the
    // marks of the bars' parts are then drawn in a neutral grey
    const shown = [...new Set(v.rows.map((row) => row.kind || "system"))];
    const one = shown.length === 1 ? KIND_COLOUR[shown[0]] || KIND_COLOUR.system : "var(--dcglab-muted)";
    // without a discount a bar is its whole gain: where each kind has its own swatch, that
    // swatch is the bar's mark, and a grey "gain" mark would name a bar never drawn
    const items = v.legend === "" ? [] : v.discount
      ? [["outline", "gain"], ["fill", "gain × discount (adds to DCG)"], ["hatch", "lost to the discount"]]
      : shown.length > 1 ? [] : [["fill", "gain"]];
    for (const it of items) it.push(one);
    if (v.legend !== "" && shown.length > 1) {
      // named as in the map, else by the first words of the first such row's title
      // ("Your ranking, discount …" → "Your ranking", "System A, query 3" → "System A")
      const nameOf = (kind) => {
        const title = v.rows.find((row) => (row.kind || "system") === kind).title;
        return KIND_NAME[kind] || (typeof title === "string" && title.split(/[:,(]/)[0].trim()) || kind;
      };
      items.unshift(...shown.map((kind) => ["fill", nameOf(kind), KIND_COLOUR[kind] || KIND_COLOUR.system]));
    }
    // documents judged but not retrieved (chapter 7) are drawn in their own colour; where
    // a strip holds them but none is drawn now, the mark keeps its place, unseen, so that
    // the controls under the legend do not move as documents come and go
    const missed = v.rows.some((row) => (row.marks || []).some((m) => /\bdcglab-missed\b/.test(m || "")));
    if (v.legend !== "" && (missed || v.rows.some((row) => row.unranked)))
      items.push(["fill", "judged, not retrieved", "var(--dcglab-c4)", !missed]);
    if (boost) items.push(["extra", "added by a weight above 1", one]);
    if (cut && v.legend !== "") items.push(["after", "after the cutoff k, not counted"]);
    if (v.legend !== "" && v.rows.some((row) => row.list)) items.push(["ghost", "before your last change"]);
    const key = JSON.stringify([v.legend, items]);
    if (key !== legendKey) {
      legendKey = key;
      legend.replaceChildren();
      if (v.legend) legend.append(v.legend);
      for (const [mark, text, colour, unseen] of items) {
        const item = h("span", unseen ? { class: "dcglab-key-item", style: "visibility: hidden", "aria-hidden": "true" }
          : { class: "dcglab-key-item" });
        const style = colour ? { style: `--dcglab-key: ${colour}` } : {};
        item.append(h("span", { class: `dcglab-key-mark dcglab-key-${mark}`, "aria-hidden": "true", ...style }), text);
        legend.append(item);
      }
    }
    // after a key, the focused card's numbers (it may have moved, or changed grade)
    const active = typeof document !== "undefined" ? document.activeElement : null;
    if (!pointing && active && active.classList && active.classList.contains("dcglab-card") && box.contains(active)
        && active.matches(":focus-visible")) {
      const c = [...rows.values()].flatMap((r) => r.all || []).find((o) => o.card === active);
      if (c) detailOf = c;
    }
    if (detailOf && !detailOf.card.isConnected) showDetail(null);
    else setText(detail, detailOf ? detailOf.what : detailHint());
    drawTotals(v, fills, switched);
  }

  // the filled parts of a row's top k (what its stacks add), without drawing it
  function filledParts(row, v, w) {
    const k = Math.min(rowCut(row, v) ?? row.grades.length, row.grades.length), gain = row.gain ?? v.gain;
    return row.grades.slice(0, k).map((x, i) => (row.unranked ? gainValue(x, gain) : gainValue(x, gain) * w[i]));
  }

  // what a drag's preview overwrites (each card's and stack's last drawn values), put back
  // when the drag ends, so the move's own drawing compares with the state before it
  function snapshot() {
    const cards = [...rows.values()].flatMap((r) => (r.all || []).map((c) => [c, c.dg, c.barPx, c.fillPx]));
    const stacks = totalsEls.map((e) => [e, e.px, e.sum]);
    return () => {
      for (const [c, dg, barPx, fillPx] of cards) Object.assign(c, { dg, barPx, fillPx });
      for (const [e, px, sum] of stacks) Object.assign(e, { px, sum });
    };
  }

  function drawRow(r, row, v, w) {
    const g = row.grades, n = g.length, k = Math.min(rowCut(row, v) ?? n, n);
    r.k = k;
    const editable = Boolean(row.list);
    const rowGain = row.gain ?? v.gain, scale = ctx.scales[JSON.stringify(rowGain)];
    if (r.all === undefined || r.all.length !== n) {
      (r.all || []).forEach((c) => c.card.remove());
      r.all = Array.from({ length: n }, () => makeCard(r, editable));
      r.ids = r.all.map((_, i) => i);
      if (editable) setCurrent(r, r.all[Math.min(r.current ?? 0, n - 1)]);
    }
    // cards follow their document: a move permutes r.ids before the state changes
    const order = r.ids.map((id) => r.all[id]);
    // a move is drawn without reading the layout: the cards' old ranks and the column
    // pitch (measured by a ResizeObserver after a layout) give each card's slide
    const reorder = r.drawn !== undefined && r.ids.some((id, i) => r.drawn[i] !== id);
    const was = reorder ? new Map(r.drawn.map((id, i) => [id, i])) : null;
    r.drawn = r.ids.slice();
    if (!r.sizer && typeof ResizeObserver !== "undefined") {
      r.sizer = new ResizeObserver(() => { if (r.cards.length) r.pitch = r.cards[0].card.offsetWidth + 2; });
      r.sizer.observe(r.strip);
    }
    const focused = document.activeElement;
    const held = order.find((c) => c.card === focused);
    if (held && reorder) placeAround(r.strip, order, held);
    else order.forEach((c, i) => {
      if (r.strip.children[i] !== c.card) r.strip.insertBefore(c.card, r.strip.children[i] || null);
    });
    r.cards = order;
    const want = r.focus !== undefined ? r.all[r.focus].card : held ? focused : null;
    if (want && document.activeElement !== want) want.focus({ preventScroll: true });
    r.focus = undefined;
    const parts = [];
    const labels = [];
    let boost = false;
    const arrow = g.every((x) => gainLabel(x, rowGain).length <= 1);
    order.forEach((c, i) => {
      // an unranked row (documents no ranking placed) has no discount: the bar is its gain
      const gain = gainValue(g[i], rowGain), dg = row.unranked ? gain : gain * w[i];
      const barPx = gain * scale, fillPx = dg * scale;
      const below = i >= k;
      if (!below) parts.push(dg);
      // a weight above 1: the filled part reaches above the gain's outline
      const over = fillPx > barPx + 0.5;
      boost = boost || over;
      setStyle(c.extra, "bottom", over ? `${barPx}px` : "0px");
      setStyle(c.extra, "height", over ? `${fillPx - barPx}px` : "0px");
      const cls = ["dcglab-card", below ? "dcglab-below" : "", i === k && k < n ? "dcglab-cut" : "", over ? "dcglab-over" : "",
        g[i] === 0 ? "dcglab-zero" : "", (row.marks && row.marks[i]) || ""].filter(Boolean).join(" ");
      if (c.card.className !== cls) c.card.className = cls;
      if (c.barPx !== null && c.barPx !== barPx) animateFrom(c.bar, [{ height: `${c.barPx}px` }, { height: `${barPx}px` }]);
      if (c.fillPx !== null && c.fillPx !== fillPx) animateFrom(c.fill, [{ height: `${c.fillPx}px` }, { height: `${fillPx}px` }]);
      // a ghost only where the value changed, at the old value on the current scale, and
      // only where that falls inside the bar area (never over the labels under it)
      const still = quiet || c.dg === undefined || Math.abs(c.dg - dg) * scale < 0.5
        || c.dg * scale > BAR_PX + 0.5 || c.dg * scale < 0;
      if (!still) setStyle(c.ghost, "bottom", `${c.dg * scale}px`);
      if (c.ghost.hidden !== still) c.ghost.hidden = still;
      setStyle(c.bar, "height", `${barPx}px`);
      setStyle(c.fill, "height", `${fillPx}px`);
      c.barPx = barPx;
      c.fillPx = fillPx;
      c.dg = dg;
      // another gain: the grade, then its gain on a second line (every card of the row
      // alike), with an arrow only where every gain label of the row is short enough to
      // leave room for it on the narrowest card
      const gl = rowGain === "linear" ? "" : `\n${arrow ? "→ " : ""}${gainLabel(g[i], rowGain)}`;
      setText(c.grade, `${g[i]}${gl}`);
      setText(c.rank, row.unranked ? `d${i + 1}` : `#${i + 1}`);
      const what = (row.unranked ? `document d${i + 1}, not ranked` : `rank ${i + 1}`)
        + `: grade ${g[i]}, gain ${gainLabel(g[i], rowGain)}`
        + (v.discount && !row.unranked ? `, discounted gain ${fmt(dg)}` : "")
        + (over ? ` (weight ${fmt(w[i], 2)} > 1)` : "") + (below ? `, after the cutoff ${k}` : "")
        + (row.marks && row.marks[i] === "dcglab-missed" ? ", not retrieved" : "");
      if (editable) setText(c.sr, `, ${what}`);
      c.what = `${plainText(row.title)}. ${what.charAt(0).toUpperCase()}${what.slice(1)}.`;
      labels.push(what);
    });
    const name = `${plainText(row.title)}. ${labels.join("; ")}`;
    if (!editable && r.strip.getAttribute("aria-label") !== name) r.strip.setAttribute("aria-label", name);
    // slide moved cards from where they were (a card new to the strip has no place to slide from)
    if (reorder && r.pitch) order.forEach((c, i) => {
      const from = was.get(r.ids[i]);
      const dx = from === undefined ? 0 : (from - i) * r.pitch;
      if (Number.isFinite(dx) && dx !== 0) animateFrom(c.card, [{ transform: `translateX(${dx}px)` }, { transform: "none" }]);
    });
    parts.boost = boost;
    return parts;
  }

  // switched: a strip shows another list, so the stacks show other sums (no ghost)
  function drawTotals(v, fills, switched) {
    const totals = v.totals || [];
    totalsBox.hidden = totals.length === 0;
    if (!totals.length) return;
    const pieces = totals.map((t) => t.parts || fills[t.row] || []);
    const sums = pieces.map((p) => p.reduce((a, b) => a + b, 0));
    const top = Math.max(1e-12, ...sums);
    while (totalsEls.length < totals.length) {
      const col = h("div", { class: "dcglab-total", role: "img" });
      const stack = h("span", { class: "dcglab-stack" });
      const ghost = h("span", { class: "dcglab-ghost" });
      const label = h("span", { class: "dcglab-total-label" });
      const value = h("span", { class: "dcglab-total-value" });
      stack.append(ghost);
      col.append(stack, label, value);
      totalsBox.insertBefore(col, ratioEl);
      totalsEls.push({ col, stack, ghost, label, value, segs: [], px: null });
    }
    if (!ratioEl) {
      ratioEl = h("p", { class: "dcglab-ratio" });
      totalsBox.append(ratioEl);
    }
    totals.forEach((t, j) => {
      const e = totalsEls[j];
      const parts = pieces[j];
      const scale = BAR_PX / top;
      while (e.segs.length < parts.length) {
        const seg = h("span", { class: "dcglab-seg" });
        e.stack.append(seg);
        e.segs.push(seg);
      }
      e.segs.forEach((seg, i) => {
        if (seg.hidden !== i >= parts.length) seg.hidden = i >= parts.length;
        if (i < parts.length) setStyle(seg, "height", `${parts[i] * scale}px`);
      });
      const px = sums[j] * scale;
      const moved = e.px !== null && !ctx.jump && !switched && !previewing;
      if (moved && Math.abs(e.px - px) > 0.5) animateFrom(e.stack, [{ height: `${e.px}px` }, { height: `${px}px` }]);
      // a ghost only where the sum changed (not where the scale did), at the old sum on the
      // current scale, and only inside the stack's area: an old sum above the new top would
      // be drawn over the strip above the totals
      if (moved && Math.abs(e.sum - sums[j]) * scale > 0.5 && e.sum * scale <= BAR_PX + 0.5) {
        e.ghost.hidden = false;
        setStyle(e.ghost, "bottom", `${e.sum * scale}px`);
      } else if (!e.ghost.hidden) e.ghost.hidden = true;
      setStyle(e.stack, "height", `${px}px`);
      e.px = px;
      e.sum = sums[j];
      setText(e.label, t.label);
      // a total may name its own format (chapter 1's whole-number CG)
      const f = t.format || fmt;
      setText(e.value, f(sums[j]));
      const cls = `dcglab-total dcglab-total-${t.kind || kinds[t.row]}`;
      if (e.col.className !== cls) e.col.className = cls;
      const name = `${t.label} = ${f(sums[j])}`;
      if (e.col.getAttribute("aria-label") !== name) e.col.setAttribute("aria-label", name);
    });
    totalsEls.forEach((e, j) => { if (e.col.hidden !== j >= totals.length) e.col.hidden = j >= totals.length; });
    setText(ratioEl, v.ratio || "");
  }

  const help = h("p", { class: "dcglab-help", id: helpId }, MOVE_HELP + GRADE_HELP);
  // the strips come first, right under the predict box's verdict; their key, the
  // pointed card's numbers and how to edit them follow
  box.append(legend, detail, help);
  showDetail(null);
  // Reset puts every card back where it started.
  const home = () => { for (const r of rows.values()) if (r.ids) r.ids = r.ids.map((_, i) => i); };
  return { el: box, update, home };
}
