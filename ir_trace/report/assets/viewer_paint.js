// needs: viewer_dom.js, viewer_model.js, viewer_layout.js, viewer_fold.js, viewer_rows.js, viewer_wraps.js
/* pypto-ir-trace viewer: the panes (IRTracePainter).
 * Paints a view's rows (viewer_rows.js) into the Before and After panes, or into one pane in the
 * Unified layout: pane geometry (width, wrapped heights known in advance), virtual scrolling (only
 * rows near the viewport are in the DOM), the panes kept in sync, walking the changes of a pass,
 * the edge markers that point at a change scrolled out of sight sideways, and the context line
 * pinned atop each pane that names the function its first visible row belongs to. */
const IRTracePainter = (() => {
  'use strict';

  const { EQ, DEL, FOLD, INS } = IRTraceModel;
  const { unifyRows, shareRewriteRows, changeBlocks, enclosingFunction, lineColumns, lineOn } = IRTraceLayout;
  const { rowElement, sideOf, paintCode, el, tokenize, focusedControl, refocus, edgeMarkButton, columnsOf, contextButton } = IRTraceRows;
  const { createWraps } = IRTraceWraps;
  const { onActivate } = IRTraceDom;
  const { planFolds, displayLine, HUGE_LINE, HUGE_STEP, HAS_CONTROL } = IRTraceFold;
  const ROW_HEIGHT = 20;      // px, equals --row-h in viewer.css (virtualisation needs a fixed height)
  const OVERSCAN = 40;        // rows rendered beyond the viewport on each side
  const OPEN_OVERSCAN = 0;    // ... until the first paint: the opening frame (and a pass switch's)
                              // styles and lays out only the rows in sight; settle() widens it after
  const LEAD_ROWS = 3;        // a change is shown this many rows below the top of the pane
  const ECHO_SLACK = 1.5;     // px: fractional offsets of a smooth scroll round on assignment
  const EDGE_STRIP = 16;      // px: the strip reserved for edge markers, equals .edged .row::after in viewer.css

  /** A painter over two scroll containers (each holding .sizer > .rows). options: hits(text) gives
   *  the find ranges of a line or null, follows(text) those of a followed value; onCursor(index,
   *  count) hears which change is shown; unfold(side, line) opens the fold hiding a line (true
   *  when one did: the view is shown again). */
  function createPainter(beforeScroller, afterScroller, { hits, onCursor, unfold, follows = () => null }) {
    const pane = (scroller, side) => {
      const edges = el('div', 'edge-marks');
      edges.setAttribute('aria-hidden', 'true');
      const p = { scroller, rows: scroller.querySelector('.rows'), side, expect: null, edges, context: contextButton() };
      p.context.addEventListener('click', () => goToContext(p));
      // Registered before viewer.js's click handler on the rows, which would follow the value
      // under a click on code: a chip is not code.
      onActivate(p.rows, '.chip', (chip, event) => {
        event.stopImmediatePropagation();
        openChip(chip);
        p.scroller.focus({ preventScroll: true });
      });
      scroller.parentElement.append(edges, p.context);
      return p;
    };
    const panes = { before: pane(beforeScroller, 'a'), after: pane(afterScroller, 'b') };
    for (const p of Object.values(panes)) p.geo = { width: 0, height: 0, top: 0 };
    let view = null, items = [], blocks = [], cursor = -1;
    let sources = null;         // per side, the function index and lines the context line reads
    let mode = { wrap: false, unified: false, sideBySide: true, inlineFolds: true, markIndent: true };
    let active = [panes.before, panes.after];
    let leader = panes.after;   // the pane the reader scrolls; the other follows it
    let offsets = null;         // row tops when wrapping (Float64Array), else rows are ROW_HEIGHT each
    let metrics = { cw: 7.5, codeLeft: 60, cols: 80 };
    let rendered = { first: -1, last: -1, items };
    let shownCache = new Map();   // "a12" -> line 12 of Before as shown (displayLine), at metrics.cols
    let opened = new Map();       // "a12" -> { whole, limit }: lines the reader opened, for this view
    // Which rows wrap (all with Wrap; else the change-dense ones) and the row tops that follow.
    const wraps = createWraps({
      items: () => items, sides: () => (mode.unified ? ['u'] : active.map((p) => p.side)),
      lineOf: (which, line) => (which === 'a' ? view.before : view.after)[line], cols: () => metrics.cols,
      shownOf, wrapAll: () => mode.wrap, folding: () => mode.inlineFolds,
    });

    /** Paint `nextView` (display rows already folded and labelled). keepScroll leaves the scroll
     *  position alone; otherwise the panes open on the first change, scrolled fully left. */
    function show(nextView, {
      keepScroll = false, wrapLines = mode.wrap, unified = mode.unified, sideBySide = mode.sideBySide,
      inlineFolds = mode.inlineFolds, markIndent = mode.markIndent,
    } = {}) {
      const anchor = keepScroll && view ? topAnchor() : null;
      if (!keepScroll || (inlineFolds && !mode.inlineFolds)) opened = new Map();   // a new view, or Collapse all
      if (!keepScroll && view) {
        // A new pass paints the rows in sight first, as the page's first paint does; the next
        // frame builds the overscan.
        overscan = OPEN_OVERSCAN;
        requestAnimationFrame(() => requestAnimationFrame(settle));
      }
      view = nextView;
      shownCache = new Map();
      mode = { wrap: wrapLines, unified, sideBySide, inlineFolds, markIndent };
      active = unified ? [panes.after] : [panes.before, panes.after];
      items = unified ? unifyRows(view.display) : sideBySide ? shareRewriteRows(view.display) : view.display;
      blocks = changeBlocks(items);
      sources = { a: { fns: view.fns.a, lines: view.before }, b: { fns: view.fns.b, lines: view.after } };
      for (const p of Object.values(panes)) p.contextShown = null;
      cursor = -1;
      // Drop the old rows first: resizing and scrolling then lays out almost nothing.
      for (const p of Object.values(panes)) { p.rows.textContent = ''; p.edges.textContent = ''; }
      leader = panes.after;
      // A new pass checks only the rows up to its first screen for wrapping on their own (rows
      // before the first change do not change): settle() checks the rest, or anything that needs them.
      layoutPanes(keepScroll ? Infinity : (blocks.length ? blocks[0][0] : 0) + Math.ceil(leader.scroller.clientHeight / ROW_HEIGHT) + OVERSCAN);
      if (!keepScroll) {
        if (blocks.length) { goToBlock(0, 0); return; }
        scrollBoth(0, 0);
      } else if (anchor) {
        restoreAnchor(anchor);
      }
      cursor = blockInSight();
      render(true);
      report();
    }

    /** The first line at the top of the pane, to find it again once the rows change. */
    function topAnchor() {
      const sc = leader.scroller, first = rowAt(sc.scrollTop);
      for (let i = first; i < Math.min(items.length, first + 60); i++) {
        const r = items[i];
        if (r.kind !== FOLD) return { a: r.a, b: r.b, dy: rowTop(i) - sc.scrollTop, left: sc.scrollLeft };
      }
      return null;
    }

    function restoreAnchor({ a, b, dy, left }) {
      const at = items.findIndex((r) => r.kind !== FOLD && (b >= 0 ? r.b === b : r.a === a));
      if (at >= 0) scrollBoth(Math.max(0, rowTop(at) - dy), left);
    }

    /** The first change whose first row is on screen, else -1. */
    function blockInSight() {
      const sc = leader.scroller;
      return blocks.findIndex(([s]) => rowTop(s) >= sc.scrollTop && rowTop(s) < sc.scrollTop + sc.clientHeight);
    }

    /* ---------- geometry ---------- */

    function digits() {
      return String(Math.max(view.before.length, view.after.length)).length;
    }

    /** Size the panes alike so their scroll ranges match: the widest line sets the width (unless
     *  wrapping), the row heights set the height. */
    function layoutPanes(checkUpTo = Infinity) {
      measure();   // folding fits lines to the pane: its width first
      const cols = metrics.cols;
      wraps.check(checkUpTo);
      const chars = widestShown();
      const d = digits(), gutter = mode.unified ? 2 * d + 1 : d;
      const contentWidth = mode.wrap ? 0 : (chars + gutter + 4) * metrics.cw + 28;
      for (const p of active) {
        const sizer = p.scroller.firstElementChild;
        // Only without inline folding can a change hide sideways: then a strip holds the markers.
        p.edged = !mode.wrap && !mode.inlineFolds && contentWidth > p.geo.width;
        p.scroller.classList.toggle('wrap', mode.wrap);
        p.scroller.classList.toggle('unified', mode.unified);
        p.scroller.classList.toggle('edged', p.edged);
        for (const box of [sizer, p.context]) box.style.setProperty('--gutter', `calc(${gutter + 2}ch + 12px)`);
        sizer.style.width = mode.wrap ? '' : `calc(${chars + gutter + 4}ch + ${28 + (p.edged ? EDGE_STRIP : 0)}px)`;
      }
      measure();
      if (metrics.cols !== cols) wraps.check(checkUpTo);
      offsets = wraps.rowTops(ROW_HEIGHT);
      const height = `${rowTop(items.length)}px`;
      for (const p of active) p.scroller.firstElementChild.style.height = height;
    }

    /** Columns of the widest line as shown (folded lines count their chips, not their hidden text). */
    function widestShown() {
      let chars = 0;
      for (const item of items) {
        if (item.kind === FOLD || wraps.wraps(item)) continue;   // a wrapped row fits the pane
        for (const p of active) {
          const side = mode.unified ? 'u' : p.side, { line, side: which } = lineOn(item, side);
          if (line < 0) continue;
          const text = (which === 'a' ? view.before : view.after)[line];
          if (text.length <= chars && !HAS_CONTROL.test(text)) continue;
          chars = Math.max(chars, shownWidthBound(item, side, text));
        }
      }
      return chars;
    }

    /** Columns a row's line takes as shown, or more, computed without planning its folds where
     *  that is enough (a pass switch pays for the rows in sight only): folding only shortens a
     *  line, and an unchanged one folds to the pane. Huge lines and invisible characters are
     *  planned: those can be far wider as text than as shown. */
    function shownWidthBound(item, side, text) {
      if (text.length > HUGE_LINE || HAS_CONTROL.test(text)) {
        // A row re-marked under the ignore modes is settled when shown: until then, a bound.
        if (item.marks) return Math.min(lineColumns(text) * 8, HUGE_LINE + 20);
        const shown = shownOf(item, side);
        return lineColumns(shown ? shown.text : text);
      }
      const { side: which, line } = lineOn(item, side);
      const folds = item.kind === EQ && mode.inlineFolds && !opened.has(which + line);
      return folds ? Math.min(lineColumns(text), metrics.cols) : lineColumns(text);
    }

    /** How a row's line on `side` shows (IRTraceFold.displayLine; null: as is). A line folds its
     *  unchanged runs when it is wider than the pane, unless the reader opened it or Expand all is
     *  on; a huge line shows its start whatever the folding. Memoised per view and pane width. */
    function shownOf(item, side) {
      const { line, text: which, ranges } = sideOf(item, side);
      const key = which + line;
      if (shownCache.has(key)) return shownCache.get(key);
      const text = (which === 'a' ? view.before : view.after)[line];
      const open = opened.get(key);
      const role = ranges ? 'changed' : item.kind === EQ ? 'context' : 'whole';
      // Wrap lines shows a changed line whole: chips would cut it into fragments (`… %10 … arg2 …`).
      const fold = mode.inlineFolds && !(open && open.whole) && !(mode.wrap && role === 'changed');
      const plan = planFolds(text, ranges, role, metrics.cols,
        { limit: open ? open.limit : HUGE_LINE, fold, tokensOf: tokenize, highlightIndent: !mode.markIndent });
      const shown = displayLine(text, plan);
      shownCache.set(key, shown);
      return shown;
    }

    /** The reader clicked a chip: show the folded run's whole line, or more of a huge line. */
    function openChip(chip) {
      const key = chip.dataset.side + chip.dataset.line;
      const open = opened.get(key) || { whole: false, limit: HUGE_LINE };
      if (chip.dataset.kind === 'huge') open.limit *= HUGE_STEP; else open.whole = true;
      opened.set(key, open);
      shownCache.delete(key);
      const anchor = topAnchor();
      layoutPanes();
      if (anchor) restoreAnchor(anchor);
      render(true);
    }

    /** Character width, where code starts in a row, and characters per line, from a hidden probe
     *  row in the narrowest active pane. */
    function measure() {
      // Every pane's geometry first, in one layout: a read after a write lays the page out again
      // (a thousand-pass sidebar makes each of those cost milliseconds). The probe comes and goes
      // before anything else is written, so these are the values once it is gone.
      const geos = active.map((p) => ({ width: p.scroller.clientWidth, height: p.scroller.clientHeight, top: p.scroller.offsetTop }));
      const host = active[geos.reduce((best, g, i) => (g.width < geos[best].width ? i : best), 0)];
      const { cw, codeLeft, padding } = rowMetrics(host);
      const usable = geos[active.indexOf(host)].width - codeLeft - padding;
      const cols = Math.max(8, Math.floor(usable / cw));
      if (cols !== metrics.cols) shownCache = new Map();
      metrics = { cw, codeLeft, cols };
      // Read while the panes are empty and layout is cheap: painting never has to ask again.
      active.forEach((p, i) => {
        p.geo = geos[i];
        p.context.style.top = `${p.geo.top}px`;
        p.context.style.width = `${p.geo.width}px`;
      });
    }

    let probed = { key: '', cw: 7.5, codeLeft: 60, padding: 12 };

    /** A code row's character width, where its code starts and the code's right padding, from a
     *  hidden probe row in the pane `host`. They change only with the gutter (the line numbers'
     *  digits), the layout and the fonts: a pass switch with the same ones asks no layout for them. */
    function rowMetrics(host) {
      const sizer = host.scroller.firstElementChild;
      const classes = host.scroller.className.replace(' sideways', '');   // sticky or not: the same metrics
      const key = [host.side, sizer.style.getPropertyValue('--gutter'), classes, document.fonts.status].join('|');
      if (key === probed.key && document.fonts.status === 'loaded') return probed;
      const probe = el('div', 'row');
      const code = el('span', 'code');
      const ruler = el('span', '', '0'.repeat(100));
      code.appendChild(ruler);
      probe.append(el('span', 'ln', '0'), el('span', 'mk'), code);
      probe.style.visibility = 'hidden';
      host.rows.appendChild(probe);
      const cw = ruler.getBoundingClientRect().width / 100 || 7.5;
      const codeLeft = code.getBoundingClientRect().left - probe.getBoundingClientRect().left;
      const padding = parseFloat(getComputedStyle(code).paddingRight);
      probe.remove();
      probed = { key, cw, codeLeft, padding };
      return probed;
    }

    /** Check the rows a pass switch left unchecked: true when that laid the panes out again (the
     *  rows in sight keep their places: those above them were checked). */
    function checkWraps() {
      if (wraps.complete) return false;
      layoutPanes();
      return true;
    }

    const rowTop = (i) => (offsets ? offsets[i] : i * ROW_HEIGHT);

    /** Index of the row at vertical offset y. */
    function rowAt(y) {
      if (!offsets) return Math.floor(y / ROW_HEIGHT);
      let lo = 0, hi = items.length;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (offsets[mid] <= y) lo = mid; else hi = mid - 1;
      }
      return lo;
    }

    /* ---------- rendering ---------- */

    function rowContext() {
      return {
        before: view.before, after: view.after, warnMarks: view.warnMarks, flash: view.flash, hits, follows,
        wrapOf: wraps.rowWrapOf, digits: digits(), showLine, shownOf, markIndent: mode.markIndent,
      };
    }

    let overscan = OPEN_OVERSCAN;

    /** After the first paint: render the full overscan, so scrolling finds its rows already built. */
    function settle() {
      wraps.checkLater(() => { if (checkWraps()) render(true); });
      if (overscan === OVERSCAN) return;
      overscan = OVERSCAN;
      render(true);
    }

    /** Render the rows near the viewport, skipping the work while the rendered rows cover it. */
    function render(force) {
      if (!view) return;
      const sc = leader.scroller;
      const scrollTop = sc.scrollTop, scrollLeft = sc.scrollLeft;   // read before the rows change
      const height = Math.max(leader.geo.height, ROW_HEIGHT);
      if (rowAt(scrollTop + height) + 1 >= wraps.checked && checkWraps()) force = true;   // unchecked rows in sight
      const top = rowAt(scrollTop), bottom = rowAt(scrollTop + height) + 1;
      if (force || top < rendered.first || bottom > rendered.last) {
        const first = Math.max(0, top - overscan), last = Math.min(items.length, bottom + overscan);
        const before = rendered;
        rendered = { first, last, items };
        const ctx = rowContext();
        for (const p of active) {
          // the same rows laid out again (a wrap check) keep a focused control; another pass: the pane
          const kept = focusedControl(p.rows, before.items === items ? before.first : -Infinity);
          const fragment = document.createDocumentFragment();
          const side = mode.unified ? 'u' : p.side;
          for (let i = first; i < last; i++) {
            const row = rowElement(items[i], side, ctx);
            if (offsets) row.style.height = `${rowTop(i + 1) - rowTop(i)}px`;
            fragment.appendChild(row);
          }
          p.rows.textContent = '';
          p.rows.appendChild(fragment);
          p.rows.style.transform = `translateY(${rowTop(first)}px)`;
          if (kept) refocus(p.rows, first, kept, p.scroller);
        }
      }
      paintEdges(scrollTop, scrollLeft);
      paintContext(top, bottom);
    }

    /* ---------- the context line (sticky scroll) ---------- */

    /** Name the function of each active pane's first visible row, over that row (it is inside the
     *  function, past its def line: enclosingFunction says null otherwise). Called by render(), so
     *  it reads no layout; the DOM changes only when the function shown does. */
    function paintContext(top, bottom) {
      for (const p of Object.values(panes)) {
        const found = active.includes(p) ? enclosingFunction(items, top, bottom, mode.unified ? 'u' : p.side, sources) : null;
        const shown = found ? `${found.side}:${found.def}` : '';
        if (shown === p.contextShown) continue;
        p.contextShown = shown;
        p.contextTarget = found;
        p.context.hidden = !found;
        if (found) fillContext(p.context, found);
      }
    }

    /** The def line as printed (cut to the pane by CSS; whole in the tooltip) and its number. */
    function fillContext(button, { side, def, key }) {
      const text = sources[side].lines[def];
      const code = el('span', 'context-code');
      paintCode(code, text, null, null, null, null, displayLine(text, planFolds(text, null, 'whole', Infinity)));
      button.replaceChildren(el('span', 'context-ln', contextNumber(side, def)), el('span', 'mk'), code);
      button.title = `${text.trim()}\n\nLine ${def + 1}: click to scroll to it`;
      button.setAttribute('aria-label', `Enclosing function ${key}, line ${def + 1}`);
    }

    /** The def line's number; in the Unified gutter under its side's column (old, new), as rows have it. */
    function contextNumber(side, def) {
      if (!mode.unified) return String(def + 1);
      const d = digits(), number = String(def + 1).padStart(d), blank = ' '.repeat(d);
      return side === 'a' ? `${number} ${blank}` : `${blank} ${number}`;
    }

    /** Put the function's def line at the top of the panes, opening the fold that hides it. */
    function goToContext(p) {
      const target = p.contextTarget;
      if (!target) return;
      if (!showLineAtTop(target.side, target.def) && unfold && unfold(target.side, target.def)) showLineAtTop(target.side, target.def);
      p.scroller.focus({ preventScroll: true });   // the button hides: keys keep scrolling this pane
    }

    /* ---------- changes: walking them, and the edge markers ---------- */

    /** Where a row's changed text lies on `side`, in columns: its emphasised ranges, or for a line
     *  with no partner all of it after the indentation (the whole line is new, or gone). */
    function changedColumns(item, side) {
      if (item.kind === FOLD) return [];
      const { line, text: which, ranges } = sideOf(item, side);
      if (line < 0) return [];
      const text = (which === 'a' ? view.before : view.after)[line];
      if (ranges) return ranges.map((r) => columnsOf(text, r));
      if (item.kind !== INS && item.kind !== DEL && !item.rewrite) return [];
      const indent = text.length - text.trimStart().length;
      return indent < text.length ? [columnsOf(text, [indent, text.length])] : [];
    }

    /** scrollTop that shows change b: LEAD_ROWS rows of context above it, or from the fold whose
     *  hunk header names its function when that fold is at most one row further up (as it is
     *  with the default --context 3: the header would otherwise sit just out of sight). */
    function blockTop(b) {
      const start = blocks[b][0];
      for (let i = start - 1; i >= Math.max(0, start - LEAD_ROWS - 1); i--) {
        if (items[i].kind === FOLD) return rowTop(i);
      }
      return Math.max(0, rowTop(start) - LEAD_ROWS * ROW_HEIGHT);
    }

    /** Show change b. Only the vertical position moves: the columns stay where the reader left
     *  them (a pass opens at column 0), inline folding keeps the changed text near the start. */
    function goToBlock(b, left = leader.scroller.scrollLeft) {
      cursor = b;
      scrollBoth(blockTop(b), left);
      render(true);
      report();
    }

    function report() {
      if (onCursor) onCursor(cursor, blocks.length);
    }

    /** Show change b of the pass (0-based), as a deep link names it. */
    function goToChange(b) {
      if (b < 0 || b >= blocks.length) return;
      checkWraps();
      goToBlock(b);
    }

    /** Show the next (delta > 0) or previous change of the pass; false when there is none. */
    function stepChange(delta) {
      if (!blocks.length) return false;
      checkWraps();   // the changes' places
      const sc = leader.scroller, top = sc.scrollTop;
      const shown = cursor >= 0 && rowTop(blocks[cursor][0]) >= top && rowTop(blocks[cursor][0]) < top + sc.clientHeight;
      let target = -1;
      if (shown) target = cursor + delta;
      else if (delta > 0) target = blocks.findIndex((_, b) => blockTop(b) > top + 1);
      else for (let b = blocks.length - 1; b >= 0 && target < 0; b--) if (blockTop(b) < top - 1) target = b;
      if (target < 0 || target >= blocks.length) return false;
      goToBlock(target);
      return true;
    }

    /** With Expand all (no inline folding) a change can lie out of sight sideways: each visible
     *  row with one gets a marker in a strip reserved at the pane's right edge (never over code),
     *  pointing left, right or both. Inline folding keeps changes near the start of their lines, so
     *  it needs no markers. Geometry comes from measure() and the scroll offsets render() read. */
    function paintEdges(scrollTop, scrollLeft) {
      for (const p of Object.values(panes)) p.edges.textContent = '';
      if (!view) return;
      const { cw, codeLeft } = metrics;
      for (const p of active) {
        if (!p.edged) continue;
        const side = mode.unified ? 'u' : p.side, { width, height, top } = p.geo;
        const from = scrollLeft / cw, to = (scrollLeft + width - codeLeft - EDGE_STRIP) / cw;
        p.edges.style.top = `${top}px`;
        p.edges.style.width = `${width}px`;
        p.edges.style.height = `${height}px`;
        const last = Math.min(items.length, rowAt(scrollTop + height) + 1);
        for (let i = rowAt(scrollTop); i < last; i++) {
          const cols = changedColumns(items[i], side);
          if (!cols.length) continue;
          const left = cols.filter(([, e]) => e <= from + 0.5), right = cols.filter(([s]) => s >= to - 0.5);
          if (!left.length && !right.length) continue;
          const kind = side === 'a' || (side === 'u' && items[i].kind === DEL) ? 'del' : 'ins';
          p.edges.appendChild(edgeMark(rowTop(i) - scrollTop, left, right, kind));
        }
      }
    }

    /** One row's marker: it scrolls to the nearest hidden change to the right, else to the left. */
    function edgeMark(y, left, right, kind) {
      return edgeMarkButton(y, left, right, kind, (c0) => {
        const width = leader.scroller.clientWidth - metrics.codeLeft - EDGE_STRIP;
        scrollBoth(leader.scroller.scrollTop, Math.max(0, Math.round(c0 * metrics.cw - width / 4)));
        render(false);
      });
    }

    /* ---------- positioning ---------- */

    /** Put display row i a third of the way down the pane. */
    function scrollToRow(i) {
      checkWraps();
      const sc = leader.scroller;
      scrollBoth(Math.max(0, rowTop(i) - Math.floor(sc.clientHeight / 3)), sc.scrollLeft);
      render(true);
    }

    /** The display row showing line `line` of side 'a' (Before) or 'b' (After), -1 when folded away. */
    const rowOfLine = (side, line) => items.findIndex((r) => r.kind !== FOLD && r[side] === line);

    /** Scroll to line `line` of side 'a' or 'b' if a row shows it; false when folded away. */
    function showLine(side, line) {
      const at = rowOfLine(side, line);
      if (at < 0) return false;
      scrollToRow(at);
      return true;
    }

    /** Put the row of a line at the top of the panes, scrolled fully left; false when folded away. */
    function showLineAtTop(side, line) {
      const at = rowOfLine(side, line);
      if (at < 0) return false;
      checkWraps();
      scrollBoth(rowTop(at), 0);
      render(true);
      return true;
    }

    /** Scroll to an After line (a warning's), shown whole: the reader came to read it. */
    function scrollToAfterLine(line) {
      const key = `b${line}`, open = opened.get(key);
      if (!open || !open.whole) {
        opened.set(key, { whole: true, limit: open ? open.limit : HUGE_LINE });
        shownCache.delete(key);
        layoutPanes();
      }
      return showLine('b', line);
    }

    // One pane leads, the other follows with instant positioning. A follower's own scroll event
    // that lands where it was put is the echo and is ignored: writing it back to the leader would
    // cancel the leader's smooth scroll (keys, wheel, scrollBy) a few pixels into it.
    function follow(p, top, left) {
      p.scroller.scrollTop = top;
      p.scroller.scrollLeft = left;
      p.expect = { top: p.scroller.scrollTop, left: p.scroller.scrollLeft };
    }

    function isEcho(p) {
      const e = p.expect, s = p.scroller;
      return e !== null && Math.abs(s.scrollTop - e.top) < ECHO_SLACK && Math.abs(s.scrollLeft - e.left) < ECHO_SLACK;
    }

    /** Position every active pane at once (no smooth scrolling, no sync round trip). */
    function scrollBoth(top, left) {
      for (const p of active) follow(p, top, left);
      markSideways(left);
    }

    // The gutters are sticky only while the panes are scrolled sideways: each sticky box is a compositor
    // layer of its own, and a pass switch (always at column 0, where sticky changes nothing) drew 80 anew.
    function markSideways(left) {
      for (const p of active) p.scroller.classList.toggle('sideways', left > 0);
    }

    let renderQueued = false;
    function onScroll(source, other) {
      if (!active.includes(source)) return;
      if (!isEcho(source)) {
        source.expect = null;   // a scroll of its own: this pane leads now
        leader = source;
        const s = source.scroller;
        if (active.includes(other) &&
            (Math.abs(other.scroller.scrollTop - s.scrollTop) >= 1 || Math.abs(other.scroller.scrollLeft - s.scrollLeft) >= 1)) {
          follow(other, s.scrollTop, s.scrollLeft);
        }
        markSideways(s.scrollLeft);
      }
      if (renderQueued) return;
      renderQueued = true;
      requestAnimationFrame(() => { renderQueued = false; render(false); });
    }
    panes.before.scroller.addEventListener('scroll', () => onScroll(panes.before, panes.after), { passive: true });
    panes.after.scroller.addEventListener('scroll', () => onScroll(panes.after, panes.before), { passive: true });

    /** A pane changed size (window, layout, sidebar): wrapped heights depend on the pane width. */
    function resize() {
      if (!view) return;
      probed = { ...probed, key: '' };   // a zoom or a font change: measure the rows again
      if (mode.wrap) { show(view, { keepScroll: true }); return; }
      const cols = metrics.cols;
      measure();
      if (metrics.cols === cols || !mode.inlineFolds) { render(false); return; }
      layoutPanes();   // lines fold to the new width
      render(true);
    }
    let resizeQueued = false;
    const seenSizes = new Map();   // scroller -> "width x height" last reported; the first report is the baseline
    const observer = new ResizeObserver((entries) => {
      let changed = false;
      for (const { target, contentRect } of entries) {
        const size = `${contentRect.width}x${contentRect.height}`;
        if (seenSizes.has(target) && seenSizes.get(target) !== size) changed = true;
        seenSizes.set(target, size);
      }
      if (!changed || resizeQueued) return;
      resizeQueued = true;
      requestAnimationFrame(() => { resizeQueued = false; resize(); });
    });
    for (const p of Object.values(panes)) observer.observe(p.scroller);

    return { panes, show, render, settle, resize, rowTop, scrollToRow, scrollToAfterLine, stepChange, goToChange, get cursor() { return cursor; } };
  }

  return { ROW_HEIGHT, createPainter };
})();
