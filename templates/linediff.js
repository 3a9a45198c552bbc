/* pypto-ir-trace: the line diff behind `Compare with`, a compact port of ir_trace/diff.py.
 * Match functions by name, then Myers (patience anchors beyond MAX_EDITS) inside the ones that
 * differ; pair the lines of a replaced block with diff.py's rules; emphasise changed characters.
 * Pure functions on line arrays: no DOM. Inlined first, before the viewer files, in the same script element. */
const IRTraceDiff = (() => {
  'use strict';

  const MAX_EDITS = 2000;           // Myers gives up beyond this many edits; patience anchors take over
  const MAX_BLOCK_PRODUCT = 4e6;    // no pairing inside a huge replaced block (as diff.py)
  const MAX_TOKEN_PRODUCT = 250000; // whole-middle emphasis for very long edited lines (as diff.py)
  const TOKEN_SPLIT = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;
  const QUALIFIED_CALL = /([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\s*\(/;

  /** Myers O(ND): append the matched (i, j) of a shortest edit script of a[a0,a1) -> b[b0,b1) to
   *  `out` (flat, increasing). False, appending nothing, when it needs more than MAX_EDITS edits. */
  function myers(a, b, a0, a1, b0, b1, out) {
    const n = a1 - a0, m = b1 - b0;
    if (!n || !m) return true;
    const limit = Math.min(n + m, MAX_EDITS), off = limit + 1;
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
    if (found < 0) return false;
    const back = [];
    let x = n, y = m;
    for (let d = found; d > 0; d--) {
      const prev = trace[d - 1], k = x - y;
      const pk = k === -d || (k !== d && prev[k - 1 + d - 1] < prev[k + 1 + d - 1]) ? k + 1 : k - 1;
      const px = prev[pk + d - 1], py = px - pk;
      while (x > px && y > py) back.push(--x, --y);
      x = px; y = py;
    }
    while (x > 0 && y > 0) back.push(--x, --y);
    for (let t = back.length - 2; t >= 0; t -= 2) out.push(a0 + back[t], b0 + back[t + 1]);
    return true;
  }

  /** Matched (i, j) of a[a0,a1) and b[b0,b1), flat and increasing: common ends trimmed, then Myers;
   *  when the middle is too different for that, lines unique to both sides anchor it (patience). */
  function matchSeq(a, b, a0, a1, b0, b1, out, depth = 0) {
    while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) out.push(a0++, b0++);
    const tail = [];
    while (a1 > a0 && b1 > b0 && a[a1 - 1] === b[b1 - 1]) tail.push(--a1, --b1);
    if (a0 < a1 && b0 < b1 && !myers(a, b, a0, a1, b0, b1, out) && depth < 8) {
      const anchors = uniqueAnchors(a, b, a0, a1, b0, b1);
      let i = a0, j = b0;
      for (let t = 0; t < anchors.length; t += 2) {
        matchSeq(a, b, i, anchors[t], j, anchors[t + 1], out, depth + 1);
        out.push(anchors[t], anchors[t + 1]);
        i = anchors[t] + 1; j = anchors[t + 1] + 1;
      }
      if (anchors.length) matchSeq(a, b, i, a1, j, b1, out, depth + 1);
    }
    for (let t = tail.length - 2; t >= 0; t -= 2) out.push(tail[t], tail[t + 1]);
    return out;
  }

  /** Lines occurring once on each side, reduced to their longest run increasing on both sides. */
  function uniqueAnchors(a, b, a0, a1, b0, b1) {
    const seen = new Map();     // value -> [count in a, position in a, count in b, position in b]
    for (let i = a0; i < a1; i++) {
      const s = seen.get(a[i]);
      if (s) s[0]++; else seen.set(a[i], [1, i, 0, -1]);
    }
    for (let j = b0; j < b1; j++) {
      const s = seen.get(b[j]);
      if (s) { s[2]++; s[3] = j; }
    }
    const cand = [];
    for (let i = a0; i < a1; i++) {
      const s = seen.get(a[i]);
      if (s[0] === 1 && s[2] === 1) cand.push(i, s[3]);
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

  /** Call fn(i0, i1, j0, j1) for every gap between matches (flat pairs) within [0,n) x [0,m). */
  function forEachGap(matches, n, m, fn) {
    let i = 0, j = 0;
    for (let t = 0; t <= matches.length; t += 2) {
      const mi = t < matches.length ? matches[t] : n, mj = t < matches.length ? matches[t + 1] : m;
      if (mi > i || mj > j) fn(i, mi, j, mj);
      i = mi + 1; j = mj + 1;
    }
  }

  function operation(line) {
    const at = line.indexOf(' = ');
    const m = QUALIFIED_CALL.exec(at >= 0 ? line.slice(at + 3) : line);
    return m ? m[1] : null;
  }

  function sharesMostTokens(x, y) {
    if (!x.trim() || !y.trim()) return false;
    const tx = x.match(TOKEN_SPLIT) || [], ty = y.match(TOKEN_SPLIT) || [];
    const counts = new Map();
    for (const t of ty) counts.set(t, (counts.get(t) || 0) + 1);
    let common = 0;
    for (const t of tx) {
      const c = counts.get(t);
      if (c) { common++; counts.set(t, c - 1); }
    }
    return (2 * common) / (tx.length + ty.length) >= 0.6;
  }

  /** SPEC's alignment rules inside one replaced block: lines equal after removing leading
   *  whitespace pair up, then lines calling the same qualified operation, then the rest in order
   *  when they share most of their tokens. Returns absolute [i, j] pairs, increasing. */
  function alignBlock(a, b, a0, a1, b0, b1) {
    const n = a1 - a0, m = b1 - b0, pairs = [];
    if (!n || !m || n * m > MAX_BLOCK_PRODUCT) return pairs;
    const sa = a.slice(a0, a1).map((s) => s.trimStart()), sb = b.slice(b0, b1).map((s) => s.trimStart());
    const first = matchSeq(sa, sb, 0, n, 0, m, []);
    for (let t = 0; t < first.length; t += 2) pairs.push([a0 + first[t], b0 + first[t + 1]]);
    forEachGap(first, n, m, (g0, g1, h0, h1) => {
      const oa = [], ob = [];
      for (let i = g0; i < g1; i++) oa.push(operation(a[a0 + i]) || `\u0000a${i}`);
      for (let j = h0; j < h1; j++) ob.push(operation(b[b0 + j]) || `\u0000b${j}`);
      const second = matchSeq(oa, ob, 0, oa.length, 0, ob.length, []);
      for (let t = 0; t < second.length; t += 2) pairs.push([a0 + g0 + second[t], b0 + h0 + second[t + 1]]);
      forEachGap(second, oa.length, ob.length, (c0, c1, d0, d1) => {
        for (let t = 0; t < Math.min(c1 - c0, d1 - d0); t++) {
          const i = a0 + g0 + c0 + t, j = b0 + h0 + d0 + t;
          if (sharesMostTokens(a[i], b[j])) pairs.push([i, j]);
        }
      });
    });
    return pairs.sort((x, y) => x[0] - y[0]);
  }

  /** Changed character ranges of an edited line (UTF-16 offsets): common ends trimmed, then tokens. */
  function changedRanges(a, b) {
    const n = Math.min(a.length, b.length);
    let p = 0;
    while (p < n && a.charCodeAt(p) === b.charCodeAt(p)) p++;
    let s = 0;
    while (s < n - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
    const midA = a.slice(p, a.length - s), midB = b.slice(p, b.length - s);
    const ta = midA.match(TOKEN_SPLIT) || [], tb = midB.match(TOKEN_SPLIT) || [];
    if (!ta.length || !tb.length || ta.length * tb.length > MAX_TOKEN_PRODUCT) {
      return [midA ? [[p, p + midA.length]] : [], midB ? [[p, p + midB.length]] : []];
    }
    const matches = matchSeq(ta, tb, 0, ta.length, 0, tb.length, []);
    const keptA = new Uint8Array(ta.length), keptB = new Uint8Array(tb.length);
    for (let t = 0; t < matches.length; t += 2) { keptA[matches[t]] = 1; keptB[matches[t + 1]] = 1; }
    return [tokenRanges(ta, keptA, p), tokenRanges(tb, keptB, p)];
  }

  function tokenRanges(tokens, kept, pos) {
    const ranges = [];
    for (let t = 0; t < tokens.length; t++) {
      const end = pos + tokens[t].length;
      if (!kept[t]) {
        if (ranges.length && ranges[ranges.length - 1][1] === pos) ranges[ranges.length - 1][1] = end;
        else ranges.push([pos, end]);
      }
      pos = end;
    }
    return ranges;
  }

  /** Line ranges to diff separately: functions matched by key, and the stretches between them
   *  (diff.py's segment trick, which keeps 11k-line snapshots fast). */
  function segmentRanges(A, B) {
    const whole = [[0, A.lines.length, 0, B.lines.length]];
    if (!A.fns || !B.fns || !ordered(A.fns) || !ordered(B.fns)) return whole;
    const ka = A.fns.map((f) => f[0]), kb = B.fns.map((f) => f[0]);
    const matched = matchSeq(ka, kb, 0, ka.length, 0, kb.length, []);
    const ranges = [];
    let pa = 0, pb = 0;
    for (let t = 0; t < matched.length; t += 2) {
      const fa = A.fns[matched[t]], fb = B.fns[matched[t + 1]];
      ranges.push([pa, fa[1], pb, fb[1]], [fa[1], fa[2], fb[1], fb[2]]);
      pa = fa[2]; pb = fb[2];
    }
    ranges.push([pa, A.lines.length, pb, B.lines.length]);
    return ranges;
  }

  function ordered(fns) {
    for (let i = 0; i < fns.length; i++) if (fns[i][1] > fns[i][2] || (i && fns[i][1] < fns[i - 1][2])) return false;
    return true;
  }

  /** Ids of both snapshots' lines compared by options.lineKey(line) (an ignore mode's normaliser):
   *  lines with equal keys count as unchanged. A last line without "\n" (eol false) stays apart. */
  function keyedIds(A, B, lineKey) {
    const interned = new Map();
    const idsOf = (S) => Int32Array.from(S.lines, (line, i) => {
      const key = i === S.lines.length - 1 && S.eol === false ? `${lineKey(line)}\u0000no newline` : lineKey(line);
      let id = interned.get(key);
      if (id === undefined) interned.set(key, (id = interned.size));
      return id;
    });
    return [{ ...A, ids: idsOf(A) }, { ...B, ids: idsOf(B) }];
  }

  /** Hunks (payload form) turning snapshot A into snapshot B; A, B = { lines, ids, fns, eol }.
   *  options.lineKey(line) -> string, when given, replaces the ids: lines compare by their keys. */
  function diffSnapshots(A, B, options = {}) {
    if (options.lineKey) [A, B] = keyedIds(A, B, options.lineKey);
    const blocks = [];
    for (const [a0, a1, b0, b1] of segmentRanges(A, B)) {
      let same = a1 - a0 === b1 - b0;
      for (let t = 0; same && t < a1 - a0; t++) same = A.ids[a0 + t] === B.ids[b0 + t];
      if (same) continue;
      const matches = matchSeq(A.ids, B.ids, a0, a1, b0, b1, []);
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
    return blocks.map(([a0, a1, b0, b1]) => [
      a0, a1, b0, b1, B.lines.slice(b0, b1),
      alignBlock(A.lines, B.lines, a0, a1, b0, b1).map(([i, j]) => [i, j, ...changedRanges(A.lines[i], B.lines[j])]),
    ]);
  }

  return { diffSnapshots };
})();
