// needs: normalize.js, viewer_dom.js, viewer_fold.js, viewer_traces.js, viewer_model.js, viewer_sidebar.js
/* pypto-ir-trace viewer: what surrounds the panes (IRTracePanels).
 * The pass header and its notes, the warnings panel, the Function / Compare with selects, the run
 * view buttons, Copy full source, banners, theme and the help overlay. Each paints from the model
 * and the viewer's state; actions go back through callbacks. */
const IRTracePanels = (() => {
  'use strict';

  const { countHunks, shortName } = IRTraceModel;
  const { statsNode } = IRTraceSidebar;
  const { el, $ } = IRTraceDom;
  const pad = (index) => String(index).padStart(2, '0');

  /** `actions`: { setFrom(j), revealAfterLine(line), select(k), chooseFunction(key) } of the viewer.
   *  @param {ViewerState} state (read only: viewer_state.js owns it) */
  function createPanels(model, state, actions) {
    const { entries, runs, against } = model;
    const snapshotName = (ref) => runs[ref.run].file(ref.pos);

    /* ---------- pass header ---------- */

    let heading = '';

    /** What a screen reader hears of the pass header: "Pass 12 ConvertToSSA: +3 −2". */
    const headerWords = () => heading;

    /** The pass's name and +/−: the selected function's own change when one is shown. */
    function showHeader(spec, choice) {
      const e = entries[state.sel];
      const title = $('pass-title');
      title.textContent = '';
      const counts = choice ? model.functionCounts(spec, choice) : countHunks(spec.hunks);
      // Spaces between the parts: the title runs as text (viewer.css), heard as "12 ConvertToSSA +3 −2".
      title.append(el('span', 'idx', e.label || String(e.index)), ' ', el('span', 'pass-name', e.name), ' ',
        statsNode(counts.inserted, counts.deleted));
      if (choice) title.append(' ', el('span', 'fn-scope', `in ${functionState(choice)}`));
      followLevel(e);
      title.title = [...title.children].map((part) => part.textContent).join(' ');   // the whole header on hover
      heading = `Pass ${e.label || e.index} ${e.name}: +${counts.inserted} \u2212${counts.deleted}${choice ? ` in ${functionState(choice)}` : ''}`;
      const runOf = (ref) => (against ? `run ${runs[ref.run].label}` : '');
      const beforeRun = runOf(spec.before), afterRun = runOf(spec.after);
      $('label-before').textContent = beforeRun ? `Before \u00b7 ${beforeRun}` : 'Before';
      $('label-after').textContent = afterRun ? `After \u00b7 ${afterRun}` : 'After';
      showFiles(spec);
      showViewNote(spec);
    }

    /** Each pane names its snapshot; the one Unified pane names both. A long path is cut at its
     *  start (viewer.css), so the file's own name stays; the whole path is its tooltip. */
    function showFiles(spec) {
      const inert = IRTraceFold.inertText;   // a bidi override in a file name must not reorder the header
      const before = inert(snapshotName(spec.before)), after = inert(snapshotName(spec.after));
      const show = (id, text) => { $(id).replaceChildren(el('bdi', null, text)); $(id).title = text; };
      show('file-before', before);
      show('file-after', state.layout === 'unified' ? `${before} \u2192 ${after}` : after);
    }

    function showViewNote(spec) {
      const note = $('view-note');
      note.textContent = '';
      const identical = !spec.hunks.length;
      if (!against && spec.before.pos !== model.previousOf(state.sel)) {
        const span = spec.after.pos - spec.before.pos;
        note.append(`Cumulative change from ${snapshotName(spec.before)} to ${snapshotName(spec.after)}: ${span} passes` +
          `${identical ? ' \u2014 the two snapshots are identical' : ''}. `);
        const back = el('button', 'link-btn', 'Compare with the previous snapshot');
        back.type = 'button';
        back.addEventListener('click', () => actions.setFrom(-1));
        note.append(back);
        note.hidden = false;
      } else if (identical) {
        note.textContent = spec.before.run !== spec.after.run
          ? 'Run A and run B printed the same snapshot at this pass.'
          : `This pass changed nothing${against ? ` in run ${runs[spec.after.run].label}` : ''}: its snapshot equals the previous one.`;
        note.hidden = false;
      } else {
        note.hidden = true;
      }
    }

    /** A function view with no change says so, unless another note already explains the view. */
    function noteSameFunction(choice, rows) {
      if (!choice || !$('view-note').hidden || rows.some((r) => r.kind !== IRTraceModel.EQ)) return;
      $('view-note').textContent = `${choice.label} is the same on both sides.`;
      $('view-note').hidden = false;
    }

    /** "kernel", "kernel (created)", ...: how the selected function stands in this view. */
    function functionState(choice) {
      if (choice.a && choice.b) return choice.short;
      if (against) return `${choice.short} (only in run ${choice.a ? 'A' : 'B'})`;
      return `${choice.short} (${choice.a ? 'removed' : 'created'} by this pass)`;
    }

    /* ---------- notes: links naming what the report lacks ---------- */

    function showLinkNote(text) {
      $('link-note-text').textContent = text;
      $('link-note').hidden = false;
    }

    function hideLinkNote() {
      $('link-note').hidden = true;
    }

    /* ---------- warnings panel ---------- */

    function warningItem(w, count) {
      const item = el('li', w.carried ? 'warn-item carried' : 'warn-item');
      const at = `line ${w.line}${w.col ? `:${w.col}` : ''}`;
      if (w.linked && w.line <= count) {
        const link = el('button', 'warn-link', at);
        link.type = 'button';
        link.title = `Show ${w.file} line ${w.line} in the After pane`;
        link.addEventListener('click', () => actions.revealAfterLine(w.line - 1));
        item.append(link);
      } else {
        item.append(el('span', 'warn-at', `${w.file} ${at}`));
      }
      item.append(' ', el('span', 'warn-msg', w.message));
      if (w.check) item.append(' ', el('span', 'warn-check', `[${w.check}]`));
      const tag = el('span', `badge ${w.carried ? 'carried' : 'new'}`, w.carried ? 'carried' : 'new');
      tag.title = w.carried ? 'the previous pass raised the same warning' : 'first raised at this pass';
      item.append(' ', tag);
      return item;
    }

    function showWarnings(spec) {
      const run = runs[spec.after.run], pos = spec.after.pos, p = run.passes[pos];
      const list = p.log ? run.warnings(pos) : [];
      const count = run.lines(pos).length;
      $('warnings').hidden = !p.log;
      const who = against ? `run ${run.label} \u00b7 ` : '';
      $('warnings-title').textContent = p.log_file ? `Warnings \u00b7 ${who}${p.log_file}` : 'Warnings';
      $('warnings-text').textContent = p.log || '';
      $('warn-log').open = !list.length;
      const ul = $('warn-list');
      ul.textContent = '';
      ul.hidden = !list.length;
      for (const w of list) ul.appendChild(warningItem(w, count));
      const fresh = list.filter((w) => !w.carried).length;
      $('warnings-count').textContent = list.length ? `${list.length} (${fresh} new)` : '';
      // Measured after the pass is painted, and only when there is a list: a pass switch forces no extra layout.
      if (list.length) requestAnimationFrame(() => { ul.scrollTop = 0; showMoreWarnings(); }); else hideMoreWarnings();
    }

    function hideMoreWarnings() {
      $('warn-more').hidden = true;
      $('warnings').classList.remove('has-more');
    }

    /** The list shows a few warnings at a time: say how many more lie below the visible ones. */
    function showMoreWarnings() {
      const ul = $('warn-list'), more = $('warn-more');
      const bottom = ul.getBoundingClientRect().bottom;
      let below = 0;
      for (const item of ul.children) if (item.getBoundingClientRect().bottom > bottom + 2) below++;
      more.hidden = !below;
      more.textContent = below ? `${below} more \u2193` : '';
      $('warnings').classList.toggle('has-more', below > 0);
    }

    /* ---------- function select, compare-with select, run views ---------- */

    let selectSignature = null;
    let shownChoices = [];

    function filterQuery() {
      return $('fn-filter').value.trim().toLowerCase();
    }

    /** How a function matches the filter, by its short name or full key: 0 exactly, 1 by prefix,
     *  2 by substring, -1 not at all. */
    function matchRank(c, query) {
      const names = [c.short.toLowerCase(), c.key.toLowerCase()];
      if (names.includes(query)) return 0;
      if (names.some((name) => name.startsWith(query))) return 1;
      return names.some((name) => name.includes(query)) ? 2 : -1;
    }

    /** Options matching the Function filter box, best match first (exact, then prefix, then
     *  substring: `rmsn` lists rmsnorm before post_rmsnorm); the shown function stays listed, last,
     *  whatever the box says. */
    function filteredChoices(choice) {
      const query = filterQuery();
      if (!query) return shownChoices;
      const rank = (c) => { const r = matchRank(c, query); return r < 0 ? 3 : r; };
      return shownChoices.filter((c) => c === choice || matchRank(c, query) >= 0).sort((x, y) => rank(x) - rank(y));
    }

    /** "No function matches": the select then lists only what is shown, which the filter may not match. */
    function showFilterHint(listed) {
      const query = filterQuery();
      const none = query !== '' && !listed.some((c) => matchRank(c, query) >= 0);
      $('fn-filter').setAttribute('aria-invalid', String(none));
      $('fn-hint').textContent = none ? 'no function matches' : '';
      $('fn-hint').hidden = !none;
    }

    /** Fill the Function select for this view. `choice`: the selected function here, null when the
     *  whole file is shown (none selected, or this pass lacks the one selected: then a note says so). */
    function fillFunctionSelect(choices, error, choice) {
      const select = $('fn-select');
      shownChoices = choices;
      const listed = filteredChoices(choice);
      // Most passes leave the function list alone: rebuilding hundreds of options costs milliseconds.
      const signature = `${$('fn-filter').value}\n${listed.map((c) => `${c.key}\u0000${c.label}`).join('\n')}`;
      if (signature !== selectSignature) {
        selectSignature = signature;
        select.textContent = '';
        select.appendChild(new Option('Whole file', ''));
        for (const c of listed) select.appendChild(new Option(c.label, c.key));
      }
      select.value = choice ? choice.key : '';
      select.disabled = Boolean(error);
      const filtering = listed.length !== choices.length;
      const count = filtering ? `${listed.length} of ${choices.length} functions match the filter` : `${choices.length} functions`;
      select.title = error || count;   // a disabled select says why on hover, not "0 functions"
      $('fn-filter').disabled = Boolean(error);
      showFilterHint(listed);
      showFunctionNote(error, choice);
    }

    /** Why the Function select shows what it shows: no slicing here, or the selection is kept but absent. */
    function showFunctionNote(error, choice) {
      const note = $('fn-note');
      note.textContent = '';
      note.title = error || '';
      if (error) note.textContent = error;
      else if (state.fn && !choice) {
        note.append(`${shortName(state.fn)} is not in this ${against ? 'view' : 'pass'}: whole file shown. `);
        note.title = 'The selection is kept: it comes back at the next pass that has this function.';
        const forget = el('button', 'link-btn', 'Forget it');
        forget.type = 'button';
        forget.addEventListener('click', () => actions.chooseFunction(''));
        note.append(forget);
      }
      note.hidden = !note.textContent;
    }

    /** The filter box beside the Function select: typing narrows its options; Enter picks the best
     *  match and hands the focus to the select, so that j / k switch passes again. */
    function wireFunctionFilter(choose) {
      const box = $('fn-filter');
      box.addEventListener('input', () => {
        const choice = shownChoices.find((c) => c.key === $('fn-select').value) || null;
        fillFunctionSelect(shownChoices, null, choice);   // the box is disabled while the select is
      });
      box.addEventListener('keydown', (event) => {
        if (event.key === 'Escape') { box.value = ''; box.dispatchEvent(new Event('input')); box.blur(); return; }
        if (event.key !== 'Enter') return;
        event.preventDefault();
        const first = filteredChoices(null)[0];
        if (!first) return;
        choose(first.key);
        $('fn-select').focus();
      });
    }

    let fromRun = -1;   // the trace whose snapshots the Compare with select lists

    /** Compare with: every snapshot before pass k, oldest first; the previous one is the default.
     *  The options of the snapshots before both passes stay (`j` at pass 900 rebuilt 900 options):
     *  only those past the new pass go, the missing ones come, and "(previous)" moves. */
    function fillFromSelect(k) {
      const select = $('from-select');
      const { run, pos } = entries[k];   // the snapshots of the entry's own trace: no diff crosses traces
      if (fromRun !== run) {
        fromRun = run;
        select.textContent = '';
      }
      const options = select.options;
      if (options.length > pos) options.length = pos;
      if (options.length) relabel(options[options.length - 1], run, options.length - 1, pos);
      for (let j = options.length; j < pos; j++) select.appendChild(named(new Option(fromLabel(run, j, pos), String(j))));
      select.disabled = pos < 1;
      select.value = String(model.fromOf(k, state.from));
      showWholeChoice();
    }

    /** An option's whole name on hover in the open list (a long one is cut there too). */
    function named(option) {
      option.title = option.text;
      return option;
    }

    /** The chosen snapshot's whole name: the select's tooltip, and the box under it while it has focus. */
    function showWholeChoice() {
      const select = $('from-select'), option = select.selectedOptions[0];
      const name = option ? option.text : '';
      select.title = name ? `Compare with ${name}: the Before side, any earlier snapshot (default: the previous one)`
        : 'The Before side: any earlier snapshot (default: the previous one)';
      $('from-whole').textContent = name;
    }

    /** Snapshot j of trace `run` as the Compare with select names it before pass `pos`: named as the
     *  sidebar names it (an MLIR pass by its argument and op, viewer_traces.js). */
    function fromLabel(run, j, pos) {
      const name = IRTraceTraces.describePass(runs[run].passes[j]).name;
      return `${pad(runs[run].passes[j].index)} ${name}${j === pos - 1 ? ' (previous)' : ''}`;
    }

    function relabel(option, run, j, pos) {
      const label = fromLabel(run, j, pos);
      if (option.text !== label) named(Object.assign(option, { text: label }));
    }

    function showRunViews(k) {
      const ok = model.runViews(k), current = model.effectiveRunView(k, state.runView);
      for (const [name, id] of [['change', 'view-change'], ['ab', 'view-ab'], ['a', 'view-a'], ['b', 'view-b']]) {
        const button = $(id);
        button.disabled = !ok[name];
        button.setAttribute('aria-pressed', String(name === current));
      }
    }

    /* ---------- copy ---------- */

    async function copyText(text) {
      try {
        await navigator.clipboard.writeText(text);
        return true;
      } catch (err) {
        // file:// pages may lack clipboard permission; the legacy path still works from a click.
        const area = el('textarea');
        area.value = text;
        area.setAttribute('readonly', '');
        area.style.position = 'fixed';
        area.style.opacity = '0';
        document.body.appendChild(area);
        area.select();
        let ok = false;
        try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
        area.remove();
        return ok;
      }
    }

    /** The copy button of one side copies the snapshot `refOf()` names on that side. */
    function wireCopy(buttonId, feedbackId, refOf) {
      let timer = 0;
      $(buttonId).addEventListener('click', async () => {
        const ref = refOf();
        const ok = await copyText(runs[ref.run].text(ref.pos));
        const feedback = $(feedbackId);
        feedback.textContent = ok ? 'Copied' : 'Copy failed';
        clearTimeout(timer);
        timer = setTimeout(() => { feedback.textContent = ''; }, 1600);
      });
    }

    /* ---------- banners, mode, theme, help ---------- */

    function showBanners() {
      // Runs dumped at different levels get their own notice, which says more than the CONCISE one.
      const levelsDiffer = against && showRunBanners();
      if (model.payload.level === 'CONCISE' && !levelsDiffer) showLevelNotice();
      $('link-dismiss').addEventListener('click', hideLinkNote);
      $('warn-list').addEventListener('scroll', showMoreWarnings, { passive: true });
    }

    /** @type {(entry: object) => void} */
    let followLevel = () => {};   // (entry) -> the CONCISE notice shows for the entry's trace; set when there is one

    /** The CONCISE notice: one line, dismissed for good (remembered); the CONCISE tag brings it back.
     *  In a whole-pipeline report only a PyPTO trace's level is CONCISE: the notice and the tag show
     *  while one of its passes is open. */
    function showLevelNotice() {
      const banner = $('level-banner'), tag = $('level-tag');
      const traces = Array.isArray(model.payload.traces) ? model.payload.traces : null;
      // In a whole-pipeline report the level is PyPTO's: the MLIR traces print everything.
      const whose = traces ? "PyPTO's passes are a CONCISE dump" : 'CONCISE dump';
      const text = `${whose}: tile layouts and window buffers are implicit and cannot show in this diff ` +
        '\u2014 re-dump with PassDumpLevel.EXPLICIT.';
      $('level-banner-text').textContent = text;
      $('level-banner-text').title = text;
      tag.title = `${text} (click to show the notice again)`;
      let applies = !traces || traces[0].level === 'CONCISE';
      const paint = () => {
        const dismissed = settings.get('conciseNoticeDismissed') === '1';
        banner.hidden = !applies || dismissed;
        tag.hidden = !applies || !dismissed;
      };
      const dismiss = (gone) => {
        settings.set('conciseNoticeDismissed', gone ? '1' : '');
        paint();
      };
      paint();
      $('level-dismiss').addEventListener('click', () => dismiss(true));
      tag.addEventListener('click', () => dismiss(false));
      if (!traces) return;
      followLevel = (entry) => {
        const concise = traces[entry.run || 0].level === 'CONCISE';
        if (concise !== applies) { applies = concise; paint(); }
      };
    }

    /** Runs of several traces (compare.py): the page holds one pair; which, of how many. */
    function shownTrace() {
      const shown = model.payload.shown_trace;
      if (!shown) return '';
      return shown.pairs > 1 ? ` \u00b7 1 of ${shown.pairs} trace pairs` : '';   // the paths name the trace
    }

    /** For the banner's tooltip: why this pair, and the traces only one run has. */
    function alone() {
      const shown = model.payload.shown_trace;
      if (!shown) return '';
      const named = (labels, run) => (labels.length ? `\nonly in run ${run}: ${labels.join(', ')}` : '');
      const why = shown.pairs > 1 ? `\ntrace ${shown.trace}: the first pair with a pass that behaved differently ` +
        '(else whose outputs differ); --json has every pair' : '';
      return why + named(shown.only_in_a, 'A') + named(shown.only_in_b, 'B');
    }

    /** Which run is which and, when the two were dumped at different levels, that most "differs" may
     *  be the printing level rather than the compiler (then true). */
    function showRunBanners() {
      const banner = $('runs-banner');
      const names = model.payload.names || runs.map((run) => run.data.dump.replace(/\/passes_dump\/?$/, '').split('/').pop());
      const where = (run) => names[runs.indexOf(run)] || run.data.dump;   // compare.py's run_names: never both alike
      banner.hidden = false;
      // Which side shows which run depends on the run view (Run A's pass shows run A on both): the
      // pane labels say that; the banner says only what is always true.
      // The behaviours were read under the command's ignore modes (the diffs below stay exact).
      const ignoring = model.payload.ignore ? ` \u00b7 behaviour ignoring ${IRTraceNormalize.describe(model.payload.ignore)}` : '';
      banner.textContent = `Run against run \u00b7 run A: ${where(runs[0])} \u00b7 run B: ${where(runs[1])}${shownTrace()}${ignoring}`;
      banner.title = `run A: ${runs[0].data.dump}\nrun B: ${runs[1].data.dump}${alone()}`;
      const [a, b] = runs.map((run) => run.data.level);
      if (a === b || a === 'UNKNOWN' || b === 'UNKNOWN' || !a || !b) return false;
      const levels = $('levels-banner');
      levels.hidden = false;
      levels.textContent = `Different dump levels: run A is ${a}, run B is ${b} \u2014 many passes differ in printing alone.`;
      levels.title = 'Tile layouts and window buffers print only at EXPLICIT. Compare two dumps of one level to see ' +
        'what the compiler changed.';
      return true;
    }

    /** Run-against-run mode relabels what differs from a pass-by-pass report. */
    function adaptToMode() {
      document.body.classList.toggle('against', against);
      $('from-group').hidden = against;
      $('run-view').hidden = !against;
      if (!against) return;
      $('label-changed').textContent = 'Differ';
      $('label-changed').parentElement.title = 'Passes whose snapshots differ between run A and run B (the Changed filter)';
      $('label-noop').textContent = 'Same';
      $('label-noop').parentElement.title = 'Passes where both runs printed the same snapshot (the No-op filter)';
      $('label-fn').textContent = 'Only passes where this function differs';
      for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.help-pass'))) node.hidden = true;
      for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.help-against'))) node.hidden = false;
    }

    /** Run against run: one toggle per behaviour (Different first); pressed ones restrict the list to
     *  their passes, none pressed lists every pass. `changed(key, on)` applies a press. */
    function showBehaviourFilters(changed) {
      const group = $('behaviour-filters');
      for (const { key, label, title, count } of model.behaviourFilters) {
        const button = el('button', `behaviour-filter ${key}`, `${label} ${count}`);
        Object.assign(button, { type: 'button', title });
        button.dataset.behaviour = key;
        button.setAttribute('aria-pressed', 'false');
        button.addEventListener('click', () => {
          const on = button.getAttribute('aria-pressed') !== 'true';
          button.setAttribute('aria-pressed', String(on));
          changed(key, on);
        });
        group.append(button);
      }
      group.hidden = !model.behaviourFilters.length;   // after the buttons: the toolbar settles its Tab stop then
    }

    /** The Behaviour toggles as `state.behaviours` has them (Clear filters, a link). */
    function writeBehaviourFilters() {
      for (const button of /** @type {NodeListOf<HTMLElement>} */ ($('behaviour-filters').querySelectorAll('button'))) {
        button.setAttribute('aria-pressed', String(state.behaviours.has(button.dataset.behaviour)));
      }
    }

    return {
      showBehaviourFilters, writeBehaviourFilters, showHeader, headerWords, showFiles, noteSameFunction, showWarnings, fillFunctionSelect, fillFromSelect, showRunViews,
      wireFunctionFilter, showLinkNote, hideLinkNote, wireCopy, showBanners, adaptToMode,
    };
  }

  /* ---------- settings kept in localStorage (shared by every report opened from file://) ---------- */

  const settings = {
    get(name) {
      try { return localStorage.getItem(`pypto-ir-trace.${name}`); } catch (err) { return null; }
    },
    /** Store a value; '' removes it. Storage may be refused (private mode, a policy): then nothing sticks. */
    set(name, value) {
      try {
        if (value) localStorage.setItem(`pypto-ir-trace.${name}`, value);
        else localStorage.removeItem(`pypto-ir-trace.${name}`);
      } catch (err) { /* settings simply do not persist */ }
    },
  };

  /* ---------- the sidebar's width: fitted to the pass names, then dragged and remembered ---------- */

  const SIDE_MIN = 200, SIDE_FIT_MIN = 260;

  function setSidebarWidth(px) {
    const width = Math.round(Math.max(SIDE_MIN, Math.min(px, window.innerWidth * 0.6)));
    /** @type {HTMLElement} */ (document.querySelector('.app')).style.setProperty('--side-w', `${width}px`);
    $('side-resize').setAttribute('aria-valuenow', String(width));
    return width;
  }

  const FIT_SAMPLE = 40;   // rows measured to fit the sidebar: the longest texts, whatever the pass count

  /** The width at which the widest pass row shows its whole name, within SIDE_FIT_MIN..SIDE_FIT_MAX;
   *  `widestRows(n)` builds the rows of the n entries with the most text (viewer_sidebar.js). */
  function fittedSidebarWidth(widestRows) {
    const sidebar = document.querySelector('.sidebar'), list = document.querySelector('.pass-list');
    // Only the rows with the most text are laid out at their natural width (names uncut): laying out
    // every row took seconds at 5,000 passes, and a row's width follows its text's length closely.
    // They are built for it from the model (the list draws only the rows in sight) and measured in a box
    // of their own.
    const box = document.createElement('div');
    box.className = 'measure-box';
    for (const row of widestRows(FIT_SAMPLE)) {
      row.classList.add('measuring');
      box.append(row);
    }
    sidebar.append(box);
    let need = 0;
    for (const copy of /** @type {HTMLCollectionOf<HTMLElement>} */ (box.children)) need = Math.max(need, copy.offsetWidth);
    box.remove();
    const extra = sidebar.clientWidth - list.clientWidth;   // the list's scrollbar
    // At most 27% of the window (30% comparing runs, whose names a `differs` badge must not cut).
    const share = document.body.classList.contains('against') ? 0.3 : 0.27;
    return Math.max(SIDE_FIT_MIN, Math.min(window.innerWidth * share, need + extra + 2));
  }

  /** The drag handle on the sidebar's edge (arrow keys move it too); `onResize` re-lays the panes.
   *  @param {() => void} onResize @param {(count: number) => HTMLElement[]} widestRows */
  function wireSidebarResize(onResize, widestRows) {
    const handle = $('side-resize');
    handle.setAttribute('aria-valuemin', String(SIDE_MIN));
    handle.setAttribute('aria-valuemax', String(Math.round(window.innerWidth * 0.6)));
    const stored = Number(settings.get('sidebarWidth'));
    setSidebarWidth(stored > 0 ? stored : fittedSidebarWidth(widestRows));
    const commit = (px) => { settings.set('sidebarWidth', String(setSidebarWidth(px))); onResize(); };
    handle.addEventListener('pointerdown', (event) => {
      event.preventDefault();
      handle.setPointerCapture(event.pointerId);
      handle.classList.add('dragging');
      const move = (e) => setSidebarWidth(e.clientX);
      const up = (e) => {
        handle.removeEventListener('pointermove', move);
        handle.removeEventListener('pointerup', up);
        handle.classList.remove('dragging');
        commit(e.clientX);
      };
      handle.addEventListener('pointermove', move);
      handle.addEventListener('pointerup', up);
    });
    handle.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowLeft' ? -16 : event.key === 'ArrowRight' ? 16 : 0;
      if (!step) return;
      event.preventDefault();
      commit(document.querySelector('.sidebar').getBoundingClientRect().width + step);
    });
    handle.addEventListener('dblclick', () => {
      settings.set('sidebarWidth', '');
      setSidebarWidth(fittedSidebarWidth(widestRows));
      onResize();
    });
  }

  /* ---------- theme and help: they work even when the dump has no pass to show ---------- */

  function setTheme(theme) {
    document.documentElement.dataset.theme = theme;
    $('theme-toggle').title = `Theme: ${theme} (switch to ${theme === 'dark' ? 'light' : 'dark'})`;
  }

  let helpReturnFocus = null;
  function openHelp() {
    helpReturnFocus = document.activeElement;
    $('help').hidden = false;
    // Close is at the bottom: focusing it must not scroll a box taller than the window past its
    // title and the first keys.
    $('help-close').focus({ preventScroll: true });
    document.querySelector('#help .overlay-box').scrollTop = 0;
  }
  function closeHelp() {
    $('help').hidden = true;
    if (helpReturnFocus && helpReturnFocus.focus) helpReturnFocus.focus();
  }

  return { createPanels, setTheme, openHelp, closeHelp, settings, wireSidebarResize };
})();
