// needs: normalize.js, viewer_dom.js, viewer_model.js, viewer_traces.js, viewer_window.js, viewer_overview.js
/* pypto-ir-trace viewer: the pass list and the overview chart (IRTraceSidebar).
 * The pass list is windowed (viewer_window.js): its rows are worked out from the model (filters, trace
 * headings, runs of no-op passes folded into one row) and only those in sight are elements; the overview
 * chart beside it is viewer_overview.js. The function history and Find marks on each entry. Reads the
 * viewer's state, changes only the selection (through `select`). */
const IRTraceSidebar = (() => {
  'use strict';

  const { shortName } = IRTraceModel;
  const { el, $ } = IRTraceDom;

  const NOOP_RUN_MIN = 5;   // consecutive no-op passes listed as one row ("12 no-op passes") from this many on
  const SCOPE_MIN = 3;      // consecutive MLIR passes on one op (a nested pipeline) grouped under its header from this many on
  const ROW_GUESS = { pass: 24, marked: 42, head: 30 };   // px, until a drawn row of each kind is measured

  /** `#388`, `:388` or `388` typed in the pass filter: the number of the pass to go to, else null. */
  function goToNumber(query) {
    const m = /^[:#]?\s*(\d+)$/.exec(query);
    return m ? Number(m[1]) : null;
  }

  function statsNode(inserted, deleted) {
    const node = el('span', 'stats');
    node.append(el('span', 'plus', `+${inserted}`), ' ', el('span', 'minus', `\u2212${deleted}`));
    return node;
  }

  /** The sidebar and overview of a model; `state` is the viewer's, `select(k)` shows entry k. */
  /** `showNoPass(none)`: told when the filters come to hide every pass (none) and when one shows again. */
  /** `heading(r)`: the <li> heading trace r's passes, in a report of several traces (viewer_traces.js).
   *  @param {ViewerState} state (read only: viewer_state.js owns it)
   *  @param {(none: boolean) => void} [showNoPass] @param {((r: number) => HTMLElement) | null} [heading] */
  function createSidebar(model, finder, state, select, showNoPass = (_none) => {}, heading = null) {
    const { entries, runs, against, firstEntry, lastEntry, fnChange } = model;
    const headed = Boolean(heading) && Array.isArray(model.payload.traces);
    const marks = [];           // by entry k: { fn, find } as paintMarks worked them out, or undefined
    // The list: { kind: 'pass', k, depth } | { kind: 'head', run } | a fold: { kind: 'run' (no-op passes) or
    // 'scope' (passes on one op), id, first, last, count, open, depth, label }.
    let rows = [];
    let rowOfPass = new Map();  // entry k -> its row (a pass inside a closed run has none)
    let shownPasses = [];       // the entries the filters keep, in order
    let walkable = [];          // the entries with a row, in order: what j / k walk
    const openFolds = new Set();   // the folds the reader opened (by id)
    const closedFolds = new Set(); // ... and closed: a fold holding the selection is open unless closed by hand
    let view = null;            // the windowed list (IRTraceWindow)
    const overview = IRTraceOverview.createOverview(model, state, select, (k) => warningBadge(k));

    /** The warning badge of entry k: new warnings, or only ones carried over from the previous pass. */
    function warningBadge(k) {
      const { run, pos } = entries[k].log;
      const p = runs[run].passes[pos];
      if (!p.log) return null;
      const list = runs[run].warnings(pos);
      const fresh = list.filter((w) => !w.carried).length;
      if (list.length && !fresh) {
        return { text: 'warning', cls: 'warn carried', title: `${list.length} warning(s), all carried over from the previous pass` };
      }
      return { text: 'warning', cls: 'warn', title: list.length ? `${fresh} new warning(s)${list.length > fresh ? `, ${list.length - fresh} carried` : ''}` : 'this pass wrote a log' };
    }

    /** The button of entry k; `scope`: the op of the group it is listed under, left out of its name. */
    function passButton(k, scope = '') {
      const e = entries[k], name = scope && e.name.endsWith(` \u00b7 ${scope}`) ? e.name.slice(0, -scope.length - 3) : e.name;
      const button = el('button', e.changed ? 'pass-btn' : 'pass-btn noop');
      button.type = 'button';
      button.dataset.k = k;
      button.tabIndex = k === state.sel ? 0 : -1;   // the list is one Tab stop: ↑ / ↓ (j / k) move in it
      if (k === state.sel) button.setAttribute('aria-current', 'true');
      // The row never wraps and may cut a long name: the tooltip and the peek (hover, focus) show all of it.
      button.title = `${e.label || e.index} ${e.name}\n${e.title}`;
      button.append(el('span', 'idx', e.label || String(e.index)), ' ', el('span', 'name', name));
      if (e.inserted !== null) button.append(' ', statsNode(e.inserted, e.deleted));
      const badges = el('span', 'badges');
      const warn = warningBadge(k);
      if (warn) {
        const badge = el('span', `badge ${warn.cls}`, warn.text);
        badge.title = warn.title;
        badges.append(' ', badge);
      }
      for (const [cls, text, title] of e.badges) {
        const badge = el('span', `badge ${cls}${e.quiet ? ' quiet' : ''}`, text);
        if (title) badge.title = title;
        badges.append(' ', badge);
      }
      if (badges.childElementCount) button.append(badges);
      button.append(marksBox(k));
      const mark = marks[k];
      button.classList.toggle('fn-untouched', Boolean(mark && mark.untouched));
      button.classList.toggle('has-marks', hasMarks(k));
      button.addEventListener('click', () => select(k));
      return button;
    }

    function hasMarks(k) {
      const mark = marks[k];
      return Boolean(mark && (mark.fn.text || mark.find));
    }

    /** The second line of entry k's row: the selected function's change, and Find's count change. */
    function marksBox(k) {
      const box = el('span', 'marks'), mark = marks[k];
      const fn = mark ? mark.fn : { text: '', cls: 'fn-mark', title: '' }, change = mark ? mark.find : null;
      const fnMark = el('span', fn.cls, fn.text), findMark = el('span', change ? `find-mark ${change.kind}` : 'find-mark', change ? change.label : '');
      fnMark.title = fn.title;
      findMark.title = change ? `Find \u201c${finder.text}\u201d: ${change.label}` : '';
      box.append(fnMark, findMark);
      box.hidden = !fn.text && !change;
      return box;
    }

    /** The row of a fold (a run of no-op passes, or the passes run on one op): a button that opens and closes it. */
    function foldButton(row) {
      const run = row.kind === 'run', what = against ? 'same' : 'no-op';
      const button = el('button', run ? 'pass-btn noop noop-run' : 'pass-btn scope-head');
      button.type = 'button';
      button.dataset.fold = row.id;
      button.dataset.count = String(row.count);
      button.setAttribute('aria-expanded', String(row.open));
      button.tabIndex = !row.open && state.sel >= row.first && state.sel <= row.last ? 0 : -1;
      const span = `${entries[row.first].label || entries[row.first].index}\u2013${entries[row.last].label || entries[row.last].index}`;
      const name = run ? `${row.count} ${what} passes` : row.label, count = run ? span : `${row.count} passes`;
      button.title = `${run ? `${row.count} consecutive ${what} passes` : `${row.count} passes on ${row.label}`}, ${span}: ` +
        `click, Enter or ${row.open ? '\u2190 to close' : '\u2192 to open'}`;
      button.append(el('span', 'idx', row.open ? '\u25be' : '\u25b8'), ' ', el('span', 'name', name), ' ', el('span', 'run-span', count));
      button.addEventListener('click', () => toggleFold(row.id, !row.open));
      return button;
    }

    /** The <li> of a row of the list. */
    function drawRow(row) {
      if (row.kind === 'head') return heading(row.run);
      const item = el('li', row.depth ? `depth-${row.depth}` : null);
      item.append(row.kind === 'pass' ? passButton(row.k, row.scope) : foldButton(row));
      return item;
    }

    /** The summary under the report title, and its full wording for the tooltip: run against run,
     *  the line leaves out the counts that are zero, so that it fits the sidebar on one line. */
    function summary() {
      if (against) {
        // The first match is the frontend: not a pass, so it is named apart when it differs.
        const [frontend, ...ms] = model.payload.matches, both = ms.filter((m) => m.a != null && m.b != null);
        const differ = both.filter((m) => m.differs).length;
        const count = (s) => ms.filter((m) => m.status === s).length;
        const counts = [[count('renamed'), 'renamed'], [count('only-a'), 'only in A'], [count('only-b'), 'only in B']];
        const words = (list) => list.map(([n, what]) => `${n} ${what}`);
        const head = [`${ms.length} passes compared`, `${differ} differ`], tail = frontend.differs ? ['the frontends differ'] : [];
        const line = [...head, ...words(counts.filter(([n]) => n)), ...tail].join(' \u00b7 ');
        return { line, full: [...head, ...words(counts), ...tail].join(' \u00b7 ') };
      }
      const changed = entries.slice(model.firstEntry).filter((e) => e.changed && !e.start).length;
      const n = model.passCount, ignore = model.ignoring();
      const when = ignore ? ` when ignoring ${IRTraceNormalize.describe(ignore)}` : '';
      const traces = model.runs.length > 1 && !against ? `${model.runs.length} traces \u00b7 ` : '';
      const line = `${traces}${n} passes \u00b7 ${changed} changed \u00b7 ${n - changed} no-op${when}`;
      return { line, full: line };
    }

    /** Entry k's counts or badges changed (ignore modes): draw its row again if it is drawn. */
    function updateEntry(k) {
      const i = rowOfPass.get(k);
      if (i !== undefined) view.redraw(i);
    }

    function refreshSummary() {
      const { line, full } = summary();
      $('report-sub').textContent = line;
      $('report-sub').title = full;
    }

    function build() {
      const list = $('pass-list');
      view = IRTraceWindow.createWindow($('pass-nav'), list, {
        draw: drawRow,
        kindOf: (row) => (row.kind === 'head' ? 'head' : row.kind === 'pass' && hasMarks(row.k) ? 'marked' : 'pass'),
        keyOf: (row) => (row.kind === 'pass' ? `p${row.k}` : row.kind === 'head' ? `h${row.run}` : row.id),
        estimate: ROW_GUESS,
        pinned: () => [selectionRow()],
      });
      list.addEventListener('keydown', onListKey);
      let digits = 1;
      for (let k = firstEntry; k <= lastEntry; k++) digits = Math.max(digits, String(entries[k].label || entries[k].index).length);
      // On the sidebar: the rows measured to fit its width (viewer_panels.js) sit outside the list.
      (list.closest('.sidebar') || list).style.setProperty('--idx-ch', String(digits));
      wirePeek(list);
      relist();
      refreshSummary();
      overview.build();
    }

    /* ---------- the rows: filters, trace headings, runs of no-op passes ---------- */

    /** A pass that may fold into a run: no-op, not a trace's start, not where a pipeline failed, no log. */
    function quietNoop(k) {
      const e = entries[k];
      return !e.changed && !e.start && !e.badges.some(([cls]) => cls === 'failed') && !runs[e.log.run].passes[e.log.pos].log;
    }

    /** The op an MLIR pass ran on (`func.func @conv`), '' for the whole module or a pass without a header. */
    function scopeOf(k) {
      const e = entries[k];
      if (e.run === undefined) return '';
      const header = runs[e.log.run].passes[e.log.pos].header;
      return header ? IRTraceTraces.scopeOf(header) : '';
    }

    /** What groups entry k with its neighbours: the kind of op it ran on (`util.func`), as a nested
     *  pipeline runs its passes on each function in turn; '' for the module. */
    function opOf(k) {
      const scope = scopeOf(k);
      return scope ? scope.split(' ')[0] : '';
    }

    /** A group's header: the one op all its passes ran on, else the kind and how many of them. */
    function groupLabel(i, j, op) {
      const scopes = new Set();
      for (let m = i; m < j; m++) scopes.add(scopeOf(shownPasses[m]));
      return scopes.size === 1 ? { label: [...scopes][0], one: true } : { label: `${op} \u00d7${scopes.size}`, one: false };
    }

    /** A fold of shown passes i..j-1; one the reader has not touched is closed for a run of no-ops
     *  unless it holds the selection, open for the passes on one op. */
    function foldRow(kind, i, j, depth, label = '') {
      const first = shownPasses[i], last = shownPasses[j - 1], id = `${kind[0]}${first}`;
      const holds = state.sel >= first && state.sel <= last;
      const open = openFolds.has(id) || (!closedFolds.has(id) && (kind === 'scope' || holds));
      return { kind, id, first, last, count: j - i, open, depth, label };
    }

    /** Work the rows out from the model and show them: a heading per trace, then stretches of passes on
     *  one op (grouped when long enough), inside them runs of no-op passes. */
    function relist() {
      shownPasses = visiblePasses();
      /** @type {any[]} */
      const out = [];
      for (let i = 0; i < shownPasses.length;) {
        const run = entries[shownPasses[i]].run, op = opOf(shownPasses[i]);
        if (headed && (i === 0 || entries[shownPasses[i - 1]].run !== run)) out.push({ kind: 'head', run });
        let j = i + 1;
        while (j < shownPasses.length && entries[shownPasses[j]].run === run && opOf(shownPasses[j]) === op) j++;
        if (op && j - i >= SCOPE_MIN) {
          const { label, one } = groupLabel(i, j, op);
          const fold = foldRow('scope', i, j, 0, label);
          out.push(fold);
          if (fold.open) listPasses(out, i, j, 1, one ? label : '');
        } else listPasses(out, i, j, 0, '');
        i = j;
      }
      rows = out;
      rowOfPass = new Map();
      walkable = [];
      rows.forEach((row, i) => {
        if (row.kind !== 'pass') return;
        rowOfPass.set(row.k, i);
        walkable.push(row.k);
      });
      view.setRows(rows);
    }

    /** Rows for shown passes i..j-1 at `depth`: a run of no-op passes folds into one row. */
    function listPasses(out, i, j, depth, scope) {
      while (i < j) {
        let end = i;
        while (end < j && quietNoop(shownPasses[end]) && (end === i || shownPasses[end] === shownPasses[end - 1] + 1)) end++;
        if (end - i >= NOOP_RUN_MIN) {
          const fold = foldRow('run', i, end, depth);
          out.push(fold);
          if (fold.open) for (let m = i; m < end; m++) out.push({ kind: 'pass', k: shownPasses[m], depth: depth + 1, scope });
          i = end;
        } else out.push({ kind: 'pass', k: shownPasses[i++], depth, scope });
      }
    }

    /** The row standing for the selection: its own, or the closed fold that holds it. */
    function selectionRow() {
      const own = rowOfPass.get(state.sel);
      return own !== undefined ? own : foldHolding(state.sel);
    }

    const isFold = (row) => row.kind === 'run' || row.kind === 'scope';

    /** The innermost fold row holding entry k, or -1. */
    function foldHolding(k) {
      let found = -1;
      rows.forEach((row, i) => { if (isFold(row) && k >= row.first && k <= row.last) found = i; });
      return found;
    }

    /** The fold row a row sits in (the last row above it of a smaller depth), or -1. */
    function parentFold(at) {
      const depth = rows[at].depth || 0;
      for (let i = at - 1; i >= 0 && depth > 0; i--) if (isFold(rows[i]) && rows[i].depth < depth) return i;
      return -1;
    }

    /** Open or close a fold; the focus stays on its row. */
    function toggleFold(id, open) {
      (open ? openFolds : closedFolds).add(id);
      (open ? closedFolds : openFolds).delete(id);
      relist();
      focusRow(rows.findIndex((row) => row.id === id));
    }

    function focusRow(i) {
      if (i < 0) return;
      view.reveal(i);
      const node = view.nodeOf(i), button = node && node.querySelector('button');
      if (button) button.focus({ preventScroll: true });
    }

    /** Put the focus on entry k's row (the run holding it if closed). */
    function focusPass(k) {
      const i = rowOfPass.get(k);
      focusRow(i !== undefined ? i : foldHolding(k));
    }

    /* ---------- filters ---------- */

    function isVisible(k) {
      const e = entries[k];
      // The pass where an MLIR pipeline stopped stays listed when no-ops are hidden: it is what the run ended with.
      const failed = e.badges.some(([cls]) => cls === 'failed');
      if (e.changed ? !state.showChanged : !state.showNoop && !failed) return false;
      if (state.behaviours.size && !state.behaviours.has(e.behaviour)) return false;
      if (state.query && goToNumber(state.query) === null && !e.name.toLowerCase().includes(state.query)) return false;
      if (state.fnOnly && state.fn && fnChange(k, state.fn) === null) return false;
      return true;
    }

    function visiblePasses() {
      const out = [];
      for (let k = firstEntry; k <= lastEntry; k++) if (isVisible(k)) out.push(k);
      return out;
    }

    /** Apply the filters; a filtered-out selection moves to the nearest visible pass. */
    function applyFilters() {
      relist();
      const visible = shownPasses;
      $('pass-empty').hidden = visible.length > 0;
      showFilterState(visible.length);
      const wasNone = noneShown;
      noneShown = visible.length === 0;
      if (noneShown !== wasNone) showNoPass(noneShown);
      if (visible.length && (!isVisible(state.sel) || wasNone)) {
        let best = visible[0];
        for (const k of visible) if (Math.abs(k - state.sel) < Math.abs(best - state.sel)) best = k;
        select(best);   // after every pass was hidden, even the kept selection is painted anew
      }
      const target = goToTarget();
      if (target !== undefined) view.reveal(rowOfPass.has(target) ? rowOfPass.get(target) : foldHolding(target));
    }
    let noneShown = false;

    /** Say that filters hide passes, and how many remain: the filter box alone may be scrolled or blurred.
     *  A number typed in the filter box is a pass to go to: it filters nothing, the line offers the pass. */
    function showFilterState(shown) {
      const number = goToNumber(state.query);
      const filtering = (Boolean(state.query) && number === null) || !state.showChanged || !state.showNoop || state.behaviours.size > 0 ||
        (state.fnOnly && Boolean(state.fn));
      const parts = [];
      if (number !== null) {
        const target = goToTarget();
        parts.push(target === undefined ? `No pass ${number}.` : isVisible(target) ? `Enter: go to pass ${number} ${entries[target].name}.` : `Pass ${number} is hidden by the filters.`);
      }
      if (filtering) parts.push(`Filtered: ${shown} of ${lastEntry - firstEntry + 1} passes shown.`);
      $('filter-state').hidden = !parts.length;
      $('filter-state-text').textContent = parts.join(' ');
      $('filter-clear').hidden = !filtering;
    }

    /** The entry numbered as the filter box says (in the selection's trace first), if any. */
    function goToTarget() {
      const number = goToNumber(state.query);
      if (number === null) return undefined;
      const text = String(number), here = entries[state.sel] ? entries[state.sel].run : undefined;
      let found;
      for (let k = firstEntry; k <= lastEntry; k++) {
        const e = entries[k];
        if (e.index !== number && e.label !== text) continue;
        if (e.run === here) return k;
        if (found === undefined) found = k;
      }
      return found;
    }

    /** Enter in the filter box: open the pass its number names; the entry opened, or undefined. */
    function goToTyped() {
      const target = goToTarget();
      if (target === undefined || !isVisible(target)) return undefined;
      select(target);
      return target;
    }

    /** The next (delta > 0) or previous visible entry after `from` that `accept`s, if any.
     *  @param {number} delta @param {(k: number) => unknown} [accept] @param {number} [from] */
    function neighbour(delta, accept = null, from = state.sel) {
      // Plain steps walk the rows (a closed run of no-ops is stepped over); Find's steps every pass shown.
      const list = accept ? shownPasses : walkable;
      let i;
      if (delta > 0) {
        for (i = firstAbove(list, from); i < list.length; i++) if (!accept || accept(list[i])) return list[i];
        return undefined;
      }
      for (i = firstAbove(list, from - 1) - 1; i >= 0; i--) if (!accept || accept(list[i])) return list[i];
      return undefined;
    }

    /** The first index of sorted `list` holding a value above `value`. */
    function firstAbove(list, value) {
      let lo = 0, hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid] <= value) lo = mid + 1; else hi = mid;
      }
      return lo;
    }

    let pending = null;   // the entry held `j` / `k` presses are heading for, shown at the next frame

    /** Step to the next / previous visible pass at the next frame: presses that arrive before it
     *  (a held key repeats faster than a large pass paints) move the target on, and only the
     *  latest pass is drawn, so the panes never lag behind a queue of presses. */
    function stepPass(delta) {
      const target = neighbour(delta, undefined, pending === null ? state.sel : pending);
      if (target !== undefined) stepTo(target);
    }

    function stepTo(target) {
      if (pending === null) requestAnimationFrame(showHeading);
      pending = target;
    }

    /** Draw the pass held presses are heading for now, if any: a key other than `j` / `k` pressed
     *  right after them (`]`, `n`, Copy) acts on the pass the reader stepped to, not the one before. */
    function settle() {
      if (pending !== null) showHeading();
    }

    function showHeading() {
      if (pending === null) return;   // settled before its frame came
      const target = pending, focusInNav = document.activeElement && document.activeElement.classList.contains('pass-btn');
      pending = null;
      select(target);
      if (focusInNav) focusPass(target);
    }

    /* ---------- keys in the list: rows, pages, ends, runs ---------- */

    const LIST_MOVES = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1 };

    /** ↑ / ↓ (j / k) move row by row (a run's row too), PgUp / PgDn a windowful, Home / End to the ends;
     *  → opens a closed fold (a run of no-ops, the passes on one op), ← closes the fold the focus is in
     *  (or is on). A pass reached opens, as with j / k. */
    function onListKey(event) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const at = view.indexOfNode(event.target.closest('li'));
      if (at < 0) return;
      const row = rows[at];
      let target = null, direction = 1;
      if (event.key in LIST_MOVES) {
        direction = LIST_MOVES[event.key];
        const from = row.kind === 'pass' && pending !== null ? rowOfPass.get(pending) : at;
        target = from + direction;
      } else if (event.key === 'PageDown' || event.key === 'PageUp') {
        direction = event.key === 'PageDown' ? 1 : -1;
        target = Math.max(0, Math.min(rows.length - 1, at + direction * view.perPage('pass')));
      } else if (event.key === 'Home' || event.key === 'End') {
        direction = event.key === 'Home' ? 1 : -1;
        target = direction > 0 ? 0 : rows.length - 1;
      } else if (event.key === 'ArrowRight' && isFold(row) && !row.open) {
        event.preventDefault(); event.stopPropagation(); toggleFold(row.id, true); return;
      } else if (event.key === 'ArrowLeft' && ((isFold(row) && row.open) || parentFold(at) >= 0)) {
        event.preventDefault(); event.stopPropagation();
        toggleFold(isFold(row) && row.open ? row.id : rows[parentFold(at)].id, false);
        return;
      } else return;
      event.preventDefault();
      event.stopPropagation();   // the page's own j / k would step again
      while (target >= 0 && target < rows.length && rows[target].kind === 'head') target += direction;
      if (target < 0 || target >= rows.length) return;
      if (rows[target].kind === 'pass') stepTo(rows[target].k);
      else { settle(); focusRow(target); }
    }

    /* ---------- the whole name of a cut row, on hover and on focus ---------- */

    let peek = null;

    /** A cut name is shown whole over the row under the pointer, or the focused one: a tooltip alone
     *  never shows it to the keyboard. */
    function wirePeek(list) {
      peek = el('div', 'name-peek');
      peek.setAttribute('aria-hidden', 'true');   // the button's own text is whole for a screen reader
      peek.hidden = true;
      document.body.append(peek);
      const focusedRow = () => (list.contains(document.activeElement) ? document.activeElement : null);
      list.addEventListener('pointerover', (event) => showPeek(event.target.closest('.pass-btn')));
      list.addEventListener('pointerleave', () => showPeek(focusedRow()));
      list.addEventListener('focusin', (event) => showPeek(event.target.closest('.pass-btn')));
      list.addEventListener('focusout', () => { peek.hidden = true; });
      $('pass-nav').addEventListener('scroll', () => { peek.hidden = true; }, { passive: true });
    }

    function showPeek(button) {
      const name = button && button.querySelector('.name');
      if (!name || name.scrollWidth <= name.clientWidth) { peek.hidden = true; return; }
      const box = name.getBoundingClientRect();
      peek.textContent = name.textContent;
      peek.className = `name-peek${button.classList.contains('noop') ? ' noop' : ''}`;
      peek.style.left = `${box.left}px`;
      peek.style.top = `${box.top}px`;
      peek.style.maxWidth = `${Math.max(box.width, window.innerWidth - box.left - 8)}px`;
      peek.hidden = false;
    }

    /* ---------- marks: the selected function's history, Find's count changes ---------- */

    function functionMark(k, key, short) {
      const s = fnChange(k, key);
      if (s === undefined) return { text: `${short} ?`, cls: 'fn-mark', title: 'a snapshot of this pass cannot be sliced into functions' };
      if (!s) return { text: '', cls: 'fn-mark', title: '' };
      const created = against ? 'only in B' : 'created', removed = against ? 'only in A' : 'removed';
      const text = s.created ? `${short} ${created} +${s.ins}` : s.removed ? `${short} ${removed} \u2212${s.del}` : `${short} +${s.ins} \u2212${s.del}`;
      const cls = `fn-mark${s.created ? ' created' : s.removed ? ' removed' : ''}`;
      return { text, cls, title: `${key}: ${text.slice(short.length + 1)} ${against ? 'between run A and run B' : 'in this pass'}` };
    }

    /** Function-history and find marks of every entry (only when either changes), then the rows drawn anew. */
    function paintMarks() {
      const key = state.fn, short = key ? shortName(key) : '';
      for (let k = firstEntry; k <= lastEntry; k++) {
        const fn = key ? functionMark(k, key, short) : { text: '', cls: 'fn-mark', title: '' };
        const find = finder.change(k), untouched = Boolean(key) && fnChange(k, key) === null;
        marks[k] = fn.text || find || untouched ? { fn, find, untouched } : undefined;
      }
      if (view) view.setRows(rows);   // a row with marks is taller
    }

    /** Entry k is the selection: its row is current and the list's Tab stop, its bar selected. A
     *  selection inside a closed run of no-ops (a link, the chart, Find) opens the run. Only the rows
     *  drawn are touched: the others are drawn from the state when they scroll in. */
    function markSelected(k) {
      for (let depth = 0; depth < 2 && !rowOfPass.has(k) && isVisible(k); depth++) {   // a run inside a scope: two folds
        const fold = rows[foldHolding(k)];
        if (!fold) break;
        openFolds.add(fold.id);
        closedFolds.delete(fold.id);
        relist();
      }
      const holder = rowOfPass.has(k) ? undefined : rows[foldHolding(k)];
      for (const { node } of view.drawnRows()) {
        const button = node.querySelector('button');
        if (!button) continue;
        const on = button.dataset.k !== undefined && Number(button.dataset.k) === k;
        if (on) button.setAttribute('aria-current', 'true'); else button.removeAttribute('aria-current');
        const runHolds = Boolean(holder) && button.dataset.fold === holder.id;
        button.tabIndex = on || runHolds ? 0 : -1;
      }
      overview.markSelected(k);
      const i = rowOfPass.get(k);
      if (i !== undefined) view.reveal(i); else view.render();
    }

    /** Fresh rows of the `count` entries with the most text: the sidebar's width is fitted to them. */
    function widestRows(count) {
      const best = [];
      for (let k = firstEntry; k <= lastEntry; k++) {
        const e = entries[k];
        const length = String(e.label || e.index).length + e.name.length + (e.inserted !== null ? String(e.inserted).length + String(e.deleted).length + 4 : 0) +
          e.badges.reduce((n, b) => n + b[1].length + 1, 0);
        if (best.length === count && length <= best[count - 1][0]) continue;
        let i = best.length === count ? count - 1 : best.length;
        while (i > 0 && best[i - 1][0] < length) { best[i] = best[i - 1]; i--; }
        best[i] = [length, k];
        best.length = Math.min(best.length, count);
      }
      return best.map(([, k]) => passButton(k));
    }

    return {
      build, applyFilters, visiblePasses, neighbour, stepPass, settle, paintMarks, paintOverview: () => overview.paint(), markSelected, statsNode,
      updateEntry, refreshSummary, goToTyped, focusPass, widestRows,
    };
  }

  return { createSidebar, statsNode };
})();
