// needs: nothing
/* pypto-ir-trace viewer: what a long line shows (IRTraceFold).
 * EXPLICIT IR lines run to hundreds of columns, a pane shows about fifty. A line wider than its
 * pane folds its long unchanged runs into chips, so the changed text sits near the start of the
 * line; a line past HUGE_LINE characters shows only its start; invisible and bidi control
 * characters show as a visible chip. Pure: offsets and strings in, plans out (viewer_rows.js
 * paints them, viewer_paint.js decides which lines fold). Offsets are UTF-16, widths columns. */
const IRTraceFold = (() => {
  'use strict';

  const HUGE_LINE = 2000;     // a longer line shows this many characters, then a chip for the rest
  const HUGE_STEP = 10;       // each click on that chip shows ten times as many
  // Columns kept after the indentation (the start of the statement) and on each side of a change
  // (whole tokens): the first that lets the line fit its pane, else the last. The last resorts
  // also fold a deep indentation down to `indent` columns, then shorter unchanged runs between
  // changes (`minFold` columns: each such chip saves at least half of what it hides).
  const KEEPS = [
    { head: 16, context: 12, indent: Infinity }, { head: 16, context: 4, indent: Infinity },
    { head: 8, context: 2, indent: Infinity }, { head: 0, context: 2, indent: Infinity },
    { head: 0, context: 2, indent: 4 }, { head: 0, context: 0, indent: 4 },
    { head: 16, context: 0, indent: 4, minFold: 6 }, { head: 0, context: 0, indent: 0, minFold: 6 },
  ];
  const MIN_FOLD = 10;        // a shorter unchanged run stays: its chip would save little
  const FOLD_COLS = 3;        // chip widths in columns; viewer.css sizes the chips to match
  const HUGE_COLS = 18;
  const CONTROL_COLS = 8;     // "U+202E" in a box
  const PLACEHOLDER = '_';    // a chip's units in the shown text: a word character, so wrapping never breaks inside it
  const NONE = [];
  const STRING = 2, NUMBER = 6;   // the colouring's token groups (viewer_rows.js TOKEN_RE) that never split

  const NOT_PRINTABLE_ASCII = /[^\x20-\x7e\t]/;
  const WORDISH = new Uint8Array(128);   // by char code: a word, number or dotted-name character
  for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.') WORDISH[ch.charCodeAt(0)] = 1;
  // Characters that show nothing, or reorder what follows: C0 and C1 controls (not tab or CR),
  // soft hyphen, Arabic letter mark, zero-width and joiner characters, line and paragraph
  // separators, bidi embeddings, overrides and isolates, word joiner and invisible operators, BOM.
  const CONTROL_CHARS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb';
  const HAS_CONTROL = new RegExp(`[${CONTROL_CHARS}]`);
  const IS_CONTROL = new RegExp(`^[${CONTROL_CHARS}]$`);

  /** "U+202E": how a control character is shown. */
  const controlLabel = (ch) => `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  const EVERY_CONTROL = new RegExp(`[${CONTROL_CHARS}]`, 'g');
  /** A name (a pass, a file, a symbol) shown inert where it is plain text (the sidebar, a pane's
   *  header, tooltips): each control character as its code point, `[U+202E]`, as code rows box it,
   *  so a bidi override in a file name cannot reorder what is read. */
  const inertText = (text) => (typeof text === 'string' && HAS_CONTROL.test(text)
    ? text.replace(EVERY_CONTROL, (ch) => `[${controlLabel(ch)}]`) : text);

  const DOT = 46;
  const isWordish = (c) => c < 128 && WORDISH[c] === 1;
  const isDigit = (c) => c >= 48 && c <= 57;
  const isNameChar = (c) => c < 128 && WORDISH[c] === 1 && c !== DOT;
  /** A cut between these two characters falls just after a dot that ends a name (`pl.Mem.` + `Vec`):
   *  a chip then never starts a shown run with a bare dot, and a number's dot never splits. */
  const isDotBetweenNames = (left, right) => left === DOT && !isDigit(right);

  /** Display columns of each code unit: wide characters two, a control character its chip. */
  function unitWidth(text, i) {
    const ch = text[i];
    if (ch < '\x7f' && ch >= ' ') return 1;
    if (IS_CONTROL.test(ch)) return CONTROL_COLS;
    const code = text.charCodeAt(i);
    return code >= 0x1100 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }

  /** Columns before each offset of text[0, n). */
  function columnsBefore(text, n) {
    const at = new Float64Array(n + 1);
    if (!NOT_PRINTABLE_ASCII.test(text)) { for (let i = 0; i <= n; i++) at[i] = i; return at; }
    for (let i = 0; i < n; i++) at[i + 1] = at[i] + unitWidth(text, i);
    return at;
  }

  /** 1 where a cut at offset i would split a token: inside a word or a number, inside a string
   *  (`tokens`: the colouring's flat [start, end, group] list), or between the
   *  halves of a surrogate pair. A dotted name (`pl.TileLayout.row_major`) may be cut after a dot:
   *  kept whole, a line's several small changes (`Vec` to `Acc` in `pl.Mem.Vec`) would not fit.
   *  A token with an emphasis edge inside opens (openAtChanges). */
  function tokenInteriors(text, n, tokens, ranges) {
    const inside = new Uint8Array(n + 1);
    let before = n > 0 ? text.charCodeAt(0) : 0;
    for (let i = 1; i < n; i++) {
      const c = text.charCodeAt(i);
      const splitsWord = isWordish(c) && isWordish(before) && !isDotBetweenNames(before, c);
      if (splitsWord || (c >= 0xdc00 && c <= 0xdfff)) inside[i] = 1;
      before = c;
    }
    for (let t = 0; t < tokens.length; t += 3) {
      // Only strings and numbers stay whole: a comment is prose, folding between its words, and
      // the other groups are names, cut at their dots like any dotted name.
      if (tokens[t + 2] !== STRING && tokens[t + 2] !== NUMBER) continue;
      for (let i = tokens[t] + 1; i < Math.min(tokens[t + 1], n); i++) inside[i] = 1;
    }
    openAtChanges(text, n, inside, ranges);
    return inside;
  }

  const UNDERSCORE = 95;

  /** A token an emphasis starts or ends inside (the changed part of a long renamed name, as
   *  intraline.js trims it) may be cut there and just after each run of `_` in it, so the fold
   *  hides its unchanged part too: `…tile_1` rather than the whole `down_acc_inline86__tile_1`.
   *  Each token is walked once however many edges fall in it. */
  function openAtChanges(text, n, inside, ranges) {
    let opened = 0;   // tokens before this offset are open already
    for (const range of ranges) {
      for (const edge of range) {
        if (edge <= 0 || edge >= n || !inside[edge]) continue;
        if (edge >= opened) {
          let start = edge, end = edge;
          while (start > 0 && inside[start]) start--;
          while (end < n && inside[end]) end++;
          for (let i = start + 1; i < end; i++) {
            const c = text.charCodeAt(i);
            if (text.charCodeAt(i - 1) === UNDERSCORE && c !== UNDERSCORE && !(c >= 0xdc00 && c <= 0xdfff)) inside[i] = 0;
          }
          opened = end;
        }
        inside[edge] = 0;
      }
    }
  }

  /** What a line hides: { hidden: [[start, end], ...] (sorted, disjoint, whole tokens), cut: where
   *  its shown part ends (text.length unless it is a huge line) }.
   *  role: 'changed' (a paired edit: its unchanged runs fold around `ranges`, its emphasis),
   *  'context' (an unchanged line: its tail past the pane folds), 'whole' (every character is new
   *  or gone: nothing folds). cols: the pane's width in columns; a line that fits folds nothing.
   *  limit: characters of a huge line shown; fold: false when the reader opened the line;
   *  tokensOf(text): the colouring's tokens, asked only when the line does fold; highlightIndent:
   *  a changed indentation shows as emphasis (Highlight indentation changes), not as a mark. */
  function planFolds(text, ranges, role, cols, { limit = HUGE_LINE, fold = true, tokensOf = null, highlightIndent = false } = {}) {
    const huge = text.length > limit;
    // A huge edit folds around its changes first (they may lie far in), then shows `limit` characters.
    const aroundChanges = huge && fold && role === 'changed';
    const cut = huge && !aroundChanges ? cutAt(text, limit) : text.length;
    if (!fold || role === 'whole' || (cut === text.length && cut <= cols && !HAS_CONTROL.test(text))) return { hidden: NONE, cut };
    const at = columnsBefore(text, cut);
    const room = cols - (cut < text.length ? HUGE_COLS : 0);
    if (at[cut] <= room) return { hidden: NONE, cut };
    const inside = tokenInteriors(text, cut, tokensOf ? tokensOf(text.slice(0, cut)) : NONE, ranges || NONE);
    // The nearest cut at or before / after each offset, precomputed: snapping stays O(1) however
    // many changes fall inside one long token (a hostile line's string).
    const before = new Int32Array(cut + 1), after = new Int32Array(cut + 1);
    for (let i = 0; i <= cut; i++) before[i] = i > 0 && inside[i] ? before[i - 1] : i;
    for (let i = cut; i >= 0; i--) after[i] = i < cut && inside[i] ? after[i + 1] : i;
    const back = (i) => before[i], forward = (i) => after[i];
    const offsetAt = (col) => { let lo = 0, hi = cut; while (lo < hi) { const mid = (lo + hi) >> 1; if (at[mid] < col) lo = mid + 1; else hi = mid; } return lo; };
    const snap = { back, forward, offsetAt, highlightIndent };
    let plan = null;
    for (const keep of role === 'context' ? KEEPS.slice(0, 1) : KEEPS) {
      plan = foldAround(keptSpans(text, ranges, role, cut, at, snap, keep), text, cut, at, room, snap);
      if (plan.fits) break;
    }
    return aroundChanges ? capShown(text, plan, limit) : { hidden: plan.hidden, cut: plan.cut };
  }

  /** A plan that shows at most `limit` characters: past them, the huge line's chip. */
  function capShown(text, { hidden, cut }, limit) {
    let shown = 0, pos = 0;
    for (let h = 0; h <= hidden.length; h++) {
      const end = h < hidden.length ? hidden[h][0] : cut;
      if (shown + end - pos > limit) return { hidden: hidden.slice(0, h), cut: cutAt(text, pos + limit - shown) };
      shown += end - pos;
      if (h < hidden.length) pos = hidden[h][1];
    }
    return { hidden, cut };
  }

  /** Hide the gaps between kept spans, then as much of the tail as the pane needs. */
  function foldAround(keeps, text, cut, at, room, { back, offsetAt }) {
    const hidden = [];
    let shownCols = 0, end = 0;
    for (const [s, e] of keeps) {
      if (e <= s) continue;
      if (s > end) { hidden.push([end, s]); shownCols += FOLD_COLS; }
      shownCols += at[e] - at[s];
      end = e;
    }
    // The tail past the last kept span: shown as far as the pane allows, up to a whole token.
    const remaining = room - shownCols;
    if (at[cut] - at[end] <= remaining) return { hidden, cut, fits: true };
    const lastCol = at[end] + Math.max(0, remaining - FOLD_COLS);
    let last = offsetAt(lastCol);
    if (at[last] > lastCol) last--;
    const tailEnd = Math.max(end, back(last));
    const fits = remaining >= FOLD_COLS;   // every kept span is in sight, and the tail's chip
    if (at[cut] - at[tailEnd] < MIN_FOLD) return { hidden, cut, fits };
    // A tail that would leave no code after the indentation stays: the pane edge cuts it instead.
    if (cut === text.length && !/\S/.test(text.slice(0, tailEnd))) return { hidden, cut, fits: false };
    if (cut < text.length) return { hidden, cut: tailEnd, fits };   // the huge line's chip stands for the tail too
    hidden.push([tailEnd, cut]);
    return { hidden, cut, fits };
  }

  /** The largest offset <= limit that neither splits a surrogate pair nor leaves a lone high one. */
  function cutAt(text, limit) {
    const c = text.charCodeAt(limit);
    return c >= 0xdc00 && c <= 0xdfff ? limit - 1 : limit;
  }

  /** The spans a folded line keeps, merged, as [start, end): the indentation (at most `indent`
   *  columns of it) and `head` columns of the statement, then each change with `context` columns
   *  around it; gaps under `minFold` columns stay. */
  function keptSpans(text, ranges, role, cut, at, { back, forward, offsetAt, highlightIndent }, { head, context, indent: keepIndent, minFold = MIN_FOLD }) {
    if (role === 'context') return [[0, 0]];
    let indent = 0;
    while (indent < cut && (text[indent] === ' ' || text[indent] === '\t')) indent++;
    // A changed indentation highlighted as emphasis never folds (drawn as a mark, it needs no room).
    const shownIndent = highlightIndent && (ranges || NONE).some(([rs, re]) => rs < indent && re > rs);
    const spans = [[0, shownIndent ? indent : Math.min(indent, keepIndent)], [indent, forward(offsetAt(at[indent] + head))]];
    for (const [rs, e] of ranges || NONE) {
      const s = Math.max(rs, indent);   // a changed indentation is drawn as a mark: it needs no context
      if (s >= cut || e <= s) continue;
      let from = back(offsetAt(Math.max(0, at[s] - context)));
      // A change inside a name keeps the piece of it just before (`inline4__ssa_v0`, not `__ssa_v0`).
      if (isNameChar(text.charCodeAt(s - 1)) && isNameChar(text.charCodeAt(s))) from = Math.min(from, back(s - 1));
      spans.push([from, forward(offsetAt(at[Math.min(e, cut)] + context))]);
    }
    spans.sort((x, y) => x[0] - y[0]);
    const merged = [];
    for (const span of spans) {
      const last = merged[merged.length - 1];
      if (last && at[span[0]] - at[last[1]] < minFold) last[1] = Math.max(last[1], span[1]);
      else merged.push(span.slice());
    }
    return merged;
  }

  /** The line as shown under `plan`, or null when it shows as is. `text`: the shown text, a chip
   *  standing as placeholder units as wide as it is (wrapping and widths read it); `src`: each
   *  shown unit's offset in the line, or -1 - c for chip c's units; `chips`: { kind ('fold',
   *  'huge', 'control'), start, end } in the line's offsets; `cut`: the plan's. */
  function displayLine(line, plan) {
    const { hidden, cut } = plan;
    if (!hidden.length && cut === line.length && !HAS_CONTROL.test(line)) return null;
    const pieces = [], src = [], chips = [];
    const addChip = (kind, start, end, width) => {
      const c = chips.length;
      chips.push({ kind, start, end });
      pieces.push(PLACEHOLDER.repeat(width));
      for (let k = 0; k < width; k++) src.push(-1 - c);
    };
    let h = 0, i = 0;
    while (i < cut) {
      if (h < hidden.length && hidden[h][0] === i) { addChip('fold', i, hidden[h][1], FOLD_COLS); i = hidden[h++][1]; continue; }
      const stop = h < hidden.length ? hidden[h][0] : cut;
      let j = i;
      while (j < stop && !IS_CONTROL.test(line[j])) j++;
      pieces.push(line.slice(i, j));
      for (let k = i; k < j; k++) src.push(k);
      if (j < stop) { addChip('control', j, j + 1, CONTROL_COLS); j++; }
      i = j;
    }
    if (cut < line.length) addChip('huge', cut, line.length, HUGE_COLS);
    return { text: pieces.join(''), src: Int32Array.from(src), chips, cut };
  }

  /** The huge-line chip's label: how many characters it holds back. */
  const moreLabel = (count) => `+${count.toLocaleString('en-US')} chars`;

  return { HUGE_LINE, HUGE_STEP, planFolds, displayLine, controlLabel, moreLabel, HAS_CONTROL, inertText };
})();
