// needs: normalize.js, viewer_dom.js, viewer_model.js
/* pypto-ir-trace viewer: the pass list and the overview chart (IRTraceSidebar).
 * One sidebar button per entry and one overview chart of them all; the filters that hide entries; the function
 * history and Find marks on each entry. Reads the viewer's state, changes only the selection
 * (through `select`). */
const IRTraceSidebar = (() => {
  'use strict';

  const { shortName } = IRTraceModel;
  const { el, $ } = IRTraceDom;

  function statsNode(inserted, deleted) {
    const node = el('span', 'stats');
    node.append(el('span', 'plus', `+${inserted}`), ' ', el('span', 'minus', `\u2212${deleted}`));
    return node;
  }

  /** The sidebar and overview of a model; `state` is the viewer's, `select(k)` shows entry k. */
  /** `showNoPass(none)`: told when the filters come to hide every pass (none) and when one shows again. */
  /** @param {(none: boolean) => void} [showNoPass] */
  function createSidebar(model, finder, state, select, showNoPass = (_none) => {}) {
    const { entries, runs, against, firstEntry, lastEntry, fnChange } = model;
    const passButtons = [];     // by entry k
    const markNodes = [];       // by entry k: { box, fn, find }

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

    function passButton(k) {
      const e = entries[k];
      const button = el('button', e.changed ? 'pass-btn' : 'pass-btn noop');
      button.type = 'button';
      button.dataset.k = k;
      button.tabIndex = k === state.sel ? 0 : -1;   // the list is one Tab stop: ↑ / ↓ (j / k) move in it
      // The row never wraps and may cut a long name: the tooltip has all of it.
      button.title = `${e.label || e.index} ${e.name}\n${e.title}`;
      button.append(el('span', 'idx', e.label || String(e.index)), ' ', el('span', 'name', e.name));
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
      const box = el('span', 'marks'), fnMark = el('span', 'fn-mark'), findMark = el('span', 'find-mark');
      box.append(fnMark, findMark);
      box.hidden = true;
      button.append(box);
      markNodes[k] = { box, fn: fnMark, find: findMark };
      button.addEventListener('click', () => select(k));
      return button;
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

    /** Entry k's counts or badges changed (ignore modes): repaint its button, keep its marks. */
    function updateEntry(k) {
      const old = passButtons[k], fresh = passButton(k), focused = document.activeElement === old;
      old.replaceWith(fresh);
      passButtons[k] = fresh;
      if (k === state.sel) fresh.setAttribute('aria-current', 'true');
      if (focused) fresh.focus();
    }

    function refreshSummary() {
      const { line, full } = summary();
      $('report-sub').textContent = line;
      $('report-sub').title = full;
    }

    function build() {
      const list = $('pass-list');
      for (let k = firstEntry; k <= lastEntry; k++) {
        const item = el('li');
        item.appendChild((passButtons[k] = passButton(k)));
        list.appendChild(item);
      }
      refreshSummary();
      buildOverview();
    }

    /* ---------- filters ---------- */

    function isVisible(k) {
      const e = entries[k];
      // The pass where an MLIR pipeline stopped stays listed when no-ops are hidden: it is what the run ended with.
      const failed = e.badges.some(([cls]) => cls === 'failed');
      if (e.changed ? !state.showChanged : !state.showNoop && !failed) return false;
      if (state.behaviours.size && !state.behaviours.has(e.behaviour)) return false;
      if (state.query && !e.name.toLowerCase().includes(state.query)) return false;
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
      const visible = visiblePasses(), shown = new Set(visible);
      for (let k = firstEntry; k <= lastEntry; k++) passButtons[k].parentElement.hidden = !shown.has(k);
      $('pass-empty').hidden = visible.length > 0;
      showFilterState(visible.length);
      const wasNone = noneShown;
      noneShown = visible.length === 0;
      if (noneShown !== wasNone) showNoPass(noneShown);
      if (visible.length && (!shown.has(state.sel) || wasNone)) {
        let best = visible[0];
        for (const k of visible) if (Math.abs(k - state.sel) < Math.abs(best - state.sel)) best = k;
        select(best);   // after every pass was hidden, even the kept selection is painted anew
      }
    }
    let noneShown = false;

    /** Say that filters hide passes, and how many remain: the filter box alone may be scrolled or blurred. */
    function showFilterState(shown) {
      const active = Boolean(state.query) || !state.showChanged || !state.showNoop || state.behaviours.size > 0 ||
        (state.fnOnly && Boolean(state.fn));
      $('filter-state').hidden = !active;
      $('filter-state-text').textContent = active ? `Filtered: ${shown} of ${lastEntry - firstEntry + 1} passes shown.` : '';
    }

    /** The next (delta > 0) or previous visible entry after `from` that `accept`s, if any.
     *  @param {number} delta @param {(k: number) => unknown} [accept] @param {number} [from] */
    function neighbour(delta, accept = () => true, from = state.sel) {
      const visible = visiblePasses().filter(accept);
      return delta > 0 ? visible.find((k) => k > from) : visible.reverse().find((k) => k < from);
    }

    let heading = null;   // the entry held `j` / `k` presses are heading for, shown at the next frame

    /** Step to the next / previous visible pass at the next frame: presses that arrive before it
     *  (a held key repeats faster than a large pass paints) move the target on, and only the
     *  latest pass is drawn, so the panes never lag behind a queue of presses. */
    function stepPass(delta) {
      const target = neighbour(delta, undefined, heading === null ? state.sel : heading);
      if (target === undefined) return;
      if (heading === null) requestAnimationFrame(showHeading);
      heading = target;
    }

    /** Draw the pass held presses are heading for now, if any: a key other than `j` / `k` pressed
     *  right after them (`]`, `n`, Copy) acts on the pass the reader stepped to, not the one before. */
    function settle() {
      if (heading !== null) showHeading();
    }

    function showHeading() {
      if (heading === null) return;   // settled before its frame came
      const target = heading, focusInNav = document.activeElement && document.activeElement.classList.contains('pass-btn');
      heading = null;
      select(target);
      if (focusInNav) passButtons[target].focus();
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

    /** Function-history and find marks on every sidebar item (only when either changes). */
    function paintMarks() {
      const key = state.fn, short = key ? shortName(key) : '';
      for (let k = firstEntry; k <= lastEntry; k++) {
        const nodes = markNodes[k];
        const fn = key ? functionMark(k, key, short) : { text: '', cls: 'fn-mark', title: '' };
        nodes.fn.textContent = fn.text;
        nodes.fn.className = fn.cls;
        nodes.fn.title = fn.title;
        passButtons[k].classList.toggle('fn-untouched', Boolean(key) && fnChange(k, key) === null);
        const change = finder.change(k);
        nodes.find.textContent = change ? change.label : '';
        nodes.find.className = change ? `find-mark ${change.kind}` : 'find-mark';
        nodes.find.title = change ? `Find \u201c${finder.text}\u201d: ${change.label}` : '';
        nodes.box.hidden = !fn.text && !change;
        passButtons[k].classList.toggle('has-marks', !nodes.box.hidden);
      }
    }

    /* ---------- overview chart ---------- */

    // One canvas drawn from the entries: it fits its pane at any pass count (a column of the chart
    // holds several passes once they outnumber its pixels) and never widens the page. It is a
    // slider for the keyboard: ← / → one pass, PgUp / PgDn a tenth of the pipeline, Home / End.
    const BAR_MAX = 24;            // px: a short pipeline's bars stay bars, left-aligned
    let chart = null;              // the canvas
    let palette = null;            // CSS colour name -> value in the current theme
    let heights = [], kinds = [];  // by entry k: bar height (0..1), and what it shows

    const logged = [], traceStart = [];   // by entry k: the pass wrote a log; a trace starts there

    function buildOverview() {
      for (let k = firstEntry; k <= lastEntry; k++) {
        logged[k] = Boolean(runs[entries[k].log.run].passes[entries[k].log.pos].log);
        traceStart[k] = k > firstEntry && entries[k].run !== entries[k - 1].run;
      }
      chart = el('canvas', 'overview-chart');
      chart.tabIndex = 0;
      chart.setAttribute('role', 'slider');
      chart.setAttribute('aria-label', 'Overview chart: lines edited at each step (arrow keys or click to pick one)');
      chart.setAttribute('aria-valuemin', String(firstEntry));
      chart.setAttribute('aria-valuemax', String(lastEntry));
      chart.addEventListener('click', (event) => select(entryAtX(event.offsetX)));
      chart.addEventListener('mousemove', (event) => { chart.title = barTitle(entryAtX(event.offsetX)); });
      chart.addEventListener('keydown', onChartKey);
      $('overview').appendChild(chart);
      new ResizeObserver(() => drawOverview()).observe(chart);
      new MutationObserver(() => { palette = null; drawOverview(); }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
      paintOverview();
    }

    function onChartKey(event) {
      const page = Math.max(1, Math.round((lastEntry - firstEntry + 1) / 10));
      const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: page, PageUp: -page };
      let target;
      if (event.key === 'Home') target = firstEntry;
      else if (event.key === 'End') target = lastEntry;
      else if (event.key in moves) target = Math.min(lastEntry, Math.max(firstEntry, state.sel + moves[event.key]));
      else return;
      event.preventDefault();
      event.stopPropagation();   // the page's own ↑ / ↓ / Home keys are not the chart's
      if (target !== state.sel) select(target);
    }

    /** Bar heights: lines changed per pass (log-scaled), or the selected function's own change. */
    function paintOverview() {
      const key = state.fn, value = [];
      let max = 1;
      for (let k = firstEntry; k <= lastEntry; k++) {
        const e = entries[k];
        const s = key ? fnChange(k, key) : null;
        value[k] = key ? (s ? s.ins + s.del : 0) : e.changed ? (e.inserted || 0) + (e.deleted || 0) : 0;
        const fnKind = s ? (s.created ? 'created' : s.removed ? 'removed' : 'fn') : '';
        const only = !key && e.match && e.match.status.startsWith('only');
        kinds[k] = only ? 'only' : key ? fnKind || 'noop' : e.changed ? 'changed' : 'noop';
        max = Math.max(max, value[k]);
      }
      const scale = Math.log1p(max);
      for (let k = firstEntry; k <= lastEntry; k++) {
        const kind = kinds[k];
        heights[k] = kind === 'only' ? 1 : kind === 'noop' ? 0 : Math.max(0.12, Math.log1p(value[k]) / scale);
      }
      drawOverview();
    }

    /** Columns of the chart: how many, their width, and the entries each holds. */
    function columns() {
      const n = lastEntry - firstEntry + 1, width = Math.max(1, chart.clientWidth);
      const count = Math.max(1, Math.min(n, Math.floor(width)));
      return { n, count, width: Math.min(BAR_MAX, width / count) };
    }

    /** The entries of column c: [first, last]. */
    function columnEntries(c, { n, count }) {
      return [firstEntry + Math.floor((c * n) / count), firstEntry + Math.floor(((c + 1) * n) / count) - 1];
    }

    /** The entry a column stands for: the one with the tallest bar (the selection if it is there). */
    function columnEntry(c, layout) {
      const [first, last] = columnEntries(c, layout);
      if (state.sel >= first && state.sel <= last) return state.sel;
      let best = first;
      for (let k = first + 1; k <= last; k++) if (heights[k] > heights[best]) best = k;
      return best;
    }

    function entryAtX(x) {
      const layout = columns();
      return columnEntry(Math.min(layout.count - 1, Math.max(0, Math.floor(x / layout.width))), layout);
    }

    const KIND_COLOUR = { changed: '--bar-changed', fn: '--bar-changed', only: '--bar-changed', noop: '--bar', created: '--ins-fg', removed: '--del-fg' };
    const KIND_RANK = { noop: 0, changed: 1, fn: 1, only: 2, removed: 3, created: 4 };

    let drawPending = false;

    /** Draw at the next frame, once however many changes asked: reading the chart's width
     *  before then would force a layout of the page in the middle of building it. */
    function drawOverview() {
      if (drawPending) return;
      drawPending = true;
      requestAnimationFrame(() => { drawPending = false; drawNow(); });
    }

    function drawNow() {
      if (!chart || !chart.clientWidth) return;
      if (!palette) {   // read once per theme: asking for a style at every pass switch restyled the page
        const css = getComputedStyle(chart);
        palette = new Map(['--bar-changed', '--bar', '--bar-select', '--ins-fg', '--del-fg', '--bg-select', '--border', '--accent', '--warn-border']
          .map((name) => [name, css.getPropertyValue(name).trim()]));
      }
      const colour = (name) => palette.get(name);
      const ratio = window.devicePixelRatio || 1, w = chart.clientWidth, h = chart.clientHeight;
      if (chart.width !== Math.round(w * ratio)) chart.width = Math.round(w * ratio);
      if (chart.height !== Math.round(h * ratio)) chart.height = Math.round(h * ratio);
      const g = chart.getContext('2d');
      g.setTransform(ratio, 0, 0, ratio, 0, 0);
      g.clearRect(0, 0, w, h);
      const layout = columns(), gap = layout.width >= 3 ? 1 : 0;
      for (let c = 0; c < layout.count; c++) {
        const [first, last] = columnEntries(c, layout), x = c * layout.width;
        let tall = 0, kind = 'noop', warn = false, boundary = false;
        for (let k = first; k <= last; k++) {
          tall = Math.max(tall, heights[k]);
          if (KIND_RANK[kinds[k]] > KIND_RANK[kind]) kind = kinds[k];
          warn = warn || logged[k];
          boundary = boundary || traceStart[k];
        }
        const selected = state.sel >= first && state.sel <= last;
        if (selected) { g.fillStyle = colour('--bg-select'); g.fillRect(x, 0, Math.max(2, layout.width), h); }
        if (boundary) { g.fillStyle = colour('--border'); g.fillRect(x, 0, 1, h); }
        const barH = tall ? Math.max(3, tall * (h - 5)) : 2;
        g.fillStyle = colour(selected ? '--bar-select' : KIND_COLOUR[kind]);
        g.globalAlpha = kind === 'only' ? 0.5 : 1;
        g.fillRect(x + (boundary && gap ? 1 : 0), h - barH, Math.max(selected ? 2 : 1, layout.width - gap), barH);
        g.globalAlpha = 1;
        // A column a pixel or two wide: the selection is a full-height line, or it would be lost.
        if (selected && layout.width < 4) { g.fillStyle = colour('--accent'); g.fillRect(Math.max(0, x - 1), 0, 2, h); }
        if (warn) { g.fillStyle = colour('--warn-border'); g.fillRect(x + Math.max(0, layout.width / 2 - 2), 0, Math.min(4, Math.max(1, layout.width)), 3); }
      }
    }

    /** What the bar of entry k says on hover and to a screen reader. */
    function barTitle(k) {
      const e = entries[k], key = state.fn, warn = warningBadge(k);
      let title = `${e.label || e.index} ${e.name}: `;
      if (key) {
        const s = fnChange(k, key), mark = s ? (s.created ? 'created' : s.removed ? 'removed' : '') : '';
        title += s ? `${shortName(key)} +${s.ins} \u2212${s.del}${mark ? ` (${mark})` : ''}` : `${shortName(key)} unchanged`;
      } else {
        title += e.inserted !== null ? `+${e.inserted} \u2212${e.deleted}` : e.badges.map((b) => b[1]).join(', ');
      }
      return title + (warn ? `, ${warn.text}` : '');
    }

    let marked = null;   // the entry markSelected last marked: only it and the new one change

    /** Entry k is the selection: its button is current and the list's Tab stop, its bar selected.
     *  Only the entry marked before is unmarked: touching a thousand buttons at every `j` made the
     *  browser restyle the whole list. */
    function markSelected(k) {
      for (const j of marked === null ? range(firstEntry, lastEntry) : [marked, k]) {
        const on = j === k;
        if (on) passButtons[j].setAttribute('aria-current', 'true');
        else passButtons[j].removeAttribute('aria-current');
        passButtons[j].tabIndex = on ? 0 : -1;
      }
      marked = k;
      chart.setAttribute('aria-valuenow', String(k));
      chart.setAttribute('aria-valuetext', barTitle(k));
      drawOverview();
      if (!passButtons[k].parentElement.hidden) passButtons[k].scrollIntoView({ block: 'nearest' });
    }

    function range(first, last) {
      return Array.from({ length: last - first + 1 }, (_, i) => first + i);
    }

    return {
      build, applyFilters, visiblePasses, neighbour, stepPass, settle, paintMarks, paintOverview, markSelected, statsNode,
      updateEntry, refreshSummary,
    };
  }

  return { createSidebar, statsNode };
})();
