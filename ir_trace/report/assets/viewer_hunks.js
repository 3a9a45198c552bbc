// needs: nothing
/* pypto-ir-trace viewer: the pure helpers on hunks and rows (IRTraceHunks), no state, no DOM.
 * Row kinds, replaying and counting a pass's hunks, aligning them into side-by-side rows, folding
 * unchanged runs, restricting rows to one function, and looking a line's function up. viewer_model.js
 * builds on them and offers them to the rest of the page as IRTraceModel's. */
const IRTraceHunks = (() => {
  'use strict';

  const EQ = 0, DEL = 1, INS = 2, CHG = 3;   // row kinds
  const FOLD = 'fold';                        // a folded run of unchanged rows

  /** The snapshot after `hunks` ([a0, a1, b0, b1, bLines, pairs]) are applied to `prev`. */
  function applyHunks(prev, hunks) {
    if (!hunks || !hunks.length) return prev;
    const out = [];
    let pos = 0;
    for (const [a0, a1, , , bLines] of hunks) {
      for (let i = pos; i < a0; i++) out.push(prev[i]);
      for (const line of bLines) out.push(line);
      pos = a1;
    }
    for (let i = pos; i < prev.length; i++) out.push(prev[i]);
    return out;
  }

  function countHunks(hunks) {
    let inserted = 0, deleted = 0;
    for (const [a0, a1, b0, b1] of hunks) { inserted += b1 - b0; deleted += a1 - a0; }
    return { inserted, deleted };
  }

  /** Side-by-side rows: equal lines, paired edits, unpaired deletions then insertions.
   *  A row is { kind, a, b } (line indices, -1 for none), CHG rows also { ar, br } (changed ranges). */
  function alignHunks(hunks, beforeCount) {
    const rows = [], notes = hunkNotes(hunks);
    const push = (row) => rows.push(notes ? annotate(row, notes) : row);
    let a = 0, b = 0;
    for (const [a0, a1, , b1, , pairs] of hunks) {
      while (a < a0) rows.push({ kind: EQ, a: a++, b: b++ });
      for (const [ai, bi, ar, br, marks] of pairs || []) {
        while (a < ai) push({ kind: DEL, a: a++, b: -1 });
        while (b < bi) push({ kind: INS, a: -1, b: b++ });
        push(marks ? { kind: CHG, a: a++, b: b++, marks } : { kind: CHG, a: a++, b: b++, ar, br });
      }
      while (a < a1) push({ kind: DEL, a: a++, b: -1 });
      while (b < b1) push({ kind: INS, a: -1, b: b++ });
    }
    while (a < beforeCount) rows.push({ kind: EQ, a: a++, b: b++ });
    return rows;
  }

  /** A changed row's emphasis (ar, br), worked out on first use when the row holds `marks`
   *  instead (a pair re-marked under the ignore modes: only the rows shown pay for it). */
  function settleMarks(row) {
    if (row.marks) { [row.ar, row.br] = row.marks(); row.marks = null; }
    return row;
  }

  /** The hunks' extras (hunk[6], see diff.py's hunks_to_json) by line, or null when none has any. */
  function hunkNotes(hunks) {
    let notes = null;
    for (const hunk of hunks) {
      const extras = hunk[6];
      if (!extras) continue;
      notes = notes || { moveTo: new Map(), moveFrom: new Map(), noEolA: -1, noEolB: -1, bom: null };
      for (const [i, j] of extras.moved || []) { notes.moveTo.set(i, j); notes.moveFrom.set(j, i); }
      if (extras.no_eol && extras.no_eol[0]) notes.noEolA = hunk[1] - 1;
      if (extras.no_eol && extras.no_eol[1]) notes.noEolB = hunk[3] - 1;
      if (extras.bom) notes.bom = extras.bom;
    }
    return notes;
  }

  /** A changed row gains moveTo / moveFrom (the other side's line of a moved line), noEolA /
   *  noEolB (its line lacks the final newline) and bom ([before, after] start with a BOM). */
  function annotate(row, notes) {
    if (row.kind === DEL && notes.moveTo.has(row.a)) row.moveTo = notes.moveTo.get(row.a);
    if (row.kind === INS && notes.moveFrom.has(row.b)) row.moveFrom = notes.moveFrom.get(row.b);
    if (row.a >= 0 && row.a === notes.noEolA) row.noEolA = true;
    if (row.b >= 0 && row.b === notes.noEolB) row.noEolB = true;
    if (notes.bom && (row.a === 0 || row.b === 0)) row.bom = notes.bom;
    return row;
  }

  /** A function's name without its owners: `method` of `Class.method`, `@f` of MLIR's `func.func @m::@f`
   *  (an MLIR key has a space after its op name; a PyPTO key never has one). */
  function shortName(key) {
    const space = key.indexOf(' ');
    return space < 0 ? key.slice(key.lastIndexOf('.') + 1) : key.slice(Math.max(space + 1, key.lastIndexOf('::@') + 2));
  }

  /** Rows restricted to one function's line ranges on each side.
   *  A function on one side only reads as wholly inserted / deleted, whatever the line diff paired. */
  function restrictRows(rows, choice) {
    if (!choice) return rows;
    if (!choice.a || !choice.b) {
      const [start, end] = choice.a || choice.b, kind = choice.a ? DEL : INS, out = [];
      for (let i = start; i < end; i++) out.push(kind === DEL ? { kind, a: i, b: -1 } : { kind, a: -1, b: i });
      return out;
    }
    const [as, ae] = choice.a, [bs, be] = choice.b;
    return rows.filter((r) => (r.a >= as && r.a < ae) || (r.b >= bs && r.b < be));
  }

  /** Fold unchanged runs, keeping `context` rows next to each change; folds whose start is in
   *  `expanded` stay open. A fold is { kind: FOLD, start, end } over rows[start, end). */
  function foldRows(rows, context, expanded, expandAll) {
    if (expandAll) return rows.slice();
    const display = [];
    const n = rows.length;
    let i = 0;
    while (i < n) {
      if (rows[i].kind !== EQ) { display.push(rows[i++]); continue; }
      let j = i;
      while (j < n && rows[j].kind === EQ) j++;
      const head = i > 0 ? context : 0, tail = j < n ? context : 0;
      const start = i + head, end = j - tail;
      if (end - start >= 2 && !expanded.has(start)) {
        for (let r = i; r < start; r++) display.push(rows[r]);
        display.push({ kind: FOLD, start, end });
        for (let r = end; r < j; r++) display.push(rows[r]);
      } else {
        for (let r = i; r < j; r++) display.push(rows[r]);
      }
      i = j;
    }
    return display;
  }

  /** The function [key, start, end] holding `line` in a sorted function index, else null. */
  function functionEntryAt(list, line) {
    let lo = 0, hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1, f = list[mid];
      if (line < f[1]) hi = mid - 1; else if (line >= f[2]) lo = mid + 1; else return f;
    }
    return null;
  }

  /** Key of the function holding `line` in a sorted function index, else null. */
  function functionAt(list, line) {
    const f = functionEntryAt(list, line);
    return f ? f[0] : null;
  }

  return {
    EQ, DEL, INS, CHG, FOLD, applyHunks, countHunks, alignHunks, settleMarks, shortName, restrictRows, foldRows,
    functionAt, functionEntryAt,
  };
})();
