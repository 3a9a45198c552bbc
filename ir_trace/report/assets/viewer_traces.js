// needs: viewer_fold.js
/* pypto-ir-trace viewer: several traces in one report, and MLIR pass headers (IRTraceTraces).
 * A report of a program output directory holds PyPTO's trace, then each ptoas unit's (payload.py:
 * "traces"). Each trace is one run of the model (viewer_model.js), so no diff crosses a trace
 * boundary; the sidebar lists every trace's passes in pipeline order under a heading per trace,
 * and the `Trace` select jumps between them. MLIR passes are named from their dump's header.
 * Inlined before viewer_model.js: the model builds its entries with `buildEntries`. */
const IRTraceTraces = (() => {
  'use strict';

  /** @type {(id: string) => any} (see viewer_dom.js) */
  const $ = (id) => document.getElementById(id);
  const STAGE_NAMES = { pypto: 'PyPTO', ptoas: 'ptoas', mlir: 'MLIR' };

  /** The traces of a payload: its "traces", or the payload itself as the one trace. */
  function tracesOf(payload) {
    return Array.isArray(payload.traces) ? payload.traces : [payload];
  }

  /** Whether the model takes the trace-aware path: several traces, or MLIR snapshots (headers). */
  function isTraced(payload) {
    return payload.mode !== 'against' && (Array.isArray(payload.traces) || payload.passes.some((p) => p.header));
  }

  const traceName = (trace) => `${STAGE_NAMES[trace.stage] || trace.stage || 'PyPTO'} \u00b7 ${trace.unit || trace.title}`;

  /** "func.func @saxpy": the op a pass ran on ('' for the whole module, which every pass of a tree sees). */
  function scopeOf(header) {
    if (!header.op || (header.op === 'builtin.module' && !header.symbol)) return '';
    return header.symbol ? `${header.op} ${header.symbol}` : header.op;
  }

  /** The header as MLIR meant it, one line: `After Canonicalizer (canonicalize) on func.func @f`. */
  function headerLine(header) {
    const when = header.kind === 'before' ? 'Before' : 'After';
    const on = header.op ? ` on ${header.op}${header.symbol ? ` ${header.symbol}` : ''}` : '';
    return `IR Dump ${when} ${header.pass_name}${header.failed ? ' Failed' : ''} (${header.argument})${on}`;
  }

  /** Sidebar name, tooltip and badges of pass `p` (its header when it has one), its snapshot named `file`. */
  function describePass(p, file) {
    const h = p.header;
    const inert = IRTraceFold.inertText;   // names shown as text: no control character acts (viewer_fold.js)
    if (!h) return { name: inert(p.name), title: inert(file), badges: [] };
    const scope = scopeOf(h);
    const name = `${h.kind === 'before' ? 'before ' : ''}${h.argument || h.pass_name}${scope ? ` \u00b7 ${scope}` : ''}`;
    const title = [headerLine(h), h.options && `options: ${h.options}`, file].filter(Boolean).join('\n');
    const badges = [];
    if (h.failed) badges.push(['failed', 'failed', `${h.pass_name} failed: the pipeline stopped here`]);
    if (h.kind === 'before') badges.push(['before', 'before', 'IR printed before this pass ran (no After follows it)']);
    return { name: inert(name), title: inert(title), badges };
  }

  /** Whether pass k of a trace is a Before dump shown as part of the After that follows it: the
   *  same pass on the same op, and nothing ran between the previous snapshot and it. */
  function mergedBefore(passes, k) {
    const p = passes[k], next = passes[k + 1];
    if (!p.header || p.header.kind !== 'before' || !next || !next.header || next.header.kind !== 'after') return false;
    const same = ['argument', 'op', 'symbol'].every((f) => p.header[f] === next.header[f]);
    return same && (k === 0 || !p.changed);
  }

  /** The hunks showing a trace's first snapshot whole: everything inserted into an empty Before. */
  function wholeSnapshot(lines) {
    return lines.length ? [[0, 0, 0, lines.length, lines, []]] : [];
  }

  /** Sidebar entries over every trace, in order: entry { k, run, pos, start, ... }. A PyPTO trace's
   *  base (00_frontend.py) is not a pass; an MLIR trace's first snapshot is one (shown whole). */
  function buildEntries(payload, runs, passSpec) {
    const entries = [], traces = tracesOf(payload);
    traces.forEach((trace, r) => {
      const passes = runs[r].passes;
      for (let pos = 0; pos < passes.length; pos++) {
        const p = passes[pos], start = pos === 0;
        if ((start && (trace.stage || 'pypto') === 'pypto' && !p.header) || mergedBefore(passes, pos)) continue;
        const { name, title, badges } = describePass(p, runs[r].file(pos));
        const paired = pos > 0 && mergedBefore(passes, pos - 1);
        const k = entries.length;
        const startBadge = ['start', 'first', `the first snapshot of ${traceName(trace)}: nothing earlier to compare with, shown whole`];
        entries[k] = {
          k, run: r, pos, start, index: p.index, name,
          title: paired ? `${title}\ndiff: Before \u2192 After of this pass` : title,
          changed: start || p.changed, inserted: start ? null : p.inserted, deleted: start ? null : p.deleted,
          log: { run: r, pos }, badges: start ? [startBadge, ...badges] : p.changed ? badges : [...badges, ['noop', 'no-op']],
          history: () => passSpec(r, pos),
        };
      }
    });
    return entries;
  }

  /* ---------- the page: trace headings, the Trace select, the pass header ---------- */

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  /** The Trace select and the headings of a report of several traces; `select(k)` shows entry k. */
  function createPicker(model, select) {
    const { payload, entries, firstEntry, lastEntry } = model;
    const traces = tracesOf(payload), several = Array.isArray(payload.traces);
    const firstOf = traces.map(() => -1), counts = traces.map(() => 0);
    for (let k = firstEntry; k <= lastEntry; k++) {
      const r = entries[k].run;
      if (firstOf[r] < 0) firstOf[r] = k;
      if (!entries[k].start) counts[r]++;
    }
    let picker = null;

    function traceTitle(r) {
      const t = traces[r];
      return [`${traceName(t)}: ${counts[r]} pass${counts[r] === 1 ? '' : 'es'}`, t.dump, ...(t.warnings || [])].join('\n');
    }

    function heading(r) {
      const item = el('li', 'trace-head');
      item.dataset.run = String(r);
      const title = el('h2', 'trace-heading', traceName(traces[r]));
      title.title = traceTitle(r);
      item.append(title, el('span', 'trace-count', `${counts[r]} pass${counts[r] === 1 ? '' : 'es'}`));
      if ((traces[r].warnings || []).length) {
        const badge = el('span', 'badge warn', 'notes');
        badge.title = traces[r].warnings.join('\n');
        item.append(' ', badge);
      }
      return item;
    }

    /** The first changed pass of trace r (its first pass when none changed). */
    function entryOfTrace(r) {
      for (let k = firstOf[r]; k >= 0 && k <= lastEntry && entries[k].run === r; k++) {
        if (!entries[k].start && model.refreshEntry(k).changed) return k;
      }
      return firstOf[r];
    }

    function build() {
      if (!several) return;
      // The sidebar draws each trace's heading as a row of its list (viewer_sidebar.js), and the
      // overview chart the trace boundaries.
      const group = el('div', 'trace-pick');
      const label = el('label', null, 'Trace');
      label.htmlFor = 'trace-select';
      picker = el('select');
      picker.id = 'trace-select';
      picker.title = 'Jump to a trace: PyPTO\u2019s passes, then each ptoas unit\u2019s (j / k walk on across them)';
      traces.forEach((t, r) => {
        const option = new Option(`${traceName(t)} (${counts[r]})`, String(r));
        option.disabled = firstOf[r] < 0;
        picker.append(option);
      });
      picker.addEventListener('change', () => select(entryOfTrace(Number(picker.value))));
      group.append(label, picker);
      $('report-sub').parentElement.after(group);
      const help = document.querySelector('.help-list');
      if (help) {
        const item = el('li');
        item.append(el('strong', null, 'Several traces: '), 'the sidebar lists PyPTO\u2019s passes, then each ptoas unit\u2019s, ' +
          'under a heading each; Trace jumps to one. j / k and Find\u2019s n / N walk on across traces; no diff crosses ' +
          'a trace boundary (an MLIR trace\u2019s first snapshot is shown whole). Links name the trace: #trace=<unit or program>&pass=N.');
        help.append(item);
      }
    }

    function markSelected(k) {
      if (picker && entries[k]) picker.value = String(entries[k].run);
    }

    return { build, markSelected, heading };
  }

  /** The pass header of entry k: the MLIR header in full on hover, its options and the trace beside the name. */
  function decorateHeader(model, k) {
    const e = model.entries[k], title = $('pass-title');
    if (!e || e.run === undefined || !model.traced) return;
    const traces = tracesOf(model.payload), p = model.runs[e.run].passes[e.pos];
    const extra = [];
    if (Array.isArray(model.payload.traces)) extra.push(el('span', 'trace-tag', traceName(traces[e.run])));
    if (p.header && p.header.failed) {
      const badge = el('span', 'badge failed', 'failed');
      badge.title = 'The pipeline stopped at this pass: the After pane is the IR as the failing pass left it';
      extra.push(badge);
    }
    if (p.header && p.header.options) extra.push(el('span', 'pass-options', p.header.options));
    for (const part of extra) title.append(' ', part);   // the title runs as text: spaces between its parts
    if (p.header) title.title = [headerLine(p.header), p.header.options && `options: ${p.header.options}`].filter(Boolean).join('\n');
  }

  /** Heard after a pass's name (the header shows both): its trace when the report has several, as their
   *  numbers restart, and a failure. */
  function spokenContext(model, k) {
    const e = model.entries[k];
    if (!e || e.run === undefined || !model.traced) return '';
    const p = model.runs[e.run].passes[e.pos];
    const trace = Array.isArray(model.payload.traces) ? `, ${traceName(tracesOf(model.payload)[e.run])}` : '';
    return `${p.header && p.header.failed ? ', failed' : ''}${trace}`;
  }

  /** A trace's name in links: its unit, or for PyPTO's trace (no unit) the program's name, its title. */
  const nameOf = (t) => t.unit || t.title || '';

  /** What a link calls trace r: its name, or `stage:name` when another trace has the same name. */
  function linkName(payload, r) {
    const traces = tracesOf(payload), t = traces[r];
    return traces.filter((other) => nameOf(other) === nameOf(t)).length > 1 ? `${t.stage}:${nameOf(t)}` : nameOf(t);
  }

  /** #trace=<name> (or stage:name): the run a fragment names, null for one this report lacks. The
   *  empty name, which links written before PyPTO's trace was named by its program carry, is PyPTO's. */
  function runOfUnit(payload, name) {
    const traces = tracesOf(payload);
    const named = (t, i) => name === linkName(payload, i) || name === `${t.stage}:${nameOf(t)}`;
    const r = traces.findIndex((t, i) => named(t, i) || (name === '' && !t.unit));
    return r >= 0 ? r : null;
  }

  return {
    tracesOf, isTraced, traceName, scopeOf, describePass, buildEntries, wholeSnapshot, createPicker, decorateHeader, spokenContext, linkName, runOfUnit,
  };
})();
