/* pypto-ir-trace viewer.
 * Builds every diff row in the browser from the payload (schema 1, see ir_trace/payload.py).
 * Snapshots are rebuilt lazily by replaying hunks; only rows near the viewport are in the DOM.
 * Data is only ever inserted with textContent: snapshot text is data, never markup. */
(() => {
  'use strict';

  /** The payload travels gzip-compressed and base64-encoded in an inert script element
   *  (reports shrink about tenfold); the browser inflates it with its own DecompressionStream. */
  async function loadPayload() {
    const encoded = document.getElementById('ir-trace-data').textContent.trim();
    const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return JSON.parse(await new Response(stream).text());
  }

  function showLoadError(error) {
    const note = document.createElement('p');
    note.className = 'load-error';
    note.textContent = `This report could not be read: ${error}`;
    document.body.prepend(note);
  }

  function startViewer(payload) {
    const ROW_HEIGHT = 20;      // px, equals --row-h in viewer.css (virtualisation needs a fixed height)
    const OVERSCAN = 40;        // rows rendered beyond the viewport on each side
    const EQ = 0, DEL = 1, INS = 2, CHG = 3;
    const FOLD = 'fold';

    const passes = payload.passes;
    const lastPass = passes.length - 1;
    const context = Math.max(0, payload.context | 0);

    // Timing hooks for benchmarks/browser_bench.py; harmless otherwise.
    const trace = { firstDiffPainted: null, switches: [], expands: [] };
    window.__irTrace = trace;

    const $ = (id) => document.getElementById(id);
    function el(tag, className, text) {
      const node = document.createElement(tag);
      if (className) node.className = className;
      if (text != null) node.textContent = text;
      return node;
    }

    /* ---------- snapshots ---------- */

    const snapshotCache = [passes[0].lines];

    /** Lines of snapshot k, replaying hunks from the nearest snapshot already built. */
    function snapshotLines(k) {
      let j = k;
      while (!snapshotCache[j]) j--;
      for (j++; j <= k; j++) snapshotCache[j] = applyHunks(snapshotCache[j - 1], passes[j].hunks);
      return snapshotCache[k];
    }

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

    function snapshotText(k) {
      return snapshotLines(k).join('\n') + (passes[k].eol ? '\n' : '');
    }

    /** Function index of snapshot k; an unchanged snapshot omits it and reuses the previous one. */
    function functionIndex(k) {
      for (let j = k; j >= 0; j--) {
        if ('functions' in passes[j]) return { list: passes[j].functions, error: passes[j].parse_error || null };
      }
      return { list: null, error: 'no function index in the report' };
    }

    /* ---------- row model ---------- */

    const alignedCache = new Map();

    /** Side-by-side rows for pass k: equal lines, paired edits, unpaired deletions then insertions. */
    function alignedRows(k) {
      if (alignedCache.has(k)) return alignedCache.get(k);
      const rows = [];
      const beforeCount = snapshotLines(k - 1).length;
      let a = 0, b = 0;
      for (const [a0, a1, , b1, , pairs] of passes[k].hunks || []) {
        while (a < a0) rows.push({ kind: EQ, a: a++, b: b++ });
        for (const [ai, bi, ar, br] of pairs || []) {
          while (a < ai) rows.push({ kind: DEL, a: a++, b: -1 });
          while (b < bi) rows.push({ kind: INS, a: -1, b: b++ });
          rows.push({ kind: CHG, a: a++, b: b++, ar, br });
        }
        while (a < a1) rows.push({ kind: DEL, a: a++, b: -1 });
        while (b < b1) rows.push({ kind: INS, a: -1, b: b++ });
      }
      while (a < beforeCount) rows.push({ kind: EQ, a: a++, b: b++ });
      if (alignedCache.size > 12) alignedCache.delete(alignedCache.keys().next().value);
      alignedCache.set(k, rows);
      return rows;
    }

    /** Function choices for pass k: the union of both sides, or the reason none can be offered. */
    function functionChoices(k) {
      const before = functionIndex(k - 1), after = functionIndex(k);
      if (!after.list || !before.list) {
        const side = !after.list ? 'after' : 'before';
        const reason = (!after.list ? after.error : before.error) || 'it cannot be parsed safely';
        return { choices: [], error: `Function view unavailable: the ${side} snapshot cannot be sliced (${reason}).` };
      }
      const byKey = new Map();
      for (const [key, start, end] of after.list) byKey.set(key, { key, a: null, b: [start, end] });
      for (const [key, start, end] of before.list) {
        if (byKey.has(key)) byKey.get(key).a = [start, end];
        else byKey.set(key, { key, a: [start, end], b: null });
      }
      const choices = [...byKey.values()];
      const shortCount = new Map();
      for (const c of choices) {
        c.short = c.key.slice(c.key.lastIndexOf('.') + 1);
        shortCount.set(c.short, (shortCount.get(c.short) || 0) + 1);
      }
      for (const c of choices) {
        c.label = shortCount.get(c.short) > 1 ? c.key : c.short;
        if (!c.a) c.label += ' (added)';
        if (!c.b) c.label += ' (deleted)';
      }
      return { choices, error: null };
    }

    /** Rows of the current pass restricted to one function's line ranges on each side.
     *  A function on one side only reads as wholly inserted / deleted, whatever the line diff paired. */
    function restrictRows(rows, choice) {
      if (!choice) return rows;
      if (!choice.a || !choice.b) {
        const [start, end] = choice.a || choice.b, kind = choice.a ? DEL : INS, out = [];
        for (let i = start; i < end; i++) out.push(kind === DEL ? { kind, a: i, b: -1 } : { kind, a: -1, b: i });
        return out;
      }
      const [as, ae] = choice.a || [0, 0], [bs, be] = choice.b || [0, 0];
      return rows.filter((r) => (r.a >= as && r.a < ae) || (r.b >= bs && r.b < be));
    }

    /** Fold unchanged runs, keeping `context` rows next to each change; expanded folds stay open. */
    function foldRows(rows, expanded, expandAll) {
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
    const EMPHASIS = 8;
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

    /** Fill a code cell with coloured spans, emphasising the changed character ranges. */
    function paintCode(cell, text, ranges) {
      const n = text.length;
      if (!n) return;
      const tokens = tokenize(text);
      if (!tokens.length && !ranges) { cell.textContent = text; return; }
      const cls = new Uint8Array(n);
      for (let t = 0; t < tokens.length; t += 3) cls.fill(tokens[t + 2], tokens[t], tokens[t + 1]);
      if (ranges) for (const [s, e] of ranges) for (let i = Math.max(0, s); i < e && i < n; i++) cls[i] |= EMPHASIS;
      let start = 0;
      for (let i = 1; i <= n; i++) {
        if (i < n && cls[i] === cls[start]) continue;
        const c = cls[start], piece = text.slice(start, i);
        if (c === 0) cell.appendChild(document.createTextNode(piece));
        else cell.appendChild(el('span', [CLASS_OF[c & 7], c & EMPHASIS ? 'em' : ''].join(' ').trim(), piece));
        start = i;
      }
    }

    /* ---------- state ---------- */

    const state = {
      sel: 0,                   // position in passes of the selected pass (0 = none yet)
      fn: '',                   // '' = whole file, else a function key
      layout: 'side',
      wrap: false,
      expandAll: false,
      expanded: new Set(),      // fold starts opened by a click, for the current view only
      showChanged: true,
      showNoop: true,
      query: '',
    };
    let view = null;            // { choices, choice, rows, display, before, after, width, gutter }
    let rendered = { first: -1, last: -1 };

    const panes = {
      before: { scroller: $('scroll-before'), rows: null, side: 'a' },
      after: { scroller: $('scroll-after'), rows: null, side: 'b' },
    };
    for (const p of Object.values(panes)) p.rows = p.scroller.querySelector('.rows');

    /* ---------- sidebar ---------- */

    const passButtons = [];     // by pass position k (1..last)

    function statsNode(p) {
      const node = el('span', 'stats');
      node.append(el('span', 'plus', `+${p.inserted}`), ' ', el('span', 'minus', `\u2212${p.deleted}`));
      return node;
    }

    function buildSidebar() {
      const list = $('pass-list');
      for (let k = 1; k <= lastPass; k++) {
        const p = passes[k];
        const button = el('button', p.changed ? 'pass-btn' : 'pass-btn noop');
        button.type = 'button';
        button.dataset.k = k;
        button.title = p.file;
        button.append(el('span', 'idx', String(p.index)), ' ', el('span', 'name', p.name), ' ', statsNode(p));
        const badges = el('span', 'badges');
        if (p.log) badges.append(' ', el('span', 'badge warn', 'warning'));
        if (!p.changed) badges.append(' ', el('span', 'badge noop', 'no-op'));
        if (badges.childElementCount) button.append(badges);
        // Two badges do not fit beside a long name: they move to a second line.
        if (badges.childElementCount > 1) button.classList.add('badges-below');
        button.addEventListener('click', () => selectPass(k));
        const item = el('li');
        item.appendChild(button);
        list.appendChild(item);
        passButtons[k] = button;
      }
      const changed = passes.slice(1).filter((p) => p.changed).length;
      $('report-sub').textContent = `${lastPass} passes \u00b7 ${changed} changed \u00b7 ${lastPass - changed} no-op`;
    }

    function isVisible(k) {
      const p = passes[k];
      if (p.changed ? !state.showChanged : !state.showNoop) return false;
      return !state.query || p.name.toLowerCase().includes(state.query);
    }

    function visiblePasses() {
      const out = [];
      for (let k = 1; k <= lastPass; k++) if (isVisible(k)) out.push(k);
      return out;
    }

    /** Apply the filters; a filtered-out selection moves to the nearest visible pass. */
    function applyFilters() {
      const visible = visiblePasses();
      for (let k = 1; k <= lastPass; k++) passButtons[k].parentElement.hidden = !visible.includes(k);
      $('pass-empty').hidden = visible.length > 0;
      if (visible.length && !visible.includes(state.sel)) {
        let best = visible[0];
        for (const k of visible) if (Math.abs(k - state.sel) < Math.abs(best - state.sel)) best = k;
        selectPass(best);
      }
    }

    function stepPass(delta) {
      if (lastPass < 1) return;
      const visible = visiblePasses();
      if (!visible.length) return;
      let target;
      if (delta > 0) target = visible.find((k) => k > state.sel);
      else target = [...visible].reverse().find((k) => k < state.sel);
      if (target === undefined) return;
      const focusInNav = document.activeElement && document.activeElement.classList.contains('pass-btn');
      selectPass(target);
      if (focusInNav) passButtons[target].focus();
    }

    /* ---------- overview strip ---------- */

    const bars = [];

    function buildOverview() {
      const strip = $('overview');
      let max = 1;
      for (let k = 1; k <= lastPass; k++) max = Math.max(max, passes[k].inserted + passes[k].deleted);
      const scale = Math.log1p(max);
      for (let k = 1; k <= lastPass; k++) {
        const p = passes[k];
        const bar = el('button', `bar${p.changed ? '' : ' noop'}${p.log ? ' warn' : ''}`);
        bar.type = 'button';
        bar.tabIndex = -1;
        bar.setAttribute('aria-label', `Pass ${p.index} ${p.name}`);
        bar.title = `${p.index} ${p.name}: +${p.inserted} \u2212${p.deleted}${p.log ? ', warnings' : ''}`;
        const fill = el('span', 'fill');
        const changed = p.inserted + p.deleted;
        fill.style.height = p.changed ? `${Math.max(12, (100 * Math.log1p(changed)) / scale)}%` : '2px';
        bar.appendChild(fill);
        bar.addEventListener('click', () => selectPass(k));
        bar.addEventListener('keydown', (event) => {
          const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
          if (!delta || k + delta < 1 || k + delta > lastPass) return;
          event.preventDefault();
          selectPass(k + delta);
          bars[k + delta].focus();
        });
        strip.appendChild(bar);
        bars[k] = bar;
      }
    }

    /* ---------- selecting a pass ---------- */

    /** Show pass k. keep: 'both' keeps the function only if it exists on both sides (pass switch),
     *  'either' keeps it if it exists at all (deep links, the select itself). */
    function selectPass(k, { keep = 'both', initial = false } = {}) {
      const started = performance.now();
      if (k < 1 || k > lastPass) return;
      const switched = k !== state.sel;
      if (switched) { state.expandAll = false; state.expanded.clear(); }
      state.sel = k;
      markSelected(k);
      showPassHeader(k);
      showWarnings(k);
      buildView(keep);
      updateHash();
      if (switched && !initial) afterPaint((t) => trace.switches.push(t - started));
    }

    function markSelected(k) {
      for (let j = 1; j <= lastPass; j++) {
        const on = j === k;
        if (on) passButtons[j].setAttribute('aria-current', 'true');
        else passButtons[j].removeAttribute('aria-current');
        bars[j].classList.toggle('selected', on);
        bars[j].tabIndex = on ? 0 : -1;
      }
      if (!passButtons[k].parentElement.hidden) passButtons[k].scrollIntoView({ block: 'nearest' });
    }

    function showPassHeader(k) {
      const p = passes[k], prev = passes[k - 1];
      const title = $('pass-title');
      title.textContent = '';
      title.append(el('span', 'idx', String(p.index)), p.name, statsNode(p));
      $('file-before').textContent = prev.file;
      $('file-after').textContent = p.file;
      const note = $('view-note');
      note.hidden = p.changed;
      note.textContent = p.changed ? '' : 'This pass changed nothing: its snapshot equals the previous one.';
    }

    function showWarnings(k) {
      const p = passes[k];
      $('warnings').hidden = !p.log;
      $('warnings-title').textContent = p.log_file ? `Warnings \u00b7 ${p.log_file}` : 'Warnings';
      $('warnings-text').textContent = p.log || '';
    }

    /* ---------- function select ---------- */

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

    /** Rebuild the row model of the current pass and function, then render. */
    function buildView(keep = 'both') {
      const k = state.sel;
      const { choices, error } = functionChoices(k);
      let choice = state.fn ? choices.find((c) => c.key === state.fn) || null : null;
      if (choice && keep === 'both' && !(choice.a && choice.b)) choice = null;
      if (!choice) state.fn = '';
      fillFunctionSelect(choices, error);
      view = {
        choice,
        rows: restrictRows(alignedRows(k), choice),
        before: snapshotLines(k - 1),
        after: snapshotLines(k),
      };
      refreshDisplay(false);
    }

    /** Recompute folding and the pane geometry; keepScroll leaves the scroll position alone. */
    function refreshDisplay(keepScroll) {
      view.display = foldRows(view.rows, state.expanded, state.expandAll);
      view.wrapFix = new Map();
      // Drop the old rows first: resizing and scrolling then lays out almost nothing.
      for (const p of Object.values(panes)) p.rows.textContent = '';
      layoutPanes();
      if (!keepScroll) {
        const first = view.display.findIndex((r) => r.kind !== EQ && r.kind !== FOLD);
        const top = first > 3 ? rowTop(first - 3) : 0;
        for (const p of Object.values(panes)) { p.scroller.scrollTop = top; p.scroller.scrollLeft = 0; }
      }
      renderRows(true);
    }

    /** Display width of a line in columns: wide (CJK) characters take two. */
    function lineColumns(line) {
      if (line === undefined) return 0;
      let w = line.length;
      if (/[^\x00-\x7f]/.test(line)) for (const ch of line) if (ch.codePointAt(0) >= 0x1100) w++;
      return w;
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
      for (const p of Object.values(panes)) {
        const sizer = p.scroller.firstElementChild;
        p.scroller.classList.toggle('wrap', state.wrap);
        sizer.style.setProperty('--gutter', `calc(${digits + 1}ch + 12px)`);
        sizer.style.width = state.wrap ? '' : `calc(${chars + digits + 4}ch + 28px)`;
      }
      view.offsets = state.wrap ? wrapOffsets(wrapColumns()) : null;
      const height = `${rowTop(view.display.length)}px`;
      for (const p of Object.values(panes)) p.scroller.firstElementChild.style.height = height;
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

    /* ---------- rendering ---------- */

    function rowElement(item, side) {
      if (item.kind === FOLD) {
        const row = el('div', 'row fold');
        const count = item.end - item.start;
        const button = el('button', 'fold-btn', `\u22ef ${count} unchanged line${count === 1 ? '' : 's'}`);
        button.type = 'button';
        button.dataset.fold = item.start;
        row.appendChild(button);
        return row;
      }
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
      row.append(el('span', 'ln', String(line + 1)), el('span', 'mk', kind === 'del' ? '\u2212' : kind === 'ins' ? '+' : ''));
      const code = el('span', 'code');
      paintCode(code, side === 'a' ? view.before[line] : view.after[line], item.kind === CHG ? (side === 'a' ? item.ar : item.br) : null);
      row.appendChild(code);
      return row;
    }

    /** Render the rows near the viewport into both panes, skipping the work while they cover it. */
    function renderRows(force) {
      const total = view.display.length;
      const sc = panes.before.scroller;
      const height = Math.max(sc.clientHeight, panes.after.scroller.clientHeight, ROW_HEIGHT);
      const top = rowAt(sc.scrollTop), bottom = rowAt(sc.scrollTop + height) + 1;
      if (!force && top >= rendered.first && bottom <= rendered.last) return;
      const first = Math.max(0, top - OVERSCAN), last = Math.min(total, bottom + OVERSCAN);
      rendered = { first, last };
      for (const p of Object.values(panes)) {
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
      if (view.offsets && fixWrapHeights(first)) renderRows(true);
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
        const height = `${rowTop(view.display.length)}px`;
        for (const p of Object.values(panes)) p.scroller.firstElementChild.style.height = height;
      }
      return grew;
    }

    /** Call back with performance.now() once the current DOM has been painted. */
    function afterPaint(callback) {
      requestAnimationFrame(() => setTimeout(() => callback(performance.now()), 0));
    }

    /* ---------- scrolling in sync ---------- */

    let renderQueued = false;
    function onScroll(source, other) {
      if (other.scroller.scrollTop !== source.scroller.scrollTop) other.scroller.scrollTop = source.scroller.scrollTop;
      if (other.scroller.scrollLeft !== source.scroller.scrollLeft) other.scroller.scrollLeft = source.scroller.scrollLeft;
      if (renderQueued) return;
      renderQueued = true;
      requestAnimationFrame(() => { renderQueued = false; renderRows(false); });
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

    function wireCopy(buttonId, feedbackId, snapshotOf) {
      let timer = 0;
      $(buttonId).addEventListener('click', async () => {
        const ok = await copyText(snapshotText(snapshotOf()));
        const feedback = $(feedbackId);
        feedback.textContent = ok ? 'Copied' : 'Copy failed';
        clearTimeout(timer);
        timer = setTimeout(() => { feedback.textContent = ''; }, 1600);
      });
    }

    /* ---------- layout, wrap, theme, help ---------- */

    function setLayout(layout) {
      state.layout = layout === 'stacked' ? 'stacked' : 'side';
      const stacked = state.layout === 'stacked';
      $('panes').className = `panes ${stacked ? 'stacked' : 'side'}`;
      $('layout-side').setAttribute('aria-pressed', String(!stacked));
      $('layout-stacked').setAttribute('aria-pressed', String(stacked));
      if (view) {
        if (state.wrap) refreshDisplay(true); else renderRows(true);
        updateHash();
      }
    }

    function setWrap(wrap) {
      state.wrap = wrap;
      $('wrap-toggle').setAttribute('aria-pressed', String(wrap));
      refreshDisplay(false);
    }

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

    /* ---------- deep links ---------- */

    function updateHash() {
      const params = new URLSearchParams();
      params.set('pass', String(passes[state.sel].index));
      if (state.fn) params.set('fn', state.fn);
      params.set('layout', state.layout);
      const hash = `#${params.toString()}`;
      if (location.hash !== hash) history.replaceState(null, '', hash);
    }

    /** Restore pass, function and layout from #pass=12&fn=Program.kernel&layout=stacked. */
    function applyHash() {
      const params = new URLSearchParams(location.hash.slice(1));
      if (params.has('layout')) setLayout(params.get('layout'));
      const index = Number(params.get('pass'));
      const k = params.has('pass') ? passes.findIndex((p, i) => i > 0 && p.index === index) : -1;
      if (k < 1) return false;
      state.fn = params.get('fn') || '';
      state.sel = 0;          // force a full rebuild even when the pass is unchanged
      selectPass(k, { keep: 'either', initial: true });
      return true;
    }

    /* ---------- keyboard ---------- */

    function isTyping(target) {
      if (!target || !target.tagName) return false;
      if (target.isContentEditable || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA') return true;
      return target.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
    }

    function onKeyDown(event) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (!$('help').hidden) {
        // Modal: Close is its only control, so focus stays there.
        if (event.key === 'Escape' || event.key === '?') { event.preventDefault(); closeHelp(); }
        else if (event.key === 'Tab') { event.preventDefault(); $('help-close').focus(); }
        return;
      }
      if (isTyping(event.target)) {
        if (event.key === 'Escape' && event.target.id === 'filter-text') event.target.blur();
        return;
      }
      switch (event.key) {
        case 'j': case 'ArrowDown': event.preventDefault(); stepPass(1); break;
        case 'k': case 'ArrowUp': event.preventDefault(); stepPass(-1); break;
        case '?': event.preventDefault(); openHelp(); break;
        case '/': event.preventDefault(); $('filter-text').focus(); break;
        default:
      }
    }

    /* ---------- wiring ---------- */

    function wireControls() {
      $('filter-changed').addEventListener('change', (e) => { state.showChanged = e.target.checked; applyFilters(); });
      $('filter-noop').addEventListener('change', (e) => { state.showNoop = e.target.checked; applyFilters(); });
      $('filter-text').addEventListener('input', (e) => { state.query = e.target.value.trim().toLowerCase(); applyFilters(); });
      $('fn-select').addEventListener('change', (e) => {
        state.fn = e.target.value;
        state.expandAll = false;
        state.expanded.clear();
        buildView('either');
        updateHash();
      });
      $('layout-side').addEventListener('click', () => setLayout('side'));
      $('layout-stacked').addEventListener('click', () => setLayout('stacked'));
      $('wrap-toggle').addEventListener('click', () => setWrap(!state.wrap));
      $('expand-all').addEventListener('click', () => {
        const started = performance.now();
        state.expandAll = true;
        refreshDisplay(true);
        afterPaint((t) => trace.expands.push(t - started));
      });
      $('collapse-all').addEventListener('click', () => {
        state.expandAll = false;
        state.expanded.clear();
        refreshDisplay(true);
      });
      for (const p of Object.values(panes)) {
        p.rows.addEventListener('click', (event) => {
          const button = event.target.closest('.fold-btn');
          if (!button) return;
          state.expanded.add(Number(button.dataset.fold));
          refreshDisplay(true);
        });
      }
      panes.before.scroller.addEventListener('scroll', () => onScroll(panes.before, panes.after), { passive: true });
      panes.after.scroller.addEventListener('scroll', () => onScroll(panes.after, panes.before), { passive: true });
      window.addEventListener('resize', () => view && (state.wrap ? refreshDisplay(true) : renderRows(false)));
      wireCopy('copy-before', 'copied-before', () => state.sel - 1);
      wireCopy('copy-after', 'copied-after', () => state.sel);
      window.addEventListener('hashchange', applyHash);
    }

    /** Controls that work even when the dump has no pass to show. */
    function wireGlobalControls() {
      $('theme-toggle').addEventListener('click', () => setTheme(document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark'));
      $('help-open').addEventListener('click', openHelp);
      $('help-close').addEventListener('click', closeHelp);
      $('help').addEventListener('click', (event) => { if (event.target.id === 'help') closeHelp(); });
      document.addEventListener('keydown', onKeyDown);
    }

    function showLevelBanner() {
      if (payload.level !== 'CONCISE') return;
      const banner = $('level-banner');
      banner.hidden = false;
      banner.textContent = 'CONCISE dump: tile layouts and distributed window buffers are implicit at this dump level, ' +
        'so layout changes cannot appear in its diff \u2014 re-dump with PassDumpLevel.EXPLICIT to see them.';
    }

    function init() {
      setTheme(window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
      showLevelBanner();
      wireGlobalControls();
      if (lastPass < 1) {
        for (const id of ['toolbar', 'overview', 'panes', 'filters', 'filter-text']) $(id).hidden = true;
        $('only-frontend').hidden = false;
        $('pass-empty').hidden = false;
        $('pass-empty').textContent = 'No pass snapshot exists.';
        $('report-sub').textContent = '0 passes';
        return;
      }
      buildSidebar();
      buildOverview();
      wireControls();
      if (!applyHash()) {
        const firstChanged = passes.findIndex((p, i) => i > 0 && p.changed);
        selectPass(firstChanged > 0 ? firstChanged : 1, { initial: true });
      }
      afterPaint((t) => { trace.firstDiffPainted = t; });
    }

    window.__irTrace.payload = payload;
    init();
  }

  loadPayload().then(startViewer, showLoadError);
})();
