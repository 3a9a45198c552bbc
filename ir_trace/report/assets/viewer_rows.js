// needs: viewer_dom.js, viewer_model.js, viewer_layout.js, viewer_fold.js
/* pypto-ir-trace viewer: one display row as DOM (IRTraceRows).
 * Syntax colouring, changed-range emphasis, find hits, wrapped continuation lines, fold bars with
 * their hunk header, fillers, warning markers and the edge markers of changes out of sight sideways. A row is built from its item alone (see
 * viewer_layout.js); the panes and scrolling are viewer_paint.js's. Text is only ever inserted with
 * textContent: snapshot text is data, never markup. */
const IRTraceRows = (() => {
  'use strict';

  const { DEL, INS, CHG, FOLD, settleMarks } = IRTraceModel;
  const { hunkHeader, lineOn, lineColumns } = IRTraceLayout;
  const { controlLabel, moreLabel } = IRTraceFold;
  const NO_BREAKS = [];

  const { el } = IRTraceDom;

  /* ---------- syntax colouring ---------- */

  // One pass over the line; groups map to classes in CLASS_OF. Only rendered rows are coloured.
  const TOKEN_RE = new RegExp([
    '(#(?![A-Za-z_]).*)',                                    // 1 comment (`#map`, `#loc3` are MLIR aliases)
    '("(?:[^"\\\\]|\\\\.)*"?|\'(?:[^\'\\\\]|\\\\.)*\'?)',    // 2 string
    '([@#][A-Za-z_][\\w.]*)',                                // 3 decorator, MLIR symbol or alias
    '\\b(pl(?:\\.[A-Za-z_]\\w*)+)',                          // 4 pl.xxx
    '\\b(def|class|return|for|in|if|elif|else|while|with|as|import|from|pass|break|continue|and|or|not|is|None|True|False|lambda|yield|assert|del|global|nonlocal|raise|try|except|finally)\\b',  // 5 keyword
    '(?<![\\w.])(0x[0-9a-fA-F]+|\\d+(?:\\.\\d*)?(?:[eE][+-]?\\d+)?)',  // 6 number
    '(?<=\\b(?:def|class) )([A-Za-z_]\\w*)',                 // 7 defined name
  ].join('|'), 'g');
  const CLASS_OF = ['', 't-c', 't-s', 't-d', 't-p', 't-k', 't-n', 't-f'];
  const EMPHASIS = 8, HIT = 16, FOLLOW = 32;
  const tokenCache = new Map();

  /** Flat [start, end, class, ...] token list for one line, memoised by text. */
  function tokenize(text) {
    let tokens = tokenCache.get(text);
    if (tokens) return tokens;
    tokens = [];
    TOKEN_RE.lastIndex = 0;
    let m;
    while ((m = TOKEN_RE.exec(text)) !== null) {
      let group = 1;
      while (m[group] === undefined) group++;
      tokens.push(m.index, m.index + m[0].length, group);
    }
    if (tokenCache.size > 20000) tokenCache.clear();
    tokenCache.set(text, tokens);
    return tokens;
  }

  /** The mark that starts a continuation line, as wide as its hanging indent. Its `↪` is drawn by
   *  CSS: not text, so the row's text (find, selection, a screen reader) runs on across the break. */
  function continuation(hang) {
    const mark = el('span', 'cont');
    mark.style.width = `${hang}ch`;
    mark.setAttribute('aria-hidden', 'true');
    return mark;
  }

  const SELECTABLE_FOLD = 100000;   // characters of a folded run kept in its chip for a selection
  const CHIP_KEY = 256;   // a shown unit's key from here up: chip (key - CHIP_KEY) of the line

  /** Fill a code cell with coloured spans, emphasising changed `ranges`, find `hits` and a followed
   *  value's `follows`; `wrap` ({ breaks, hang } from IRTraceLayout.wrapBreaks, in shown offsets)
   *  starts a continuation line at each break. `shown` (IRTraceFold.displayLine) folds runs and
   *  marks invisible characters; null shows the line as is. */
  function paintCode(cell, text, ranges, hits, wrap, follows, shown = null) {
    if (!text.length) return;
    const n = shown ? shown.cut : text.length;
    const tokens = tokenize(n < text.length ? text.slice(0, n) : text);
    const breaks = wrap ? wrap.breaks : NO_BREAKS;
    const plain = !(ranges && ranges.length) && !(hits && hits.length) && !(follows && follows.length);
    if (!shown && !tokens.length && plain && !breaks.length) { cell.textContent = text; return; }
    const cls = new Uint8Array(n);
    for (let t = 0; t < tokens.length; t += 3) cls.fill(tokens[t + 2], tokens[t], tokens[t + 1]);
    const mark = (spans, bit) => { for (const [s, e] of spans) for (let i = Math.max(0, s); i < e && i < n; i++) cls[i] |= bit; };
    if (ranges) mark(ranges, EMPHASIS);
    if (hits) mark(hits, HIT);
    if (follows) mark(follows, FOLLOW);
    if (!shown) { paintRuns(cell, text, cls, breaks, wrap, null); return; }
    const keys = new Int32Array(shown.text.length);
    for (let d = 0; d < keys.length; d++) keys[d] = shown.src[d] >= 0 ? cls[shown.src[d]] : CHIP_KEY - 1 - shown.src[d];
    paintRuns(cell, shown.text, keys, breaks, wrap, (c) => chipElement(shown.chips[c], text, cls));
  }

  /** Append `text` as runs of equal keys: plain text, a coloured span, or (keys from CHIP_KEY up)
   *  the chip `chipOf` builds, once per chip. */
  function paintRuns(cell, text, keys, breaks, wrap, chipOf) {
    const n = text.length;
    // Gathered and appended in one call, plain runs as strings: a pass switch builds a screenful
    // of rows, and each call into the DOM costs more than the work it does.
    const parts = [];
    let start = 0, b = 0;
    for (let i = 1; i <= n; i++) {
      const atBreak = b < breaks.length && breaks[b] === i;
      if (i < n && !atBreak && keys[i] === keys[start]) continue;
      const c = keys[start];
      if (c >= CHIP_KEY) { if (start === 0 || keys[start - 1] !== c) parts.push(chipOf(c - CHIP_KEY)); }
      else if (c === 0) parts.push(text.slice(start, i));
      else parts.push(el(c & HIT ? 'mark' : 'span', classNames(c), text.slice(start, i)));
      if (atBreak) { parts.push(el('br'), continuation(wrap.hang)); b++; }
      start = i;
    }
    cell.append(...parts);
  }

  const classNameOf = (c) => [CLASS_OF[c & 7], c & EMPHASIS ? 'em' : '', c & HIT ? 'hit' : '', c & FOLLOW ? 'follow' : ''].filter(Boolean).join(' ');
  const CLASS_NAMES = Array.from({ length: 64 }, (_, c) => classNameOf(c));   // every key below CHIP_KEY's bits
  const classNames = (c) => CLASS_NAMES[c & 63];

  /** A chip standing for part of a line: folded unchanged text or a huge line's rest (buttons that
   *  show it: viewer_paint.js opens the line), or one invisible character, kept in the DOM so a
   *  selection copies it, drawn as its code point. */
  function chipElement(chip, text, cls) {
    if (chip.kind === 'control') {
      const c = cls[chip.start] || 0, ch = text[chip.start], label = controlLabel(ch);
      const box = el('span', `ctl${c ? ` ${classNames(c)}` : ''}`);
      box.dataset.cp = label;
      box.title = `Invisible character ${label}`;
      box.appendChild(el('span', 'ctl-ch', ch));
      return box;
    }
    const count = chip.end - chip.start;
    const button = el('button', `chip ${chip.kind}`);
    button.type = 'button';
    button.tabIndex = -1;   // like a fold button: one Tab stop per chip would trap Tab in the pane
    button.dataset.kind = chip.kind;
    if (chip.kind === 'huge') {
      button.dataset.more = moreLabel(count);
      button.title = `${count.toLocaleString('en-US')} more characters of this very long line: click to show more`;
    } else {
      button.title = `${count} characters folded (the same on both sides): click to show the whole line`;
      // Zero-size text: a selection across the chip still copies it (not a huge run: layout pays for it).
      if (count <= SELECTABLE_FOLD) button.appendChild(el('span', 'chip-text', text.slice(chip.start, chip.end)));
      if (cls.subarray(chip.start, chip.end).some((c) => c & HIT)) button.classList.add('hit');
    }
    // Heard inside its row's speech, once per chip: short; the tooltip says what a click does.
    button.setAttribute('aria-label', chip.kind === 'huge' ? button.title : `${count} characters folded`);
    return button;
  }

  /* ---------- rows ---------- */

  /** A folded run: its expand button, then the header of the hunk it leads into. */
  function foldElement(item) {
    const row = el('div', 'row fold');
    row.setAttribute('role', 'listitem');   // each row its own line for screen readers, not one run-on text
    const bar = el('span', 'fold-bar');
    const count = item.end - item.start;
    const button = el('button', 'fold-btn', `\u22ef ${count} unchanged line${count === 1 ? '' : 's'}`);
    button.type = 'button';
    button.tabIndex = -1;   // reached from its focused pane (viewer_keys.js), not one Tab stop each
    button.dataset.fold = item.start;
    bar.appendChild(button);
    if (item.hunk) {
      const head = el('span', 'hunk-head', hunkHeader(item.hunk));
      if (item.hunk.fn) head.append(' ', el('span', 'hunk-fn', item.hunk.fn));
      bar.appendChild(head);
    }
    row.appendChild(bar);
    return row;
  }

  function warningMarker(warned) {
    const text = warned.map((w) => `warning: ${w.message}${w.check ? ` [${w.check}]` : ''}`).join('\n');
    const marker = el('span', 'wmark', '\u26a0');
    marker.setAttribute('role', 'img');
    marker.setAttribute('aria-label', text);
    marker.title = text;
    return marker;
  }

  /** What a row shows on one side: 'a' (Before), 'b' (After) or 'u' (Unified, one column). */
  function sideOf(item, side) {
    settleMarks(item);
    const { side: text, line } = lineOn(item, side);
    // Side by side, only a paired row is emphasised; Unified rows carry their own side's ranges.
    const ranges = side === 'u' || item.kind === CHG ? (text === 'a' ? item.ar : item.br) : null;
    return { line, text, ranges };
  }

  function kindOf(item, side) {
    if (item.kind === DEL || (item.kind === CHG && side === 'a')) return 'del';
    if (item.kind === INS || (item.kind === CHG && side === 'b')) return 'ins';
    return '';
  }

  /** Line numbers: one side's, or in the Unified layout both (old, new), padded to `digits`. */
  function gutterText(item, side, digits) {
    if (side !== 'u') return String((side === 'a' ? item.a : item.b) + 1);
    const num = (i) => (i >= 0 ? String(i + 1) : '').padStart(digits);
    return `${num(item.a)} ${num(item.b)}`;
  }

  /** The DOM row of `item` on `side`. ctx: { before, after (line arrays), warnMarks, flash,
   *  hits(text), wrapOf(text, shown, item) (the line's breaks, null for a row that does not wrap;
   *  wrapOf itself null when no row wraps), digits, shownOf(item, side) (the line as
   *  folded, IRTraceFold.displayLine), markIndent (a change in the indentation is a mark) }. */
  function rowElement(item, side, ctx) {
    if (item.kind === FOLD) return foldElement(item);
    const { line, text: from, ranges } = sideOf(item, side);
    if (line < 0) {
      const row = el('div', 'row fill');
      row.setAttribute('aria-hidden', 'true');
      row.appendChild(el('span', 'ln'));
      return row;
    }
    const kind = kindOf(item, side);
    const row = el('div', kind ? `row ${kind}` : 'row');
    row.setAttribute('role', 'listitem');
    const ln = el('span', 'ln');
    ln.append(IRTraceDom.unspoken(gutterText(item, side, ctx.digits)));   // the spoken row says its number
    const warned = item.b >= 0 && side !== 'a' && ctx.warnMarks.get(item.b);
    if (warned) {
      row.classList.add('warned');
      ln.prepend(warningMarker(warned));
    }
    if (side !== 'a' && item.b >= 0 && item.b === ctx.flash) row.classList.add('flash');
    const mk = el('span', 'mk', kind === 'del' ? '\u2212' : kind === 'ins' ? '+' : '');
    const code = el('span', 'code');
    const text = from === 'a' ? ctx.before[line] : ctx.after[line];
    const speech = IRTraceDom.rowSpeech(kind, line + 1, text, ranges);
    mk.setAttribute('aria-hidden', 'true');
    row.append(speech.head, ln, mk);
    const shown = ctx.shownOf(item, side);
    const { ranges: emphasis, indent } = ctx.markIndent ? splitIndentation(text, ranges, shown) : { ranges, indent: -1 };
    const wrap = ctx.wrapOf && ctx.wrapOf(text, shown, item);
    if (wrap && wrap.breaks.length) row.classList.add('wrapped');
    paintCode(code, text, emphasis, ctx.hits(text), wrap, ctx.follows && ctx.follows(text), shown);
    if (indent >= 0) code.prepend(indentMark(indent));
    if (shown && shown.chips.length) {
      for (const chip of code.querySelectorAll('.chip')) { chip.dataset.side = from; chip.dataset.line = line; }
    }
    for (const note of rowNotes(item, from, line, ctx)) code.appendChild(note);
    if ((from === 'a' ? item.moveTo : item.moveFrom) !== undefined) row.classList.add('moved');
    row.appendChild(code);
    if (speech.tail) row.appendChild(speech.tail);
    return row;
  }

  /** A change confined to a line's indentation is drawn as a thin mark at the indent, not as a
   *  block over the blanks: { ranges (the rest, still emphasised), indent (columns of the
   *  indentation when part of a change lay in it, else -1) }. */
  function splitIndentation(text, ranges, shown) {
    if (!ranges || !ranges.length) return { ranges, indent: -1 };
    const lead = indentation(text);
    if (!lead || ranges[0][0] >= lead) return { ranges, indent: -1 };
    const rest = [];
    for (const [s, e] of ranges) if (e > lead) rest.push([Math.max(s, lead), e]);
    // A folded deep indentation: the mark goes where its chip starts.
    return { ranges: rest, indent: lineColumns((shown ? shown.text : text).slice(0, Math.min(lead, indentation(shown ? shown.text : text)))) };
  }

  function indentation(text) {
    let lead = 0;
    while (lead < text.length && (text[lead] === ' ' || text[lead] === '\t')) lead++;
    return lead;
  }

  function indentMark(columns) {
    const mark = el('span', 'indent-mark');
    mark.style.left = `${columns}ch`;
    mark.title = 'Indentation changed';
    return mark;
  }

  /** What a changed line says beyond its text (the model's row annotations): moved, with a
   *  button to its other end; no newline at the end of the file; a byte order mark changed. */
  function rowNotes(item, side, line, ctx) {
    const notes = [];
    const other = side === 'a' ? item.moveTo : item.moveFrom;
    if (other !== undefined) {
      const button = el('button', 'note move', `${side === 'a' ? 'moved to' : 'moved from'} line ${other + 1}`);
      button.type = 'button';
      button.tabIndex = -1;   // like a fold button: reached from its focused pane
      button.addEventListener('click', () => ctx.showLine(side === 'a' ? 'b' : 'a', other));
      notes.push(button);
    }
    if (side === 'a' ? item.noEolA : item.noEolB) notes.push(el('span', 'note', 'No newline at end of file'));
    if (item.bom && line === 0 && item.bom[side === 'a' ? 0 : 1]) {
      notes.push(el('span', 'note', side === 'a' ? 'byte order mark removed' : 'byte order mark added'));
    }
    return notes;
  }

  const CONTROLS = 'button, [tabindex]';

  /** The focused control among a pane's rows (`rows`, the first of them item `first`) as its row's
   *  item index and its place among that row's controls, or null: building the rows again would
   *  otherwise drop the keyboard focus to the page (a fold button walked while the pass settles). */
  function focusedControl(rows, first) {
    const active = document.activeElement, row = active && rows.contains(active) ? active.closest('.row') : null;
    if (!row) return null;
    return { item: first + Array.prototype.indexOf.call(rows.children, row), control: [...row.querySelectorAll(CONTROLS)].indexOf(active) };
  }

  /** Give the focus back to that control of rebuilt rows, or to the pane when its row is gone. */
  function refocus(rows, first, kept, pane) {
    const row = rows.children[kept.item - first];
    const control = row && kept.control >= 0 ? row.querySelectorAll(CONTROLS)[kept.control] : null;
    (control || pane).focus({ preventScroll: true });
  }

  /** Columns [start, end) of a range of a line (UTF-16 offsets in, display columns out). */
  function columnsOf(text, [s, e]) {
    const start = lineColumns(text.slice(0, s));
    return [start, start + lineColumns(text.slice(s, e))];
  }

  /** An edge marker at height y for a row's changes hidden to the `left` / `right` (column ranges):
   *  a click asks `scrollTo` for the column of the nearest, to the right first. */
  function edgeMarkButton(y, left, right, kind, scrollTo) {
    const where = [left.length ? 'left' : '', right.length ? 'right' : ''].filter(Boolean);
    const mark = el('button', `edge ${where.join(' ')} ${kind}`, `${left.length ? '\u25c2' : ''}${right.length ? '\u25b8' : ''}`);
    mark.type = 'button';
    mark.tabIndex = -1;
    mark.title = `Changed text ${where.map((w) => `to the ${w}`).join(' and ')}: click to scroll to it`;
    mark.style.top = `${y}px`;
    const [c0] = right.length ? right[0] : left[left.length - 1];
    mark.addEventListener('click', () => scrollTo(c0));
    return mark;
  }

  /** The context line's button atop a pane (viewer_paint.js fills it), hidden until a function is in sight. */
  function contextButton() {
    const button = el('button', 'context-line');
    button.type = 'button';
    button.hidden = true;
    return button;
  }

  return { tokenize, paintCode, rowElement, sideOf, el, focusedControl, refocus, edgeMarkButton, columnsOf, contextButton };
})();
