// needs: nothing
/* pypto-ir-trace viewer: a windowed list (IRTraceWindow).
 * Only the rows in sight, plus a margin, are elements: a 50,000-pass list costs what one screenful does.
 * Rows are placed absolutely from a height per kind of row (measured from the first row of each kind
 * drawn), so the scroll height is known without laying any row out. Rows scrolled out of the window are
 * dropped and the ones scrolled in are drawn; the rows `pinned()` names (the selection, the focused row)
 * stay drawn wherever they are, so the list's Tab stop and the focus never vanish. */
const IRTraceWindow = (() => {
  'use strict';

  const MARGIN = 12;       // rows drawn above and below the window: a wheel step never shows a blank
  const WHOLE_MAX = 150;   // a list this short is drawn whole: it costs what a screenful does

  /** `scroller` scrolls `list` (an <ol>); `draw(row, i)` builds the <li> of rows[i]; `kindOf(row)` names
   *  its height class; `keyOf(row)` tells rows apart across `setRows`; `estimate` is a first guess of
   *  each kind's height; `pinned()` lists row indices to keep drawn.
   *  @param {HTMLElement} scroller @param {HTMLElement} list
   *  @param {{ draw: (row: any, i: number) => HTMLElement, kindOf: (row: any) => string, keyOf: (row: any) => string,
   *            estimate: Record<string, number>, pinned: () => number[] }} how */
  function createWindow(scroller, list, how) {
    let rows = [];
    let tops = new Float64Array(1);          // tops[i]: where row i starts; tops[rows.length]: the total
    const heights = new Map(Object.entries(how.estimate));
    const measured = new Set();
    let drawn = new Map();                   // key -> { i, node }
    let queued = false;
    let focusedKey = null;                   // the drawn row holding the focus

    let indexOfKey = new Map();

    function layout() {
      tops = new Float64Array(rows.length + 1);
      indexOfKey = new Map();
      for (let i = 0; i < rows.length; i++) {
        tops[i + 1] = tops[i] + heights.get(how.kindOf(rows[i]));
        indexOfKey.set(how.keyOf(rows[i]), i);
      }
      list.style.height = `${tops[rows.length]}px`;
    }

    /** The row at offset y (the last one starting at or above it). */
    function rowAt(y) {
      let lo = 0, hi = rows.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (tops[mid] <= y) lo = mid; else hi = mid - 1;
      }
      return lo;
    }

    function wanted() {
      const out = new Set();
      if (!rows.length) return out;
      const top = scroller.scrollTop - list.offsetTop, bottom = top + scroller.clientHeight;
      const whole = rows.length <= WHOLE_MAX;
      const first = whole ? 0 : Math.max(0, rowAt(top) - MARGIN), last = whole ? rows.length - 1 : Math.min(rows.length - 1, rowAt(bottom) + MARGIN);
      for (let i = first; i <= last; i++) out.add(i);
      for (const i of how.pinned()) if (i >= 0 && i < rows.length) out.add(i);
      if (focusedKey !== null && indexOfKey.has(focusedKey)) out.add(indexOfKey.get(focusedKey));
      return out;
    }

    function place(node, i) {
      node.style.top = `${tops[i]}px`;
      node.setAttribute('aria-posinset', String(i + 1));
      node.setAttribute('aria-setsize', String(rows.length));
    }

    /** Draw the rows the window wants; keep the drawn ones that stay (their focus with them). */
    function render() {
      queued = false;
      const want = wanted(), next = new Map();
      for (const i of want) {
        const key = how.keyOf(rows[i]), old = drawn.get(key);
        const node = old ? old.node : how.draw(rows[i], i);
        place(node, i);
        if (!old) list.append(node);
        next.set(key, { i, node });
        drawn.delete(key);
      }
      for (const { node } of drawn.values()) node.remove();
      drawn = next;
      measure();
    }

    /** The first drawn row of each kind gives that kind's height; a guess proved wrong re-lays the list. */
    function measure() {
      let changed = false;
      for (const { i, node } of drawn.values()) {
        const kind = how.kindOf(rows[i]);
        if (measured.has(kind) || !node.isConnected) continue;
        const h = node.offsetHeight;
        if (!h) continue;   // not laid out (a hidden sidebar): keep the guess
        measured.add(kind);
        if (h !== heights.get(kind)) { heights.set(kind, h); changed = true; }
      }
      if (changed) { layout(); for (const { i, node } of drawn.values()) place(node, i); render(); }
    }

    function queue() {
      if (!queued) { queued = true; requestAnimationFrame(render); }
    }

    /** New rows (filters, groups opened or closed, marks that change heights): rows kept by key keep their nodes. */
    function setRows(next) {
      focusedKey = null;
      for (const [key, item] of drawn) {
        // A drawn row's content may differ: every row is drawn anew, the focus follows its row.
        if (item.node.contains(document.activeElement)) focusedKey = key;
        item.node.remove();
      }
      drawn.clear();
      rows = next;
      layout();
      render();
      const again = focusedKey === null ? undefined : drawn.get(focusedKey);
      if (again) focusIn(again.node);
    }

    function focusIn(node) {
      /** @type {HTMLElement} */ (node.querySelector('button') || node).focus({ preventScroll: true });
    }

    /** Draw row i again (its counts or marks changed), keeping the focus on it. */
    function redraw(i) {
      const key = how.keyOf(rows[i]), old = drawn.get(key);
      if (!old) return;
      const focused = old.node.contains(document.activeElement), fresh = how.draw(rows[i], i);
      place(fresh, i);
      old.node.replaceWith(fresh);
      drawn.set(key, { i, node: fresh });
      if (focused) focusIn(fresh);
    }

    /** Scroll as little as needed to show row i whole, and draw it now. The rows drawn may prove a height guess
     *  wrong (the first of their kind measured) and move row i: it is then shown where it now is (a deep link to
     *  pass 990 of 1,000 landed 980 px below the list's window with a guess 2 px short). */
    function reveal(i) {
      if (i < 0 || i >= rows.length) return;
      const guessed = tops[i];
      scrollToShow(i);
      render();
      if (tops[i] !== guessed) { scrollToShow(i); render(); }
    }

    function scrollToShow(i) {
      const top = tops[i] + list.offsetTop, bottom = tops[i + 1] + list.offsetTop;
      if (top < scroller.scrollTop) scroller.scrollTop = top;
      else if (bottom > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = bottom - scroller.clientHeight;
    }

    /** How many rows of `kind` one window holds. */
    function perPage(kind) {
      return Math.max(1, Math.floor(scroller.clientHeight / heights.get(kind)) - 1);
    }

    /** The <li> of row i if drawn. */
    function nodeOf(i) {
      const item = i >= 0 && i < rows.length ? drawn.get(how.keyOf(rows[i])) : undefined;
      return item ? item.node : null;
    }

    /** The row index of a drawn <li>, or -1. */
    function indexOfNode(node) {
      for (const item of drawn.values()) if (item.node === node) return item.i;
      return -1;
    }

    function drawnRows() {
      return [...drawn.values()];
    }

    // The focused row stays drawn however far the list scrolls: the focus would fall to the page.
    list.addEventListener('focusin', (event) => {
      const node = /** @type {Element} */ (event.target).closest('li');
      for (const [key, item] of drawn) if (item.node === node) focusedKey = key;
    });
    list.addEventListener('focusout', (event) => {
      if (!list.contains(/** @type {Node} */ (event.relatedTarget))) focusedKey = null;
    });
    scroller.addEventListener('scroll', queue, { passive: true });
    new ResizeObserver(queue).observe(scroller);

    return { setRows, redraw, reveal, render: queue, nodeOf, indexOfNode, drawnRows, perPage };
  }

  return { createWindow };
})();
