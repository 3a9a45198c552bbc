// needs: nothing
/* pypto-ir-trace viewer: Find's match counts per snapshot (IRTraceFind).
 * A query compiled once, then counted over the delta-encoded runs of a model (viewer_model.js):
 * per snapshot, per function, and how the count changes at each entry. No DOM; the viewer's
 * state is passed in through `set` and `setScope`, never read. */
const IRTraceFind = (() => {
  'use strict';

  /* Whole word: a match may not continue a name on either side. Letters, digits, `_` and `$` are a
   * name's characters (MLIR's bare ids, Python's names); `.` is not, so `scf.for` matches `scf.for`
   * but not `scf.forall`, `for` matches `scf.for`, and `%c0` does not match `%c0_0`. */
  const WORD = '[\\p{L}\\p{N}_$]';
  const WORD_START = /^[\p{L}\p{N}_$]/u, WORD_END = /[\p{L}\p{N}_$]$/u;

  /** The pattern `source` as a whole word. A plain query (`text`) is bounded only at an end that is a
   *  name's character, so `.for` finds the `.for` of `scf.for`; a regex is bounded at both ends. */
  function wholeWordSource(source, text) {
    const before = text === null || WORD_START.test(text) ? `(?<!${WORD})` : '';
    const after = text === null || WORD_END.test(text) ? `(?!${WORD})` : '';
    return `${before}(?:${source})${after}`;
  }

  /** Find over every snapshot of a model: `set` a query, then ranges, counts and per-entry change. */
  function createFinder(model) {
    const { runs, entries, against } = model;
    const find = { text: '', regex: false, matchCase: false, wholeWord: false, re: null, error: '', scope: '' };
    let memos = new Map(), series = [], scoped = [];   // memos: a line key -> (line -> its count)
    /** @type {(r: number) => (string | null)} */
    let keyOfRun = () => null;   // run r -> its line key under the ignore modes (viewer_model.js), null: none

    /** Count matches in each line's key under the ignore modes, each run in its own language's key
     *  (`keyOf(r)`, null: the printed text): counts follow what the diff compares. */
    function setLineKeys(keyOf) {
      keyOfRun = keyOf;
      memos = new Map();
      series = [];
      scoped = [];
    }

    /** Compile a query; an invalid regex leaves `re` null and says why in `error`. */
    function set(text, regex, matchCase, wholeWord = false) {
      Object.assign(find, { text, regex, matchCase, wholeWord, re: null, error: '' });
      memos = new Map();
      series = [];
      scoped = [];
      if (!text) return;
      const escaped = regex ? text : text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const source = wholeWord ? wholeWordSource(escaped, regex ? null : text) : escaped;
      try {
        find.re = new RegExp(source, matchCase ? 'gu' : 'giu');
      } catch (err) {
        find.error = `Not a valid regular expression: ${err.message}`;
      }
    }

    /** [start, end] of every non-empty match in a line. */
    function ranges(line) {
      const re = find.re, out = [];
      re.lastIndex = 0;
      let m;
      while ((m = re.exec(line)) !== null) {
        if (m[0] === '') { re.lastIndex++; continue; }
        out.push([m.index, m.index + m[0].length]);
      }
      return out;
    }

    /** The match counter of run r's lines: memoised per line key, as runs of one language share it. */
    function counterOf(r) {
      const lineKey = keyOfRun(r);
      if (!memos.has(lineKey)) memos.set(lineKey, new Map());
      const memo = memos.get(lineKey);
      return (line) => countLine(line, lineKey, memo);
    }

    function countLine(line, lineKey, memo) {
      let c = memo.get(line);
      if (c !== undefined) return c;
      const re = find.re, text = lineKey ? lineKey(line) : line;
      c = 0;
      re.lastIndex = 0;
      let m;
      while ((m = re.exec(text)) !== null) {
        if (m[0] === '') re.lastIndex++; else c++;
      }
      if (memo.size > 500000) memo.clear();
      memo.set(line, c);
      return c;
    }

    /** Matches in every snapshot of run r, over the delta-encoded data: the base snapshot's count,
     *  then per pass minus the matches in deleted lines, plus those in inserted lines. */
    function seriesOf(r) {
      if (series[r]) return series[r];
      const run = runs[r], counts = new Array(run.last + 1), countLine = counterOf(r);
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
      return (series[r] = counts);
    }

    /** Restrict counting to one function ('' = the whole file): Find follows the Function select. */
    function setScope(key) {
      if (key === find.scope) return;
      find.scope = key;
      scoped = [];
    }

    /** Matches inside function `scope` in every snapshot of run r (0 where the snapshot lacks it,
     *  null where it cannot be sliced). */
    function scopedSeries(r) {
      if (scoped[r]) return scoped[r];
      const run = runs[r], counts = new Array(run.last + 1), countLine = counterOf(r);
      for (let k = 0; k <= run.last; k++) {
        const list = run.fns(k).list;
        if (!list) { counts[k] = null; continue; }
        const f = list.find((item) => item[0] === find.scope);
        let c = 0;
        if (f) {
          const lines = run.lines(k);
          for (let i = f[1]; i < f[2]; i++) c += countLine(lines[i]);
        }
        counts[k] = c;
      }
      return (scoped[r] = counts);
    }

    const countsOf = (r) => (find.scope ? scopedSeries(r) : seriesOf(r));

    /** Match counts on the two sides of an entry's own diff: [before, after]. */
    function counts(k) {
      if (!against) { const { run, pos } = entries[k], s = countsOf(run); return [pos > 0 ? s[pos - 1] : 0, s[pos]]; }
      const m = entries[k].match;
      return [m.a != null ? countsOf(0)[m.a] : null, m.b != null ? countsOf(1)[m.b] : null];
    }

    /** How the match count changes at entry k: { kind, label } or null. */
    function change(k) {
      if (!find.re) return null;
      const [before, after] = counts(k);
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

    /** Matches in snapshot `ref` ({ run, pos }). */
    const countAt = (ref) => (ref.pos < 0 ? 0 : countsOf(ref.run)[ref.pos]);

    return Object.assign(find, { set, setScope, setLineKeys, ranges, series: seriesOf, counts, change, countAt });
  }

  return { createFinder };
})();
