/* pypto-ir-trace: the line diff behind `Compare with`, a step-for-step port of ir_trace/diff.py,
 * ir_trace/matching.py and ir_trace/intraline.py: the same hunks, pairs, ranges and moves (the
 * tests hold the two to each other on every real sample). Pure functions on line arrays: no DOM.
 * Inlined first, before the viewer files, in the same script element. */
const IRTraceDiff = (() => {
  'use strict';

  // shared constants: the page gets them from ir_trace/shared_constants.py
  const QUICK_EDITS = 16;
  const MAX_DEPTH = 8;
  const MAX_LINE_EDITS = 500;
  const MAX_PAIRING_CELLS = 250000;
  const WORDS_PER_CELL = 64;
  const SIMILAR = 1000;
  const RENAMED = 1600;
  const OPERATION_TOKENS = 500;
  const IGNORED_LINE = "\u0000ignored\u0000";
  const MAX_TOKEN_EDITS = 200;
  const CONTEXT_SPACES = 2;
  const CONTEXT_UNITS = 64;
  const REFINE_MIN = 12;
  const REFINE_COMMON = 6;
  // end of shared constants
  const TOKEN = /[A-Za-z0-9_]+|[ \t\r\f\v]+|[^]/gu;
  const WORD = /[A-Za-z0-9_]+/g;
  const SUBWORD = /[A-Za-z0-9]+/g;
  const VALUE_NAME = /[%^#][A-Za-z0-9_$.\-]+/g;   // diff.py: MLIR values, blocks, aliases: `%12`, `^bb2`, `#map3`
  const DIGITS = /[0-9]+/g;
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

  /* ---------- diff.py: pairing inside a replaced block ---------- */

  const profiles = new Map();

  /** diff.py's _profile: the body (indentation removed), its words each with its count, how
   *  many words; subwords computed when first needed. Words are ASCII [A-Za-z0-9_] runs. */
  function profile(line) {
    let found = profiles.get(line);
    if (!found) {
      let k = 0;
      while (k < line.length && (line[k] === ' ' || line[k] === '\t')) k++;
      const body = line.slice(k);
      // diff.py's _profile: the digits of MLIR value, block and alias names are no part of the words
      const numbered = body.includes('%') || body.includes('^') || body.includes('#');
      const text = numbered ? body.replace(VALUE_NAME, (m) => m.replace(DIGITS, '')) : body;
      const words = text.match(WORD) || [], counts = new Map();
      for (const w of words) counts.set(w, (counts.get(w) || 0) + 1);
      const features = new Set();
      for (const [w, n] of counts) features.add(`${w}#${n}`);
      found = { body, features, count: words.length, subwords: null, op: undefined };
      if (profiles.size >= 1 << 15) profiles.clear();
      profiles.set(line, found);
    }
    return found;
  }

  function subwords(p) {
    if (!p.subwords) p.subwords = new Set(p.body.match(SUBWORD) || []);
    return p.subwords;
  }

  function dice(x, y) {
    const total = x.size + y.size;
    if (!x.size || !y.size || 4 * Math.min(x.size, y.size) < total) return 0;
    const [small, large] = x.size <= y.size ? [x, y] : [y, x];
    let common = 0;
    for (const f of small) if (large.has(f)) common++;
    return Math.floor((4000 * common) / total);
  }

  /** diff.py's _similarity, in 2000ths; 0 when the lines must not pair. */
  function similarity(pa, pb) {
    if (pa.body === pb.body) return 2000;
    const words = dice(pa.features, pb.features);
    if (words >= SIMILAR) return words;
    if (pa.count !== pb.count) return 0;
    return dice(subwords(pa), subwords(pb)) >= RENAMED ? SIMILAR : 0;
  }

  function preference(pa, pb) {
    if (pa.op === undefined) pa.op = operation(pa.body);
    if (pb.op === undefined) pb.op = operation(pb.body);
    return (pa.body === pb.body ? 2 : 0) + (pa.op !== null && pa.op === pb.op ? 1 : 0);
  }

  /** diff.py's operation(): the first dotted chain of names followed by "(", right of " = ". */
  function operation(line) {
    const at = line.indexOf(' = ');
    const text = at >= 0 ? line.slice(at + 3) : line;
    let state = 0, start = 0, end = 0, names = 0;
    TOKEN.lastIndex = 0;
    for (let m, count = 0; count < OPERATION_TOKENS && (m = TOKEN.exec(text)) !== null; count++) {
      const tok = m[0], first = tok[0];
      if ((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') || first === '_') {
        if (state === 2) names++; else { start = m.index; names = 1; }
        state = 1; end = m.index + tok.length;
      } else if (tok === '.' && state === 1) state = 2;
      else if (isSpace(first) && state === 1) state = 3;
      else if (tok === '(' && (state === 1 || state === 3) && names >= 2) return text.slice(start, end);
      else state = 0;
    }
    return null;
  }

  /** diff.py's _pair_block: lines only re-indented are paired first, the rest between them. */
  function pairBlock(a, b, a0, a1, b0, b1) {
    const pairs = [];
    let i = a0, j = b0;
    for (const [ai, bj] of reindented(a, b, a0, a1, b0, b1)) {
      pairBetween(a, b, i, ai, j, bj, pairs);
      pairs.push([ai, bj]);
      i = ai + 1; j = bj + 1;
    }
    pairBetween(a, b, i, a1, j, b1, pairs);
    return pairs;
  }

  /** diff.py's _reindented: lines equal but for indentation, once each, substantial; not crossing. */
  function reindented(a, b, a0, a1, b0, b1) {
    if (a1 === a0 || b1 === b0) return [];
    const onlyA = new Map(), onlyB = new Map();
    for (let i = a0; i < a1; i++) { const body = profile(a[i]).body; onlyA.set(body, onlyA.has(body) ? -1 : i); }
    for (let j = b0; j < b1; j++) { const body = profile(b[j]).body; onlyB.set(body, onlyB.has(body) ? -1 : j); }
    const found = [];
    for (const [body, i] of onlyA) {
      const j = onlyB.has(body) ? onlyB.get(body) : -1;
      if (i >= 0 && j >= 0 && a[i] !== b[j] && substantial(a[i])) found.push([i, j]);
    }
    found.sort((x, y) => x[0] - y[0]);
    return increasing(found);
  }

  /** diff.py's _increasing: the longest run of pairs (sorted by i) whose j increase too. */
  function increasing(pairs) {
    const tails = [], before = new Array(pairs.length).fill(-1);
    pairs.forEach(([, j], k) => {
      let lo = 0, hi = tails.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (pairs[tails[mid]][1] < j) lo = mid + 1; else hi = mid;
      }
      before[k] = lo ? tails[lo - 1] : -1;
      if (lo === tails.length) tails.push(k); else tails[lo] = k;
    });
    const run = [];
    for (let k = tails.length ? tails[tails.length - 1] : -1; k >= 0; k = before[k]) run.push(pairs[k]);
    return run.reverse();
  }

  /** diff.py's _pair_between: optimal pairing, in diagonal chunks when the work is large. */
  function pairBetween(a, b, a0, a1, b0, b1, pairs) {
    const n = a1 - a0, m = b1 - b0;
    if (!n || !m) return;
    let words = 0;
    for (let i = a0; i < a1; i++) words += profile(a[i]).features.size;
    for (let j = b0; j < b1; j++) words += profile(b[j]).features.size;
    const work = n * m * (1 + Math.floor(words / (WORDS_PER_CELL * (n + m))));
    const chunks = Math.min(Math.ceil(work / MAX_PAIRING_CELLS), Math.max(n, m));
    for (let c = 0; c < chunks; c++) {
      pairChunk(a, b, a0 + Math.floor((n * c) / chunks), a0 + Math.floor((n * (c + 1)) / chunks),
        b0 + Math.floor((m * c) / chunks), b0 + Math.floor((m * (c + 1)) / chunks), pairs);
    }
    return pairs;
  }

  /** Non-crossing pairs of maximal total weight; preferences (at most 3 a pair) break ties. */
  function pairChunk(a, b, a0, a1, b0, b1, pairs) {
    const n = a1 - a0, m = b1 - b0;
    if (!n || !m) return;
    const pa = [], pb = [];
    for (let i = a0; i < a1; i++) pa.push(profile(a[i]));
    for (let j = b0; j < b1; j++) pb.push(profile(b[j]));
    const scale = 3 * Math.min(n, m) + 1, w = m + 1;
    const best = new Float64Array((n + 1) * w), weights = new Map();
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) {
        let score = Math.max(best[i * w + j + 1], best[(i + 1) * w + j]);
        const s = similarity(pa[i], pb[j]);
        if (s) {
          const weight = s * scale + preference(pa[i], pb[j]);
          weights.set(i * w + j, weight);
          score = Math.max(score, best[i * w + j] + weight);
        }
        best[(i + 1) * w + j + 1] = score;
      }
    }
    const found = [];
    let i = n, j = m;
    while (i && j) {
      const weight = weights.get((i - 1) * w + j - 1) || 0;
      if (weight && best[i * w + j] === best[(i - 1) * w + j - 1] + weight) { i--; j--; found.push([a0 + i, b0 + j]); }
      else if (best[i * w + j] === best[(i - 1) * w + j]) i--;
      else j--;
    }
    for (let t = found.length - 1; t >= 0; t--) pairs.push(found[t]);
  }

  /* ---------- diff.py: blocks, moves, hunks ---------- */

  function ordered(fns) {
    for (let i = 0; i < fns.length; i++) if (fns[i][1] > fns[i][2] || (i && fns[i][1] < fns[i - 1][2])) return false;
    return true;
  }

  function segmentRanges(n, m, fnsA, fnsB) {
    if (!fnsA || !fnsB || !fnsA.length || !fnsB.length || !ordered(fnsA) || !ordered(fnsB)) return [[0, n, 0, m]];
    const ka = fnsA.map((f) => f[0]), kb = fnsB.map((f) => f[0]);
    const matched = matchSeq(ka, kb, 0, ka.length, 0, kb.length, MAX_LINE_EDITS, []);
    const ranges = [];
    let pa = 0, pb = 0;
    for (let t = 0; t < matched.length; t += 2) {
      const fa = fnsA[matched[t]], fb = fnsB[matched[t + 1]];
      ranges.push([pa, fa[1], pb, fb[1]], [fa[1], fa[2], fb[1], fb[2]]);
      pa = fa[2]; pb = fb[2];
    }
    ranges.push([pa, n, pb, m]);
    return ranges;
  }

  function changedBlocks(A, B) {
    const blocks = [];
    for (const [a0, a1, b0, b1] of segmentRanges(A.ids.length, B.ids.length, A.fns, B.fns)) {
      let same = a1 - a0 === b1 - b0;
      for (let t = 0; same && t < a1 - a0; t++) same = A.ids[a0 + t] === B.ids[b0 + t];
      if (same) continue;
      const matches = matchSeq(A.ids, B.ids, a0, a1, b0, b1, MAX_LINE_EDITS, []);
      let i = a0, j = b0;
      for (let t = 0; t <= matches.length; t += 2) {
        const mi = t < matches.length ? matches[t] : a1, mj = t < matches.length ? matches[t + 1] : b1;
        if (mi > i || mj > j) {
          const last = blocks[blocks.length - 1];
          if (last && last[1] === i && last[3] === j) { last[1] = mi; last[3] = mj; } else blocks.push([i, mi, j, mj]);
        }
        i = mi + 1; j = mj + 1;
      }
    }
    return blocks.filter(([a0, a1, b0, b1]) => !(allIgnored(A, a0, a1) && allIgnored(B, b0, b1)));
  }

  /** diff.py's _all_ignored, one side: every line of [start, end) is ignored whole (S.ignored: their ids). */
  function allIgnored(S, start, end) {
    for (let i = start; i < end; i++) if (!S.ignored || !S.ignored.has(S.ids[i])) return false;
    return true;
  }

  function substantial(line) {
    let count = 0;
    for (const ch of line) if (ch !== ' ' && ch !== '\t' && ++count >= 3) return true;
    return false;
  }

  /** diff.py's _moves: [deleted line, inserted line] of one text, unpaired and unique on each side. */
  function moves(A, B, paired) {
    const gone = new Map(), come = new Map();
    for (const [[a0, a1, b0, b1], pairs] of paired) {
      const pairedA = new Set(pairs.map((p) => p[0])), pairedB = new Set(pairs.map((p) => p[1]));
      for (let i = a0; i < a1; i++) {
        if (!pairedA.has(i) && substantial(A.lines[i])) gone.set(A.ids[i], gone.has(A.ids[i]) ? -1 : i);
      }
      for (let j = b0; j < b1; j++) {
        if (!pairedB.has(j) && substantial(B.lines[j])) come.set(B.ids[j], come.has(B.ids[j]) ? -1 : j);
      }
    }
    const found = [];
    for (const [id, i] of gone) if (i >= 0 && come.has(id) && come.get(id) >= 0) found.push([i, come.get(id)]);
    return found.sort((x, y) => x[0] - y[0]);
  }

  /** Changed ranges of a paired line: exact, or skipping what linePieces(line) leaves out. */
  const emphasis = (linePieces) => (linePieces
    ? (x, y) => changedRangesIgnoring(x, y, linePieces(x), linePieces(y)) : changedRanges);

  function hunk(A, B, [a0, a1, b0, b1], pairs, moved, mark) {
    const a = A.lines, b = B.lines;
    const row = [a0, a1, b0, b1, b.slice(b0, b1), pairs.map(([i, j]) => [i, j, ...mark(a[i], b[j])])];
    const extras = {};
    const mine = moved.filter(([i, j]) => (a0 <= i && i < a1) || (b0 <= j && j < b1));
    if (mine.length) extras.moved = mine;
    const aOpen = a1 === a.length && a1 > a0 && A.eol === false, bOpen = b1 === b.length && b1 > b0 && B.eol === false;
    if (aOpen || bOpen) extras.no_eol = [aOpen, bOpen];
    const bomA = a.length > 0 && a[0].startsWith('\ufeff'), bomB = b.length > 0 && b[0].startsWith('\ufeff');
    if (((a0 === 0 && a1 > 0) || (b0 === 0 && b1 > 0)) && bomA !== bomB) extras.bom = [bomA, bomB];
    if (Object.keys(extras).length) row.push(extras);
    return row;
  }

  /** Ids of both snapshots' lines compared by options.lineKey(line) (an ignore mode's normaliser):
   *  lines with equal keys count as unchanged. A last line without "\n" (eol false) stays apart. */
  function keyedIds(A, B, lineKey) {
    const interned = new Map(), ignored = new Set();   // ignored: ids of lines a mode ignores whole
    const idsOf = (S) => Int32Array.from(S.lines, (line, i) => {
      const own = lineKey(line), last = i === S.lines.length - 1 && S.eol === false;
      const key = last ? `${own}\u0000no newline` : own;
      let id = interned.get(key);
      if (id === undefined) interned.set(key, (id = interned.size));
      if (!last && own.startsWith(IGNORED_LINE)) ignored.add(id);
      return id;
    });
    return [{ ...A, ids: idsOf(A), ignored }, { ...B, ids: idsOf(B), ignored }];
  }

  /** Hunks (payload form, as diff.py's hunks_to_json) turning snapshot A into snapshot B;
   *  A, B = { lines, ids, fns, eol }: ids equal exactly for equal lines (a last line without "\n"
   *  apart), fns the report's [key, start, end] functions or null, eol false when the text does
   *  not end with "\n". options.lineKey(line) -> string, when given, replaces the ids;
   *  options.linePieces (IRTraceNormalize.keptPieces of the same modes) keeps the emphasis off
   *  ignored text. */
  function diffSnapshots(A, B, options = {}) {
    if (options.lineKey) [A, B] = keyedIds(A, B, options.lineKey);
    const paired = changedBlocks(A, B).map((block) => [block, pairBlock(A.lines, B.lines, ...block)]);
    const moved = moves(A, B, paired), emphasise = emphasis(options.linePieces);
    // options.lazyMarks (the viewer): a pair's ranges are null and its fifth element works them
    // out, so only the rows shown pay for their emphasis.
    const mark = options.lazyMarks ? (x, y) => [null, null, () => emphasise(x, y)] : emphasise;
    return paired.map(([block, pairs]) => hunk(A, B, block, pairs, moved, mark));
  }

  return { diffSnapshots, changedRanges, changedRangesIgnoring, pairBlock };
})();
