// needs: viewer_dom.js
/* pypto-ir-trace viewer, run against run: what one pass did in run A beside what it did in run B
 * (IRTraceChanges). Each side lists its own pass's hunks, deleted then inserted lines at its own line
 * numbers. A line one run's change has and the other's lacks (compared as printed, counted) is
 * emphasised and said "only in run A / B": what one run did and the other did not. Text is set
 * with textContent only: snapshot lines are data. */
const IRTraceChanges = (() => {
  'use strict';

  const { el, $, spoken } = IRTraceDom;
  const SHOWN = 2000;   // lines listed per side: a pass rewriting a whole large file still lays out at once

  /** The lines a run's own pass deleted and inserted, in hunk order; null where the run lacks the pass
   *  or it is the run's first snapshot (nothing before it to change). */
  function changeOf(model, r, pos) {
    if (pos == null || pos <= 0) return null;
    const run = model.runs[r], before = run.lines(pos - 1), after = run.lines(pos), lines = [];
    for (const [a0, a1, b0, b1] of model.passSpec(r, pos).hunks) {
      for (let i = a0; i < a1; i++) lines.push({ sign: '-', line: i + 1, text: before[i] });
      for (let j = b0; j < b1; j++) lines.push({ sign: '+', line: j + 1, text: after[j] });
    }
    return lines;
  }

  /** Each line's sign and text, counted. */
  function counted(lines) {
    const counts = new Map();
    for (const { sign, text } of lines || []) counts.set(sign + text, (counts.get(sign + text) || 0) + 1);
    return counts;
  }

  /** Mark the lines of `lines` that `other` (counted) has fewer of: what only this run did. */
  function markOnly(lines, other) {
    const left = new Map(other);
    for (const line of lines) {
      const key = line.sign + line.text, have = left.get(key) || 0;
      line.only = have === 0;
      if (have) left.set(key, have - 1);
    }
  }

  function lineNode(change, label) {
    const item = el('li', `change-line ${change.sign === '-' ? 'del' : 'ins'}${change.only ? ' only' : ''}`);
    item.append(el('span', 'change-no', String(change.line)), el('span', 'change-sign', change.sign), el('span', 'change-text', change.text));
    if (change.only) item.append(spoken(` (only in run ${label})`));
    return item;
  }

  /** One side: its heading (run, file, counts), then its lines or why there are none. */
  function fillSide(node, model, r, pos, lines) {
    const label = model.runs[r].label, heading = el('h3', 'change-head');
    const only = lines ? lines.filter((l) => l.only).length : 0;
    heading.textContent = pos == null ? `Run ${label}: no such pass` : `Run ${label}: ${model.runs[r].file(pos)}`;
    if (lines && lines.length) heading.append(el('span', 'change-count', ` \u00b7 ${lines.length} lines changed, ${only} only in run ${label}`));
    node.replaceChildren(heading);
    if (!lines || !lines.length) {
      const why = pos == null ? `Run ${label} has no such pass.` : lines ? `This pass changed nothing in run ${label}.` : 'The first snapshot: no change of its own.';
      node.append(el('p', 'change-empty', why));
      return;
    }
    const list = el('ol', 'change-lines');
    list.setAttribute('aria-label', `Run ${label}'s change`);
    for (const change of lines.slice(0, SHOWN)) list.append(lineNode(change, label));
    node.append(list);
    if (lines.length > SHOWN) node.append(el('p', 'change-empty', `${lines.length - SHOWN} more lines: see Run ${label}'s pass.`));
  }

  /** Show entry k's two changes in the #changes region. */
  function show(model, k) {
    const m = model.entries[k].match;
    const a = changeOf(model, 0, m.a), b = changeOf(model, 1, m.b);
    if (a) markOnly(a, counted(b));
    if (b) markOnly(b, counted(a));
    fillSide($('change-a'), model, 0, m.a, a);
    fillSide($('change-b'), model, 1, m.b, b);
  }

  return { show, changeOf };
})();
