// needs: viewer_model.js
/* pypto-ir-trace viewer: pure display-row layout (IRTraceLayout).
 * What the painter draws, computed without the DOM: the Unified layout's rows, the change
 * blocks that `]` / `[` walk, the hunk headers folded runs carry, the function a pane's context
 * line names, and where a long line wraps.
 * Rows are the model's ({ kind, a, b, ar?, br? }, folds { kind: FOLD, start, end }). */
const IRTraceLayout = (() => {
  'use strict';

  const { EQ, DEL, INS, CHG, FOLD, functionAt, functionEntryAt, settleMarks } = IRTraceModel;
  const isChange = (r) => r.kind !== EQ && r.kind !== FOLD;

  /** Unified rows (GitHub's unified view): each block of changed rows becomes its − rows, then
   *  its + rows; a paired edit keeps its emphasis on both. Equal rows and folds pass through. */
  function unifyRows(display) {
    const out = [];
    const n = display.length;
    let i = 0;
    while (i < n) {
      if (!isChange(display[i])) { out.push(display[i++]); continue; }
      let j = i;
      while (j < n && isChange(display[j])) j++;
      for (let t = i; t < j; t++) {
        const r = settleMarks(display[t]);
        if (r.a >= 0) out.push({ kind: DEL, a: r.a, b: -1, ar: r.ar });
      }
      for (let t = i; t < j; t++) {
        const r = display[t];
        if (r.b >= 0) out.push({ kind: INS, a: -1, b: r.b, br: r.br });
      }
      i = j;
    }
    return out;
  }

  /** Side-by-side rows for a rewrite (GitHub's split view): in each run of unpaired deletions
   *  followed by unpaired insertions, the i-th deletion and the i-th insertion share a row instead
   *  of each facing a filler. Such a row is { kind: CHG, rewrite: true } with no emphasis (the two
   *  lines were not matched as an edit); paired edits keep theirs. Notes of either line carry over. */
  function shareRewriteRows(display) {
    const out = [];
    const n = display.length;
    let i = 0;
    while (i < n) {
      if (display[i].kind !== DEL) { out.push(display[i++]); continue; }
      let d = i;
      while (d < n && display[d].kind === DEL) d++;
      let e = d;
      while (e < n && display[e].kind === INS) e++;
      const shared = Math.min(d - i, e - d);
      for (let t = 0; t < shared; t++) out.push(rewriteRow(display[i + t], display[d + t]));
      for (let t = i + shared; t < d; t++) out.push(display[t]);
      for (let t = d + shared; t < e; t++) out.push(display[t]);
      i = e;
    }
    return out;
  }

  function rewriteRow(del, ins) {
    const row = { ...del, kind: CHG, b: ins.b, rewrite: true };
    for (const key of ['moveFrom', 'noEolB', 'bom']) if (ins[key] !== undefined) row[key] = ins[key];
    return row;
  }

  /** [start, end) of every maximal run of changed rows, in order. */
  function changeBlocks(items) {
    const blocks = [];
    for (let i = 0; i < items.length; i++) {
      if (!isChange(items[i])) continue;
      const start = i;
      while (i + 1 < items.length && isChange(items[i + 1])) i++;
      blocks.push([start, i + 1]);
    }
    return blocks;
  }

  /** Give every fold that leads into a hunk the hunk's header, as git's `\@@ -a,n +b,m \@@ fn`:
   *  { a, an, b, bn, fn } with 1-based first lines, line counts, and the function (key) enclosing
   *  the hunk's first change (After side, else Before side; '' outside any function). `rows` are
   *  the rows the folds index, for the line a hunk follows on a side it leaves empty. */
  function labelHunks(display, beforeFns, afterFns, rows) {
    for (let i = 0; i < display.length; i++) {
      if (display[i].kind !== FOLD) continue;
      let a = -1, an = 0, b = -1, bn = 0, fn = null;
      let j = i + 1;
      for (; j < display.length && display[j].kind !== FOLD; j++) {
        const r = display[j];
        if (r.a >= 0) { if (a < 0) a = r.a; an++; }
        if (r.b >= 0) { if (b < 0) b = r.b; bn++; }
        if (fn === null && isChange(r)) {
          fn = (r.b >= 0 && afterFns ? functionAt(afterFns, r.b) : null) || (r.a >= 0 && beforeFns ? functionAt(beforeFns, r.a) : null) || '';
        }
      }
      // A side with no line in the hunk names the line it follows, as git does (`-6,0`).
      const prev = rows && display[i].end > 0 ? rows[display[i].end - 1] : null;
      if (!an && prev) a = prev.a;
      if (!bn && prev) b = prev.b;
      if (fn !== null) display[i].hunk = { a: a + 1, an, b: b + 1, bn, fn };
      i = j - 1;
    }
    return display;
  }

  /** The line ranges of a labelled fold's hunk, as git prints them (the function follows them). */
  function hunkHeader(h) {
    return `@@ \u2212${h.a},${h.an} +${h.b},${h.bn} @@`;
  }

  const DEF_LINE = /^\s*(?:async\s+)?def\s/;

  /** The line a display item shows on `side` ('a', 'b', or 'u': a removed row's Before line,
   *  else its After line) as { side: 'a' | 'b', line }; line -1 for a filler. */
  function lineOn(item, side) {
    if (side === 'u') return item.kind === DEL ? { side: 'a', line: item.a } : { side: 'b', line: item.b };
    return { side, line: side === 'a' ? item.a : item.b };
  }

  /** Index of function f's `def` line: its first line after the decorators (f[1] if none reads so). */
  function defLineOf([, start, end], lines) {
    for (let i = start; i < end; i++) if (DEF_LINE.test(lines[i])) return i;
    return start;
  }

  /** The function enclosing the first line shown on `side` from display item `top` on (fillers
   *  skipped, up to item `limit`): { side, def, key }, `def` the index of its `def` line (after
   *  any decorators). null when that line is outside every function, is the def line or above it,
   *  or a fold comes first (its hunk header names the function already). `sources`: per side
   *  'a' / 'b', { fns (the sorted function index, or null), lines }. Sticky scroll's context line. */
  function enclosingFunction(items, top, limit, side, sources) {
    for (let i = top; i < Math.min(limit, items.length); i++) {
      if (items[i].kind === FOLD) return null;
      const at = lineOn(items[i], side);
      if (at.line < 0) continue;
      const { fns, lines } = sources[at.side];
      const f = fns ? functionEntryAt(fns, at.line) : null;
      if (!f) return null;
      const def = defLineOf(f, lines);
      return at.line > def ? { side: at.side, def, key: f[0] } : null;
    }
    return null;
  }

  /** Display columns of one UTF-16 code unit: wide (CJK) characters take two. */
  const unitColumns = (code) => (code >= 0x1100 && (code < 0xd800 || code > 0xdfff) ? 2 : 1);

  /** Display width of a line in columns. */
  function lineColumns(line) {
    if (line === undefined) return 0;
    let w = line.length;
    if (/[^\x00-\x7f]/.test(line)) for (let i = 0; i < line.length; i++) w += unitColumns(line.charCodeAt(i)) - 1;
    return w;
  }

  const WORDISH = /[A-Za-z0-9_.]/;
  const CLOSING = /[,;:)\]}]/;

  /** 2: a line may start at `i` (just after whitespace); 1: it may, between tokens; 0: it may not
   *  (inside a word, a number or a dotted name like pl.BF16, or before a comma or a closing bracket). */
  function breakKind(text, i) {
    const prev = text[i - 1], cur = text[i];
    if (cur === ' ') return 0;
    if (prev === ' ') return 2;
    if (WORDISH.test(prev) && WORDISH.test(cur)) return 0;
    return CLOSING.test(cur) ? 0 : 1;
  }

  /** The break kind at `i` of a folded line's shown text (`src`: IRTraceFold.displayLine's), where
   *  a chip is involved: never inside one; before one, or after one unless a comma or a closing
   *  bracket follows, as after a space (a chip's placeholder is a word character, see viewer_fold.js).
   *  null when neither side is a chip. */
  function chipBreakKind(text, src, i) {
    const prevChip = src[i - 1] < 0, curChip = src[i] < 0;
    if (prevChip && curChip && src[i - 1] === src[i]) return 0;
    if (curChip) return 2;
    if (prevChip) return text[i] === ' ' || CLOSING.test(text[i]) ? 0 : 2;
    return null;
  }

  /** Where a line wraps at `cols` columns: the UTF-16 offsets that start a continuation line, and
   *  the hanging indent (columns) of those lines: the line's own indent plus four, at most half a line.
   *  Breaks fall between tokens (after a space when one is near) or beside a chip of a folded line
   *  (`src`: its shown units' sources, see chipBreakKind), inside a token only when it is longer
   *  than a line. Linear in the line's length. */
  function wrapBreaks(text, cols, src = null) {
    const n = text.length;
    const lead = text.length - text.trimStart().length;
    const hang = Math.min(lead + 4, Math.floor(cols / 2));
    const breaks = [];
    if (lineColumns(text) <= cols) return { breaks, hang };
    const at = new Float64Array(n + 1);   // columns before offset i
    for (let i = 0; i < n; i++) at[i + 1] = at[i] + unitColumns(text.charCodeAt(i));
    const lastAny = new Int32Array(n + 1), lastSpace = new Int32Array(n + 1);
    for (let i = 1; i <= n; i++) {
      const kind = i < n ? (src && chipBreakKind(text, src, i)) ?? breakKind(text, i) : 0;
      lastAny[i] = kind ? i : lastAny[i - 1];
      lastSpace[i] = kind === 2 ? i : lastSpace[i - 1];
    }
    let start = 0, end = 0;
    while (true) {
      const limit = start ? cols - hang : cols;
      while (end < n && at[end + 1] - at[start] <= limit) end++;
      if (end >= n) break;
      let cut = lastSpace[end] > start && at[lastSpace[end]] - at[start] >= limit / 2 ? lastSpace[end] : lastAny[end];
      if (cut <= start || (!start && cut <= lead)) cut = Math.max(end, start + 1);   // a token longer than a line
      breaks.push(cut);
      start = cut;
      end = Math.max(end, cut);
    }
    return { breaks, hang };
  }

  /** Columns from a line's start to the end of its last emphasised range as shown (`shown`: the
   *  line as folded, IRTraceFold.displayLine, or null when shown as is); 0 without ranges. Folds
   *  never hide emphasis, so the last shown unit from before the range's end closes it. */
  function emphasisEnd(text, ranges, shown) {
    if (!ranges || !ranges.length) return 0;
    const end = Math.min(ranges[ranges.length - 1][1], text.length);
    if (!shown) return lineColumns(text.slice(0, end));
    let d = shown.src.length;
    while (d > 0 && !(shown.src[d - 1] >= 0 && shown.src[d - 1] < end)) d--;
    return lineColumns(shown.text.slice(0, d));
  }

  return { unifyRows, shareRewriteRows, changeBlocks, labelHunks, hunkHeader, lineOn, enclosingFunction, lineColumns, wrapBreaks, emphasisEnd, isChange };
})();
