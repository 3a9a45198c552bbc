// needs: nothing
/* pypto-ir-trace sweep index: builds the table from the inline JSON; sorting and filtering.
   Every value is set as text, never as markup: program names and errors are data. */
(function () {
  'use strict';

  const data = JSON.parse(document.getElementById('sweep-data').textContent);
  const hasBaseline = data.baseline !== null;
  const RANK = { diverged: 0, invalid: 1, new: 2, gone: 3, ok: 4, same: 4 };
  const summary = (key) => (row) => (row.summary ? row.summary[key] : null);
  const compared = (get) => (row) => (row.baseline ? get(row.baseline) : null);

  /** @typedef {{ key: string, label: string, value: (row: any) => any, num?: boolean, cls?: string, wrap?: boolean }} Column */
  /** @type {Column[]} */
  const COLUMNS = [
    { key: 'name', label: 'Program', value: (row) => row.label.toLowerCase() },
    { key: 'status', label: 'Status', value: (row) => RANK[row.status] },
    { key: 'traces', label: 'Traces', value: (row) => (row.summary ? row.summary.traces || 1 : null), num: true },
    { key: 'passes', label: 'Passes', value: summary('passes'), num: true },
    { key: 'changed', label: 'Changed', value: summary('changed'), num: true },
    { key: 'noop', label: 'No-op', value: summary('noop'), num: true },
    { key: 'warnings', label: 'Warnings', value: summary('warnings'), num: true },
    { key: 'inserted', label: '+Inserted', value: summary('inserted'), num: true, cls: 'ins' },
    { key: 'deleted', label: '−Deleted', value: summary('deleted'), num: true, cls: 'del' },
  ];
  if (hasBaseline) {
    COLUMNS.push(
      { key: 'first', label: 'First divergent pass', value: compared((b) => b.first_divergent_pass), wrap: true },
      // Where the outputs part is often upstream of it: the first pass that itself behaved differently.
      { key: 'different', label: 'First different pass', value: compared((b) => (b.first_different ? b.first_different.index : null)), wrap: true },
      { key: 'differing', label: 'Differing passes', value: compared((b) => b.differing_passes), num: true, wrap: true },
      { key: 'firstdiff', label: 'First pass vs baseline', value: compared((b) => (b.first_diff ? b.first_diff.inserted + b.first_diff.deleted : null)), num: true, wrap: true },
    );
  }

  const state = { key: null, descending: false, filter: '' };

  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function link(text, href) {
    const a = el('a', text);
    a.href = href;
    return a;
  }

  function showFacts() {
    const facts = document.getElementById('facts');
    const add = (term, value) => { facts.append(el('dt', term), el('dd', value)); };
    add('Swept', data.created);
    add('Root', data.options.root);
    add('Context', data.options.context);
    // Sweeps before ignore modes recorded only `ignore` (regexes).
    const ignored = [...(data.options.ignore_modes || []).filter((m) => m !== 'regex'), ...(data.options.ignore_regex || data.options.ignore)];
    if (ignored.length) add('Ignored', ignored.join('   '));
    if (hasBaseline) add('Baseline', `${data.baseline.path} (${data.baseline.created || 'time unknown'})`);
    const t = data.totals;
    const parts = [`${t.programs} program${t.programs === 1 ? '' : 's'}`];
    if (hasBaseline) parts.push(`${t.diverged} diverged`, `${t.same} same`, `${t.new} new`, `${t.gone} gone`);
    parts.push(`${t.invalid} invalid`);
    document.getElementById('totals').textContent = parts.join(' · ');
  }

  function showHeader() {
    const tr = document.getElementById('columns');
    for (const column of COLUMNS) {
      const th = el('th');
      th.scope = 'col';
      th.dataset.key = column.key;
      th.setAttribute('aria-sort', 'none');
      // Only the baseline's long headings wrap (between words), so that its columns fit 1280 px.
      th.className = [column.num && 'num', column.wrap && 'wrap'].filter(Boolean).join(' ');
      const button = el('button', column.label);
      button.type = 'button';
      button.addEventListener('click', () => sortBy(column.key));
      th.append(button);
      tr.append(th);
    }
  }

  function statusCell(row) {
    const td = el('td');
    td.append(el('span', row.status, `badge ${row.status}`));
    return td;
  }

  function numberCell(value, cls) {
    return el('td', value === null || value === undefined ? '' : value, `num ${cls || ''}`.trim());
  }

  function baselineCells(row) {
    const b = row.baseline;
    if (!b) return [el('td'), el('td'), el('td'), el('td')];
    const ignored = b.ignored_passes ? ` (${b.ignored_passes} ignored)` : '';
    const differing = el('td', `${b.differing_passes}${ignored}`, 'num');
    if (b.first_divergent_pass === null) return [el('td', '—'), el('td', '—'), differing, el('td')];
    const first = el('td');
    // A program of several traces names the trace first (`ptoas:kernel_a · 3 cse`).
    const trace = b.first_divergent_trace ? `${b.first_divergent_trace} · ` : '';
    first.append(link(`${trace}${b.first_divergent_pass} ${b.first_divergent_name}`, b.link));
    // The run got shorter: its report ends before this pass, and the link opens its last one
    // (sweeps before traces existed did not say so: then the pass number tells).
    const shorter = b.first_only_in_baseline ?? b.first_divergent_pass > row.summary.passes;
    if (shorter) first.append(el('span', ' (only in the baseline)', 'muted'));
    // The size of the first difference tells noise (hundreds of renamed lines) from a real change.
    const size = b.first_diff ? `+${b.first_diff.inserted} −${b.first_diff.deleted} lines` : 'baseline kept no text';
    return [first, differentCell(b.first_different), differing, el('td', size, 'num')];
  }

  /** The first pass that behaved differently (not merely carried a difference in), linked into the
   *  report there; empty when the baseline kept only hashes or no pass did. */
  function differentCell(different) {
    const td = el('td');
    if (!different) return td;
    const trace = different.trace ? `${different.trace} · ` : '';
    td.append(link(`${trace}${different.index} ${different.name}`, different.link));
    return td;
  }

  function buildRow(row) {
    const tr = el('tr', null, row.status);
    tr.dataset.name = row.name;
    const name = el('td', null, 'program');
    name.append(row.report ? link(row.label, row.report) : el('span', row.label));
    tr.append(name, statusCell(row));
    if (!row.summary) {
      const note = el('td', row.error || (row.status === 'gone' ? `gone since the baseline (${row.dump || ''})` : ''),
        row.error ? 'error' : 'muted');
      note.colSpan = COLUMNS.length - 2;
      tr.append(note);
      return tr;
    }
    for (const column of COLUMNS.slice(2, 9)) tr.append(numberCell(column.value(row), column.cls));
    if (hasBaseline) tr.append(...baselineCells(row));
    return tr;
  }

  function compareRows(column) {
    const sign = state.descending ? -1 : 1;
    return (a, b) => {
      const x = column.value(a);
      const y = column.value(b);
      if (x === y) return a.name.localeCompare(b.name);
      if (x === null || x === undefined) return 1;  // rows without the value go last either way
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * sign;
    };
  }

  function render() {
    const column = COLUMNS.find((c) => c.key === state.key);
    const needle = state.filter.toLowerCase();
    let rows = data.rows.filter((row) => row.label.toLowerCase().includes(needle));
    if (column) rows = rows.slice().sort(compareRows(column));
    const body = document.getElementById('rows');
    body.replaceChildren(...rows.map(buildRow));
    for (const th of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#columns th'))) {
      const sorted = th.dataset.key === state.key;
      th.setAttribute('aria-sort', sorted ? (state.descending ? 'descending' : 'ascending') : 'none');
    }
    // Rows, not programs: gone programs have a row but are not counted among the sweep's programs.
    document.getElementById('count').textContent = `${rows.length} of ${data.rows.length} rows`;
    const empty = document.getElementById('empty');
    empty.hidden = rows.length > 0;
    empty.textContent = data.rows.length ? 'No program matches the filter.' : `No passes_dump/ directory under ${data.options.root}.`;
  }

  function sortBy(key) {
    state.descending = state.key === key ? !state.descending : false;
    state.key = key;
    render();
  }

  document.getElementById('filter').addEventListener('input', (event) => {
    state.filter = /** @type {HTMLInputElement} */ (event.target).value;
    render();
  });
  showFacts();
  showHeader();
  render();
})();
