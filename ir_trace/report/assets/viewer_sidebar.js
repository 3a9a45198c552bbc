// needs: normalize.js, viewer_dom.js, viewer_model.js
/* pypto-ir-trace viewer: the pass list and the overview strip (IRTraceSidebar).
 * One sidebar button and one overview bar per entry; the filters that hide entries; the function
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
    const bars = [];            // by entry k

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
      const active = Boolean(state.query) || !state.showChanged || !state.showNoop || (state.fnOnly && Boolean(state.fn));
      $('filter-state').hidden = !active;
      $('filter-state-text').textContent = active ? `Filtered: ${shown} of ${lastEntry - firstEntry + 1} passes shown.` : '';
    }

    /** The next (delta > 0) or previous visible entry after the selection that `accept`s, if any.
     *  @param {number} delta @param {(k: number) => unknown} [accept] */
    function neighbour(delta, accept = () => true) {
      const visible = visiblePasses().filter(accept);
      return delta > 0 ? visible.find((k) => k > state.sel) : visible.reverse().find((k) => k < state.sel);
    }

    function stepPass(delta) {
      const target = neighbour(delta);
      if (target === undefined) return;
      const focusInNav = document.activeElement && document.activeElement.classList.contains('pass-btn');
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

    /* ---------- overview strip ---------- */

    function buildOverview() {
      const strip = $('overview');
      for (let k = firstEntry; k <= lastEntry; k++) {
        const e = entries[k];
        const bar = el('button', 'bar');
        bar.type = 'button';
        bar.tabIndex = -1;
        bar.setAttribute('aria-label', `Pass ${e.index} ${e.name}`);
        bar.appendChild(el('span', 'fill'));
        bar.addEventListener('click', () => select(k));
        bar.addEventListener('keydown', (event) => {
          const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
          if (!delta || k + delta < firstEntry || k + delta > lastEntry) return;
          event.preventDefault();
          select(k + delta);
          bars[k + delta].focus();
        });
        strip.appendChild(bar);
        bars[k] = bar;
      }
      paintOverview();
    }

    /** Bar heights: lines changed per pass (log-scaled), or the selected function's own change. */
    function paintOverview() {
      const key = state.fn;
      const value = [], marks = [];
      let max = 1;
      for (let k = firstEntry; k <= lastEntry; k++) {
        const e = entries[k];
        if (key) {
          const s = fnChange(k, key);
          value[k] = s ? s.ins + s.del : 0;
          marks[k] = s ? (s.created ? 'created' : s.removed ? 'removed' : '') : '';
        } else {
          value[k] = e.changed ? (e.inserted || 0) + (e.deleted || 0) : 0;
          marks[k] = '';
        }
        max = Math.max(max, value[k]);
      }
      const scale = Math.log1p(max);
      for (let k = firstEntry; k <= lastEntry; k++) {
        const e = entries[k], bar = bars[k];
        const warn = warningBadge(k);
        const only = e.match && e.match.status.startsWith('only');
        const active = key ? value[k] > 0 || marks[k] : e.changed;
        bar.className = ['bar', active ? '' : 'noop', warn ? 'warn' : '', warn && warn.cls.includes('carried') ? 'carried' : '',
          only && !key ? 'only' : '', marks[k] ? `fn-${marks[k]}` : '', k === state.sel ? 'selected' : ''].filter(Boolean).join(' ');
        const fill = bar.firstChild;
        fill.style.height = only && !key ? '100%' : active ? `${Math.max(12, (100 * Math.log1p(value[k])) / scale)}%` : '2px';
        let title = `${e.index} ${e.name}: `;
        if (key) {
          const s = fnChange(k, key);
          title += s ? `${shortName(key)} +${s.ins} \u2212${s.del}${marks[k] ? ` (${marks[k]})` : ''}` : `${shortName(key)} unchanged`;
        } else {
          title += e.inserted !== null ? `+${e.inserted} \u2212${e.deleted}` : e.badges.map((b) => b[1]).join(', ');
        }
        bar.title = title + (warn ? `, ${warn.text}` : '');
      }
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
        bars[j].classList.toggle('selected', on);
        bars[j].tabIndex = on ? 0 : -1;
      }
      marked = k;
      if (!passButtons[k].parentElement.hidden) passButtons[k].scrollIntoView({ block: 'nearest' });
    }

    function range(first, last) {
      return Array.from({ length: last - first + 1 }, (_, i) => first + i);
    }

    return {
      build, applyFilters, visiblePasses, neighbour, stepPass, paintMarks, paintOverview, markSelected, statsNode,
      updateEntry, refreshSummary,
    };
  }

  return { createSidebar, statsNode };
})();
