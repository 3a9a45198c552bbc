/* pypto-ir-trace viewer, part 7 of 7: the controls.
 * Loads the payload, holds the viewer's state, and wires the model (viewer_model.js), the display
 * layout and rows (viewer_layout.js, viewer_rows.js), the panes (viewer_paint.js), the sidebar
 * (viewer_sidebar.js) and the panels (viewer_panels.js) to the page: selecting a pass, the Find
 * box, layout and wrap, the URL fragment, the keys. All seven files and linediff.js are inlined,
 * in order, into one script element. */
(() => {
  'use strict';

  const { FOLD, foldRows, createModel, createFinder } = IRTraceModel;
  const { labelHunks } = IRTraceLayout;
  const NORM = IRTraceNormalize;
  const { setTheme, openHelp, closeHelp, settings } = IRTracePanels;
  const $ = (id) => document.getElementById(id);

  /** The payload travels gzip-compressed and base64-encoded in an inert script element
   *  (reports shrink about tenfold); the browser inflates it with its own DecompressionStream. */
  async function loadPayload() {
    const encoded = document.getElementById('ir-trace-data').textContent.trim();
    const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return JSON.parse(await new Response(stream).text());
  }

  function showLoadError(error) {
    const note = document.createElement('p');
    note.className = 'load-error';
    note.textContent = `This report could not be read: ${error}`;
    document.body.prepend(note);
  }

  /** Call back with performance.now() once the current DOM has been painted. */
  function afterPaint(callback) {
    requestAnimationFrame(() => setTimeout(() => callback(performance.now()), 0));
  }

  function startViewer(payload) {
    const model = createModel(payload, IRTraceDiff.diffSnapshots);
    const { against, runs, main, entries, firstEntry, lastEntry } = model;
    const finder = createFinder(model);

    // Timing hooks for benchmarks/browser_bench.py; harmless otherwise.
    const trace = { firstDiffPainted: null, switches: [], expands: [], finds: [], ignores: [], ignoresSync: [], ignoresSettled: [] };
    window.__irTrace = trace;

    const state = {
      sel: -1,                  // entry shown (-1 = none yet)
      fn: '',                   // '' = whole file, else the function selected; kept where a pass lacks it
      layout: settings.get('layout') || 'side',
      wrap: settings.get('wrap') === '1',
      expandAll: settings.get('expandAll') === '1',   // a setting: it stays on across passes
      expanded: new Set(),      // fold starts opened by a click, for the current view only
      showChanged: true,
      showNoop: true,
      fnOnly: false,            // Only passes that change this function
      query: '',
      from: -1,                 // Compare with: before snapshot position (-1 = the previous one)
      runView: 'ab',            // run against run: 'ab', 'a' (run A's own pass) or 'b'
      ignore: null,             // ignore modes { modes, regex } while any is on
    };
    let follow = null;          // the followed value: { name, key } (key: the name under the ignore modes)
    let view = null;            // { spec, choice, rows, display, before, after, warnMarks, flash }

    const painter = IRTracePainter.createPainter($('scroll-before'), $('scroll-after'), {
      hits: (text) => (finder.re ? finder.ranges(text) : null),
      follows: (text) => followRanges(text),
      onCursor: showChangePosition,
    });
    const sidebar = IRTraceSidebar.createSidebar(model, finder, state, (k) => selectPass(k));
    const panels = IRTracePanels.createPanels(model, state, { setFrom, revealAfterLine, chooseFunction, select: (k) => selectPass(k) });

    /* ---------- selecting a pass ---------- */

    /** Show entry k. The selected function stays selected: shown created / removed where one side
     *  lacks it, and the whole file (with a note) where neither side has it, until a pass has it again. */
    function selectPass(k, { initial = false } = {}) {
      const started = performance.now();
      if (k < firstEntry || k > lastEntry) return;
      const switched = k !== state.sel;
      if (switched) state.expanded.clear();
      if (switched && !initial) panels.hideLinkNote();
      if (!against && state.from >= k) state.from = -1;
      state.sel = k;
      sidebar.markSelected(k);
      buildView();
      updateHash();
      if (switched && !initial) afterPaint((t) => trace.switches.push(t - started));
    }

    /** Rebuild the row model of the current entry, spec and function, then render. */
    function buildView() {
      const spec = model.specOf(state.sel, state);
      const { choices, error } = model.functionChoices(spec);
      const choice = state.fn ? choices.find((c) => c.key === state.fn) || null : null;
      panels.fillFunctionSelect(choices, error, choice);
      if (against) panels.showRunViews(state.sel); else panels.fillFromSelect(state.sel);
      panels.showHeader(spec, choice);
      panels.showWarnings(spec);
      view = {
        spec,
        choice,
        rows: IRTraceModel.restrictRows(model.alignedRows(spec), choice),
        before: runs[spec.before.run].lines(spec.before.pos),
        after: runs[spec.after.run].lines(spec.after.pos),
        warnMarks: model.warningMarks(spec),
        flash: -1,
      };
      panels.noteSameFunction(choice, view.rows);
      showIgnoreNote();
      showFollowStatus();
      showFindStatus();
      refreshDisplay(false);
      if (state.fn !== decoratedFn) afterFunctionChange();
    }

    let decoratedFn = '';

    /** The selected function changed: Find's scope, history marks, the overview, the history filter. */
    function afterFunctionChange() {
      decoratedFn = state.fn;
      finder.setScope(state.fn);
      showFindStatus();
      const box = $('filter-fn');
      box.disabled = !state.fn;
      $('fn-only').classList.toggle('disabled', !state.fn);
      sidebar.paintMarks();
      sidebar.paintOverview();
      if (state.fnOnly) sidebar.applyFilters();
    }

    /** Recompute folding and hunk headers, then paint; keepScroll leaves the scroll position alone. */
    function refreshDisplay(keepScroll) {
      const { before, after } = view.spec;
      view.display = labelHunks(foldRows(view.rows, model.context, state.expanded, state.expandAll),
        runs[before.run].fns(before.pos).list, runs[after.run].fns(after.pos).list, view.rows);
      painter.show(view, { keepScroll, wrapLines: state.wrap, unified: state.layout === 'unified' });
    }

    /** "change 2 of 7" beside the After pane's name, and the buttons that walk them. */
    function showChangePosition(index, count) {
      const text = index >= 0 ? `change ${index + 1} of ${count}` : `${count} change${count === 1 ? '' : 's'}`;
      $('change-pos').textContent = count ? text : 'no change';
      $('change-prev').disabled = count < 2;
      $('change-next').disabled = count < 2;
    }

    /** Scroll the After pane to a line, opening its fold (or leaving a function that hides it). */
    function revealAfterLine(line) {
      if (view.choice && view.choice.b && (line < view.choice.b[0] || line >= view.choice.b[1])) {
        state.fn = '';
        buildView();
        updateHash();
      }
      if (!view.display.some((r) => r.kind !== FOLD && r.b === line)) {
        const ri = view.rows.findIndex((r) => r.b === line);
        const fold = view.display.find((r) => r.kind === FOLD && r.start <= ri && ri < r.end);
        if (!fold) return;
        state.expanded.add(fold.start);
        refreshDisplay(true);
      }
      view.flash = line;
      clearTimeout(view.flashTimer);
      view.flashTimer = setTimeout(() => { if (view) view.flash = -1; }, 1800);
      painter.scrollToAfterLine(line);
    }

    function setFrom(j) {
      state.from = j >= 0 && j !== state.sel - 1 ? j : -1;
      state.expanded.clear();
      buildView();
      updateHash();
    }

    function setRunView(name) {
      state.runView = name;
      state.expanded.clear();
      buildView();
      updateHash();
    }

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
      const spec = NORM.cleanModes((params.get('ignore') || '').split(','), params.get('ignore-regex'));
      return NORM.isOn(spec) ? spec : null;
    }

    /** Apply new modes: the current pass is redrawn at once, the other entries follow in slices. */
    function setIgnore(spec, { store = true } = {}) {
      if (against || ignoreKeyOf(spec) === ignoreKeyOf(state.ignore)) return;
      const started = performance.now();
      state.ignore = spec;
      model.setIgnore(spec);
      if (follow) follow.key = followKey(follow.name);
      if (store) storeIgnore(spec);
      if (state.sel >= firstEntry) {
        model.refreshEntry(state.sel);
        sidebar.updateEntry(state.sel);
        state.expanded.clear();   // folds move with the modes; Expand all stays as the user set it
        buildView('either');
        updateHash();
        trace.ignoresSync.push(performance.now() - started);   // the redraw's own work, before painting
        // The other entries are recounted once the current pass is on screen, never before.
        afterPaint((t) => { trace.ignores.push(t - started); refreshEntries(started); });
        return;
      }
      refreshEntries(started);
    }

    /** Recount every entry under the modes in ~12 ms slices, so typing and scrolling stay smooth;
     *  then the overview, marks, filters and summary follow. A newer setIgnore abandons this one. */
    function refreshEntries(started) {
      const generation = ++ignoreGeneration;
      $('pass-nav').dataset.ignoring = 'pending';
      let k = firstEntry;
      const slice = () => {
        if (generation !== ignoreGeneration) return;
        const until = performance.now() + 12;
        for (; k <= lastEntry && performance.now() < until; k++) {
          model.refreshEntry(k);
          sidebar.updateEntry(k);
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

    /** Above the panes: what the modes did to this pass. */
    function showIgnoreNote() {
      const note = $('ignore-note'), ignore = model.ignoring();
      const e = entries[state.sel], exact = !against && model.exactOf(state.sel);
      if (!ignore || !exact || !exact.changed || model.fromOf(state.sel, state.from) !== state.sel - 1) { note.hidden = true; return; }
      const words = NORM.describe(ignore);
      note.textContent = e.changed
        ? `Ignoring ${words}: +${e.inserted} \u2212${e.deleted} lines (as printed +${exact.inserted} \u2212${exact.deleted}).`
        : `No-op when ignoring ${words}: every line it changed is equal after ignoring (as printed +${exact.inserted} \u2212${exact.deleted}).`;
      note.hidden = false;
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
        offset += node.data.length;
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
      setFollow('');
      runFind();
    }

    /* ---------- find box ---------- */

    let findTimer = 0;

    function runFind() {
      const started = performance.now();
      finder.set($('find-text').value, $('find-regex').checked, $('find-case').checked);
      $('find-text').setAttribute('aria-invalid', String(Boolean(finder.error)));
      sidebar.paintMarks();
      showFindStatus();
      if (view) painter.render(true);
      updateHash();
      afterPaint((t) => trace.finds.push(t - started));
    }

    function showFindStatus() {
      const status = $('find-status');
      if (finder.error) { status.textContent = finder.error; status.className = 'find-status error'; return; }
      status.className = 'find-status';
      if (!finder.re || !view) { status.textContent = ''; return; }
      const before = finder.countAt(view.spec.before), after = finder.countAt(view.spec.after);
      let changes = 0;
      for (let k = firstEntry; k <= lastEntry; k++) if (finder.change(k)) changes++;
      const where = finder.scope ? ` (in ${IRTraceModel.shortName(finder.scope)})` : '';
      status.textContent = `\u201c${finder.text}\u201d: ${before ?? '?'} in Before \u00b7 ${after ?? '?'} in After${where} \u00b7 ` +
        `count changes at ${changes} pass${changes === 1 ? '' : 'es'}${changes ? ' (Enter: next)' : ''}`;
    }

    /** Next (or previous) visible entry where the match count changes. */
    function stepFind(delta) {
      if (!finder.re) return;
      const target = sidebar.neighbour(delta, (k) => finder.change(k));
      if (target !== undefined) selectPass(target);
    }

    /* ---------- layout, wrap ---------- */

    const LAYOUTS = ['side', 'stacked', 'unified'];

    /** Side by side, Stacked, or Unified (one column: the Before pane is hidden, the After pane
     *  shows − and + rows interleaved). */
    function setLayout(layout) {
      const was = state.layout;
      state.layout = LAYOUTS.includes(layout) ? layout : 'side';
      $('panes').className = `panes ${state.layout}`;
      for (const name of LAYOUTS) $(`layout-${name}`).setAttribute('aria-pressed', String(name === state.layout));
      const unified = state.layout === 'unified';
      $('pane-after').setAttribute('aria-label', unified ? 'Unified diff' : 'After snapshot');
      $('label-after').hidden = unified;
      $('label-unified').hidden = !unified;
      if (view) {
        panels.showFiles(view.spec);
        // Unified rows differ from side-by-side ones; wrapped heights depend on the pane width.
        if (state.wrap || unified || was === 'unified') refreshDisplay(true); else painter.resize();
        updateHash();
      }
    }

    function setWrap(wrap) {
      state.wrap = wrap;
      settings.set('wrap', wrap ? '1' : '');
      $('wrap-toggle').setAttribute('aria-pressed', String(wrap));
      refreshDisplay(true);
    }

    /* ---------- deep links ---------- */

    /** #pass=12&from=3&fn=Program.kernel&layout=stacked&find=pl.alloc( (run against run:
     *  #a=12&b=12&view=a&...). */
    function updateHash() {
      if (state.sel < 0) return;
      const params = new URLSearchParams();
      if (against) {
        const m = entries[state.sel].match;
        if (m.a != null) params.set('a', String(runs[0].passes[m.a].index));
        if (m.b != null) params.set('b', String(runs[1].passes[m.b].index));
        if (state.runView !== 'ab') params.set('view', state.runView);
      } else {
        params.set('pass', String(entries[state.sel].index));
        const j = model.fromOf(state.sel, state.from);
        if (j !== state.sel - 1) params.set('from', String(main.passes[j].index));
      }
      if (state.fn) params.set('fn', state.fn);
      if (state.fnOnly) params.set('history', '1');
      params.set('layout', state.layout);
      if (state.ignore && state.ignore.modes.length) params.set('ignore', state.ignore.modes.join(','));
      if (state.ignore && state.ignore.regex) params.set('ignore-regex', state.ignore.regex);
      if (!state.ignore && payload.ignore) params.set('ignore', '');   // off, although the report starts with modes on
      if (finder.text) {
        params.set('find', finder.text);
        if (finder.regex) params.set('regex', '1');
        if (finder.matchCase) params.set('case', '1');
      }
      const hash = `#${params.toString()}`;
      if (location.hash !== hash) history.replaceState(null, '', hash);
    }

    function entryFromHash(params) {
      if (against) {
        if (!params.has('a') && !params.has('b')) return -1;
        const want = (name) => (params.has(name) ? Number(params.get(name)) : null);
        const a = want('a'), b = want('b');
        return entries.findIndex((e) => {
          const m = e.match;
          return (m.a != null ? runs[0].passes[m.a].index : null) === a && (m.b != null ? runs[1].passes[m.b].index : null) === b;
        });
      }
      const index = Number(params.get('pass'));
      return params.has('pass') ? entries.findIndex((e) => e && e.index === index) : -1;
    }

    /** What a fragment names that the report does not have: shown in a note, dropped from the fragment. */
    function missingInHash(params) {
      if (against) return `pass ${['a', 'b'].filter((n) => params.has(n)).map((n) => `${n.toUpperCase()}${params.get(n)}`).join(' / ')}`;
      return `pass ${params.get('pass')}`;
    }

    /** Restore the view from the fragment; false when it names no pass (or one the report lacks). */
    function applyHash() {
      const params = new URLSearchParams(location.hash.slice(1));
      if (params.has('layout')) setLayout(params.get('layout'));
      const ignore = ignoreFromParams(params);
      if (!against && ignore !== undefined && ignoreKeyOf(ignore) !== ignoreKeyOf(state.ignore)) {
        writeIgnoreControls(ignore || null);
        setIgnore(ignore || null);
      }
      if (params.has('find') !== Boolean(finder.text) || (params.get('find') || '') !== finder.text ||
          (params.get('regex') === '1') !== finder.regex || (params.get('case') === '1') !== finder.matchCase) {
        $('find-text').value = params.get('find') || '';
        $('find-regex').checked = params.get('regex') === '1';
        $('find-case').checked = params.get('case') === '1';
        runFind();
      }
      const k = entryFromHash(params);
      const namesPass = against ? params.has('a') || params.has('b') : params.has('pass');
      if (k < firstEntry) {
        if (!namesPass) return false;
        panels.showLinkNote(`This link names ${missingInHash(params)}, which this report does not have` +
          `${state.sel >= 0 ? '' : ': showing the first pass that changed'}.`);
        if (state.sel < 0) return false;
        updateHash();   // stay where the reader was; the fragment names that pass again
        return true;
      }
      state.fn = params.get('fn') || '';
      if (state.fn && !model.functionExists(state.fn)) {
        panels.showLinkNote(`This link names function ${state.fn}, which no snapshot of this report has: showing the whole file.`);
        state.fn = '';
      }
      state.fnOnly = params.get('history') === '1';
      $('filter-fn').checked = state.fnOnly;
      if (against) {
        state.runView = ['ab', 'a', 'b'].includes(params.get('view')) ? params.get('view') : 'ab';
      } else {
        const from = params.has('from') ? main.passes.findIndex((p) => p.index === Number(params.get('from'))) : -1;
        state.from = from >= 0 && from < k ? from : -1;
      }
      state.sel = -1;         // force a full rebuild even when the pass is unchanged
      selectPass(k, { initial: true });
      if (state.fnOnly) sidebar.applyFilters();
      return true;
    }

    /* ---------- keyboard ---------- */

    function isTyping(target) {
      if (!target || !target.tagName) return false;
      if (target.isContentEditable || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA') return true;
      return target.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
    }

    /** Keys typed into the filter and Find boxes: Escape leaves them, Enter steps through Find. */
    function onFieldKey(event) {
      if (event.key === 'Escape' && ['filter-text', 'find-text', 'ignore-regex-text'].includes(event.target.id)) event.target.blur();
      if (event.key === 'Enter' && event.target.id === 'find-text') {
        event.preventDefault();
        clearTimeout(findTimer);
        if (event.target.value !== finder.text) runFind();
        stepFind(event.shiftKey ? -1 : 1);
      }
    }

    function onKeyDown(event) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (!$('help').hidden) {
        // Modal: Close is its only control, so focus stays there.
        if (event.key === 'Escape' || event.key === '?') { event.preventDefault(); closeHelp(); }
        else if (event.key === 'Tab') { event.preventDefault(); $('help-close').focus(); }
        return;
      }
      if (isTyping(event.target)) { onFieldKey(event); return; }
      if (lastEntry < firstEntry && event.key !== '?') return;
      // Inside a focused code pane the arrow keys scroll it (the browser's own smooth scrolling).
      const inPane = event.target.classList && event.target.classList.contains('scroller');
      if (inPane && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) return;
      switch (event.key) {
        case 'j': case 'ArrowDown': event.preventDefault(); sidebar.stepPass(1); break;
        case 'k': case 'ArrowUp': event.preventDefault(); sidebar.stepPass(-1); break;
        case ']': event.preventDefault(); painter.stepChange(1); break;
        case '[': event.preventDefault(); painter.stepChange(-1); break;
        case 'n': event.preventDefault(); stepFind(1); break;
        case 'N': event.preventDefault(); stepFind(-1); break;
        case '?': event.preventDefault(); openHelp(); break;
        case '/': event.preventDefault(); $('filter-text').focus(); break;
        case 'f': event.preventDefault(); $('find-text').focus(); break;
        case 'v': if (follow) { event.preventDefault(); followToFind(); } break;
        case 'Escape': if (follow) { event.preventDefault(); setFollow(''); } break;
        default:
      }
    }

    /* ---------- wiring ---------- */

    function setExpandAll(on) {
      state.expandAll = on;
      state.expanded.clear();
      settings.set('expandAll', on ? '1' : '');
      $('expand-all').setAttribute('aria-pressed', String(on));
      refreshDisplay(true);
    }

    /** Choose a function ('' = whole file): a choice of the reader, so it replaces the kept one. */
    function chooseFunction(key) {
      state.fn = key;
      state.expanded.clear();
      buildView();
      updateHash();
    }

    function wireControls() {
      $('filter-changed').addEventListener('change', (e) => { state.showChanged = e.target.checked; sidebar.applyFilters(); });
      $('filter-noop').addEventListener('change', (e) => { state.showNoop = e.target.checked; sidebar.applyFilters(); });
      $('filter-fn').addEventListener('change', (e) => { state.fnOnly = e.target.checked; sidebar.applyFilters(); updateHash(); });
      $('filter-text').addEventListener('input', (e) => { state.query = e.target.value.trim().toLowerCase(); sidebar.applyFilters(); });
      $('find-text').addEventListener('input', () => { clearTimeout(findTimer); findTimer = setTimeout(runFind, 180); });
      $('find-regex').addEventListener('change', runFind);
      $('find-case').addEventListener('change', runFind);
      $('fn-select').addEventListener('change', (e) => chooseFunction(e.target.value));
      panels.wireFunctionFilter(chooseFunction);
      $('from-select').addEventListener('change', (e) => setFrom(Number(e.target.value)));
      for (const [name, id] of [['ab', 'view-ab'], ['a', 'view-a'], ['b', 'view-b']]) $(id).addEventListener('click', () => setRunView(name));
      // A layout chosen here is remembered; one from a link is not.
      for (const button of document.querySelectorAll('[id^="layout-"]')) {
        button.addEventListener('click', () => {
          setLayout(button.id.slice('layout-'.length));
          settings.set('layout', state.layout);
        });
      }
      $('change-next').addEventListener('click', () => painter.stepChange(1));
      $('change-prev').addEventListener('click', () => painter.stepChange(-1));
      $('wrap-toggle').addEventListener('click', () => setWrap(!state.wrap));
      $('expand-all').addEventListener('click', () => {
        const started = performance.now();
        setExpandAll(true);
        afterPaint((t) => trace.expands.push(t - started));
      });
      $('collapse-all').addEventListener('click', () => setExpandAll(false));
      for (const p of Object.values(painter.panes)) {
        p.rows.addEventListener('click', (event) => {
          const button = event.target.closest('.fold-btn');
          if (!button) { if (event.target.closest('.code')) setFollow(nameAt(event)); return; }
          state.expanded.add(Number(button.dataset.fold));
          refreshDisplay(true);
        });
      }
      for (const m of [...NORM.MODES, 'regex']) $(`ignore-${m}`).addEventListener('change', onIgnoreControl);
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
      panels.wireCopy('copy-before', 'copied-before', () => view.spec.before);
      panels.wireCopy('copy-after', 'copied-after', () => view.spec.after);
      window.addEventListener('hashchange', applyHash);
    }

    /** Controls that work even when the dump has no pass to show. */
    function wireGlobalControls() {
      $('theme-toggle').addEventListener('click', () => {
        const theme = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
        setTheme(theme);
        settings.set('theme', theme);
      });
      $('help-open').addEventListener('click', openHelp);
      $('help-close').addEventListener('click', closeHelp);
      $('help').addEventListener('click', (event) => { if (event.target.id === 'help') closeHelp(); });
      document.addEventListener('keydown', onKeyDown);
    }

    function showOnlyFrontend() {
      for (const id of ['toolbar', 'overview', 'panes', 'filters', 'filter-text', 'fn-only', 'find', 'ignore']) $(id).hidden = true;
      $('only-frontend').hidden = false;
      $('pass-empty').hidden = false;
      $('pass-empty').textContent = 'No pass snapshot exists.';
      $('report-sub').textContent = '0 passes';
    }

    /** Initial modes: the fragment's, else the report's own (--ignore), else the last ones used. */
    function startIgnoring() {
      if (against) return;
      const fromHash = ignoreFromParams(new URLSearchParams(location.hash.slice(1)));
      const fromReport = payload.ignore ? NORM.cleanModes(payload.ignore.modes, payload.ignore.regex) : null;
      const spec = fromHash !== undefined ? fromHash : fromReport || storedIgnore();
      if (!spec || !NORM.isOn(spec)) return;
      writeIgnoreControls(spec);
      state.ignore = spec;
      model.setIgnore(spec);
    }

    /** The first entry that changed (a pass-by-pass report with none opens pass 1). */
    function firstChanged() {
      for (let k = firstEntry; k <= lastEntry; k++) if (model.refreshEntry(k).changed) return k;
      return against ? firstEntry : 1;
    }

    /** Stored settings first; the URL fragment, applied after, wins over them. */
    function applySettings() {
      const prefersDark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
      setTheme(['light', 'dark'].includes(settings.get('theme')) ? settings.get('theme') : prefersDark ? 'dark' : 'light');
      setLayout(state.layout);
      $('wrap-toggle').setAttribute('aria-pressed', String(state.wrap));
      $('expand-all').setAttribute('aria-pressed', String(state.expandAll));
    }

    function init() {
      applySettings();
      panels.showBanners();
      panels.adaptToMode();
      wireGlobalControls();
      if (lastEntry < firstEntry) { showOnlyFrontend(); return; }
      sidebar.build();
      IRTracePanels.wireSidebarResize(() => painter.resize());
      wireControls();
      $('ignore').hidden = against;
      startIgnoring();
      if (!applyHash()) selectPass(firstChanged(), { initial: true });
      if (state.ignore) refreshEntries(performance.now());
      afterPaint((t) => { trace.firstDiffPainted = t; });
    }

    // For tests and benchmarks: the payload, the in-browser diff and the model.
    trace.payload = payload;
    trace.diffSnapshots = IRTraceDiff.diffSnapshots;
    trace.model = model;
    init();
  }

  loadPayload().then(startViewer, showLoadError);
})();
