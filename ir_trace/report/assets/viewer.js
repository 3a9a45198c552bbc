// needs: linediff.js, viewer_dom.js, viewer_state.js, viewer_changes.js, viewer_traces.js, viewer_model.js, viewer_find.js, viewer_layout.js, viewer_paint.js, viewer_sidebar.js, viewer_panels.js, viewer_ignore.js, viewer_links.js, viewer_hash.js, viewer_goto.js, viewer_keys.js, viewer_controls.js, control_*.js
/* pypto-ir-trace viewer: the controls, the page's entry script (its needs name the rest).
 * Loads the payload, creates the viewer's state (viewer_state.js: every part reads it, changes go
 * through its `set` and actions), and wires the model (viewer_model.js, viewer_find.js), the display
 * layout and rows (viewer_layout.js, viewer_rows.js), the panes (viewer_paint.js), the sidebar
 * (viewer_sidebar.js), the panels (viewer_panels.js), the ignore modes and followed value
 * (viewer_ignore.js), the URL fragment (viewer_links.js, viewer_hash.js), going to a pass
 * (viewer_goto.js) and the registered controls (viewer_controls.js, control_*.js) to the page:
 * selecting a pass, the Find box, layout and wrap, the keys. Every viewer file (DOM helpers in
 * viewer_dom.js), intraline.js, linediff.js and normalize.js are inlined into one script element,
 * each after the scripts its `// needs:` line names (ir_trace/report/scripts.py). */
(() => {
  'use strict';

  const { FOLD, foldRows, createModel } = IRTraceModel;
  const { createFinder } = IRTraceFind;
  const { labelHunks } = IRTraceLayout;
  const { openHelp, closeHelp, settings } = IRTracePanels;
  const { LAYOUTS } = IRTraceLinks;
  const { el, $, spoken } = IRTraceDom;

  /** The payload travels gzip-compressed and base64-encoded in an inert script element
   *  (reports shrink about tenfold); the browser inflates it with its own DecompressionStream. */
  async function loadPayload() {
    const encoded = document.getElementById('ir-trace-data').textContent.trim();
    const bytes = base64Bytes(encoded);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return JSON.parse(await new Response(stream).text());
  }

  /** Native decoding where the browser has it; else a plain loop. Uint8Array.from(atob(..), fn)
   *  calls a function per byte: 15-20 ms of the open for a 130 KB payload, the loop under 1 ms. */
  function base64Bytes(encoded) {
    if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(encoded);
    const binary = atob(encoded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  /** The viewer runs: the page's "scripts have not run" notice goes. */
  function started() {
    document.getElementById('unstarted')?.remove();
    document.querySelector('.app').classList.remove('loading');
  }

  function showLoadError(error) {
    started();
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
    const model = createModel(payload, IRTraceDiff.diffSnapshots, IRTraceDiff.changedRangesIgnoring);
    const { against, runs, entries, firstEntry, lastEntry } = model;
    const finder = createFinder(model);

    // Timing hooks for benchmarks/browser_bench.py; harmless otherwise.
    const trace = { firstDiffPainted: null, switches: [], expands: [], finds: [], ignores: [], ignoresSync: [], ignoresSettled: [] };
    window.__irTrace = trace;

    // The state (viewer_state.js): read here and by every part, changed only through `set` and its actions.
    const owner = IRTraceState.createState({
      layout: settings.get('layout') || 'side',
      wrap: settings.get('wrap') === '1',
      indentBlocks: settings.get('indentBlocks') === '1',
      expandAll: settings.get('expandAll') === '1',
    });
    const { state, set, openFold, closeFolds } = owner;
    let view = null;            // { spec, choice, rows, display, before, after, fns, warnMarks, flash }
    const changes = { index: -1, count: 0 };   // the change in sight, as the painter last said
    const links = IRTraceLinks.createLinks(model, state, finder);

    const painter = IRTracePainter.createPainter($('scroll-before'), $('scroll-after'), {
      hits: (text) => (finder.re ? finder.ranges(text) : null),
      follows: (text) => followRanges(text),
      onCursor: showChangePosition,
      unfold: unfoldLine,
    });
    const tracePicker = IRTraceTraces.createPicker(model, (k) => selectPass(k));   // several traces (viewer_traces.js)
    const sidebar = IRTraceSidebar.createSidebar(model, finder, state, (k) => selectPass(k), (none) => showNoPass(none), tracePicker.heading);
    const panels = IRTracePanels.createPanels(model, state, { setFrom, revealAfterLine, chooseFunction, select: (k) => selectPass(k) });
    // Ignore modes and the followed value (viewer_ignore.js). The view goes as a getter: buildView
    // replaces it.
    const ignore = IRTraceIgnore.create({
      model, finder, owner, sidebar, painter, trace, afterPaint, view: () => view, buildView, showFindStatus, runFind,
      updateHash: () => updateHash(),   // viewer_hash.js's, created below with the ignore part
    });
    const { refreshEntries, showIgnoreNote, startIgnoring, followRanges, nameAt, setFollow, showFollowStatus, followToFind,
      wireIgnoreControls, isFollowing } = ignore;
    // The URL fragment (viewer_hash.js) and going to a pass by number (viewer_goto.js).
    const hashLink = IRTraceHash.create({
      model, links, finder, owner, sidebar, panels, painter, ignore, setLayout, runFind, selectPass, firstChanged,
      changeCount: () => changes.count,
    });
    const { updateHash, applyHash, clearFilters } = hashLink;
    const { startGoTo, leaveGoTo, goToTyped } = IRTraceGoTo.create({ set, sidebar, updateHash });

    /* ---------- selecting a pass ---------- */

    /** A `j` / `k` step writes the fragment once its pass is painted: history.replaceState is a
     *  synchronous call into the browser (2.5 ms a switch on a quiet machine, 17-130 ms on a loaded
     *  one, benchmarks/switch_profile.py) that the paint need not wait for. Set from the press to the
     *  frame that shows its pass; every other change of the view writes the fragment at once. */
    let hashAfterPaint = false;

    function stepPassSoon(delta) {
      hashAfterPaint = true;
      sidebar.stepPass(delta);
      afterPaint(() => { hashAfterPaint = false; });   // the step's frame has shown its pass (or it had none to go to)
    }

    /** Show entry k. The selected function stays selected: shown created / removed where one side
     *  lacks it, and the whole file (with a note) where neither side has it, until a pass has it again. */
    function selectPass(k, { initial = false } = {}) {
      const started = performance.now();
      if (k < firstEntry || k > lastEntry) return;
      const switched = k !== state.sel;
      if (switched) closeFolds();
      if (switched && !initial) panels.hideLinkNote();
      // Compare with names a snapshot of the entry's own trace, before it.
      const stays = state.sel < firstEntry || entries[state.sel].run === entries[k].run;
      if (!against && (state.from >= entries[k].pos || !stays)) set({ from: -1 });
      set({ sel: k });
      sidebar.markSelected(k);
      tracePicker.markSelected(k);
      buildView();
      if (!hashAfterPaint) updateHash();
      if (switched && !initial) {
        announceView();
        afterPaint((t) => trace.switches.push(t - started));
      }
      if (hashAfterPaint) afterPaint(() => updateHash());   // after the switch is timed as painted, too
    }

    // What acts on the selected pass: off while the filters hide every pass (the rest reset in buildView).
    const PASS_CONTROLS = ['copy-before', 'copy-after', 'change-prev', 'change-next', 'fn-select', 'fn-filter',
      'from-select', 'wrap-toggle', 'expand-all', 'collapse-all'];

    /** The filters hide every pass (none) or show one again: no pane keeps a pass no longer listed. */
    let noPassShown = false;

    function showNoPass(none) {
      noPassShown = none;
      if (none) $('changes').hidden = true;
      $('panes').hidden = none;
      $('panes-empty').hidden = !none;
      for (const id of PASS_CONTROLS) $(id).disabled = none;
      if (none) $('pass-title').textContent = 'No pass shown';
    }

    /** Rebuild the row model of the current entry, spec and function, then render. */
    function buildView() {
      const spec = model.specOf(state.sel, state);
      const { choices, error } = model.functionChoices(spec);
      const choice = state.fn ? choices.find((c) => c.key === state.fn) || null : null;
      panels.fillFunctionSelect(choices, error, choice);
      if (against) panels.showRunViews(state.sel); else panels.fillFromSelect(state.sel);
      panels.showHeader(spec, choice);
      IRTraceTraces.decorateHeader(model, state.sel);
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
      showChanges();
      panels.noteSameFunction(choice, view.rows);
      showIgnoreNote();
      showFollowStatus();
      showFindStatus();
      refreshDisplay(false);
      if (state.fn !== decoratedFn) afterFunctionChange();
    }

    /** Run against run, Changes: the two changes in their own region instead of the panes. */
    function showChanges() {
      const on = against && !noPassShown && model.effectiveRunView(state.sel, state.runView) === 'change';
      const wasOn = !$('changes').hidden;
      $('changes').hidden = !on;
      $('panes').hidden = on || noPassShown;
      if (on) IRTraceChanges.show(model, state.sel);
      else if (wasOn) requestAnimationFrame(() => painter.resize());   // the panes were laid out hidden
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
      view.fns = { a: runs[before.run].fns(before.pos).list, b: runs[after.run].fns(after.pos).list };
      view.display = labelHunks(foldRows(view.rows, model.context, state.expanded, state.expandAll), view.fns.a, view.fns.b, view.rows);
      painter.show(view, {
        keepScroll, wrapLines: state.wrap, unified: state.layout === 'unified', sideBySide: state.layout === 'side',
        inlineFolds: !state.expandAll, markIndent: !state.indentBlocks,
      });
    }

    function changeWords(index, count) {
      if (!count) return 'no change';
      return index >= 0 ? `change ${index + 1} of ${count}` : `${count} change${count === 1 ? '' : 's'}`;
    }

    /** "2/7" beside the After pane's name (compact: the file name keeps the room; "change 2 of 7"
     *  for screen readers and on hover), and the buttons that walk them. The change is in the link. */
    function showChangePosition(index, count) {
      Object.assign(changes, { index, count });
      const full = changeWords(index, count);
      const shown = el('span', '', !count ? 'no change' : `${index >= 0 ? index + 1 : '\u2013'}/${count}`);
      shown.setAttribute('aria-hidden', 'true');
      $('change-pos').replaceChildren(shown, spoken(full));
      $('change-pos').title = index >= 0 ? `${full}: ] next, [ previous` : full;
      $('change-prev').disabled = count < 2;
      $('change-next').disabled = count < 2;
      if (!hashAfterPaint) updateHash();   // a `j` / `k` step writes it after its paint (stepPassSoon)
    }

    /** Said by screen readers (the live region): the pass switched to, a change stepped to. */
    function announce(text) {
      $('announce').replaceChildren(document.createTextNode(text));
    }

    /** The pass and its counts (the selected function's own) and the change in sight. */
    function announceView() {
      announce(`${panels.headerWords()}${IRTraceTraces.spokenContext(model, state.sel)}, ${changeWords(changes.index, changes.count)}`);
    }

    function stepChange(delta) {
      painter.stepChange(delta);
      announce(changeWords(changes.index, changes.count));
    }

    /** Scroll the After pane to a line, opening its fold (or leaving a function that hides it). */
    function revealAfterLine(line) {
      if (view.choice && view.choice.b && (line < view.choice.b[0] || line >= view.choice.b[1])) {
        set({ fn: '' });
        buildView();
        updateHash();
      }
      if (!view.display.some((r) => r.kind !== FOLD && r.b === line) && !unfoldLine('b', line)) return;
      view.flash = line;
      clearTimeout(view.flashTimer);
      view.flashTimer = setTimeout(() => { if (view) view.flash = -1; }, 1800);
      painter.scrollToAfterLine(line);
    }

    /** Open the fold hiding line `line` of side 'a' (Before) or 'b' (After); false when none does. */
    function unfoldLine(side, line) {
      const ri = view.rows.findIndex((r) => r[side] === line);
      const fold = view.display.find((r) => r.kind === FOLD && r.start <= ri && ri < r.end);
      if (!fold) return false;
      openFold(fold.start);
      refreshDisplay(true);
      return true;
    }

    function setFrom(j) {
      set({ from: j >= 0 && j !== state.sel - 1 ? j : -1 });
      closeFolds();
      buildView();
      updateHash();
    }

    function setRunView(name) {
      set({ runView: name });
      closeFolds();
      buildView();
      updateHash();
    }

    /* ---------- find box ---------- */

    let findTimer = 0;

    function runFind() {
      const started = performance.now();
      finder.set($('find-text').value, $('find-regex').checked, $('find-case').checked, $('find-word').checked);
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
      if (findWrapped) status.prepend(Object.assign(document.createElement('strong'), { className: 'find-wrapped', textContent: findWrapped }));
    }

    /** Alt+W: Find's Whole word option on or off, from anywhere (the Find box included). */
    function toggleWholeWord() {
      $('find-word').checked = !$('find-word').checked;
      runFind();
    }

    let findWrapped = '';   // the wrap notice the Find status starts with, for the one step that wrapped

    /** Next (or previous) visible entry where the match count changes; past the last (first) one it
     *  wraps to the first (last), as a browser's Find does, and the Find status says so. */
    function stepFind(delta) {
      if (!finder.re) return;
      const hit = (k) => finder.change(k);
      let target = sidebar.neighbour(delta, hit);
      if (target === undefined) {
        target = sidebar.neighbour(delta, hit, delta > 0 ? -Infinity : Infinity);
        if (target === undefined) return;
        findWrapped = delta > 0 ? 'Wrapped to the first pass where the count changes. ' : 'Wrapped to the last pass where the count changes. ';
      }
      selectPass(target);
      showFindStatus();   // selectPass leaves the status alone when the pass is the one shown
      findWrapped = '';
    }

    /* ---------- layout, wrap ---------- */

    /** Side by side, Stacked, or Unified (one column: the Before pane is hidden, the After pane
     *  shows − and + rows interleaved). */
    function setLayout(layout) {
      const was = state.layout;
      set({ layout: LAYOUTS.includes(layout) ? layout : 'side' });
      $('panes').className = `panes ${state.layout}`;
      for (const name of LAYOUTS) $(`layout-${name}`).setAttribute('aria-pressed', String(name === state.layout));
      const unified = state.layout === 'unified';
      $('pane-after').setAttribute('aria-label', unified ? 'Unified diff' : 'After snapshot');
      $('label-after').hidden = unified;
      $('label-unified').hidden = !unified;
      if (view) {
        panels.showFiles(view.spec);
        // Each layout has its own rows (Unified interleaves, Side by side shares rewrite rows).
        if (state.layout !== was) refreshDisplay(true); else painter.resize();
        updateHash();
      }
    }

    function setWrap(wrap) {
      set({ wrap });
      settings.set('wrap', wrap ? '1' : '');
      $('wrap-toggle').setAttribute('aria-pressed', String(wrap));
      refreshDisplay(true);
    }

    /* ---------- deep links ---------- */

    /* ---------- keyboard (viewer_keys.js) ---------- */

    /** Keys typed into the filter and Find boxes: Escape leaves them as they are (a search box would
     *  clear itself without an input event, leaving its filter applied unseen), Enter steps through Find. */
    function onFieldKey(event) {
      if (event.key === 'Escape' && ['filter-text', 'find-text', 'ignore-regex-text'].includes(event.target.id)) {
        event.preventDefault();
        event.target.blur();
      }
      if (event.key === 'Escape' && event.target.id === 'filter-text') leaveGoTo();
      if (event.key === 'Enter' && event.target.id === 'filter-text') goToTyped(event);
      if (event.key === 'Enter' && event.target.id === 'find-text') {
        event.preventDefault();
        clearTimeout(findTimer);
        if (event.target.value !== finder.text) runFind();
        stepFind(event.shiftKey ? -1 : 1);
      }
    }

    const onKeyDown = IRTraceKeys.createKeys({
      helpOpen: () => !$('help').hidden, openHelp, closeHelp, noPass: () => lastEntry < firstEntry,
      stepPass: stepPassSoon, settlePass: () => sidebar.settle(), stepChange, stepFind, toggleWholeWord,
      focusFilter: () => $('filter-text').focus(), focusFind: () => $('find-text').focus(), startGoTo,
      following: isFollowing, followToFind, stopFollowing: () => setFollow(''), onFieldKey,
    });

    /* ---------- wiring ---------- */

    /** What a registered control (viewer_controls.js) gets: the state, its `set`, a repaint, the settings. */
    const controlContext = { state, set, refreshDisplay, settings };

    function setExpandAll(on) {
      set({ expandAll: on });
      closeFolds();
      settings.set('expandAll', on ? '1' : '');
      $('expand-all').setAttribute('aria-pressed', String(on));
      refreshDisplay(true);
    }

    /** Choose a function ('' = whole file): a choice of the reader, so it replaces the kept one. */
    function chooseFunction(key) {
      set({ fn: key });
      closeFolds();
      buildView();
      updateHash();
      announceView();
    }

    function wireControls() {
      const filtered = (change) => (event) => { change(event.target); sidebar.applyFilters(); updateHash(); };
      $('filter-changed').addEventListener('change', filtered((box) => set({ showChanged: box.checked })));
      $('filter-noop').addEventListener('change', filtered((box) => set({ showNoop: box.checked })));
      $('filter-fn').addEventListener('change', filtered((box) => set({ fnOnly: box.checked })));
      $('filter-text').addEventListener('input', filtered((box) => set({ query: box.value.trim().toLowerCase() })));
      $('filter-clear').addEventListener('click', clearFilters);
      panels.showBehaviourFilters((key, on) => {
        owner.pressBehaviour(key, on);
        sidebar.applyFilters();
        updateHash();
      });
      $('find-text').addEventListener('input', () => { clearTimeout(findTimer); findTimer = setTimeout(runFind, 180); });
      $('find-regex').addEventListener('change', runFind);
      $('find-case').addEventListener('change', runFind);
      $('find-word').addEventListener('change', runFind);
      $('fn-select').addEventListener('change', (e) => chooseFunction(e.target.value));
      panels.wireFunctionFilter(chooseFunction);
      $('fn-filter').addEventListener('input', updateHash);
      $('from-select').addEventListener('change', (e) => setFrom(Number(e.target.value)));
      for (const [name, id] of [['change', 'view-change'], ['ab', 'view-ab'], ['a', 'view-a'], ['b', 'view-b']]) $(id).addEventListener('click', () => setRunView(name));
      // A layout chosen here is remembered; one from a link is not.
      for (const button of document.querySelectorAll('[id^="layout-"]')) {
        button.addEventListener('click', () => {
          setLayout(button.id.slice('layout-'.length));
          settings.set('layout', state.layout);
        });
      }
      $('change-next').addEventListener('click', () => stepChange(1));
      $('change-prev').addEventListener('click', () => stepChange(-1));
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
          const focused = document.activeElement === button;
          openFold(Number(button.dataset.fold));
          refreshDisplay(true);
          if (focused) p.scroller.focus({ preventScroll: true });   // the button is gone: stay in its pane
        });
      }
      wireIgnoreControls();
      IRTraceControls.wireAll(controlContext);
      panels.wireCopy('copy-before', 'copied-before', () => view.spec.before);
      panels.wireCopy('copy-after', 'copied-after', () => view.spec.after);
      window.addEventListener('hashchange', applyHash);
    }

    /** Controls that work even when the dump has no pass to show. */
    function wireGlobalControls() {
      $('help-open').addEventListener('click', openHelp);
      $('skip-link').addEventListener('click', IRTraceKeys.skipToCode);
      IRTraceKeys.wireToolbars();
      $('help-close').addEventListener('click', closeHelp);
      $('help').addEventListener('click', (event) => { if (event.target.id === 'help') closeHelp(); });
      document.addEventListener('keydown', onKeyDown);
    }

    function showOnlyFrontend() {
      // The sidebar's resize handle goes too: with no pass list there is nothing to fit, and it is never wired.
      for (const id of ['toolbar', 'overview', 'panes', 'filters', 'filter-text', 'fn-only', 'find', 'ignore', 'side-resize']) $(id).hidden = true;
      $('only-frontend').hidden = false;
      $('pass-empty').hidden = false;
      $('pass-empty').textContent = 'No pass snapshot exists.';
      $('report-sub').textContent = '0 passes';
    }

    /** The first entry that changed (a pass-by-pass report with none opens pass 1; run against run
     *  the first pass that behaved differently, if any); a trace's first
     *  snapshot, shown whole against nothing, is no change of the pipeline's. */
    function firstChanged() {
      if (model.firstDifferent >= 0) return model.firstDifferent;   // run against run: the first pass that behaved differently
      for (let k = firstEntry; k <= lastEntry; k++) if (!model.entries[k].start && model.refreshEntry(k).changed) return k;
      return firstEntry;
    }

    /** Stored settings first; the URL fragment, applied after, wins over them. */
    function applySettings() {
      IRTraceControls.startAll(controlContext);   // the registered controls (control_*.js): the theme first
      setLayout(state.layout);
      $('wrap-toggle').setAttribute('aria-pressed', String(state.wrap));
      $('expand-all').setAttribute('aria-pressed', String(state.expandAll));
    }

    function init() {
      started();
      applySettings();
      panels.showBanners();
      panels.adaptToMode();
      wireGlobalControls();
      if (lastEntry < firstEntry) { showOnlyFrontend(); return; }
      sidebar.build();
      tracePicker.build();
      IRTracePanels.wireSidebarResize(() => painter.resize(), (count) => sidebar.widestRows(count));
      wireControls();
      $('ignore').hidden = against;
      startIgnoring();
      if (!applyHash()) {
        // The first pass that behaved differently opens on its two changes side by side.
        if (model.firstDifferent >= 0 && model.runViews(model.firstDifferent).change) set({ runView: 'change' });
        selectPass(firstChanged(), { initial: true });
        sidebar.applyFilters();   // a link may name filters and no pass
      }
      if (state.ignore) refreshEntries(performance.now());
      // The same task widens the rendered rows: whoever reads firstDiffPainted sees them settled.
      afterPaint((t) => { trace.firstDiffPainted = t; painter.settle(); });
    }

    // For tests and benchmarks: the payload, the in-browser diff and the model.
    trace.payload = payload;
    trace.diffSnapshots = IRTraceDiff.diffSnapshots;
    trace.model = model;
    trace.select = (k) => selectPass(k);   // the pass list draws only the rows in sight: a far pass has no button
    init();
  }

  loadPayload().then(startViewer).catch(showLoadError);   // a viewer that fails to start says so too
})();
