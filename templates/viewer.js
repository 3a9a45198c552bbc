/* pypto-ir-trace viewer, part 9 of 9: the controls.
 * Loads the payload, holds the viewer's state, and wires the model (viewer_model.js, viewer_find.js),
 * the display layout and rows (viewer_layout.js, viewer_rows.js), the panes (viewer_paint.js), the
 * sidebar (viewer_sidebar.js), the panels (viewer_panels.js) and the ignore modes and followed value
 * (viewer_ignore.js) to the page: selecting a pass, the Find box, layout and wrap, the URL fragment,
 * the keys. All nine files, linediff.js and normalize.js are inlined, in order, into one script
 * element. */
(() => {
  'use strict';

  const { FOLD, foldRows, createModel } = IRTraceModel;
  const { createFinder } = IRTraceFind;
  const { labelHunks } = IRTraceLayout;
  const { setTheme, openHelp, closeHelp, settings } = IRTracePanels;
  const $ = (id) => document.getElementById(id);

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
      indentBlocks: settings.get('indentBlocks') === '1',   // a changed indentation highlighted as a block, not a mark
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
    let view = null;            // { spec, choice, rows, display, before, after, fns, warnMarks, flash }

    const painter = IRTracePainter.createPainter($('scroll-before'), $('scroll-after'), {
      hits: (text) => (finder.re ? finder.ranges(text) : null),
      follows: (text) => followRanges(text),
      onCursor: showChangePosition,
      unfold: unfoldLine,
    });
    const sidebar = IRTraceSidebar.createSidebar(model, finder, state, (k) => selectPass(k));
    const panels = IRTracePanels.createPanels(model, state, { setFrom, revealAfterLine, chooseFunction, select: (k) => selectPass(k) });
    // Ignore modes and the followed value (viewer_ignore.js). The view goes as a getter: buildView
    // replaces it.
    const {
      ignoreKeyOf, ignoreFromParams, writeIgnoreControls, setIgnore, refreshEntries, showIgnoreNote, startIgnoring,
      followRanges, nameAt, setFollow, showFollowStatus, followToFind, wireIgnoreControls, isFollowing,
    } = IRTraceIgnore.create({
      model, finder, state, sidebar, painter, trace, afterPaint, view: () => view, buildView, updateHash, showFindStatus, runFind,
    });

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
      view.fns = { a: runs[before.run].fns(before.pos).list, b: runs[after.run].fns(after.pos).list };
      view.display = labelHunks(foldRows(view.rows, model.context, state.expanded, state.expandAll), view.fns.a, view.fns.b, view.rows);
      painter.show(view, {
        keepScroll, wrapLines: state.wrap, unified: state.layout === 'unified', sideBySide: state.layout === 'side',
        inlineFolds: !state.expandAll, markIndent: !state.indentBlocks,
      });
    }

    /** "2/7" beside the After pane's name (compact: the file name keeps the room; "change 2 of 7"
     *  for screen readers and on hover), and the buttons that walk them. */
    function showChangePosition(index, count) {
      const full = !count ? 'no change' : index >= 0 ? `change ${index + 1} of ${count}` : `${count} change${count === 1 ? '' : 's'}`;
      const short = !count ? 'no change' : `${index >= 0 ? index + 1 : '\u2013'}/${count}`;
      const shown = document.createElement('span'), spoken = document.createElement('span');
      shown.textContent = short;
      shown.setAttribute('aria-hidden', 'true');
      spoken.className = 'sr-only';
      spoken.textContent = full;
      $('change-pos').replaceChildren(shown, spoken);
      $('change-pos').title = index >= 0 ? `${full}: ] next, [ previous` : full;
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
      state.expanded.add(fold.start);
      refreshDisplay(true);
      return true;
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
        // Each layout has its own rows (Unified interleaves, Side by side shares rewrite rows).
        if (state.layout !== was) refreshDisplay(true); else painter.resize();
        updateHash();
      }
    }

    function setWrap(wrap) {
      state.wrap = wrap;
      settings.set('wrap', wrap ? '1' : '');
      $('wrap-toggle').setAttribute('aria-pressed', String(wrap));
      refreshDisplay(true);
    }

    function setIndentBlocks(on) {
      state.indentBlocks = on;
      settings.set('indentBlocks', on ? '1' : '');
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
        // One side names the entry (each run's pass is in one entry): `#a=15` is run A's pass 15
        // whatever it is matched with, and a pass-by-pass report's `#pass=15` reads as `#a=15`.
        const side = (name) => (params.has(name) ? Number(params.get(name)) : null);
        const a = side('a') ?? (params.has('b') ? null : side('pass')), b = side('b');
        if (a === null && b === null) return -1;
        const indexIn = (run, pos) => (pos != null ? runs[run].passes[pos].index : null);
        return entries.findIndex(({ match: m }) => (a === null || indexIn(0, m.a) === a) && (b === null || indexIn(1, m.b) === b));
      }
      const index = Number(params.get('pass'));
      return params.has('pass') ? entries.findIndex((e) => e && e.index === index) : -1;
    }

    /** The keys updateHash writes; a fragment's other keys are named in the link notice. */
    const HASH_KEYS = ['pass', 'from', 'fn', 'history', 'layout', 'ignore', 'ignore-regex', 'find', 'regex', 'case', 'a', 'b', 'view'];
    const LAYOUT_NAMES = { side: 'side by side', stacked: 'stacked', unified: 'unified' };
    const RUN_VIEW_NAMES = { ab: 'A vs B', a: "run A's pass", b: "run B's pass" };

    /** One sentence of the link notice: what the fragment asked for, and what is shown instead. */
    function linkProblem(asked, instead) {
      return `This link ${asked}: ${instead}.`;
    }

    function passWords(k) {
      return `pass ${against ? entries[k].label : entries[k].index}`;
    }

    /** Why the fragment's pass cannot be shown (it names one, and none of this report's entries is it). */
    function missingPass(params) {
      if (against) {
        const asked = ['a', 'b'].filter((n) => params.has(n)).map((n) => `${n.toUpperCase()}${params.get(n)}`);
        if (!asked.length) asked.push(`A${params.get('pass')}`);   // a pass-by-pass link's pass=N
        return `names pass ${asked.join(' / ')}, which this report does not have`;
      }
      const asked = params.get('pass');
      if (asked.trim() === '') return 'names no pass (pass= is empty)';
      if (Number(asked) === 0) return 'names pass 0, the frontend, which is not a pass';
      return `names pass ${asked}, which this report does not have`;
    }

    /** The fragment's keys this viewer does not read, and its layout and run view when they name none. */
    function unreadKeys(params) {
      const problems = [];
      for (const [key, value] of params) {
        if (!HASH_KEYS.includes(key)) problems.push(linkProblem(`has ${key}=${value}, which this viewer does not read`, 'ignoring it'));
      }
      if (params.has('layout') && !LAYOUTS.includes(params.get('layout'))) {
        problems.push(linkProblem(`names layout ${params.get('layout')}, which this viewer does not have`,
          `showing ${LAYOUT_NAMES[state.layout]}`));
      }
      if (against && params.has('view') && !Object.hasOwn(RUN_VIEW_NAMES, params.get('view'))) {
        problems.push(linkProblem(`names view ${params.get('view')}, which this viewer does not have`, `showing ${RUN_VIEW_NAMES.ab}`));
      }
      return problems;
    }

    /** Compare with: the position of the fragment's `from` before entry k, else -1 and why not in `problems`. */
    function fromOfHash(params, k, problems) {
      if (!params.has('from')) return -1;
      const asked = params.get('from'), j = asked.trim() === '' ? -1 : main.passes.findIndex((p) => p.index === Number(asked));
      if (j >= 0 && j < k) return j;
      const why = asked.trim() === '' ? 'compares with no pass (from= is empty)'
        : j < 0 ? `compares with pass ${asked}, which this report does not have`
          : `compares ${passWords(k)} with pass ${asked}, which is not before it`;
      problems.push(linkProblem(why, `comparing with pass ${main.passes[k - 1].index}, the previous one`));
      return -1;
    }

    /** Show every problem of the fragment in the link notice, or hide a notice about an earlier link. */
    function noteLinkProblems(problems) {
      if (problems.length) panels.showLinkNote(problems.join(' '));
      else panels.hideLinkNote();
    }

    /** Restore the view from the fragment; false when it names neither a pass nor a function (the
     *  caller picks the pass). Whatever it names that the report lacks is said in the link notice and
     *  left out of the fragment, which updateHash rewrites for what is shown. */
    function applyHash() {
      const params = new URLSearchParams(location.hash.slice(1));
      if (params.has('layout')) setLayout(params.get('layout'));
      const problems = unreadKeys(params);
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
      const namesPass = params.has('pass') || (against && (params.has('a') || params.has('b')));
      if (!namesPass && !params.has('fn')) {
        noteLinkProblems(problems);
        if (problems.length && state.sel >= 0) updateHash();
        return false;
      }
      let k = entryFromHash(params);
      if (k < firstEntry) {
        const current = state.sel >= 0;
        k = current ? state.sel : firstChanged();
        const instead = current ? `staying on ${passWords(k)}` : `showing ${passWords(k)}, the first that changed`;
        problems.unshift(linkProblem(namesPass ? missingPass(params) : `names function ${params.get('fn')} but no pass`, instead));
      }
      state.fn = params.get('fn') || '';
      if (state.fn && !model.functionExists(state.fn)) {
        problems.push(linkProblem(`names function ${state.fn}, which no snapshot of this report has`, 'showing the whole file'));
        state.fn = '';
      }
      state.fnOnly = params.get('history') === '1';
      $('filter-fn').checked = state.fnOnly;
      if (against) state.runView = Object.hasOwn(RUN_VIEW_NAMES, params.get('view')) ? params.get('view') : 'ab';
      else state.from = fromOfHash(params, k, problems);
      state.sel = -1;         // force a full rebuild even when the pass is unchanged
      selectPass(k, { initial: true });
      if (state.fnOnly) sidebar.applyFilters();
      noteLinkProblems(problems);
      return true;
    }

    /* ---------- keyboard ---------- */

    function isTyping(target) {
      if (!target || !target.tagName) return false;
      if (target.isContentEditable || target.tagName === 'TEXTAREA') return true;
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
      // The arrow keys keep their own meaning where they have one: a focused code pane scrolls (the
      // browser's smooth scrolling), a focused select (`Function` just picked) changes its option.
      // `j` / `k` still switch passes there.
      const ownsArrows = event.target.tagName === 'SELECT' || (event.target.classList && event.target.classList.contains('scroller'));
      if (ownsArrows && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) return;
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
        case 'v': if (isFollowing()) { event.preventDefault(); followToFind(); } break;
        case 'Escape': if (isFollowing()) { event.preventDefault(); setFollow(''); } break;
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
      $('indent-blocks').addEventListener('change', (e) => setIndentBlocks(e.target.checked));
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
      wireIgnoreControls();
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
      $('indent-blocks').checked = state.indentBlocks;
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
      IRTracePanels.wireSidebarResize(() => painter.resize());
      wireControls();
      $('ignore').hidden = against;
      startIgnoring();
      if (!applyHash()) selectPass(firstChanged(), { initial: true });
      if (state.ignore) refreshEntries(performance.now());
      // The same task widens the rendered rows: whoever reads firstDiffPainted sees them settled.
      afterPaint((t) => { trace.firstDiffPainted = t; painter.settle(); });
    }

    // For tests and benchmarks: the payload, the in-browser diff and the model.
    trace.payload = payload;
    trace.diffSnapshots = IRTraceDiff.diffSnapshots;
    trace.model = model;
    init();
  }

  loadPayload().then(startViewer).catch(showLoadError);   // a viewer that fails to start says so too
})();
