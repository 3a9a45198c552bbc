/* pypto-ir-trace viewer.
 * Builds every diff row in the browser from the payload (schema 1, see ir_trace/payload.py; the
 * run-against-run form is ir_trace/compare.py). Snapshots are rebuilt lazily by replaying hunks;
 * only rows near the viewport are in the DOM. A diff between two snapshots the payload does not
 * pair (Compare with) comes from linediff.js (IRTraceDiff), inlined just before this script.
 * Data is only ever inserted with textContent: snapshot text is data, never markup. */
(() => {
  'use strict';

  const { diffSnapshots } = IRTraceDiff;

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

  /* ================= warnings in .log files ================= */

  // passes_dump/NN_after_X.py:LINE:COL: warning: MESSAGE [Check]   (the compiler's formatter)
  const WARNING_LINE = /^\s*(\S*?\.py):(\d+)(?::(\d+))?:\s*warning:\s*(.*?)\s*$/;
  // warning: NN_after_X.py:LINE: MESSAGE                           (an older form)
  const WARNING_LINE_OLD = /^\s*warning:\s*(\S*?\.py):(\d+)(?::(\d+))?:\s*(.*?)\s*$/;
  const CHECK_SUFFIX = /^(.*?)\s*\[([^\][]+)\]$/;

  /** Warnings of one log: { file, line (1-based), col, message, check, key }. */
  function parseWarnings(log) {
    const found = [];
    for (const text of log.split('\n')) {
      const m = WARNING_LINE.exec(text) || WARNING_LINE_OLD.exec(text);
      if (!m) continue;
      const c = CHECK_SUFFIX.exec(m[4]);
      const message = c ? c[1] : m[4], check = c ? c[2] : '';
      found.push({
        file: m[1].slice(m[1].lastIndexOf('/') + 1), line: Number(m[2]), col: m[3] ? Number(m[3]) : null,
        message, check, key: `${check}\u0000${message}`, text: text.trim(),
      });
    }
    return found;
  }

  /* ================= the viewer ================= */

  function startViewer(payload) {
    const ROW_HEIGHT = 20;      // px, equals --row-h in viewer.css (virtualisation needs a fixed height)
    const OVERSCAN = 40;        // rows rendered beyond the viewport on each side
    const EQ = 0, DEL = 1, INS = 2, CHG = 3;
    const FOLD = 'fold';
    const against = payload.mode === 'against';
    const context = Math.max(0, payload.context | 0);

    // Timing hooks for benchmarks/browser_bench.py; harmless otherwise.
    const trace = { firstDiffPainted: null, switches: [], expands: [], finds: [] };
    window.__irTrace = trace;

    const $ = (id) => document.getElementById(id);
    function el(tag, className, text) {
      const node = document.createElement(tag);
      if (className) node.className = className;
      if (text != null) node.textContent = text;
      return node;
    }

    /* ---------- runs: snapshots, function indexes, warnings ---------- */

    const lineIds = new Map();  // line text -> small integer, shared by every snapshot of every run

    function makeRun(data, label) {
      const passes = data.passes;
      const cache = [passes[0].lines], idsCache = [], warnCache = [], parsedCache = [];

      /** Lines of snapshot k, replaying hunks from the nearest snapshot already built. */
      function lines(k) {
        let j = k;
        while (!cache[j]) j--;
        for (j++; j <= k; j++) cache[j] = applyHunks(cache[j - 1], passes[j].hunks);
        return cache[k];
      }

      /** Function index of snapshot k; an unchanged snapshot omits it and reuses the previous one. */
      function fns(k) {
        for (let j = k; j >= 0; j--) {
          if ('functions' in passes[j]) return { list: passes[j].functions, error: passes[j].parse_error || null };
        }
        return { list: null, error: 'no function index in the report' };
      }

      /** Interned line ids (a last line without "\n" differs from the same line with one). */
      function ids(k) {
        if (idsCache[k]) return idsCache[k];
        const ls = lines(k), out = new Int32Array(ls.length);
        for (let i = 0; i < ls.length; i++) {
          const key = i === ls.length - 1 && !passes[k].eol ? `${ls[i]}\u0000no newline` : ls[i];
          let id = lineIds.get(key);
          if (id === undefined) lineIds.set(key, (id = lineIds.size));
          out[i] = id;
        }
        return (idsCache[k] = out);
      }

      function parsed(k) {
        if (!parsedCache[k]) parsedCache[k] = passes[k].log ? parseWarnings(passes[k].log) : [];
        return parsedCache[k];
      }

      /** Warnings of pass k, each marked carried when pass k-1 raised the same check and message,
       *  and linked when it points into snapshot k itself. */
      function warnings(k) {
        if (warnCache[k]) return warnCache[k];
        const before = new Set(k > 0 ? parsed(k - 1).map((w) => w.key) : []);
        const list = parsed(k).map((w) => ({ ...w, carried: before.has(w.key), linked: w.file === passes[k].file && w.line >= 1 }));
        return (warnCache[k] = list);
      }

      return {
        data, passes, label, last: passes.length - 1, lines, fns, ids, warnings,
        text: (k) => lines(k).join('\n') + (passes[k].eol ? '\n' : ''),
        snapshot: (k) => ({ lines: lines(k), ids: ids(k), fns: fns(k).list }),
      };
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

    const runs = against ? payload.runs.map((r, i) => makeRun(r, i ? 'B' : 'A')) : [makeRun(payload, '')];
    const main = runs[0];

    /* ---------- entries: the sidebar's items ---------- */

    const pad = (index) => String(index).padStart(2, '0');

    /** One sidebar item: a pass (its own diff), or in run-against-run mode a matched pass. */
    const entries = [];
    if (!against) {
      for (let k = 1; k <= main.last; k++) {
        const p = main.passes[k];
        entries[k] = {
          k, index: p.index, name: p.name, title: p.file, changed: p.changed, inserted: p.inserted,
          deleted: p.deleted, log: { run: 0, pos: k }, badges: p.changed ? [] : [['noop', 'no-op']],
          history: () => passSpec(0, k),
        };
      }
    } else {
      payload.matches.forEach((m, k) => {
        const pa = m.a != null ? runs[0].passes[m.a] : null, pb = m.b != null ? runs[1].passes[m.b] : null;
        const both = pa && pb;
        const badges = [];
        if (m.status === 'renamed') badges.push(['renamed', 'renamed']);
        if (m.status === 'only-a') badges.push(['only', 'only in A']);
        else if (m.status === 'only-b') badges.push(['only', 'only in B']);
        else badges.push(m.differs ? ['differs', 'differs'] : ['noop', 'same']);
        // Passes sit at different positions once a run inserts or drops one: show both indices then.
        const label = !pb ? `A${pa.index}` : !pa ? `B${pb.index}` : pa.index === pb.index ? String(pa.index) : `${pa.index}/${pb.index}`;
        entries[k] = {
          k, match: m, index: (pa || pb).index, label,
          name: m.status === 'renamed' ? `${pa.name} \u2192 ${pb.name}` : (pa || pb).name,
          title: [pa && `A: ${pa.file}`, pb && `B: ${pb.file}`].filter(Boolean).join(' \u00b7 '),
          changed: m.differs, inserted: both ? m.inserted : null, deleted: both ? m.deleted : null,
          log: pb ? { run: 1, pos: m.b } : { run: 0, pos: m.a }, badges,
          history: () => (both ? crossSpec(k) : null),
        };
      });
    }
    const firstEntry = against ? 0 : 1;
    const lastEntry = entries.length - 1;

    /* ---------- diff specs: which two snapshots a view compares ---------- */

    const specCache = new Map();

    /** Run r's own pass k: snapshot k-1 -> k, hunks from the payload. */
    function passSpec(r, k) {
      return { key: `${r}:${k - 1}>${r}:${k}`, before: { run: r, pos: k - 1 }, after: { run: r, pos: k }, hunks: runs[r].passes[k].hunks || [] };
    }

    /** Run A's snapshot against run B's at one matched pass, hunks from the payload. */
    function crossSpec(k) {
      const m = entries[k].match;
      return { key: `0:${m.a}>1:${m.b}`, before: { run: 0, pos: m.a }, after: { run: 1, pos: m.b }, hunks: m.hunks || [] };
    }

    /** Snapshot j -> k of one run, diffed here (Compare with). */
    function rangeSpec(r, j, k) {
      const key = `${r}:${j}>${r}:${k}`;
      if (specCache.has(key)) return specCache.get(key);
      const started = performance.now();
      const spec = { key, before: { run: r, pos: j }, after: { run: r, pos: k }, hunks: diffSnapshots(runs[r].snapshot(j), runs[r].snapshot(k)) };
      trace.lastRangeDiffMs = performance.now() - started;
      if (specCache.size > 8) specCache.delete(specCache.keys().next().value);
      specCache.set(key, spec);
      return spec;
    }

    function countHunks(hunks) {
      let inserted = 0, deleted = 0;
      for (const [a0, a1, b0, b1] of hunks) { inserted += b1 - b0; deleted += a1 - a0; }
      return { inserted, deleted };
    }

    /** The views a run-against-run entry offers: A vs B, and each run's own pass diff. */
    function runViews(k) {
      const m = entries[k].match;
      return { ab: m.a != null && m.b != null, a: m.a != null && m.a > 0, b: m.b != null && m.b > 0 };
    }

    function effectiveRunView(k) {
      const ok = runViews(k);
      if (ok[state.runView]) return state.runView;
      return ok.ab ? 'ab' : ok.a ? 'a' : 'b';
    }

    /** Before position for pass k: the chosen earlier snapshot, or the previous one. */
    function fromOf(k) {
      return state.from >= 0 && state.from < k ? state.from : k - 1;
    }

    function currentSpec() {
      const k = state.sel;
      if (!against) {
        const j = fromOf(k);
        return j === k - 1 ? passSpec(0, k) : rangeSpec(0, j, k);
      }
      const viewName = effectiveRunView(k), m = entries[k].match;
      if (viewName === 'ab') return crossSpec(k);
      return viewName === 'a' ? passSpec(0, m.a) : passSpec(1, m.b);
    }

    /* ---------- row model ---------- */

    const alignedCache = new Map();

    /** Side-by-side rows for a spec: equal lines, paired edits, unpaired deletions then insertions. */
    function alignedRows(spec) {
      if (alignedCache.has(spec.key)) return alignedCache.get(spec.key);
      const rows = [];
      const beforeCount = runs[spec.before.run].lines(spec.before.pos).length;
      let a = 0, b = 0;
      for (const [a0, a1, , b1, , pairs] of spec.hunks) {
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
      alignedCache.set(spec.key, rows);
      return rows;
    }

    /** Function choices for a spec: the union of both sides, or the reason none can be offered. */
    function functionChoices(spec) {
      const before = runs[spec.before.run].fns(spec.before.pos), after = runs[spec.after.run].fns(spec.after.pos);
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
        c.short = shortName(c.key);
        shortCount.set(c.short, (shortCount.get(c.short) || 0) + 1);
      }
      for (const c of choices) {
        c.label = shortCount.get(c.short) > 1 ? c.key : c.short;
        if (!c.a) c.label += ' (added)';
        if (!c.b) c.label += ' (deleted)';
      }
      return { choices, error: null };
    }

    const shortName = (key) => key.slice(key.lastIndexOf('.') + 1);

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

    /* ---------- function history ---------- */

    const fnStatsCache = [];

    function functionAt(list, line) {
      let lo = 0, hi = list.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1, f = list[mid];
        if (line < f[1]) hi = mid - 1; else if (line >= f[2]) lo = mid + 1; else return f[0];
      }
      return null;
    }

    /** Per-function change of an entry: key -> { ins, del, created, removed }; null when a side
     *  cannot be sliced. Deleted lines belong to the before snapshot's function, inserted lines
     *  to the after snapshot's. */
    function fnStatsOf(k) {
      if (fnStatsCache[k] !== undefined) return fnStatsCache[k];
      const spec = entries[k].history();
      if (!spec) return (fnStatsCache[k] = new Map());   // a pass only one run has: nothing to compare
      const before = runs[spec.before.run].fns(spec.before.pos).list, after = runs[spec.after.run].fns(spec.after.pos).list;
      if (!before || !after) return (fnStatsCache[k] = null);
      const stats = new Map();
      const of = (key) => {
        let s = stats.get(key);
        if (!s) stats.set(key, (s = { ins: 0, del: 0, created: false, removed: false }));
        return s;
      };
      for (const [a0, a1, b0, b1] of spec.hunks) {
        for (let i = a0; i < a1; i++) { const key = functionAt(before, i); if (key) of(key).del++; }
        for (let j = b0; j < b1; j++) { const key = functionAt(after, j); if (key) of(key).ins++; }
      }
      const keysA = new Set(before.map((f) => f[0])), keysB = new Set(after.map((f) => f[0]));
      for (const key of keysB) if (!keysA.has(key)) of(key).created = true;
      for (const key of keysA) if (!keysB.has(key)) of(key).removed = true;
      return (fnStatsCache[k] = stats);
    }

    /** The selected function's change at entry k, or null when untouched (undefined: unknown). */
    function fnChange(k, key) {
      const stats = fnStatsOf(k);
      if (!stats) return undefined;
      const s = stats.get(key);
      return s && (s.ins || s.del || s.created || s.removed) ? s : null;
    }

    /* ---------- find ---------- */

    const find = { text: '', regex: false, matchCase: false, re: null, error: '', memo: new Map(), series: [] };

    function compileFind() {
      find.memo = new Map();
      find.series = [];
      find.re = null;
      find.error = '';
      if (!find.text) return;
      const source = find.regex ? find.text : find.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      try {
        find.re = new RegExp(source, find.matchCase ? 'gu' : 'giu');
      } catch (err) {
        find.error = `Not a valid regular expression: ${err.message}`;
      }
    }

    /** [start, end] of every non-empty match in a line. */
    function findRanges(line) {
      const re = find.re, out = [];
      re.lastIndex = 0;
      let m;
      while ((m = re.exec(line)) !== null) {
        if (m[0] === '') { re.lastIndex++; continue; }
        out.push([m.index, m.index + m[0].length]);
      }
      return out;
    }

    function countLine(line) {
      let c = find.memo.get(line);
      if (c !== undefined) return c;
      const re = find.re;
      c = 0;
      re.lastIndex = 0;
      let m;
      while ((m = re.exec(line)) !== null) {
        if (m[0] === '') re.lastIndex++; else c++;
      }
      if (find.memo.size > 500000) find.memo.clear();
      find.memo.set(line, c);
      return c;
    }

    /** Matches in every snapshot of run r, over the delta-encoded data: the base snapshot's count,
     *  then per pass minus the matches in deleted lines, plus those in inserted lines. */
    function findSeries(r) {
      if (find.series[r]) return find.series[r];
      const run = runs[r], counts = new Array(run.last + 1);
      let c = 0;
      for (const line of run.passes[0].lines) c += countLine(line);
      counts[0] = c;
      for (let k = 1; k <= run.last; k++) {
        const hunks = run.passes[k].hunks;
        if (hunks && hunks.length) {
          const prev = run.lines(k - 1);
          for (const [a0, a1, , , bLines] of hunks) {
            for (let i = a0; i < a1; i++) c -= countLine(prev[i]);
            for (const line of bLines) c += countLine(line);
          }
        }
        counts[k] = c;
      }
      return (find.series[r] = counts);
    }

    /** Match counts on the two sides of an entry's own diff: [before, after]. */
    function findCounts(k) {
      if (!against) { const s = findSeries(0); return [s[k - 1], s[k]]; }
      const m = entries[k].match;
      return [m.a != null ? findSeries(0)[m.a] : null, m.b != null ? findSeries(1)[m.b] : null];
    }

    /** How the match count changes at entry k: { kind, label } or null. */
    function findChange(k) {
      if (!find.re) return null;
      const [before, after] = findCounts(k);
      if (before === null || after === null || before === after) return null;
      if (against) {
        if (!before) return { kind: 'in', label: `only in B (${after})` };
        if (!after) return { kind: 'out', label: `only in A (${before})` };
        return { kind: 'count', label: `A ${before} \u00b7 B ${after}` };
      }
      if (!before) return { kind: 'in', label: `introduced (${after})` };
      if (!after) return { kind: 'out', label: `removed (${before})` };
      return { kind: 'count', label: `count ${before} \u2192 ${after}` };
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

    /** Fill a code cell with coloured spans, emphasising changed ranges and find matches. */
    function paintCode(cell, text, ranges) {
      const n = text.length;
      if (!n) return;
      const tokens = tokenize(text);
      const hits = find.re ? findRanges(text) : null;
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

    /* ---------- state ---------- */

    const state = {
      sel: -1,                  // entry shown (-1 = none yet)
      fn: '',                   // '' = whole file, else a function key
      layout: 'side',
      wrap: false,
      expandAll: false,
      expanded: new Set(),      // fold starts opened by a click, for the current view only
      showChanged: true,
      showNoop: true,
      fnOnly: false,            // Only passes that change this function
      query: '',
      from: -1,                 // Compare with: before snapshot position (-1 = the previous one)
      runView: 'ab',            // run against run: 'ab', 'a' (run A's own pass) or 'b'
    };
    let view = null;            // { spec, choice, rows, display, before, after, warnMarks, ... }
    let rendered = { first: -1, last: -1 };

    const panes = {
      before: { scroller: $('scroll-before'), rows: null, side: 'a' },
      after: { scroller: $('scroll-after'), rows: null, side: 'b' },
    };
    for (const p of Object.values(panes)) p.rows = p.scroller.querySelector('.rows');

    /* ---------- sidebar ---------- */

    const passButtons = [];     // by entry k
    const markNodes = [];       // by entry k: { box, fn, find }

    function statsNode(inserted, deleted) {
      const node = el('span', 'stats');
      node.append(el('span', 'plus', `+${inserted}`), ' ', el('span', 'minus', `\u2212${deleted}`));
      return node;
    }

    /** The warning badge of entry k: new warnings, or only ones carried over from the previous pass. */
    function warningBadge(k) {
      const { run, pos } = entries[k].log;
      const p = runs[run].passes[pos];
      if (!p.log) return null;
      const list = runs[run].warnings(pos);
      const fresh = list.filter((w) => !w.carried).length;
      if (list.length && !fresh) {
        return { text: 'warning (carried)', cls: 'warn carried', title: `${list.length} warning(s), all carried over from the previous pass` };
      }
      return { text: 'warning', cls: 'warn', title: list.length ? `${fresh} new warning(s)${list.length > fresh ? `, ${list.length - fresh} carried` : ''}` : 'this pass wrote a log' };
    }

    function buildSidebar() {
      const list = $('pass-list');
      for (let k = firstEntry; k <= lastEntry; k++) {
        const e = entries[k];
        const button = el('button', e.changed ? 'pass-btn' : 'pass-btn noop');
        button.type = 'button';
        button.dataset.k = k;
        button.title = e.title;
        button.append(el('span', 'idx', e.label || String(e.index)), ' ', el('span', 'name', e.name));
        if (e.inserted !== null) button.append(' ', statsNode(e.inserted, e.deleted));
        const badges = el('span', 'badges');
        const warn = warningBadge(k);
        if (warn) {
          const badge = el('span', `badge ${warn.cls}`, warn.text);
          badge.title = warn.title;
          badges.append(' ', badge);
        }
        for (const [cls, text] of e.badges) badges.append(' ', el('span', `badge ${cls}`, text));
        if (badges.childElementCount) button.append(badges);
        // Two badges do not fit beside a long name: they move to a second line.
        if (badges.childElementCount > 1) button.classList.add('badges-below');
        const box = el('span', 'marks'), fnMark = el('span', 'fn-mark'), findMark = el('span', 'find-mark');
        box.append(fnMark, findMark);
        box.hidden = true;
        button.append(box);
        markNodes[k] = { box, fn: fnMark, find: findMark };
        button.addEventListener('click', () => selectPass(k));
        const item = el('li');
        item.appendChild(button);
        list.appendChild(item);
        passButtons[k] = button;
      }
      if (against) {
        const ms = payload.matches, both = ms.filter((m) => m.a != null && m.b != null);
        const differ = both.filter((m) => m.differs).length;
        const count = (s) => ms.filter((m) => m.status === s).length;
        $('report-sub').textContent = `${ms.length - 1} passes compared \u00b7 ${differ} differ \u00b7 ${count('renamed')} renamed` +
          ` \u00b7 ${count('only-a')} only in A \u00b7 ${count('only-b')} only in B`;
      } else {
        const changed = entries.slice(1).filter((e) => e.changed).length;
        const n = main.last;
        $('report-sub').textContent = `${n} passes \u00b7 ${changed} changed \u00b7 ${n - changed} no-op`;
      }
    }

    function isVisible(k) {
      const e = entries[k];
      if (e.changed ? !state.showChanged : !state.showNoop) return false;
      if (state.query && !e.name.toLowerCase().includes(state.query)) return false;
      if (state.fnOnly && state.fn && fnChange(k, state.fn) === null) return false;
      return true;
    }

    function visiblePasses() {
      const out = [];
      for (let k = firstEntry; k <= lastEntry; k++) if (isVisible(k)) out.push(k);
      return out;
    }

    /** Apply the filters; a filtered-out selection moves to the nearest visible pass. */
    function applyFilters() {
      const visible = visiblePasses(), shown = new Set(visible);
      for (let k = firstEntry; k <= lastEntry; k++) passButtons[k].parentElement.hidden = !shown.has(k);
      $('pass-empty').hidden = visible.length > 0;
      if (visible.length && !shown.has(state.sel)) {
        let best = visible[0];
        for (const k of visible) if (Math.abs(k - state.sel) < Math.abs(best - state.sel)) best = k;
        selectPass(best);
      }
    }

    function stepPass(delta) {
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

    /** Function-history and find marks on every sidebar item (only when either changes). */
    function paintMarks() {
      const key = state.fn, short = key ? shortName(key) : '';
      for (let k = firstEntry; k <= lastEntry; k++) {
        const nodes = markNodes[k];
        let fnText = '', fnClass = 'fn-mark', fnTitle = '';
        if (key) {
          const s = fnChange(k, key);
          if (s === undefined) { fnText = `${short} ?`; fnTitle = 'a snapshot of this pass cannot be sliced into functions'; }
          else if (s) {
            const created = against ? 'only in B' : 'created', removed = against ? 'only in A' : 'removed';
            fnText = s.created ? `${short} ${created} +${s.ins}` : s.removed ? `${short} ${removed} \u2212${s.del}` : `${short} +${s.ins} \u2212${s.del}`;
            fnClass += s.created ? ' created' : s.removed ? ' removed' : '';
            fnTitle = `${key}: ${fnText.slice(short.length + 1)} ${against ? 'between run A and run B' : 'in this pass'}`;
          }
        }
        nodes.fn.textContent = fnText;
        nodes.fn.className = fnClass;
        nodes.fn.title = fnTitle;
        passButtons[k].classList.toggle('fn-untouched', Boolean(key) && fnChange(k, key) === null);
        const change = findChange(k);
        nodes.find.textContent = change ? change.label : '';
        nodes.find.className = change ? `find-mark ${change.kind}` : 'find-mark';
        nodes.find.title = change ? `Find \u201c${find.text}\u201d: ${change.label}` : '';
        nodes.box.hidden = !fnText && !change;
        passButtons[k].classList.toggle('has-marks', !nodes.box.hidden);
      }
    }

    /* ---------- overview strip ---------- */

    const bars = [];

    function buildOverview() {
      const strip = $('overview');
      for (let k = firstEntry; k <= lastEntry; k++) {
        const e = entries[k];
        const bar = el('button', 'bar');
        bar.type = 'button';
        bar.tabIndex = -1;
        bar.setAttribute('aria-label', `Pass ${e.index} ${e.name}`);
        bar.appendChild(el('span', 'fill'));
        bar.addEventListener('click', () => selectPass(k));
        bar.addEventListener('keydown', (event) => {
          const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
          if (!delta || k + delta < firstEntry || k + delta > lastEntry) return;
          event.preventDefault();
          selectPass(k + delta);
          bars[k + delta].focus();
        });
        strip.appendChild(bar);
        bars[k] = bar;
      }
      paintOverview();
    }

    /** Bar heights: lines changed per pass (log-scaled), or the selected function's own change. */
    function paintOverview() {
      const key = state.fn;
      const value = [], marks = [];
      let max = 1;
      for (let k = firstEntry; k <= lastEntry; k++) {
        const e = entries[k];
        if (key) {
          const s = fnChange(k, key);
          value[k] = s ? s.ins + s.del : 0;
          marks[k] = s ? (s.created ? 'created' : s.removed ? 'removed' : '') : '';
        } else {
          value[k] = e.changed ? (e.inserted || 0) + (e.deleted || 0) : 0;
          marks[k] = '';
        }
        max = Math.max(max, value[k]);
      }
      const scale = Math.log1p(max);
      for (let k = firstEntry; k <= lastEntry; k++) {
        const e = entries[k], bar = bars[k];
        const warn = warningBadge(k);
        const only = e.match && e.match.status.startsWith('only');
        const active = key ? value[k] > 0 || marks[k] : e.changed;
        bar.className = ['bar', active ? '' : 'noop', warn ? 'warn' : '', warn && warn.cls.includes('carried') ? 'carried' : '',
          only && !key ? 'only' : '', marks[k] ? `fn-${marks[k]}` : '', k === state.sel ? 'selected' : ''].filter(Boolean).join(' ');
        const fill = bar.firstChild;
        fill.style.height = only && !key ? '100%' : active ? `${Math.max(12, (100 * Math.log1p(value[k])) / scale)}%` : '2px';
        let title = `${e.index} ${e.name}: `;
        if (key) {
          const s = fnChange(k, key);
          title += s ? `${shortName(key)} +${s.ins} \u2212${s.del}${marks[k] ? ` (${marks[k]})` : ''}` : `${shortName(key)} unchanged`;
        } else {
          title += e.inserted !== null ? `+${e.inserted} \u2212${e.deleted}` : e.badges.map((b) => b[1]).join(', ');
        }
        bar.title = title + (warn ? `, ${warn.text}` : '');
      }
    }

    /* ---------- selecting a pass ---------- */

    /** Show entry k. keep: 'both' keeps the function only if it exists on both sides (pass switch),
     *  'either' keeps it if it exists at all (deep links, the select itself, function history). */
    function selectPass(k, { keep = state.fnOnly ? 'either' : 'both', initial = false } = {}) {
      const started = performance.now();
      if (k < firstEntry || k > lastEntry) return;
      const switched = k !== state.sel;
      if (switched) { state.expandAll = false; state.expanded.clear(); }
      if (!against && state.from >= k) state.from = -1;
      state.sel = k;
      markSelected(k);
      buildView(keep);
      updateHash();
      if (switched && !initial) afterPaint((t) => trace.switches.push(t - started));
    }

    function markSelected(k) {
      for (let j = firstEntry; j <= lastEntry; j++) {
        const on = j === k;
        if (on) passButtons[j].setAttribute('aria-current', 'true');
        else passButtons[j].removeAttribute('aria-current');
        bars[j].classList.toggle('selected', on);
        bars[j].tabIndex = on ? 0 : -1;
      }
      if (!passButtons[k].parentElement.hidden) passButtons[k].scrollIntoView({ block: 'nearest' });
    }

    function snapshotName(ref) {
      return runs[ref.run].passes[ref.pos].file;
    }

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
      $('file-before').textContent = snapshotName(spec.before);
      $('file-after').textContent = snapshotName(spec.after);
      const note = $('view-note');
      note.textContent = '';
      const identical = !spec.hunks.length;
      if (!against && spec.before.pos !== state.sel - 1) {
        const span = state.sel - spec.before.pos;
        note.append(`Cumulative change from ${snapshotName(spec.before)} to ${snapshotName(spec.after)}: ${span} passes` +
          `${identical ? ' \u2014 the two snapshots are identical' : ''}. `);
        const back = el('button', 'link-btn', 'Compare with the previous snapshot');
        back.type = 'button';
        back.addEventListener('click', () => setFrom(-1));
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

    /* ---------- warnings ---------- */

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
      for (const w of list) {
        const item = el('li', w.carried ? 'warn-item carried' : 'warn-item');
        const at = `line ${w.line}${w.col ? `:${w.col}` : ''}`;
        if (w.linked && w.line <= count) {
          const link = el('button', 'warn-link', at);
          link.type = 'button';
          link.title = `Show ${w.file} line ${w.line} in the After pane`;
          link.addEventListener('click', () => revealAfterLine(w.line - 1));
          item.append(link);
        } else {
          item.append(el('span', 'warn-at', `${w.file} ${at}`));
        }
        item.append(' ', el('span', 'warn-msg', w.message));
        if (w.check) item.append(' ', el('span', 'warn-check', `[${w.check}]`));
        const tag = el('span', `badge ${w.carried ? 'carried' : 'new'}`, w.carried ? 'carried' : 'new');
        tag.title = w.carried ? 'the previous pass raised the same warning' : 'first raised at this pass';
        item.append(' ', tag);
        ul.appendChild(item);
      }
    }

    /** After-pane line -> its warnings, for the gutter markers. */
    function warningMarks(spec) {
      const marks = new Map();
      const run = runs[spec.after.run];
      if (!run.passes[spec.after.pos].log) return marks;
      const count = run.lines(spec.after.pos).length;
      for (const w of run.warnings(spec.after.pos)) {
        if (!w.linked || w.line > count) continue;
        if (!marks.has(w.line - 1)) marks.set(w.line - 1, []);
        marks.get(w.line - 1).push(w);
      }
      return marks;
    }

    /** Scroll the After pane to a line, opening its fold (or leaving a function that hides it). */
    function revealAfterLine(line) {
      if (view.choice && view.choice.b && (line < view.choice.b[0] || line >= view.choice.b[1])) {
        state.fn = '';
        buildView('either');
        updateHash();
      }
      let at = view.display.findIndex((r) => r.kind !== FOLD && r.b === line);
      if (at < 0) {
        const ri = view.rows.findIndex((r) => r.b === line);
        const fold = view.display.find((r) => r.kind === FOLD && r.start <= ri && ri < r.end);
        if (!fold) return;
        state.expanded.add(fold.start);
        refreshDisplay(true);
        at = view.display.findIndex((r) => r.kind !== FOLD && r.b === line);
      }
      view.flash = line;
      clearTimeout(view.flashTimer);
      view.flashTimer = setTimeout(() => { if (view) view.flash = -1; }, 1800);
      const sc = panes.after.scroller;
      sc.scrollTop = Math.max(0, rowTop(at) - Math.floor(sc.clientHeight / 3));
      panes.before.scroller.scrollTop = sc.scrollTop;
      renderRows(true);
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
      select.value = String(fromOf(k));
    }

    function setFrom(j) {
      state.from = j >= 0 && j !== state.sel - 1 ? j : -1;
      state.expandAll = false;
      state.expanded.clear();
      buildView('either');
      updateHash();
    }

    function showRunViews(k) {
      const ok = runViews(k), current = effectiveRunView(k);
      for (const [name, id] of [['ab', 'view-ab'], ['a', 'view-a'], ['b', 'view-b']]) {
        const button = $(id);
        button.disabled = !ok[name];
        button.setAttribute('aria-pressed', String(name === current));
      }
    }

    function setRunView(name) {
      state.runView = name;
      state.expandAll = false;
      state.expanded.clear();
      buildView('either');
      updateHash();
    }

    /** Rebuild the row model of the current entry, spec and function, then render. */
    function buildView(keep = 'both') {
      const spec = currentSpec();
      const { choices, error } = functionChoices(spec);
      let choice = state.fn ? choices.find((c) => c.key === state.fn) || null : null;
      if (choice && keep === 'both' && !(choice.a && choice.b)) choice = null;
      if (!choice) state.fn = '';
      fillFunctionSelect(choices, error);
      if (against) showRunViews(state.sel); else fillFromSelect(state.sel);
      showHeader(spec);
      showWarnings(spec);
      view = {
        spec,
        choice,
        rows: restrictRows(alignedRows(spec), choice),
        before: runs[spec.before.run].lines(spec.before.pos),
        after: runs[spec.after.run].lines(spec.after.pos),
        warnMarks: warningMarks(spec),
        flash: -1,
      };
      if (choice && $('view-note').hidden && !view.rows.some((r) => r.kind !== EQ)) {
        $('view-note').textContent = `${choice.label} is the same on both sides.`;
        $('view-note').hidden = false;
      }
      showFindStatus();
      refreshDisplay(false);
      if (state.fn !== decoratedFn) afterFunctionChange();
    }

    let decoratedFn = '';

    /** The selected function changed: history marks, the overview, the history filter. */
    function afterFunctionChange() {
      decoratedFn = state.fn;
      const box = $('filter-fn');
      box.disabled = !state.fn;
      $('fn-only').classList.toggle('disabled', !state.fn);
      paintMarks();
      paintOverview();
      if (state.fnOnly) applyFilters();
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
        sizer.style.setProperty('--gutter', `calc(${digits + 2}ch + 12px)`);
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
      const ln = el('span', 'ln', String(line + 1));
      const warned = side === 'b' && view.warnMarks.get(line);
      if (warned) {
        row.classList.add('warned');
        const text = warned.map((w) => `warning: ${w.message}${w.check ? ` [${w.check}]` : ''}`).join('\n');
        const marker = el('span', 'wmark', '\u26a0');
        marker.setAttribute('role', 'img');
        marker.setAttribute('aria-label', text);
        marker.title = text;
        ln.prepend(marker);
      }
      if (side === 'b' && line === view.flash) row.classList.add('flash');
      row.append(ln, el('span', 'mk', kind === 'del' ? '\u2212' : kind === 'ins' ? '+' : ''));
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

    /* ---------- find box ---------- */

    let findTimer = 0;

    function runFind() {
      const started = performance.now();
      find.text = $('find-text').value;
      find.regex = $('find-regex').checked;
      find.matchCase = $('find-case').checked;
      compileFind();
      $('find-text').setAttribute('aria-invalid', String(Boolean(find.error)));
      paintMarks();
      showFindStatus();
      if (view) renderRows(true);
      updateHash();
      afterPaint((t) => trace.finds.push(t - started));
    }

    function showFindStatus() {
      const status = $('find-status');
      if (find.error) { status.textContent = find.error; status.className = 'find-status error'; return; }
      status.className = 'find-status';
      if (!find.re || !view) { status.textContent = ''; return; }
      const spec = view.spec;
      const before = findSeries(spec.before.run)[spec.before.pos], after = findSeries(spec.after.run)[spec.after.pos];
      let changes = 0;
      for (let k = firstEntry; k <= lastEntry; k++) if (findChange(k)) changes++;
      status.textContent = `\u201c${find.text}\u201d: ${before} in Before \u00b7 ${after} in After \u00b7 count changes at ${changes} ` +
        `pass${changes === 1 ? '' : 'es'}${changes ? ' (Enter: next)' : ''}`;
    }

    /** Next (or previous) visible entry where the match count changes. */
    function stepFind(delta) {
      if (!find.re) return;
      const visible = visiblePasses().filter((k) => findChange(k));
      const target = delta > 0 ? visible.find((k) => k > state.sel) : visible.reverse().find((k) => k < state.sel);
      if (target !== undefined) selectPass(target);
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

    function wireCopy(buttonId, feedbackId, side) {
      let timer = 0;
      $(buttonId).addEventListener('click', async () => {
        const ref = view.spec[side];
        const ok = await copyText(runs[ref.run].text(ref.pos));
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

    /** #pass=12&from=3&fn=Program.kernel&layout=stacked&find=pl.alloc( (run against run:
     *  #a=12&b=12&view=a&...). */
    function updateHash() {
      if (state.sel < 0) return;
      const params = new URLSearchParams();
      if (against) {
        const m = entries[state.sel].match;
        if (m.a != null) params.set('a', String(runs[0].passes[m.a].index));
        if (m.b != null) params.set('b', String(runs[1].passes[m.b].index));
        if (state.runView !== 'ab') params.set('view', state.runView);
      } else {
        params.set('pass', String(entries[state.sel].index));
        const j = fromOf(state.sel);
        if (j !== state.sel - 1) params.set('from', String(main.passes[j].index));
      }
      if (state.fn) params.set('fn', state.fn);
      if (state.fnOnly) params.set('history', '1');
      params.set('layout', state.layout);
      if (find.text) {
        params.set('find', find.text);
        if (find.regex) params.set('regex', '1');
        if (find.matchCase) params.set('case', '1');
      }
      const hash = `#${params.toString()}`;
      if (location.hash !== hash) history.replaceState(null, '', hash);
    }

    function entryFromHash(params) {
      if (against) {
        if (!params.has('a') && !params.has('b')) return -1;
        const want = (name) => (params.has(name) ? Number(params.get(name)) : null);
        const a = want('a'), b = want('b');
        return entries.findIndex((e) => {
          const m = e.match;
          return (m.a != null ? runs[0].passes[m.a].index : null) === a && (m.b != null ? runs[1].passes[m.b].index : null) === b;
        });
      }
      const index = Number(params.get('pass'));
      return params.has('pass') ? entries.findIndex((e) => e && e.index === index) : -1;
    }

    /** Restore the view from the fragment; false when it names no pass. */
    function applyHash() {
      const params = new URLSearchParams(location.hash.slice(1));
      if (params.has('layout')) setLayout(params.get('layout'));
      if (params.has('find') !== Boolean(find.text) || (params.get('find') || '') !== find.text ||
          (params.get('regex') === '1') !== find.regex || (params.get('case') === '1') !== find.matchCase) {
        $('find-text').value = params.get('find') || '';
        $('find-regex').checked = params.get('regex') === '1';
        $('find-case').checked = params.get('case') === '1';
        runFind();
      }
      const k = entryFromHash(params);
      if (k < firstEntry) return false;
      state.fn = params.get('fn') || '';
      state.fnOnly = params.get('history') === '1';
      $('filter-fn').checked = state.fnOnly;
      if (against) {
        state.runView = ['ab', 'a', 'b'].includes(params.get('view')) ? params.get('view') : 'ab';
      } else {
        const from = params.has('from') ? main.passes.findIndex((p) => p.index === Number(params.get('from'))) : -1;
        state.from = from >= 0 && from < k ? from : -1;
      }
      state.sel = -1;         // force a full rebuild even when the pass is unchanged
      selectPass(k, { keep: 'either', initial: true });
      if (state.fnOnly) applyFilters();
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
        if (event.key === 'Escape' && (event.target.id === 'filter-text' || event.target.id === 'find-text')) event.target.blur();
        if (event.key === 'Enter' && event.target.id === 'find-text') {
          event.preventDefault();
          clearTimeout(findTimer);
          if (event.target.value !== find.text) runFind();
          stepFind(event.shiftKey ? -1 : 1);
        }
        return;
      }
      if (lastEntry < firstEntry && event.key !== '?') return;
      switch (event.key) {
        case 'j': case 'ArrowDown': event.preventDefault(); stepPass(1); break;
        case 'k': case 'ArrowUp': event.preventDefault(); stepPass(-1); break;
        case 'n': event.preventDefault(); stepFind(1); break;
        case 'N': event.preventDefault(); stepFind(-1); break;
        case '?': event.preventDefault(); openHelp(); break;
        case '/': event.preventDefault(); $('filter-text').focus(); break;
        case 'f': event.preventDefault(); $('find-text').focus(); break;
        default:
      }
    }

    /* ---------- wiring ---------- */

    function wireControls() {
      $('filter-changed').addEventListener('change', (e) => { state.showChanged = e.target.checked; applyFilters(); });
      $('filter-noop').addEventListener('change', (e) => { state.showNoop = e.target.checked; applyFilters(); });
      $('filter-fn').addEventListener('change', (e) => { state.fnOnly = e.target.checked; applyFilters(); updateHash(); });
      $('filter-text').addEventListener('input', (e) => { state.query = e.target.value.trim().toLowerCase(); applyFilters(); });
      $('find-text').addEventListener('input', () => { clearTimeout(findTimer); findTimer = setTimeout(runFind, 180); });
      $('find-regex').addEventListener('change', runFind);
      $('find-case').addEventListener('change', runFind);
      $('fn-select').addEventListener('change', (e) => {
        state.fn = e.target.value;
        state.expandAll = false;
        state.expanded.clear();
        buildView('either');
        updateHash();
      });
      $('from-select').addEventListener('change', (e) => setFrom(Number(e.target.value)));
      for (const [name, id] of [['ab', 'view-ab'], ['a', 'view-a'], ['b', 'view-b']]) $(id).addEventListener('click', () => setRunView(name));
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
      wireCopy('copy-before', 'copied-before', 'before');
      wireCopy('copy-after', 'copied-after', 'after');
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

    function showBanners() {
      if (payload.level === 'CONCISE') {
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

    function init() {
      setTheme(window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
      showBanners();
      adaptToMode();
      wireGlobalControls();
      if (lastEntry < firstEntry) {
        for (const id of ['toolbar', 'overview', 'panes', 'filters', 'filter-text', 'fn-only', 'find']) $(id).hidden = true;
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
        let first = firstEntry;
        for (let k = firstEntry; k <= lastEntry; k++) if (entries[k].changed) { first = k; break; }
        if (!against && !entries[first].changed) first = 1;
        selectPass(first, { initial: true });
      }
      afterPaint((t) => { trace.firstDiffPainted = t; });
    }

    // For tests and benchmarks: the payload and the in-browser diff.
    trace.payload = payload;
    trace.diffSnapshots = diffSnapshots;
    init();
  }

  loadPayload().then(startViewer, showLoadError);
})();
