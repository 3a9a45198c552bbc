// needs: nothing
/* pypto-ir-trace: what changed inside an edited line, a step-for-step port of ir_trace/diffcore/matching.py
 * and ir_trace/diffcore/intraline.py: the same matches and the same emphasised ranges (the tests hold the two
 * to each other). Pure functions on strings and arrays: no DOM. Inlined first, before linediff.js. */
const IRTraceIntraline = (() => {
  'use strict';

  // shared constants: the page gets them from ir_trace/report/shared_constants.py
  const QUICK_EDITS = 16;
  const MAX_DEPTH = 8;
  const MAX_TOKEN_EDITS = 200;
  const CONTEXT_SPACES = 2;
  const CONTEXT_UNITS = 64;
  const REFINE_MIN = 12;
  const REFINE_COMMON = 6;
  // end of shared constants
  const TOKEN = /[A-Za-z0-9_]+|[ \t\r\f\v]+|[^]/gu;
  const isWord = (c) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_';
  const isSpace = (c) => c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v';

  /* ---------- matching.py ---------- */

  /** Matched (i, j) of a[a0,a1) and b[b0,b1), appended flat and increasing to `out`. */
  function matchSeq(a, b, a0, a1, b0, b1, maxEdits, out, depth = 0) {
    while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) out.push(a0++, b0++);
    const tail = [];
    while (a1 > a0 && b1 > b0 && a[a1 - 1] === b[b1 - 1]) tail.push(--a1, --b1);
    if (a0 < a1 && b0 < b1) {
      let found = myers(a, b, a0, a1, b0, b1, QUICK_EDITS);
      const anchors = found === null && depth < MAX_DEPTH ? uniqueAnchors(a, b, a0, a1, b0, b1) : [];
      if (anchors.length) {
        let i = a0, j = b0;
        for (let t = 0; t < anchors.length; t += 2) {
          matchSeq(a, b, i, anchors[t], j, anchors[t + 1], maxEdits, out, depth + 1);
          out.push(anchors[t], anchors[t + 1]);
          i = anchors[t] + 1; j = anchors[t + 1] + 1;
        }
        matchSeq(a, b, i, a1, j, b1, maxEdits, out, depth + 1);
      } else {
        if (found === null && maxEdits > QUICK_EDITS) found = myers(a, b, a0, a1, b0, b1, maxEdits);
        if (found) for (const x of found) out.push(x);
      }
    }
    for (let t = tail.length - 2; t >= 0; t -= 2) out.push(tail[t], tail[t + 1]);
    return out;
  }

  /** Myers O(ND): flat matches of a shortest edit script, or null beyond maxEdits edits. */
  function myers(a, b, a0, a1, b0, b1, maxEdits) {
    const n = a1 - a0, m = b1 - b0;
    const limit = Math.min(n + m, maxEdits), off = limit + 1;
    if (Math.abs(n - m) > limit) return null;   // at least |n - m| edits: the search would only fail
    const v = new Int32Array(2 * limit + 3);
    const trace = [];
    let found = -1;
    for (let d = 0; d <= limit && found < 0; d++) {
      for (let k = -d; k <= d; k += 2) {
        let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
        let y = x - k;
        while (x < n && y < m && a[a0 + x] === b[b0 + y]) { x++; y++; }
        v[off + k] = x;
        if (x >= n && y >= m) { found = d; break; }
      }
      trace.push(v.slice(off - d, off + d + 1));
    }
    if (found < 0) return null;
    const back = [];
    let x = n, y = m;
    for (let d = found; d > 0; d--) {
      const prev = trace[d - 1], k = x - y;
      const pk = k === -d || (k !== d && prev[k - 1 + d - 1] < prev[k + 1 + d - 1]) ? k + 1 : k - 1;
      const px = prev[pk + d - 1], py = px - pk;
      while (x > px && y > py) back.push(b0 + --y, a0 + --x);
      x = px; y = py;
    }
    while (x > 0 && y > 0) back.push(b0 + --y, a0 + --x);
    return back.reverse();
  }

  /** Items occurring once on each side, reduced to their longest run increasing on both sides. */
  function uniqueAnchors(a, b, a0, a1, b0, b1) {
    const seen = new Map();     // value -> [count in a, count in b, position in b]
    for (let i = a0; i < a1; i++) {
      const s = seen.get(a[i]);
      if (s) s[0]++; else seen.set(a[i], [1, 0, -1]);
    }
    for (let j = b0; j < b1; j++) {
      const s = seen.get(b[j]);
      if (s) { s[1]++; s[2] = j; }
    }
    const cand = [];
    for (let i = a0; i < a1; i++) {
      const s = seen.get(a[i]);
      if (s[0] === 1 && s[1] === 1) cand.push(i, s[2]);
    }
    const tails = [], tailAt = [], prev = new Int32Array(cand.length >> 1);
    for (let c = 0; c < cand.length >> 1; c++) {
      const bj = cand[2 * c + 1];
      let lo = 0, hi = tails.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (tails[mid] < bj) lo = mid + 1; else hi = mid; }
      tails[lo] = bj; tailAt[lo] = c; prev[c] = lo ? tailAt[lo - 1] : -1;
    }
    const chain = [];
    for (let c = tails.length ? tailAt[tails.length - 1] : -1; c >= 0; c = prev[c]) chain.push(cand[2 * c + 1], cand[2 * c]);
    return chain.reverse();
  }

  /* ---------- intraline.py ---------- */

  const tokens = (s) => s.match(TOKEN) || [];

  /** Changed character ranges (UTF-16 offsets) of an edited line, token-aligned and slid. */
  function changedRanges(a, b) {
    if (a === b) return [[], []];
    const n = Math.min(a.length, b.length);
    let head = 0;
    while (head < n && a.charCodeAt(head) === b.charCodeAt(head)) head++;
    let tail = 0;
    while (tail < n - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++;
    const start = windowStart(a, tokenStart(a, b, head));
    const [endA, endB] = windowEnd(a, b, a.length - tail, b.length - tail);
    const ta = tokens(a.slice(start, endA)), tb = tokens(b.slice(start, endB));
    const changedA = new Uint8Array(ta.length).fill(1), changedB = new Uint8Array(tb.length).fill(1);
    const matches = matchSeq(ta, tb, 0, ta.length, 0, tb.length, MAX_TOKEN_EDITS, []);
    for (let t = 0; t < matches.length; t += 2) { changedA[matches[t]] = 0; changedB[matches[t + 1]] = 0; }
    slideRuns(ta, tb, changedA, changedB, [start === 0 ? 4 : 3, endA === a.length ? 4 : 3]);
    return refinedRanges(a, b, ta, tb, changedA, changedB, start);
  }

  /** intraline.py's changed_ranges_ignoring: keptA / keptB are each line's pieces its key is
   *  made of (null: all of it); tokens are compared by their kept characters, a token with none
   *  is skipped, and each run of changed tokens is marked from its first token's start to its
   *  last one's end in the printed line. */
  function changedRangesIgnoring(a, b, keptA, keptB) {
    if (!keptA && !keptB) return changedRanges(a, b);
    const [ta, edgesA] = keptTokens(a, keptA), [tb, edgesB] = keptTokens(b, keptB);
    const changedA = new Uint8Array(ta.length).fill(1), changedB = new Uint8Array(tb.length).fill(1);
    const matches = matchSeq(ta, tb, 0, ta.length, 0, tb.length, MAX_TOKEN_EDITS, []);
    for (let t = 0; t < matches.length; t += 2) { changedA[matches[t]] = 0; changedB[matches[t + 1]] = 0; }
    slideRuns(ta, tb, changedA, changedB, [4, 4]);
    return [runRanges(edgesA, changedA), runRanges(edgesB, changedB)];
  }

  /** The kept characters of each token of `line` that keeps any, and its [start, end) (flat). */
  function keptTokens(line, kept) {
    kept = kept || [[0, line.length]];
    const texts = [], edges = [];
    let k = 0;
    TOKEN.lastIndex = 0;   // matchAll starts where the shared regex was last left (operation() uses exec)
    for (const m of line.matchAll(TOKEN)) {
      const start = m.index, end = start + m[0].length;
      while (k < kept.length && kept[k][1] <= start) k++;
      let text = '';
      if (k < kept.length && kept[k][0] <= start && end <= kept[k][1]) text = m[0];   // the usual case: all kept
      else {
        for (let q = k; q < kept.length && kept[q][0] < end; q++) {
          text += line.slice(Math.max(start, kept[q][0]), Math.min(end, kept[q][1]));
        }
      }
      if (text) { texts.push(text); edges.push(start, end); }
    }
    return [texts, edges];
  }

  function runRanges(edges, changed) {
    const ranges = [];
    for (let start = changed.indexOf(1); start >= 0; ) {
      const end = runEnd(changed, start);
      ranges.push([edges[2 * start], edges[2 * end - 1]]);
      start = changed.indexOf(1, end);
    }
    return ranges;
  }

  function tokenStart(a, b, p) {
    if (p === 0) return 0;
    for (const inClass of [isWord, isSpace]) {
      const next = (p < a.length && inClass(a[p])) || (p < b.length && inClass(b[p]));
      if (inClass(a[p - 1]) && next) {
        while (p > 0 && inClass(a[p - 1])) p--;
        return p;
      }
    }
    return p;
  }

  const splitsPair = (s, k) => k > 0 && k < s.length && (s.charCodeAt(k) & 0xfc00) === 0xdc00 &&
    (s.charCodeAt(k - 1) & 0xfc00) === 0xd800;

  function windowStart(a, p) {
    let q = p, t = 0;
    for (; t < CONTEXT_SPACES; t++) {
      q = q > 0 ? a.lastIndexOf(' ', q - 1) : -1;
      if (q < 0) { q = 0; break; }
    }
    if (t === CONTEXT_SPACES) while (q > 0 && isSpace(a[q - 1])) q--;
    let cap = Math.max(0, p - CONTEXT_UNITS);
    if (splitsPair(a, cap)) cap++;
    if (q >= cap) return q;
    for (const inClass of [isWord, isSpace]) {
      if (cap && inClass(a[cap - 1]) && inClass(a[cap])) {
        while (cap < a.length && inClass(a[cap])) cap++;
        return cap;
      }
    }
    return cap;
  }

  function windowEnd(a, b, ea, eb) {
    if (ea < a.length && (isWord(a[ea]) || isSpace(a[ea]))) {
      const inClass = isWord(a[ea]) ? isWord : isSpace;
      if ((ea && inClass(a[ea - 1])) || (eb && inClass(b[eb - 1]))) {
        let run = 0;
        while (ea + run < a.length && inClass(a[ea + run])) run++;
        ea += run; eb += run;
      }
    }
    let q = ea - 1, t = 0;
    for (; t < CONTEXT_SPACES; t++) {
      q = a.indexOf(' ', q + 1);
      if (q < 0) { q = a.length; break; }
    }
    if (t === CONTEXT_SPACES) while (q < a.length && isSpace(a[q])) q++;
    let cap = Math.min(a.length, ea + CONTEXT_UNITS);
    if (splitsPair(a, cap)) cap--;
    if (q > cap) {
      for (const inClass of [isWord, isSpace]) {
        if (cap < a.length && inClass(a[cap - 1]) && inClass(a[cap])) {
          while (cap > 0 && inClass(a[cap - 1])) cap--;
          break;
        }
      }
      q = cap;
    }
    return [q, eb + q - ea];
  }

  function slideRuns(ta, tb, changedA, changedB, edges) {
    let i = 0, j = 0;
    for (;;) {
      [i, j] = nextChange(changedA, changedB, i, j);
      if (i >= ta.length && j >= tb.length) return;
      const runA = runEnd(changedA, i) - i, runB = runEnd(changedB, j) - j;
      let shift;
      if (runA && !runB) shift = slide(ta, changedA, changedB, i, i + runA, j, edges);
      else if (runB && !runA) shift = slide(tb, changedB, changedA, j, j + runB, i, edges);
      else shift = runA || runB ? 0 : 1;
      i += runA + shift; j += runB + shift;
    }
  }

  /** intraline.py's _next_change: skip the equal tokens before the next change on either side. */
  function nextChange(changedA, changedB, i, j) {
    const nextA = changedA.indexOf(1, i), nextB = changedB.indexOf(1, j);
    const step = Math.min((nextA < 0 ? changedA.length : nextA) - i, (nextB < 0 ? changedB.length : nextB) - j);
    return [i + step, j + step];
  }

  function runEnd(changed, start) {
    const end = changed.indexOf(0, start);
    return end < 0 ? changed.length : end;
  }

  function slide(toks, changed, other, s, e, at, edges) {
    let left = 0;
    while (s - left > 0 && at - left > 0 && !changed[s - left - 1] && !other[at - left - 1] &&
           toks[s - left - 1] === toks[e - left - 1]) left++;
    let right = 0;
    while (e + right < toks.length && at + right < other.length && !changed[e + right] && !other[at + right] &&
           toks[s + right] === toks[e + right]) right++;
    if (!left && !right) return 0;
    let best = -left, bestScore = -1;
    for (let o = -left; o <= right; o++) {
      const score = strength(toks, s + o, edges) + strength(toks, e + o, edges);
      if (score > bestScore) { best = o; bestScore = score; }
    }
    changed.fill(0, s, e);
    changed.fill(1, s + best, e + best);
    return best;
  }

  function strength(toks, p, edges) {
    if (p === 0) return edges[0];
    if (p === toks.length) return edges[1];
    const before = toks[p - 1], after = toks[p];
    if (isSpace(before[0])) return 3;
    if (isSpace(after[0]) || '([{'.includes(before) || ')]}'.includes(after)) return 2;
    if (before === ',' || after === ',') return 1;
    return 0;
  }

  /** Each side's runs of changed tokens as ranges, a run replaced by one on the other side trimmed. */
  function refinedRanges(a, b, ta, tb, changedA, changedB, offset) {
    const edgesOf = (toks) => { const at = [offset]; for (const t of toks) at.push(at[at.length - 1] + t.length); return at; };
    const edgesA = edgesOf(ta), edgesB = edgesOf(tb), rangesA = [], rangesB = [];
    let i = 0, j = 0;
    for (;;) {
      [i, j] = nextChange(changedA, changedB, i, j);
      if (i >= ta.length && j >= tb.length) return [rangesA, rangesB];
      const endA = runEnd(changedA, i), endB = runEnd(changedB, j);
      const runA = [edgesA[i], edgesA[endA]], runB = [edgesB[j], edgesB[endB]];
      if (endA > i && endB > j) {
        const leadA = isSpace(ta[i][0]) ? edgesA[i + 1] : runA[0], leadB = isSpace(tb[j][0]) ? edgesB[j + 1] : runB[0];
        const [foundA, foundB] = replaced(a, b, runA, runB, leadA, leadB);
        rangesA.push(...foundA); rangesB.push(...foundB);
      } else {
        if (endA > i) rangesA.push(runA);
        if (endB > j) rangesB.push(runB);
      }
      i = endA; j = endB;
    }
  }

  /** intraline.py's _replaced: leading spaces (an indentation change) stay marked, the rest is trimmed. */
  function replaced(a, b, runA, runB, leadA, leadB) {
    let restA = [leadA, runA[1]], restB = [leadB, runB[1]];
    if (restA[1] > restA[0] && restB[1] > restB[0]) [restA, restB] = trimmed(a, b, restA, restB);
    return [joined([runA[0], leadA], restA), joined([runB[0], leadB], restB)];
  }

  /** The non-empty ones of two ranges, one range when they touch. */
  function joined(lead, rest) {
    if (lead[1] === rest[0]) return rest[1] > lead[0] ? [[lead[0], rest[1]]] : [];
    return [lead, rest].filter((r) => r[1] > r[0]);
  }

  /** `_` or ASCII that is no letter or digit: where a trimmed run may be cut. */
  const isSeparator = (c) => c < 128 && !(c >= 48 && c <= 57) && !(c >= 65 && c <= 90) && !(c >= 97 && c <= 122);

  /** intraline.py's _trimmed: a long replaced run pair without its common start and end, cut at separators. */
  function trimmed(a, b, runA, runB) {
    const [sa, ea] = runA, [sb, eb] = runB;
    if (Math.max(ea - sa, eb - sb) < REFINE_MIN) return [runA, runB];
    let head = 0;
    while (sa + head < ea && sb + head < eb && a.charCodeAt(sa + head) === b.charCodeAt(sb + head)) head++;
    if (head && !(cutBefore(a, sa + head, ea) && cutBefore(b, sb + head, eb))) {
      while (head > 0 && !isSeparator(a.charCodeAt(sa + head - 1))) head--;
    }
    let tail = 0;
    while (ea - tail > sa + head && eb - tail > sb + head && a.charCodeAt(ea - 1 - tail) === b.charCodeAt(eb - 1 - tail)) tail++;
    if (tail && !(cutAfter(a, ea - tail, sa + head) && cutAfter(b, eb - tail, sb + head))) {
      let cut = ea - tail;
      while (cut < ea && !isSeparator(a.charCodeAt(cut))) cut++;
      tail = ea - cut;
    }
    if (head + tail < REFINE_COMMON) return [runA, runB];
    return [[sa + head, ea - tail], [sb + head, eb - tail]];
  }

  const cutBefore = (line, p, end) => p === end || isSeparator(line.charCodeAt(p));
  const cutAfter = (line, p, start) => p === start || isSeparator(line.charCodeAt(p - 1));


  return { matchSeq, changedRanges, changedRangesIgnoring, TOKEN, isSpace };
})();
