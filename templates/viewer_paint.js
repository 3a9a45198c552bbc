/* pypto-ir-trace viewer, part 5 of 9: the panes (IRTracePainter).
 * Paints a view's rows (viewer_rows.js) into the Before and After panes, or into one pane in the
 * Unified layout: pane geometry (width, wrapped heights known in advance), virtual scrolling (only
 * rows near the viewport are in the DOM), the panes kept in sync, walking the changes of a pass,
 * the edge markers that point at a change scrolled out of sight sideways, and the context line
 * pinned atop each pane that names the function its first visible row belongs to. */
const IRTracePainter = (() => {
  'use strict';

  const { DEL, FOLD, INS } = IRTraceModel;
  const { unifyRows, changeBlocks, enclosingFunction, lineColumns, wrapBreaks } = IRTraceLayout;
  const { rowElement, sideOf, paintCode, el } = IRTraceRows;
  const ROW_HEIGHT = 20;      // px, equals --row-h in viewer.css (virtualisation needs a fixed height)
  const OVERSCAN = 40;        // rows rendered beyond the viewport on each side
  const OPEN_OVERSCAN = 2;    // ... until the first paint: the opening frame styles and lays out
                              // only the rows in sight (about a third); settle() widens it after
  const LEAD_ROWS = 3;        // a change is shown this many rows below the top of the pane
  const ECHO_SLACK = 1.5;     // px: fractional offsets of a smooth scroll round on assignment

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
      scroller.parentElement.append(edges, p.context);
      return p;
    };
    const panes = { before: pane(beforeScroller, 'a'), after: pane(afterScroller, 'b') };
    for (const p of Object.values(panes)) p.geo = { width: 0, height: 0, top: 0 };
    let view = null, items = [], blocks = [], cursor = -1;
    let sources = null;         // per side, the function index and lines the context line reads
    let mode = { wrap: false, unified: false };
    let active = [panes.before, panes.after];
    let leader = panes.after;   // the pane the reader scrolls; the other follows it
    let offsets = null;         // row tops when wrapping (Float64Array), else rows are ROW_HEIGHT each
    let metrics = { cw: 7.5, codeLeft: 60, cols: 80 };
    let wrapCache = new Map();
    let rendered = { first: -1, last: -1 };

    /** Paint `nextView` (display rows already folded and labelled). keepScroll leaves the scroll
     *  position alone; otherwise the panes open on the first change, on both axes. */
    function show(nextView, { keepScroll = false, wrapLines = mode.wrap, unified = mode.unified } = {}) {
      const anchor = keepScroll && view ? topAnchor() : null;
      view = nextView;
      if (wrapLines !== mode.wrap || unified !== mode.unified) wrapCache = new Map();
      mode = { wrap: wrapLines, unified };
      active = unified ? [panes.after] : [panes.before, panes.after];
      items = unified ? unifyRows(view.display) : view.display;
      blocks = changeBlocks(items);
      sources = { a: { fns: view.fns.a, lines: view.before }, b: { fns: view.fns.b, lines: view.after } };
      for (const p of Object.values(panes)) p.contextShown = null;
      cursor = -1;
      // Drop the old rows first: resizing and scrolling then lays out almost nothing.
      for (const p of Object.values(panes)) { p.rows.textContent = ''; p.edges.textContent = ''; }
      leader = panes.after;
      layoutPanes();
      if (!keepScroll) {
        if (blocks.length) { goToBlock(0); return; }
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
    function layoutPanes() {
      let chars = 0;
      for (const r of view.rows) {
        if (r.a >= 0 && view.before[r.a].length > chars) chars = Math.max(chars, lineColumns(view.before[r.a]));
        if (r.b >= 0 && view.after[r.b].length > chars) chars = Math.max(chars, lineColumns(view.after[r.b]));
      }
      const d = digits(), gutter = mode.unified ? 2 * d + 1 : d;
      for (const p of active) {
        const sizer = p.scroller.firstElementChild;
        p.scroller.classList.toggle('wrap', mode.wrap);
        p.scroller.classList.toggle('unified', mode.unified);
        for (const box of [sizer, p.context]) box.style.setProperty('--gutter', `calc(${gutter + 2}ch + 12px)`);
        sizer.style.width = mode.wrap ? '' : `calc(${chars + gutter + 4}ch + 28px)`;
      }
      measure();
      metrics.contentWidth = mode.wrap ? 0 : (chars + gutter + 4) * metrics.cw + 28;
      offsets = mode.wrap ? wrapOffsets() : null;
      const height = `${rowTop(items.length)}px`;
      for (const p of active) p.scroller.firstElementChild.style.height = height;
    }

    /** Character width, where code starts in a row, and characters per line, from a hidden probe
     *  row in the narrowest active pane. */
    function measure() {
      const host = active.reduce((x, y) => (y.scroller.clientWidth < x.scroller.clientWidth ? y : x));
      const probe = el('div', 'row');
      const code = el('span', 'code');
      const ruler = el('span', '', '0'.repeat(100));
      code.appendChild(ruler);
      probe.append(el('span', 'ln', '0'), el('span', 'mk'), code);
      probe.style.visibility = 'hidden';
      host.rows.appendChild(probe);
      const cw = ruler.getBoundingClientRect().width / 100 || 7.5;
      const codeLeft = code.getBoundingClientRect().left - probe.getBoundingClientRect().left;
      const usable = host.scroller.clientWidth - codeLeft - parseFloat(getComputedStyle(code).paddingRight);
      probe.remove();
      const cols = Math.max(8, Math.floor(usable / cw));
      if (cols !== metrics.cols) wrapCache = new Map();
      metrics = { cw, codeLeft, cols, contentWidth: metrics.contentWidth };
      // Read now, while the panes are empty and layout is cheap: painting never has to ask again.
      for (const p of active) {
        p.geo = { width: p.scroller.clientWidth, height: p.scroller.clientHeight, top: p.scroller.offsetTop };
        p.context.style.top = `${p.geo.top}px`;
        p.context.style.width = `${p.geo.width}px`;
      }
    }

    /** Continuation breaks of a line at the current width (memoised by text). */
    function wrapOf(text) {
      let w = wrapCache.get(text);
      if (!w) {
        if (wrapCache.size > 50000) wrapCache.clear();
        wrapCache.set(text, (w = wrapBreaks(text, metrics.cols)));
      }
      return w;
    }

    /** Visual lines of an item: on every active side the same, so rows stay aligned. */
    function visualLines(item) {
      if (item.kind === FOLD) return 1;
      let lines = 1;
      for (const p of active) {
        const { line, text } = sideOf(item, mode.unified ? 'u' : p.side);
        if (line >= 0) lines = Math.max(lines, wrapOf((text === 'a' ? view.before : view.after)[line]).breaks.length + 1);
      }
      return lines;
    }

    /** Row tops when wrapping: the breaks are computed, not measured, so heights are exact. */
    function wrapOffsets() {
      const tops = new Float64Array(items.length + 1);
      for (let i = 0; i < items.length; i++) tops[i + 1] = tops[i] + visualLines(items[i]) * ROW_HEIGHT;
      return tops;
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
      return { before: view.before, after: view.after, warnMarks: view.warnMarks, flash: view.flash, hits, follows, wrapOf: mode.wrap ? wrapOf : null, digits: digits(), showLine };
    }


    let overscan = OPEN_OVERSCAN;

    /** After the first paint: render the full overscan, so scrolling finds its rows already built. */
    function settle() {
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
      const top = rowAt(scrollTop), bottom = rowAt(scrollTop + height) + 1;
      if (force || top < rendered.first || bottom > rendered.last) {
        const first = Math.max(0, top - overscan), last = Math.min(items.length, bottom + overscan);
        rendered = { first, last };
        const ctx = rowContext();
        for (const p of active) {
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
        }
      }
      paintEdges(scrollTop, scrollLeft);
      paintContext(top, bottom);
    }

    /* ---------- the context line (sticky scroll) ---------- */

    function contextButton() {
      const button = el('button', 'context-line');
      button.type = 'button';
      button.hidden = true;
      return button;
    }

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
      paintCode(code, text, null, null, null, null);
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

    /** Columns [start, end) of a range of a line (UTF-16 offsets in, display columns out). */
    function columnsOf(text, [s, e]) {
      const start = lineColumns(text.slice(0, s));
      return [start, start + lineColumns(text.slice(s, e))];
    }

    /** Where a row's changed text lies on `side`, in columns: its emphasised ranges, or for a line
     *  with no partner all of it after the indentation (the whole line is new, or gone). */
    function changedColumns(item, side) {
      if (item.kind === FOLD) return [];
      const { line, text: which, ranges } = sideOf(item, side);
      if (line < 0) return [];
      const text = (which === 'a' ? view.before : view.after)[line];
      if (ranges) return ranges.map((r) => columnsOf(text, r));
      if (item.kind !== INS && item.kind !== DEL) return [];
      const indent = text.length - text.trimStart().length;
      return indent < text.length ? [columnsOf(text, [indent, text.length])] : [];
    }

    /** scrollLeft that shows the first emphasised range of a block (0 when it starts a line). */
    function blockLeft([start, end]) {
      if (mode.wrap) return 0;
      for (let i = start; i < end; i++) {
        for (const side of mode.unified ? ['u'] : ['b', 'a']) {
          const cols = changedColumns(items[i], side);
          if (!cols.length) continue;
          const [c0, c1] = cols[0], { cw, codeLeft } = metrics;
          const width = leader.geo.width - codeLeft;
          if ((c1 + 2) * cw <= width) return 0;
          return Math.max(0, Math.round(c0 * cw - Math.max(4 * cw, width / 4)));
        }
      }
      return 0;
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

    function goToBlock(b) {
      cursor = b;
      scrollBoth(blockTop(b), blockLeft(blocks[b]));
      render(true);
      report();
    }

    function report() {
      if (onCursor) onCursor(cursor, blocks.length);
    }

    /** Show change b of the pass (0-based), as a deep link names it. */
    function goToChange(b) {
      if (b >= 0 && b < blocks.length) goToBlock(b);
    }

    /** Show the next (delta > 0) or previous change of the pass; false when there is none. */
    function stepChange(delta) {
      if (!blocks.length) return false;
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

    /** A marker at the left or right edge of each visible row whose change lies out of sight
     *  sideways. Geometry comes from measure() and the scroll offsets render() read: no layout here. */
    function paintEdges(scrollTop, scrollLeft) {
      for (const p of Object.values(panes)) p.edges.textContent = '';
      if (mode.wrap || !view) return;
      const { cw, codeLeft, contentWidth } = metrics;
      for (const p of active) {
        const side = mode.unified ? 'u' : p.side, { width, height, top } = p.geo;
        if (contentWidth <= width) continue;   // every line fits: nothing can hide sideways
        const from = scrollLeft / cw, to = (scrollLeft + width - codeLeft) / cw;
        p.edges.style.top = `${top}px`;
        p.edges.style.width = `${width}px`;
        p.edges.style.height = `${height}px`;
        const last = Math.min(items.length, rowAt(scrollTop + height) + 1);
        for (let i = rowAt(scrollTop); i < last; i++) {
          const cols = changedColumns(items[i], side);
          if (!cols.length) continue;
          const y = rowTop(i) - scrollTop;
          const kind = side === 'a' || (side === 'u' && items[i].kind === DEL) ? 'del' : 'ins';
          if (cols.some(([, e]) => e <= from + 0.5)) p.edges.appendChild(edgeMark('left', y, codeLeft, cols, kind));
          if (cols.some(([s]) => s >= to - 0.5)) p.edges.appendChild(edgeMark('right', y, codeLeft, cols, kind));
        }
      }
    }

    function edgeMark(where, y, codeLeft, cols, kind) {
      const mark = el('button', `edge ${where} ${kind}`, where === 'left' ? '\u25c2' : '\u25b8');
      mark.type = 'button';
      mark.tabIndex = -1;
      mark.title = `Changed text ${where === 'left' ? 'to the left' : 'to the right'}: click to scroll to it`;
      mark.style.top = `${y}px`;
      if (where === 'left') mark.style.left = `${codeLeft}px`; else mark.style.right = '0';
      const [c0] = where === 'left' ? cols[cols.length - 1] : cols[0];
      mark.addEventListener('click', () => {
        const width = leader.scroller.clientWidth - metrics.codeLeft;
        scrollBoth(leader.scroller.scrollTop, Math.max(0, Math.round(c0 * metrics.cw - width / 4)));
        render(false);
      });
      return mark;
    }

    /* ---------- positioning ---------- */

    /** Put display row i a third of the way down the pane. */
    function scrollToRow(i) {
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
      scrollBoth(rowTop(at), 0);
      render(true);
      return true;
    }

    const scrollToAfterLine = (line) => showLine('b', line);

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
      if (mode.wrap) show(view, { keepScroll: true }); else { measure(); render(false); }
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
