// needs: normalize.js, viewer_hunks.js, viewer_fold.js, viewer_traces.js
/* pypto-ir-trace viewer: the model (IRTraceModel).
 * Everything the page shows, computed from the payload (schema 1, see ir_trace/report/page_model.py; the
 * run-against-run form is ir_trace/report/against.py) with no DOM: snapshots rebuilt lazily by replaying
 * hunks (viewer_hunks.js), the sidebar's entries, which two snapshots a view compares, aligned and folded rows,
 * per-function change (Find's match counts are viewer_find.js's). The viewer's state is passed
 * in, never read.
 * viewer.js hands it linediff.js's diff (IRTraceDiff). */
const IRTraceModel = (() => {
  'use strict';

  // Row kinds and the pure helpers on hunks and rows (viewer_hunks.js), offered here too.
  const { EQ, DEL, INS, CHG, FOLD, applyHunks, countHunks, alignHunks, settleMarks, shortName, restrictRows, foldRows,
    functionAt, functionEntryAt } = IRTraceHunks;

  /* ---------- warnings in .log files ---------- */

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

  /* ---------- runs: snapshots, function indexes, warnings ---------- */

  const NOTHING = Object.freeze([]);

  /** The function list `runs` stand for over `base`: [n, d] takes base's next n functions moved d lines ([n, d, s]:
   *  once the next s are passed over), [key, start, end] is a function of its own (function_runs.py's `expand`). */
  function expandRuns(base, runs) {
    const out = [];
    let taken = 0;
    for (const run of runs) {
      if (typeof run[0] === 'string') { out.push(run); continue; }
      taken += run[2] || 0;
      const end = Math.min(taken + run[0], base.length), shift = run[1];
      for (; taken < end; taken++) { const f = base[taken]; out.push([f[0], f[1] + shift, f[2] + shift]); }
    }
    return out;
  }

  /** The functions a record writes out itself (a shifted list's others are its base's: same keys). */
  function listedOrShifted(functions) {
    if (!functions) return NOTHING;
    return Array.isArray(functions) ? functions : functions.shifted.filter(run => typeof run[0] === 'string');
  }

  /** One run's snapshots; `lineIds` interns line texts across every run of the report. */
  function makeRun(data, label, lineIds) {
    const passes = data.passes;
    const cache = [passes[0].lines], idsCache = [], warnCache = [], parsedCache = [];
    const shiftedCache = new Map();   // pass -> its function list, worked out from runs (functionList)

    /** Lines of snapshot k, replaying hunks from the nearest snapshot already built (k = -1: the
     *  empty snapshot before the first, which an MLIR trace's first pass is compared with). */
    function lines(k) {
      if (k < 0) return NOTHING;
      let j = k;
      while (!cache[j]) j--;
      for (j++; j <= k; j++) cache[j] = applyHunks(cache[j - 1], passes[j].hunks);
      return cache[k];
    }

    /** Function index of snapshot k; an unchanged snapshot omits it and reuses the previous one. */
    function fns(k) {
      if (k < 0) return { list: [], error: null };
      for (let j = k; j >= 0; j--) {
        if ('functions' in passes[j]) return { list: functionList(j), error: passes[j].parse_error || null };
      }
      return { list: null, error: 'no function index in the report' };
    }

    /** The functions pass j lists: as written, or worked out once from the runs over the list of the sliced pass
     *  before it ({shifted: [[n, d] | [key, start, end], ...]}, ir_trace/report/function_runs.py), walking back
     *  to the nearest list known and forward from there (no recursion: thousands of passes can chain). */
    function functionList(j) {
      const chain = [];
      for (let i = j; i >= 0; i--) {
        if (!('functions' in passes[i])) continue;
        const listed = passes[i].functions;
        if (listed === null || Array.isArray(listed)) { decodeForward(listed, chain); break; }
        if (shiftedCache.has(i)) { decodeForward(shiftedCache.get(i), chain); break; }
        chain.push(i);
      }
      const own = passes[j].functions;
      return own === null || Array.isArray(own) ? own : shiftedCache.get(j) || null;
    }

    function decodeForward(base, chain) {
      for (let c = chain.length - 1; c >= 0; c--) {
        base = expandRuns(base || NOTHING, passes[chain[c]].functions.shifted);
        shiftedCache.set(chain[c], base);
      }
    }

    /** Interned line ids (a last line without "\n" differs from the same line with one). */
    function ids(k) {
      if (k < 0) return new Int32Array(0);
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

    /** A stream's dump is numbered by its header in the file (as --json numbers it): named with the file. */
    function fileName(file) {
      return typeof file === 'number' ? `${data.stream || data.title} #${file}` : file;
    }

    return {
      data, passes, label, last: passes.length - 1, lines, fns, ids, warnings,
      text: (k) => (k < 0 ? '' : lines(k).join('\n') + (passes[k].eol ? '\n' : '')),
      snapshot: (k) => ({ lines: lines(k), ids: ids(k), fns: fns(k).list, eol: k < 0 || passes[k].eol }),
      file: (k) => (k < 0 ? '(nothing before the first snapshot)' : fileName(passes[k].file)),
    };
  }

  /* ---------- entries: the sidebar's items ---------- */

  const inert = (text) => IRTraceFold.inertText(text);   // viewer_fold.js, looked up when entries are built
  /** One sidebar item per pass (its own diff), or in run-against-run mode per matched pass. */
  function buildEntries(payload, runs, passSpec, crossSpec) {
    const entries = [];
    if (payload.mode !== 'against') {
      const main = runs[0];
      for (let k = 1; k <= main.last; k++) {
        const p = main.passes[k];
        entries[k] = {
          k, run: 0, pos: k, index: p.index, name: inert(p.name), title: inert(p.file), changed: p.changed, inserted: p.inserted,
          deleted: p.deleted, log: { run: 0, pos: k }, badges: p.changed ? [] : [['noop', 'no-op']],
          history: () => passSpec(0, k),
        };
      }
      return entries;
    }
    payload.matches.forEach((m, k) => {
      const pa = m.a != null ? runs[0].passes[m.a] : null, pb = m.b != null ? runs[1].passes[m.b] : null;
      const both = pa && pb;
      const badges = [];
      if (m.status === 'renamed') badges.push(['renamed', 'renamed']);
      if (m.status === 'only-a') badges.push(['only', 'only in A']);
      else if (m.status === 'only-b') badges.push(['only', 'only in B']);
      else badges.push(behaviourBadge(m));
      // Passes sit at different positions once a run inserts or drops one: show both indices then.
      const label = !pb ? `A${pa.index}` : !pa ? `B${pb.index}` : pa.index === pb.index ? String(pa.index) : `${pa.index}/${pb.index}`;
      entries[k] = {
        k, match: m, index: (pa || pb).index, label,
        name: inert(m.status === 'renamed' ? `${pa.name} \u2192 ${pb.name}` : (pa || pb).name),
        title: inert([pa && `A: ${pa.file}`, pb && `B: ${pb.file}`].filter(Boolean).join(' \u00b7 ')),
        changed: m.differs, inserted: both ? m.inserted : null, deleted: both ? m.deleted : null,
        log: pb ? { run: 1, pos: m.b } : { run: 0, pos: m.a }, badges, behaviour: behaviourKey(m),
        history: () => (both ? crossSpec(k) : null),
      };
    });
    return entries;
  }

  /** What a pass did in run B against run A (ir_trace/report/behaviour.py), as the Behaviour filters
   *  group it: Different first, the pass a bisection looks for. Reports before behaviours have none. */
  const BEHAVIOUR_FILTERS = [
    ['different', 'Different', 'Passes that did something else in run B than in run A'],
    ['carried-over', 'Carried over', 'Passes that made the same change in both runs to inputs that already differed'],
    ['same', 'Same', 'Passes with the same input and output in both runs'],
    ['only', 'Only in one run', 'Passes only one run has, or renamed'],
  ];

  /** A match's Behaviour filter key, or null when the report has no behaviours. */
  function behaviourKey(m) {
    if (!m.behaviour) return null;
    return ['only-in-a', 'only-in-b', 'renamed'].includes(m.behaviour) ? 'only' : m.behaviour;
  }

  /** The badge of a pass both runs have: its behaviour, else (older reports) whether the outputs differ. */
  function behaviourBadge(m) {
    if (m.behaviour === 'different') return ['different', 'different'];
    if (m.behaviour === 'carried-over') return ['carried-over', 'carried'];   // short: long pass names stay whole
    if (m.behaviour === 'same') return ['noop', 'same'];
    return m.differs ? ['differs', 'differs'] : ['noop', 'same'];
  }

  /* ---------- the model of one report ---------- */

  /** --context as a number of rows: any non-negative count, however large (no 32-bit `| 0`). */
  function contextOf(payload) {
    const n = Math.floor(Number(payload.context));
    return n > 0 ? n : 0;
  }

  /** Everything derived from the payload; `diffSnapshots` (IRTraceDiff) diffs pairs it does not hold,
   *  `emphasise` (IRTraceDiff.changedRangesIgnoring) re-marks the payload's edited lines under the modes. */
  function createModel(payload, diffSnapshots, emphasise = null) {
    const against = payload.mode === 'against';
    const traced = IRTraceTraces.isTraced(payload);   // several traces, or MLIR passes (viewer_traces.js)
    const lineIds = new Map();
    const runs = against ? payload.runs.map((r, i) => makeRun(r, i ? 'B' : 'A', lineIds))
      : IRTraceTraces.tracesOf(payload).map((t) => makeRun(t, t.unit || '', lineIds));
    const timings = { lastRangeDiffMs: null, recounts: 0 };   // recounts: entries counted here under the modes

    /* ---------- ignore modes (normalize.js): lines equal after normalisation are unchanged ---------- */

    let ignore = null;            // { modes, regex } while a mode is on, else null
    let ignoreKey = '';           // part of every cache key that depends on the modes
    let countsKey = '';           // the modes as a pass's ignore_counts names them (IgnoreModes.spec), '' with a regex
    let keyers = null;            // kind ('pypto' | 'mlir') -> its { lineKey, linePieces } under the modes
    const keyedCache = new Map(); // `${r}:${j}>${r}:${k}` -> hunks of the keyed diff (modes on)

    /** Turn modes on ({ modes, regex }) or off (null / nothing on): the exact diff comes back. */
    function setIgnore(spec) {
      ignore = !against && IRTraceNormalize.isOn(spec) ? spec : null;
      ignoreKey = ignore ? `|${ignore.modes.join(',')}|${ignore.regex || ''}` : '';
      countsKey = ignore && !ignore.regex ? IRTraceNormalize.MODES.filter((m) => ignore.modes.includes(m)).join(',') : '';
      keyers = ignore ? new Map() : null;
      keyedCache.clear();
      specCache.clear();
      alignedCache.clear();
      fnStatsCache.length = 0;
      for (let k = 0; !against && k < entries.length; k++) if (entries[k]) Object.assign(entries[k], exact[k], { ignoring: '' });
    }

    /** Run r's line key under the modes (line -> its key, in r's language), null while none is on. */
    function lineKeyOf(r) {
      return ignore ? keyerOf(kindOf(r)).lineKey : null;
    }

    /** The language run r is printed in: a report of several traces mixes PyPTO's and MLIR's. */
    function kindOf(r) {
      return (against ? null : IRTraceTraces.tracesOf(payload)[r].kind) || payload.kind || 'pypto';
    }

    /** { lineKey, linePieces } of lines printed in `kind` under the modes, each memoised per line:
     *  a line's key, and the pieces of it the key is made of (null: all). */
    function keyerOf(kind) {
      if (!keyers.has(kind)) {
        const keys = new Map(), normalise = IRTraceNormalize.normaliser(ignore, kind);
        const kept = new Map(), pieces = IRTraceNormalize.keptPieces(ignore, kind);
        keyers.set(kind, {
          lineKey: (line) => {
            let key = keys.get(line);
            if (key === undefined) keys.set(line, (key = normalise(line)));
            return key;
          },
          linePieces: (line) => {
            if (!kept.has(line)) kept.set(line, pieces(line));
            return kept.get(line);
          },
        });
      }
      return keyers.get(kind);
    }

    /** Hunks of snapshot j -> k of run r under the modes. When the modes map no two different
     *  lines of the pair to one key, lines compare as they did as printed, so the exact hunks
     *  are the answer (the payload's own for a pass): that is the common case (a mode that does
     *  not touch what this pass changed) and costs one pass over the lines instead of a diff. */
    function keyedHunks(r, j, k) {
      const key = `${r}:${j}>${r}:${k}`;
      if (!keyedCache.has(key)) {
        const A = runs[r].snapshot(j), B = runs[r].snapshot(k), own = j === k - 1;
        const { lineKey, linePieces } = keyerOf(kindOf(r));
        let hunks;
        if (own && !runs[r].passes[k].changed) hunks = [];
        else if (!keysKeepLinesApart(A.lines, B.lines, lineKey)) hunks = diffSnapshots(A, B, { lineKey, linePieces, lazyMarks: true });
        else if (own) hunks = withoutIgnoredEmphasis(runs[r].passes[k].hunks || [], A.lines, B.lines, linePieces);
        else hunks = diffSnapshots(A, B, { linePieces, lazyMarks: true });
        keyedCache.set(key, hunks);
      }
      return keyedCache.get(key);
    }

    /** The payload's exact hunks, each pair re-marked under the modes when first shown
     *  (`emphasise`: IRTraceDiff.changedRangesIgnoring, for a pair touching ignored text; the
     *  others keep their exact ranges). Lazily: a pass of 600 long pairs redraws at once. */
    function withoutIgnoredEmphasis(hunks, a, b, linePieces) {
      if (!emphasise) return hunks;
      const pair = ([i, j, ra, rb]) => [i, j, null, null, () => {
        const ka = linePieces(a[i]), kb = linePieces(b[j]);
        return ka || kb ? emphasise(a[i], b[j], ka, kb) : [ra, rb];
      }];
      return hunks.map((h) => [...h.slice(0, 5), h[5].map(pair), ...h.slice(6)]);
    }

    /** Whether lineKey is one-to-one on the lines of both snapshots. */
    function keysKeepLinesApart(a, b, lineKey) {
      const lineOf = new Map();
      for (const lines of [a, b]) {
        for (const line of lines) {
          const k = lineKey(line), seen = lineOf.get(k);
          if (seen === undefined) lineOf.set(k, line);
          else if (seen !== line) return false;
        }
      }
      return true;
    }

    /** Entry e's counts under the current modes as the report carries them (`ignore_counts` of a
     *  pass: each single mode and the all-on sets, worked out with the pair's cached diff, see
     *  ir_trace/report/ignore_counts.py), or null for a set it does not carry (any regex, most
     *  mixes of two modes): those are recounted here. */
    function precomputedCounts(e) {
      const p = runs[e.run].passes[e.pos];
      const counts = countsKey && p.ignore_counts ? p.ignore_counts[countsKey] : null;
      return counts ? { inserted: counts[0], deleted: counts[1] } : null;
    }

    /** Entry e's counts from its keyed diff (the fallback: `timings.recounts` counts these). */
    function recount(e) {
      timings.recounts++;
      return countHunks(passSpec(e.run, e.pos).hunks);
    }

    /** Entry k's sidebar counts under the current modes, computed once per mode set. */
    function refreshEntry(k) {
      const e = entries[k];
      if (!ignore || e.ignoring === ignoreKey) return e;
      if (e.start) return e;   // a trace's first snapshot, shown whole: no counts to redo
      const was = exact[k];
      // A pass whose snapshot equals the previous one is the same no-op under any modes: its row stays as
      // printed, so toggling a mode rebuilds only the rows whose counts move.
      if (!was.changed) return Object.assign(e, { ignoring: ignoreKey });
      const { inserted, deleted } = precomputedCounts(e) || recount(e);
      const changed = inserted + deleted > 0;
      const title = `no-op when ignoring ${IRTraceNormalize.describe(ignore)} (+${was.inserted} \u2212${was.deleted} as printed)`;
      const own = was.badges.filter(([cls]) => cls !== 'noop');   // failed, before: what the header says stays
      return Object.assign(e, { changed, inserted, deleted, ignoring: ignoreKey, quiet: was.changed && !changed,
        badges: changed ? own : [...own, ['noop', 'no-op', title]] });
    }

    const ignoring = () => ignore;

    /** Run r's own pass k: snapshot k-1 -> k, hunks from the payload (or the keyed diff, modes on). */
    function passSpec(r, k) {
      if (k === 0) return { key: `${r}:-1>${r}:0`, before: { run: r, pos: -1 }, after: { run: r, pos: 0 }, hunks: IRTraceTraces.wholeSnapshot(runs[r].lines(0)) };
      const hunks = ignore ? keyedHunks(r, k - 1, k) : runs[r].passes[k].hunks || [];
      return { key: `${r}:${k - 1}>${r}:${k}${ignoreKey}`, before: { run: r, pos: k - 1 }, after: { run: r, pos: k }, hunks };
    }

    /** Run A's snapshot against run B's at one matched pass, hunks from the payload. */
    function crossSpec(k) {
      const m = entries[k].match;
      return { key: `0:${m.a}>1:${m.b}`, before: { run: 0, pos: m.a }, after: { run: 1, pos: m.b }, hunks: m.hunks || [] };
    }

    const entries = traced ? IRTraceTraces.buildEntries(payload, runs, passSpec) : buildEntries(payload, runs, passSpec, crossSpec);
    const exact = entries.map((e) => e && { changed: e.changed, inserted: e.inserted, deleted: e.deleted, badges: e.badges, quiet: false });
    const specCache = new Map();

    /** Snapshot j -> k of one run, diffed here (Compare with). */
    function rangeSpec(r, j, k) {
      const key = `${r}:${j}>${r}:${k}${ignoreKey}`;
      if (specCache.has(key)) return specCache.get(key);
      const started = performance.now();
      const hunks = ignore ? keyedHunks(r, j, k) : diffSnapshots(runs[r].snapshot(j), runs[r].snapshot(k), { lazyMarks: true });
      const spec = { key, before: { run: r, pos: j }, after: { run: r, pos: k }, hunks };
      timings.lastRangeDiffMs = performance.now() - started;
      if (specCache.size > 8) specCache.delete(specCache.keys().next().value);
      specCache.set(key, spec);
      return spec;
    }

    /** The views a run-against-run entry offers: A vs B, each run's own pass diff, and the two side by side. */
    function runViews(k) {
      const m = entries[k].match;
      const a = m.a != null && m.a > 0, b = m.b != null && m.b > 0;
      return { ab: m.a != null && m.b != null, a, b, change: a && b };   // Changes: the pass's own change in both runs
    }

    /** The wanted run view at entry k if it offers it, else the first it does. */
    function effectiveRunView(k, wanted) {
      const ok = runViews(k);
      if (ok[wanted]) return wanted;
      return ok.ab ? 'ab' : ok.a ? 'a' : 'b';
    }

    /** The snapshot before entry k's own (its run's previous one; -1 before a trace's first). */
    const previousOf = (k) => entries[k].pos - 1;

    /** Before position for entry k: the chosen earlier snapshot `from` of its run, or the previous one. */
    const fromOf = (k, from) => (from >= 0 && from < entries[k].pos ? from : previousOf(k));

    /** The diff entry k shows for { from, runView } (Compare with, run view). */
    function specOf(k, { from = -1, runView = 'ab' } = {}) {
      if (!against) {
        const j = fromOf(k, from), { run, pos } = entries[k];
        return j === pos - 1 ? passSpec(run, pos) : rangeSpec(run, j, pos);
      }
      const viewName = effectiveRunView(k, runView), m = entries[k].match;
      if (viewName === 'ab' || viewName === 'change') return crossSpec(k);   // Changes shows its own region (viewer_changes.js)
      return viewName === 'a' ? passSpec(0, m.a) : passSpec(1, m.b);
    }

    const alignedCache = new Map();

    function alignedRows(spec) {
      if (alignedCache.has(spec.key)) return alignedCache.get(spec.key);
      const rows = alignHunks(spec.hunks, runs[spec.before.run].lines(spec.before.pos).length);
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
        if (!c.a) c.label += against ? ' (only in B)' : ' (created)';
        if (!c.b) c.label += against ? ' (only in A)' : ' (removed)';
      }
      return { choices, error: null };
    }

    let knownFunctions = null;

    /** Whether any snapshot of the report holds function `key` (a deep link may name one that none does). */
    function functionExists(key) {
      if (!knownFunctions) {
        knownFunctions = new Set();
        for (const run of runs) for (const p of run.passes) for (const f of listedOrShifted(p.functions)) knownFunctions.add(f[0]);
      }
      return knownFunctions.has(key);
    }

    /** Lines a spec inserts into / deletes from one function: the pass header's +/− for a selection. */
    function functionCounts(spec, choice) {
      // One side only: the view shows the whole function inserted / deleted (restrictRows).
      if (!choice.a) return { inserted: choice.b[1] - choice.b[0], deleted: 0 };
      if (!choice.b) return { inserted: 0, deleted: choice.a[1] - choice.a[0] };
      let inserted = 0, deleted = 0;
      const overlap = (lo, hi, range) => (range ? Math.max(0, Math.min(hi, range[1]) - Math.max(lo, range[0])) : 0);
      for (const [a0, a1, b0, b1] of spec.hunks) {
        deleted += overlap(a0, a1, choice.a);
        inserted += overlap(b0, b1, choice.b);
      }
      return { inserted, deleted };
    }

    const fnStatsCache = [];

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

    /** The function's change at entry k, or null when untouched (undefined: unknown). */
    function fnChange(k, key) {
      const stats = fnStatsOf(k);
      if (!stats) return undefined;
      const s = stats.get(key);
      return s && (s.ins || s.del || s.created || s.removed) ? s : null;
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

    // The Behaviour filters with their counts (of what each lists), and the entry the report opens on:
    // the first that behaved differently, the frontend too (an MLIR tree's first dump is a pass's).
    const behaved = against ? entries.filter((e) => e.behaviour) : [];
    const behaviourFilters = behaved.length
      ? BEHAVIOUR_FILTERS.map(([key, label, title]) => ({ key, label, title, count: behaved.filter((e) => e.behaviour === key).length }))
      : [];
    const firstDifferent = behaved.length ? entries.findIndex((e) => e.behaviour === 'different') : -1;

    return {
      payload, against, traced, runs, main: runs[0], entries, timings, behaviourFilters, firstDifferent,
      context: contextOf(payload),
      firstEntry: against || traced ? 0 : 1, lastEntry: entries.length - 1,
      passCount: entries.filter((e) => e && !e.start).length,
      passSpec, crossSpec, rangeSpec, runViews, effectiveRunView, previousOf, fromOf, specOf,
      alignedRows, functionChoices, functionExists, functionCounts, fnStatsOf, fnChange, warningMarks,
      setIgnore, refreshEntry, ignoring, exactOf: (k) => exact[k], lineKeyOf,
    };
  }

  return {
    EQ, DEL, INS, CHG, FOLD,
    parseWarnings, applyHunks, countHunks, alignHunks, settleMarks, shortName, restrictRows, foldRows, functionAt, functionEntryAt,
    makeRun, buildEntries, createModel,
  };
})();
