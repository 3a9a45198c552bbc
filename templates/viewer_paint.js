/* pypto-ir-trace viewer, part 2 of 5: the row painter (IRTracePainter).
 * Paints a view's display rows into the Before and After panes: syntax colouring, changed-range
 * emphasis and find hits per line; pane geometry (width, wrapped heights); virtual scrolling (only
 * rows near the viewport are in the DOM); the two panes kept in sync. Text is only ever inserted
 * with textContent: snapshot text is data, never markup. */
const IRTracePainter = (() => {
  'use strict';

  const { EQ, DEL, INS, CHG, FOLD } = IRTraceModel;
  const ROW_HEIGHT = 20;      // px, equals --row-h in viewer.css (virtualisation needs a fixed height)
  const OVERSCAN = 40;        // rows rendered beyond the viewport on each side

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  /* ---------- syntax colouring ---------- */

  // One pass over the line; groups map to classes in CLASS_OF. Only rendered rows are coloured.
  const TOKEN_RE = new RegExp([
    '(#.*)',                                                 // 1 comment
    '("(?:[^"\\\\]|\\\\.)*"?|\'(?:[^\'\\\\]|\\\\.)*\'?)',    // 2 string
    '(@[A-Za-z_][\\w.]*)',                                   // 3 decorator
    '\\b(pl(?:\\.[A-Za-z_]\\w*)+)',                          // 4 pl.xxx
    '\\b(def|class|return|for|in|if|elif|else|while|with|as|import|from|pass|break|continue|and|or|not|is|None|True|False|lambda|yield|assert|del|global|nonlocal|raise|try|except|finally)\\b',  // 5 keyword
    '(?<![\\w.])(0x[0-9a-fA-F]+|\\d+(?:\\.\\d*)?(?:[eE][+-]?\\d+)?)',  // 6 number
    '(?<=\\b(?:def|class) )([A-Za-z_]\\w*)',                 // 7 defined name
  ].join('|'), 'g');
  const CLASS_OF = ['', 't-c', 't-s', 't-d', 't-p', 't-k', 't-n', 't-f'];
  const EMPHASIS = 8, HIT = 16;
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

  /** Fill a code cell with coloured spans, emphasising changed `ranges` and find `hits`. */
  function paintCode(cell, text, ranges, hits) {
    const n = text.length;
    if (!n) return;
    const tokens = tokenize(text);
    if (!tokens.length && !ranges && !(hits && hits.length)) { cell.textContent = text; return; }
    const cls = new Uint8Array(n);
    for (let t = 0; t < tokens.length; t += 3) cls.fill(tokens[t + 2], tokens[t], tokens[t + 1]);
    if (ranges) for (const [s, e] of ranges) for (let i = Math.max(0, s); i < e && i < n; i++) cls[i] |= EMPHASIS;
    if (hits) for (const [s, e] of hits) for (let i = s; i < e; i++) cls[i] |= HIT;
    let start = 0;
    for (let i = 1; i <= n; i++) {
      if (i < n && cls[i] === cls[start]) continue;
      const c = cls[start], piece = text.slice(start, i);
      if (c === 0) cell.appendChild(document.createTextNode(piece));
      else {
        const names = [CLASS_OF[c & 7], c & EMPHASIS ? 'em' : '', c & HIT ? 'hit' : ''].filter(Boolean).join(' ');
        cell.appendChild(el(c & HIT ? 'mark' : 'span', names, piece));
      }
      start = i;
    }
  }

  /** Display width of a line in columns: wide (CJK) characters take two. */
  function lineColumns(line) {
    if (line === undefined) return 0;
    let w = line.length;
    if (/[^\x00-\x7f]/.test(line)) for (const ch of line) if (ch.codePointAt(0) >= 0x1100) w++;
    return w;
  }

  /* ---------- the painter of two panes ---------- */

  /** A painter over two scroll containers (each holding .sizer > .rows); `hits(text)` gives the
   *  find ranges of a line or null. The view it paints: { display, rows, before, after, warnMarks, flash }. */
  function createPainter(beforeScroller, afterScroller, hits) {
    const panes = {
      before: { scroller: beforeScroller, rows: beforeScroller.querySelector('.rows'), side: 'a', expect: null },
      after: { scroller: afterScroller, rows: afterScroller.querySelector('.rows'), side: 'b', expect: null },
    };
    const both = [panes.before, panes.after];
    let leader = panes.after;   // the pane the reader scrolls; the other follows it
    let view = null;
    let wrap = false;
    let rendered = { first: -1, last: -1 };

    /** Paint `nextView` (its display rows already folded); keepScroll leaves the scroll position alone,
     *  otherwise both panes open a few rows above the first change. */
    function show(nextView, { keepScroll = false, wrapLines = wrap } = {}) {
      view = nextView;
      wrap = wrapLines;
      view.wrapFix = new Map();
      // Drop the old rows first: resizing and scrolling then lays out almost nothing.
      for (const p of both) p.rows.textContent = '';
      layoutPanes();
      if (!keepScroll) {
        const first = view.display.findIndex((r) => r.kind !== EQ && r.kind !== FOLD);
        scrollBoth(first > 3 ? rowTop(first - 3) : 0, 0);
      }
      render(true);
    }

    /** Size both panes alike so their scroll ranges match: the widest line sets the width (unless
     *  wrapping), the row heights set the height. */
    function layoutPanes() {
      let chars = 0;
      for (const r of view.rows) {
        if (r.a >= 0 && view.before[r.a].length > chars) chars = Math.max(chars, lineColumns(view.before[r.a]));
        if (r.b >= 0 && view.after[r.b].length > chars) chars = Math.max(chars, lineColumns(view.after[r.b]));
      }
      const digits = String(Math.max(view.before.length, view.after.length)).length;
      for (const p of both) {
        const sizer = p.scroller.firstElementChild;
        p.scroller.classList.toggle('wrap', wrap);
        sizer.style.setProperty('--gutter', `calc(${digits + 2}ch + 12px)`);
        sizer.style.width = wrap ? '' : `calc(${chars + digits + 4}ch + 28px)`;
      }
      view.offsets = wrap ? wrapOffsets(wrapColumns()) : null;
      setHeight();
    }

    function setHeight() {
      const height = `${rowTop(view.display.length)}px`;
      for (const p of both) p.scroller.firstElementChild.style.height = height;
    }

    /** Characters per visual line when wrapping, measured with a hidden probe row in the narrower pane. */
    function wrapColumns() {
      const host = panes.before.scroller.clientWidth <= panes.after.scroller.clientWidth ? panes.before : panes.after;
      const probe = el('div', 'row');
      const code = el('span', 'code');
      const ruler = el('span', '', '0'.repeat(100));
      code.appendChild(ruler);
      probe.append(el('span', 'ln', '0'), el('span', 'mk'), code);
      probe.style.visibility = 'hidden';
      host.rows.appendChild(probe);
      const charWidth = ruler.getBoundingClientRect().width / 100;
      const usable = code.clientWidth - parseFloat(getComputedStyle(code).paddingRight);
      probe.remove();
      return Math.max(8, Math.floor(usable / charWidth));
    }

    /** Row tops when wrapping: on a monospace grid with break-all, a line of n columns takes
     *  ceil(n / cols) visual lines, so heights are known without rendering every row. */
    function wrapOffsets(cols) {
      const display = view.display, n = display.length;
      const offsets = new Float64Array(n + 1);
      for (let i = 0; i < n; i++) {
        const r = display[i];
        let lines = 1;
        if (r.kind !== FOLD) {
          const a = r.a >= 0 ? lineColumns(view.before[r.a]) : 0, b = r.b >= 0 ? lineColumns(view.after[r.b]) : 0;
          lines = Math.max(1, Math.ceil(a / cols), Math.ceil(b / cols));
        }
        offsets[i + 1] = offsets[i] + (view.wrapFix.get(i) || lines * ROW_HEIGHT);
      }
      view.wrapCols = cols;
      return offsets;
    }

    function rowTop(i) {
      return view.offsets ? view.offsets[i] : i * ROW_HEIGHT;
    }

    /** Index of the row at vertical offset y. */
    function rowAt(y) {
      if (!view.offsets) return Math.floor(y / ROW_HEIGHT);
      let lo = 0, hi = view.display.length;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (view.offsets[mid] <= y) lo = mid; else hi = mid - 1;
      }
      return lo;
    }

    /* ---------- rows ---------- */

    function foldElement(item) {
      const row = el('div', 'row fold');
      const count = item.end - item.start;
      const button = el('button', 'fold-btn', `\u22ef ${count} unchanged line${count === 1 ? '' : 's'}`);
      button.type = 'button';
      button.dataset.fold = item.start;
      row.appendChild(button);
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

    function rowElement(item, side) {
      if (item.kind === FOLD) return foldElement(item);
      const line = side === 'a' ? item.a : item.b;
      if (line < 0) {
        const row = el('div', 'row fill');
        row.appendChild(el('span', 'ln'));
        return row;
      }
      let kind = '';
      if (item.kind === DEL || (item.kind === CHG && side === 'a')) kind = 'del';
      else if (item.kind === INS || (item.kind === CHG && side === 'b')) kind = 'ins';
      const row = el('div', kind ? `row ${kind}` : 'row');
      const ln = el('span', 'ln', String(line + 1));
      const warned = side === 'b' && view.warnMarks.get(line);
      if (warned) {
        row.classList.add('warned');
        ln.prepend(warningMarker(warned));
      }
      if (side === 'b' && line === view.flash) row.classList.add('flash');
      row.append(ln, el('span', 'mk', kind === 'del' ? '\u2212' : kind === 'ins' ? '+' : ''));
      const code = el('span', 'code');
      const text = side === 'a' ? view.before[line] : view.after[line];
      paintCode(code, text, item.kind === CHG ? (side === 'a' ? item.ar : item.br) : null, hits(text));
      for (const note of rowNotes(item, side)) code.appendChild(note);
      if ((side === 'a' ? item.moveTo : item.moveFrom) !== undefined) row.classList.add('moved');
      row.appendChild(code);
      return row;
    }

    /** What a changed line says beyond its text (the model's row annotations): moved, with a
     *  button to its other end; no newline at the end of the file; a byte order mark changed. */
    function rowNotes(item, side) {
      const notes = [];
      const other = side === 'a' ? item.moveTo : item.moveFrom;
      if (other !== undefined) {
        const button = el('button', 'note move', `${side === 'a' ? 'moved to' : 'moved from'} line ${other + 1}`);
        button.type = 'button';
        button.addEventListener('click', () => showLine(side === 'a' ? 'b' : 'a', other));
        notes.push(button);
      }
      if (side === 'a' ? item.noEolA : item.noEolB) notes.push(el('span', 'note', 'No newline at end of file'));
      const line = side === 'a' ? item.a : item.b;
      if (item.bom && line === 0 && item.bom[side === 'a' ? 0 : 1]) {
        notes.push(el('span', 'note', side === 'a' ? 'byte order mark removed' : 'byte order mark added'));
      }
      return notes;
    }

    /** Scroll to the display row holding `line` of side 'a' (Before) or 'b' (After). */
    function showLine(side, line) {
      const i = view.display.findIndex((r) => (side === 'a' ? r.a : r.b) === line);
      if (i >= 0) scrollToRow(i);
    }

    /** Render the rows near the viewport into both panes, skipping the work while they cover it. */
    function render(force) {
      if (!view) return;
      const total = view.display.length;
      const sc = leader.scroller;
      const height = Math.max(sc.clientHeight, panes.after.scroller.clientHeight, ROW_HEIGHT);
      const top = rowAt(sc.scrollTop), bottom = rowAt(sc.scrollTop + height) + 1;
      if (!force && top >= rendered.first && bottom <= rendered.last) return;
      const first = Math.max(0, top - OVERSCAN), last = Math.min(total, bottom + OVERSCAN);
      rendered = { first, last };
      for (const p of both) {
        const fragment = document.createDocumentFragment();
        for (let i = first; i < last; i++) {
          const row = rowElement(view.display[i], p.side);
          if (view.offsets) row.style.height = `${rowTop(i + 1) - rowTop(i)}px`;
          fragment.appendChild(row);
        }
        p.rows.textContent = '';
        p.rows.appendChild(fragment);
        p.rows.style.transform = `translateY(${rowTop(first)}px)`;
      }
      if (view.offsets && fixWrapHeights(first)) render(true);
    }

    /** The predicted wrapped heights can fall short (odd glyph widths); grow those rows once. */
    function fixWrapHeights(first) {
      const a = panes.before.rows.children, b = panes.after.rows.children;
      let grew = false;
      for (let i = 0; i < a.length; i++) {
        const need = Math.max(a[i].lastChild.offsetHeight, b[i].lastChild.offsetHeight);
        const has = rowTop(first + i + 1) - rowTop(first + i);
        if (need > has + 1 && !view.wrapFix.has(first + i)) {
          view.wrapFix.set(first + i, Math.ceil(need / ROW_HEIGHT) * ROW_HEIGHT);
          grew = true;
        }
      }
      if (grew) {
        view.offsets = wrapOffsets(view.wrapCols);
        setHeight();
      }
      return grew;
    }

    /** Put display row i a third of the way down the After pane (and the Before pane alike). */
    function scrollToRow(i) {
      const sc = panes.after.scroller;
      scrollBoth(Math.max(0, rowTop(i) - Math.floor(sc.clientHeight / 3)), sc.scrollLeft);
      render(true);
    }

    /* ---------- scrolling in sync ---------- */

    // One pane leads, the other follows with instant positioning. A follower's own scroll event
    // that lands where it was put is the echo and is ignored: writing it back to the leader would
    // cancel the leader's smooth scroll (keys, wheel, scrollBy) a few pixels into it.
    const ECHO_SLACK = 1.5;     // px: fractional offsets of a smooth scroll round on assignment

    function follow(p, top, left) {
      p.scroller.scrollTop = top;
      p.scroller.scrollLeft = left;
      p.expect = { top: p.scroller.scrollTop, left: p.scroller.scrollLeft };
    }

    function isEcho(p) {
      const e = p.expect, s = p.scroller;
      return e !== null && Math.abs(s.scrollTop - e.top) < ECHO_SLACK && Math.abs(s.scrollLeft - e.left) < ECHO_SLACK;
    }

    let renderQueued = false;
    function onScroll(source, other) {
      if (!isEcho(source)) {
        source.expect = null;   // a scroll of its own: this pane leads now
        leader = source;
        const s = source.scroller;
        if (Math.abs(other.scroller.scrollTop - s.scrollTop) >= 1 || Math.abs(other.scroller.scrollLeft - s.scrollLeft) >= 1) {
          follow(other, s.scrollTop, s.scrollLeft);
        }
      }
      if (renderQueued) return;
      renderQueued = true;
      requestAnimationFrame(() => { renderQueued = false; render(false); });
    }

    /** Position both panes at once (no smooth scrolling, no sync round trip). */
    function scrollBoth(top, left) {
      for (const p of both) follow(p, top, left);
    }
    panes.before.scroller.addEventListener('scroll', () => onScroll(panes.before, panes.after), { passive: true });
    panes.after.scroller.addEventListener('scroll', () => onScroll(panes.after, panes.before), { passive: true });

    /** The window changed size: wrapped heights depend on the pane width. */
    function resize() {
      if (!view) return;
      if (wrap) show(view, { keepScroll: true }); else render(false);
    }

    return { panes, show, render, resize, rowTop, scrollToRow, get wrap() { return wrap; } };
  }

  return { ROW_HEIGHT, createPainter, paintCode, tokenize, lineColumns };
})();
