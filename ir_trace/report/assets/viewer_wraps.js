// needs: viewer_model.js, viewer_layout.js, viewer_rows.js
/* pypto-ir-trace viewer: which rows wrap, and how tall they are (IRTraceWraps).
 * With Wrap every row wraps; without it, a changed row whose emphasis still reaches past the pane
 * once folded wraps on its own, on both sides so they keep sharing rows: every change on screen is
 * then in sight at scrollLeft 0. Heights come from computed breaks, never measured, so virtual
 * scrolling stays exact. A pass switch checks the rows up to its first screen; the rest are checked
 * in slices after the paint, or at once by whatever needs their places (viewer_paint.js). */
const IRTraceWraps = (() => {
  'use strict';

  const { lineColumns, lineOn, wrapBreaks, emphasisEnd, isChange } = IRTraceLayout;
  const { sideOf } = IRTraceRows;
  const { FOLD } = IRTraceModel;
  const SLICE_MS = 8;   // checking per task while a new pass settles: a held `j` stays responsive

  /** The wrapping of one painter's rows. `rows`: { items(), sides() (the sides shown: 'a', 'b', or
   *  'u' alone), lineOf(which, line) (a line's text), cols() (the pane's width in columns),
   *  shownOf(item, side) (the line as folded, or null), wrapAll() (Wrap is on), folding() (inline
   *  folding is on) }. */
  function createWraps(rows) {
    let cache = new Map(), cacheCols = 0;   // text -> its breaks, at cacheCols
    let autoWrap = null;   // Set of the rows that wrap on their own, or null when none does
    let checked = 0;       // rows before this one are checked for that
    let timer = 0;

    /** Continuation breaks of a line at the current width (memoised by text), or of a folded line
     *  as shown (`shown`, memoised with it: the same text may hold a chip or underscores). */
    function wrapOf(text, shown = null) {
      const cols = rows.cols();
      if (shown) {
        if (!shown.wrap || shown.wrap.cols !== cols) shown.wrap = { cols, ...wrapBreaks(shown.text, cols, shown.src) };
        return shown.wrap;
      }
      if (cols !== cacheCols || cache.size > 50000) { cache = new Map(); cacheCols = cols; }
      let w = cache.get(text);
      if (!w) cache.set(text, (w = wrapBreaks(text, cols)));
      return w;
    }

    /** Visual lines of an item: on every shown side the same, so rows stay aligned. */
    function visualLines(item) {
      if (item.kind === FOLD) return 1;
      let lines = 1;
      for (const side of rows.sides()) {
        const { line, text: which } = sideOf(item, side);
        if (line >= 0) lines = Math.max(lines, wrapOf(rows.lineOf(which, line), rows.shownOf(item, side)).breaks.length + 1);
      }
      return lines;
    }

    const wraps = (item) => rows.wrapAll() || (autoWrap !== null && autoWrap.has(item));

    /** Whether some side's emphasis ends past the pane as shown. Only lines wider than the pane are planned. */
    function overflows(item) {
      const cols = rows.cols();
      return rows.sides().some((side) => {
        const at = lineOn(item, side);
        if (at.line < 0 || lineColumns(rows.lineOf(at.side, at.line)) <= cols) return false;
        const { line, text: which, ranges } = sideOf(item, side);
        return emphasisEnd(rows.lineOf(which, line), ranges, rows.shownOf(item, side)) > cols;
      });
    }

    /** Check rows [0, upTo) afresh for wrapping on their own (none with Wrap or without folding). */
    function check(upTo) {
      clearTimeout(timer);
      const items = rows.items();
      autoWrap = null;
      if (rows.wrapAll() || !rows.folding()) { checked = items.length; return; }   // nothing to check later
      checked = Math.min(upTo, items.length);
      for (let i = 0; i < checked; i++) {
        if (isChange(items[i]) && overflows(items[i])) (autoWrap = autoWrap || new Set()).add(items[i]);
      }
    }

    /** Fill the fold and wrap caches of the unchecked rows a slice at a time, then call `done`
     *  (which checks them all at once, cheaply by then). */
    function checkLater(done, items = rows.items(), next = checked) {
      clearTimeout(timer);
      if (checked >= items.length) return;
      timer = setTimeout(() => {
        if (items !== rows.items()) return;
        const started = performance.now();
        while (next < items.length && performance.now() - started < SLICE_MS) {
          const item = items[next++];
          if (isChange(item) && overflows(item)) visualLines(item);
        }
        if (next < items.length) checkLater(done, items, next);
        else done();
      }, 0);
    }

    /** Row tops in px when some row wraps (`height` a visual line), else null. */
    function rowTops(height) {
      if (!rows.wrapAll() && autoWrap === null) return null;
      const items = rows.items(), tops = new Float64Array(items.length + 1);
      for (let i = 0; i < items.length; i++) tops[i + 1] = tops[i] + (wraps(items[i]) ? visualLines(items[i]) : 1) * height;
      return tops;
    }

    return {
      check, checkLater, rowTops, wraps,
      /** A row's line breaks (viewer_rows.js asks), null for a row that does not wrap; null itself when none does. */
      get rowWrapOf() { return rows.wrapAll() || autoWrap !== null ? (text, shown, item) => (wraps(item) ? wrapOf(text, shown) : null) : null; },
      get complete() { return checked >= rows.items().length; },
      get checked() { return checked; },
    };
  }

  return { createWraps };
})();
