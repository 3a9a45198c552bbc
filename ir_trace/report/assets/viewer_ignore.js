// needs: normalize.js, viewer_traces.js
/* pypto-ir-trace viewer: ignore modes and following a value (IRTraceIgnore).
 * The ignore checkboxes and regex field, the modes a link or the last visit names, applying them
 * (the current pass at once, the other entries in slices) and the note above the panes; the value
 * a click in a pane follows, its highlights, its count and its hand-over to Find. viewer.js creates
 * it with the viewer's state and parts and calls the functions it returns.
 * Inlined after normalize.js (IRTraceNormalize) and viewer_panels.js, before viewer.js. */
const IRTraceIgnore = (() => {
  'use strict';

  const NORM = IRTraceNormalize;
  /** @type {(id: string) => any} (see viewer_dom.js) */
  const $ = (id) => document.getElementById(id);

  /** ctx: the model, the state's owner (viewer_state.js), the viewer's sidebar and painter, the timing trace and afterPaint,
   *  view() (the current view: buildView replaces it, so it is read when needed), and the
   *  viewer's buildView, updateHash, showFindStatus and runFind. */
  function create(ctx) {
    const { model, finder, sidebar, painter, trace, afterPaint, buildView, updateHash, showFindStatus, runFind } = ctx;
    /** @type {ViewerStateOwner} the state and its actions (viewer_state.js) */
    const { state, set, closeFolds } = ctx.owner;
    const { payload, against, entries, firstEntry, lastEntry } = model;
    const currentView = ctx.view;
    let follow = null;          // the followed value: { name, key } (key: the name under the ignore modes)

    /* ---------- ignore modes ---------- */

    const IGNORE_STORE = 'pypto-ir-trace.ignore';
    let ignoreGeneration = 0;
    const ignoreKeyOf = (spec) => (spec ? `${spec.modes.join(',')}|${spec.regex || ''}` : '');

    /** The modes the checkboxes and the regex field ask for (an invalid regex is left out, with why). */
    function readIgnoreControls() {
      const modes = NORM.MODES.filter((m) => $(`ignore-${m}`).checked);
      const text = $('ignore-regex-text').value, wanted = $('ignore-regex').checked && text !== '';
      const error = wanted ? NORM.checkRegex(text) : null;
      $('ignore-regex-text').setAttribute('aria-invalid', String(Boolean(error)));
      $('ignore-status').textContent = error ? `Regex not used: ${error}` : '';
      $('ignore-status').className = error ? 'ignore-status error' : 'ignore-status';
      const spec = { modes, regex: wanted && !error ? text : null };
      return NORM.isOn(spec) ? spec : null;
    }

    function writeIgnoreControls(spec) {
      for (const m of NORM.MODES) $(`ignore-${m}`).checked = Boolean(spec && spec.modes.includes(m));
      $('ignore-regex').checked = Boolean(spec && spec.regex);
      if (spec && spec.regex) $('ignore-regex-text').value = spec.regex;
      settleRegexBox();
    }

    /** The regex's text box is a Tab stop once the regex mode is on (or the box holds text), right
     *  after its checkbox, so the sidebar's options cost one Tab; a click into it still turns it on. */
    function settleRegexBox() {
      const box = $('ignore-regex-text');
      box.tabIndex = $('ignore-regex').checked || box.value ? 0 : -1;
    }

    function storedIgnore() {
      try {
        const data = JSON.parse(localStorage.getItem(IGNORE_STORE) || 'null');
        return data ? NORM.cleanModes(data.modes, data.regex) : null;
      } catch (err) {
        return null;   // storage disabled (some file:// set-ups) or damaged: start with none
      }
    }

    function storeIgnore(spec) {
      try {
        localStorage.setItem(IGNORE_STORE, JSON.stringify(spec || { modes: [], regex: null }));
      } catch (err) { /* storage disabled: the fragment still records the modes */ }
    }

    /** The modes a fragment names (ignore=ssa,memref&ignore-regex=...), undefined when it names none. */
    function ignoreFromParams(params) {
      if (!params.has('ignore') && !params.has('ignore-regex')) return undefined;
      const spec = offered(NORM.cleanModes((params.get('ignore') || '').split(','), params.get('ignore-regex')));
      return NORM.isOn(spec) ? spec : null;
    }

    /** `spec` without the modes this report does not offer: `loc` (MLIR's locations) is for MLIR
     *  snapshots only and `memref` (pl.MemRef) for PyPTO's, so one a link or another report left
     *  behind stays off here. */
    function offered(spec) {
      if (!spec) return spec;
      const unused = [showsMlir() ? '' : 'loc', showsPypto() ? '' : 'memref'];
      return { ...spec, modes: spec.modes.filter((m) => !unused.includes(m)) };
    }

    /** Apply new modes: the current pass is redrawn at once, the other entries follow in slices. */
    function setIgnore(spec, { store = true } = {}) {
      if (against || ignoreKeyOf(spec) === ignoreKeyOf(state.ignore)) return;
      const started = performance.now();
      const shown = entries.map(shownCounts);   // what each row says now: only rows whose counts move are rebuilt
      set({ ignore: spec });
      model.setIgnore(spec);
      finder.setLineKeys(model.lineKeyOf);
      if (follow) follow.key = followKey(follow.name);
      if (store) storeIgnore(spec);
      if (state.sel >= firstEntry) {
        model.refreshEntry(state.sel);
        sidebar.updateEntry(state.sel);
        closeFolds();   // folds move with the modes; Expand all stays as the user set it
        buildView('either');
        updateHash();
        trace.ignoresSync.push(performance.now() - started);   // the redraw's own work, before painting
        // The other entries are recounted once the current pass is on screen, never before.
        afterPaint((t) => { trace.ignores.push(t - started); refreshEntries(started, shown); });
        return;
      }
      refreshEntries(started, shown);
    }

    /** The parts of an entry its sidebar row shows that the modes change (viewer_model.js refreshEntry). */
    function shownCounts(e) {
      return e ? `${e.changed}|${e.inserted}|${e.deleted}|${e.quiet}|${e.badges.map((b) => b.join(':')).join(',')}` : '';
    }

    /** Recount every entry under the modes in ~12 ms slices, so typing and scrolling stay smooth;
     *  then the overview, marks, filters and summary follow. A newer setIgnore abandons this one.
     *  Most entries come with their counts for the common mode sets (the report's ignore_counts), so
     *  a slice is mostly the rows' own repaint: a row is rebuilt only when what it shows changes
     *  (`shown`: each row's shownCounts before the modes changed; none given: every row). */
    function refreshEntries(started, shown = []) {
      const generation = ++ignoreGeneration;
      $('pass-nav').dataset.ignoring = 'pending';
      let k = firstEntry;
      const slice = () => {
        if (generation !== ignoreGeneration) return;
        const until = performance.now() + 12;
        for (; k <= lastEntry && performance.now() < until; k++) {
          const e = model.refreshEntry(k);
          if (shownCounts(e) !== shown[k]) sidebar.updateEntry(k);
        }
        if (k <= lastEntry) { setTimeout(slice, 0); return; }
        sidebar.refreshSummary();
        sidebar.paintOverview();
        sidebar.paintMarks();
        sidebar.applyFilters();
        showFindStatus();
        $('pass-nav').dataset.ignoring = 'done';
        trace.ignoresSettled.push(performance.now() - started);
      };
      slice();
    }

    /** Above the panes: what the modes did to this pass, or to the selected function in it (the
     *  counts the pass title gives). */
    function showIgnoreNote() {
      const note = $('ignore-note'), ignore = model.ignoring();
      const exact = !against && model.exactOf(state.sel);
      if (!ignore || !exact || !exact.changed || model.fromOf(state.sel, state.from) !== model.previousOf(state.sel)) { note.hidden = true; return; }
      const e = model.refreshEntry(state.sel);   // counted under the modes (a link's modes: not yet, at start)
      const view = currentView(), choice = view && view.choice;
      const counts = choice ? functionCountsAsPrinted(view.spec, choice) : null;
      if (counts && !counts.exact.inserted && !counts.exact.deleted) { note.hidden = true; return; }   // as printed, the function did not change
      const [shown, printed] = counts ? [counts.ignoring, counts.exact] : [e, exact];
      const words = NORM.describe(ignore), where = choice ? ` in ${choice.short}` : '';
      const changed = shown.inserted + shown.deleted > 0;
      note.textContent = changed
        ? `Ignoring ${words}: +${shown.inserted} \u2212${shown.deleted} lines${where} (as printed +${printed.inserted} \u2212${printed.deleted}).`
        : `No-op${where} when ignoring ${words}: every line it changed is equal after ignoring (as printed +${printed.inserted} \u2212${printed.deleted}).`;
      note.hidden = false;
    }

    /** The selected function's change under the modes (the view's own diff) and as printed (the pass's
     *  hunks in the payload): the lines are the same, only which of them differ is not. */
    function functionCountsAsPrinted(spec, choice) {
      const printed = model.runs[spec.after.run].passes[spec.after.pos].hunks || [];
      return { ignoring: model.functionCounts(spec, choice), exact: model.functionCounts({ ...spec, hunks: printed }, choice) };
    }

    function onIgnoreControl() {
      setIgnore(readIgnoreControls());
    }

    /* ---------- follow a value ---------- */

    const NAME = /(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*/g;
    const isNameChar = (c) => /[A-Za-z0-9_]/.test(c);
    const followKey = (name) => (state.ignore && state.ignore.modes.includes('ssa') ? NORM.stripSsaVersions(name) : name);

    /** Occurrences of the followed value in one line (names equal under the SSA mode count too). */
    function followRanges(text) {
      if (!follow) return null;
      const out = [];
      NAME.lastIndex = 0;
      let m;
      while ((m = NAME.exec(text)) !== null) if (followKey(m[0]) === follow.key) out.push([m.index, m.index + m[0].length]);
      return out;
    }

    /** Character offset of a click inside a code cell, counted over the cell's text. */
    function clickOffset(cell, event) {
      const range = document.caretRangeFromPoint ? document.caretRangeFromPoint(event.clientX, event.clientY) : null;
      if (!range || !cell.contains(range.startContainer)) return -1;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      let offset = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node === range.startContainer) return offset + range.startOffset;
        offset += /** @type {Text} */ (node).data.length;
      }
      return -1;
    }

    /** The name under a click in a pane, or '' (a drag that selected text is not a click). */
    function nameAt(event) {
      const cell = event.target.closest('.code');
      const selection = window.getSelection();
      if (!cell || (selection && !selection.isCollapsed)) return '';
      const text = cell.textContent, at = clickOffset(cell, event);
      if (at < 0) return '';
      let start = at, end = at;
      while (start > 0 && isNameChar(text[start - 1])) start--;
      while (end < text.length && isNameChar(text[end])) end++;
      const name = text.slice(start, end);
      return /^[A-Za-z_]/.test(name) ? name : '';
    }

    function setFollow(name) {
      follow = name ? { name, key: followKey(name) } : null;
      $('follow-bar').hidden = !follow;
      showFollowStatus();
      painter.render(true);
    }

    function showFollowStatus() {
      const view = currentView();
      if (!follow || !view) return;
      const count = (lines) => lines.reduce((n, line) => n + followRanges(line).length, 0);
      const across = state.ignore && state.ignore.modes.includes('ssa') ? ' (any SSA version)' : '';
      $('follow-status').textContent = `Following ${follow.name}${across}: ${count(view.before)} in Before \u00b7 ${count(view.after)} in After`;
    }

    /** The followed value as a Find: a whole-name regex, across SSA versions when they are ignored. */
    function followToFind() {
      if (!follow) return;
      const esc = (t) => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      let source = esc(follow.name);
      if (state.ignore && state.ignore.modes.includes('ssa')) {
        const SUFFIX = '(?:__[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)*_v\\d+)?';
        const at = NORM.firstSsaSuffix(follow.name);
        source = at ? esc(follow.name.slice(0, at[0])) + SUFFIX + esc(follow.name.slice(at[1])) : source + SUFFIX;
      }
      $('find-text').value = `(?<![A-Za-z0-9_])${source}(?![A-Za-z0-9_])`;
      $('find-regex').checked = true;
      $('find-case').checked = true;
      $('find-word').checked = false;   // the regex is bounded at a whole name already
      setFollow('');
      runFind();
    }

    /** Initial modes: the fragment's, else the report's own (--ignore), else the last ones used. */
    function startIgnoring() {
      if (against) return;
      const fromHash = ignoreFromParams(new URLSearchParams(location.hash.slice(1)));
      const fromReport = payload.ignore ? offered(NORM.cleanModes(payload.ignore.modes, payload.ignore.regex)) : null;
      const spec = fromHash !== undefined ? fromHash : fromReport || offered(storedIgnore());
      if (!spec || !NORM.isOn(spec)) return;
      writeIgnoreControls(spec);
      set({ ignore: spec });
      model.setIgnore(spec);
    }

    /** Whether any trace of the report is MLIR (payload.kind, or a trace's own kind). */
    const isMlir = (trace) => (trace.kind || payload.kind) === 'mlir';
    const showsMlir = () => IRTraceTraces.tracesOf(payload).some(isMlir);
    const showsPypto = () => !IRTraceTraces.tracesOf(payload).every(isMlir);

    /** MLIR snapshots get the locations toggle and their own SSA wording; memory annotations
     *  (pl.MemRef) are PyPTO's only, so an MLIR-only report does not offer to ignore them. */
    function labelIgnoreControls() {
      $('ignore-memref').parentElement.hidden = !showsPypto();
      if (!showsMlir()) return;
      $('ignore-loc-label').hidden = false;
      $('ignore-ssa').parentElement.title = '%12 and %13, ^bb1 and ^bb2, #map1 and #map2 read alike: a pass that only renumbers is a no-op';
    }

    /** The ignore controls and the follow bar's buttons. */
    function wireIgnoreControls() {
      labelIgnoreControls();
      for (const m of [...NORM.MODES, 'regex']) $(`ignore-${m}`).addEventListener('change', onIgnoreControl);
      settleRegexBox();
      $('ignore-regex').addEventListener('change', settleRegexBox);
      $('ignore-regex-text').addEventListener('input', settleRegexBox);
      let ignoreTimer = 0;
      $('ignore-regex-text').addEventListener('input', () => {
        clearTimeout(ignoreTimer);
        ignoreTimer = setTimeout(() => {
          if ($('ignore-regex-text').value && !$('ignore-regex').checked) $('ignore-regex').checked = true;
          onIgnoreControl();
        }, 250);
      });
      $('follow-find').addEventListener('click', followToFind);
      $('follow-stop').addEventListener('click', () => setFollow(''));
    }

    return {
      ignoreKeyOf, ignoreFromParams, writeIgnoreControls, setIgnore, refreshEntries, showIgnoreNote, startIgnoring,
      followRanges, nameAt, setFollow, showFollowStatus, followToFind, wireIgnoreControls,
      isFollowing: () => Boolean(follow),
    };
  }

  return { create };
})();
