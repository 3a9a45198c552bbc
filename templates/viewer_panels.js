/* pypto-ir-trace viewer, part 6 of 7: what surrounds the panes (IRTracePanels).
 * The pass header and its notes, the warnings panel, the Function / Compare with selects, the run
 * view buttons, Copy full source, banners, theme and the help overlay. Each paints from the model
 * and the viewer's state; actions go back through callbacks. */
const IRTracePanels = (() => {
  'use strict';

  const { countHunks } = IRTraceModel;
  const { statsNode } = IRTraceSidebar;
  const $ = (id) => document.getElementById(id);
  const pad = (index) => String(index).padStart(2, '0');

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  /** `actions`: { setFrom(j), revealAfterLine(line), select(k) } of the viewer. */
  function createPanels(model, state, actions) {
    const { entries, runs, against, main } = model;
    const snapshotName = (ref) => runs[ref.run].passes[ref.pos].file;

    /* ---------- pass header ---------- */

    function showHeader(spec) {
      const e = entries[state.sel];
      const title = $('pass-title');
      title.textContent = '';
      const counts = countHunks(spec.hunks);
      title.append(el('span', 'idx', e.label || String(e.index)), e.name, statsNode(counts.inserted, counts.deleted));
      const runOf = (ref) => (against ? `run ${runs[ref.run].label}` : '');
      const beforeRun = runOf(spec.before), afterRun = runOf(spec.after);
      $('label-before').textContent = beforeRun ? `Before \u00b7 ${beforeRun}` : 'Before';
      $('label-after').textContent = afterRun ? `After \u00b7 ${afterRun}` : 'After';
      showFiles(spec);
      showViewNote(spec);
    }

    /** Each pane names its snapshot; the one Unified pane names both. */
    function showFiles(spec) {
      const before = snapshotName(spec.before), after = snapshotName(spec.after);
      $('file-before').textContent = before;
      $('file-after').textContent = state.layout === 'unified' ? `${before} \u2192 ${after}` : after;
      $('file-after').title = $('file-after').textContent;
    }

    function showViewNote(spec) {
      const note = $('view-note');
      note.textContent = '';
      const identical = !spec.hunks.length;
      if (!against && spec.before.pos !== state.sel - 1) {
        const span = state.sel - spec.before.pos;
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
    }

    /* ---------- function select, compare-with select, run views ---------- */

    let selectSignature = null;

    function fillFunctionSelect(choices, error) {
      const select = $('fn-select');
      // Most passes leave the function list alone: rebuilding hundreds of options costs milliseconds.
      const signature = choices.map((c) => `${c.key}\u0000${c.label}`).join('\n');
      if (signature !== selectSignature) {
        selectSignature = signature;
        select.textContent = '';
        select.appendChild(new Option('Whole file', ''));
        for (const c of choices) select.appendChild(new Option(c.label, c.key));
      }
      select.value = state.fn;
      select.disabled = Boolean(error);
      const note = $('fn-note');
      note.hidden = !error;
      note.textContent = error || '';
    }

    let fromSignature = -1;

    /** Compare with: every snapshot before pass k, oldest first; the previous one is the default. */
    function fillFromSelect(k) {
      const select = $('from-select');
      if (fromSignature !== k) {
        fromSignature = k;
        select.textContent = '';
        for (let j = 0; j < k; j++) {
          const p = main.passes[j];
          select.appendChild(new Option(`${pad(p.index)} ${p.name}${j === k - 1 ? ' (previous)' : ''}`, String(j)));
        }
      }
      select.value = String(model.fromOf(k, state.from));
    }

    function showRunViews(k) {
      const ok = model.runViews(k), current = model.effectiveRunView(k, state.runView);
      for (const [name, id] of [['ab', 'view-ab'], ['a', 'view-a'], ['b', 'view-b']]) {
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
      if (model.payload.level === 'CONCISE') {
        const banner = $('level-banner');
        banner.hidden = false;
        banner.textContent = 'CONCISE dump: tile layouts and distributed window buffers are implicit at this dump level, ' +
          'so layout changes cannot appear in its diff \u2014 re-dump with PassDumpLevel.EXPLICIT to see them.';
      }
      if (against) {
        const banner = $('runs-banner');
        banner.hidden = false;
        banner.textContent = `Run against run: Before is run A (${runs[0].data.dump}), After is run B (${runs[1].data.dump}).`;
      }
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
      for (const node of document.querySelectorAll('.help-pass')) node.hidden = true;
      for (const node of document.querySelectorAll('.help-against')) node.hidden = false;
    }

    return {
      showHeader, showFiles, noteSameFunction, showWarnings, fillFunctionSelect, fillFromSelect, showRunViews,
      wireCopy, showBanners, adaptToMode,
    };
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
    $('help-close').focus();
  }
  function closeHelp() {
    $('help').hidden = true;
    if (helpReturnFocus && helpReturnFocus.focus) helpReturnFocus.focus();
  }

  return { createPanels, setTheme, openHelp, closeHelp };
})();
