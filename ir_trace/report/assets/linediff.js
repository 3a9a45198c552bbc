// needs: intraline.js
/* pypto-ir-trace: the line diff behind `Compare with`, a step-for-step port of
 * ir_trace/diffcore/linediff.py (and structure.py, the functions matched first): the same hunks,
 * pairs and moves (the tests hold the two to each other on every real sample), the matching and
 * emphasis of intraline.js (IRTraceIntraline). Pure functions on line arrays: no DOM.
 * Inlined after intraline.js, before the viewer files, in the same script element. */
const IRTraceDiff = (() => {
  'use strict';

  // shared constants: the page gets them from ir_trace/report/shared_constants.py
  const MAX_LINE_EDITS = 500;
  const MAX_PAIRING_CELLS = 250000;
  const WORDS_PER_CELL = 64;
  const SIMILAR = 1000;
  const RENAMED = 1600;
  const OPERATION_TOKENS = 500;
  const IGNORED_LINE = "\u0000ignored\u0000";
  // end of shared constants
  const { matchSeq, changedRanges, changedRangesIgnoring, TOKEN, isSpace } = IRTraceIntraline;
  const WORD = /[A-Za-z0-9_]+/g;
  const SUBWORD = /[A-Za-z0-9]+/g;
  const VALUE_NAME = /[%^#][A-Za-z0-9_$.\-]+/g;   // diff.py: MLIR values, blocks, aliases: `%12`, `^bb2`, `#map3`
  const DIGITS = /[0-9]+/g;

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

  /** diff.py's _layout: the segments lines are matched in, both snapshots with their moved functions'
   *  lines given ids unique to their side (negative), those lines (movedA / movedB: flags), and the
   *  [i, j] of the lines equal in both copies of a moved function. */
  function layout(A, B) {
    const n = A.ids.length, m = B.ids.length, fnsA = A.fns, fnsB = B.fns;
    const plain = { A, B, movedA: null, movedB: null, movedLines: [] };
    if (!fnsA || !fnsB || !fnsA.length || !fnsB.length || !ordered(fnsA) || !ordered(fnsB)) {
      return { ...plain, segments: [[0, n, 0, m]] };
    }
    const moved = movedFunctions(A, B);
    if (!moved.length) return { ...plain, segments: segmentRanges(n, m, fnsA, fnsB) };
    const idsA = Int32Array.from(A.ids), idsB = Int32Array.from(B.ids);
    const movedA = new Uint8Array(n), movedB = new Uint8Array(m), movedLines = [];
    const goneA = new Set(), goneB = new Set();
    for (const [fi, fj] of moved) {
      const fa = fnsA[fi], fb = fnsB[fj];
      const matches = matchSeq(A.ids, B.ids, fa[1], fa[2], fb[1], fb[2], MAX_LINE_EDITS, []);
      for (let t = 0; t < matches.length; t += 2) movedLines.push([matches[t], matches[t + 1]]);
      for (let i = fa[1]; i < fa[2]; i++) { movedA[i] = 1; idsA[i] = -1 - i; }
      for (let j = fb[1]; j < fb[2]; j++) { movedB[j] = 1; idsB[j] = -1 - n - j; }
      goneA.add(fi); goneB.add(fj);
    }
    const segments = segmentRanges(n, m, fnsA.filter((_f, k) => !goneA.has(k)), fnsB.filter((_f, k) => !goneB.has(k)));
    return { A: { ...A, ids: idsA }, B: { ...B, ids: idsB }, movedA, movedB, movedLines, segments };
  }

  /** diff.py's _once: each key's function index, -1 for a key held by several functions. */
  function once(fns) {
    const where = new Map();
    fns.forEach((f, k) => where.set(f[0], where.has(f[0]) ? -1 : k));
    return where;
  }

  /** diff.py's _moved_functions: functions matched by key but out of the heaviest in-order set. */
  function movedFunctions(A, B) {
    const onceA = once(A.fns), onceB = once(B.fns), byKey = [];
    for (const [key, fi] of onceA) {
      const fj = onceB.has(key) ? onceB.get(key) : -1;
      if (fi >= 0 && fj >= 0) byKey.push([fi, fj]);
    }
    byKey.sort((x, y) => x[0] - y[0]);
    const unchanged = A.ids.length + B.ids.length + 1;
    const weights = byKey.map(([fi, fj]) => {
      const fa = A.fns[fi], fb = B.fns[fj], size = fa[2] - fa[1] + fb[2] - fb[1];
      let same = fa[2] - fa[1] === fb[2] - fb[1];
      for (let t = 0; same && t < fa[2] - fa[1]; t++) same = A.ids[fa[1] + t] === B.ids[fb[1] + t];
      return same ? size * unchanged : size;
    });
    const kept = new Set(heaviestIncreasing(byKey.map((p) => p[1]), weights, B.fns.length));
    return byKey.filter((_p, k) => !kept.has(k));
  }

  /** diff.py's _heaviest_increasing: the increasing subsequence of largest total weight (Fenwick tree). */
  function heaviestIncreasing(values, weights, size) {
    const treeBest = new Array(size + 1).fill(0), treeAt = new Array(size + 1).fill(-1);
    const total = [], before = [];
    values.forEach((value, k) => {
      let best = 0, at = -1;
      for (let p = value; p > 0; p -= p & -p) if (treeBest[p] > best) { best = treeBest[p]; at = treeAt[p]; }
      total.push(best + weights[k]); before.push(at);
      for (let p = value + 1; p <= size; p += p & -p) if (total[k] > treeBest[p]) { treeBest[p] = total[k]; treeAt[p] = k; }
    });
    let k = -1;
    for (let t = 0; t < values.length; t++) if (k < 0 || total[t] > total[k]) k = t;
    const run = [];
    for (; k >= 0; k = before[k]) run.push(k);
    return run.reverse();
  }

  /** diff.py's _pair_apart: a block's pairs, a moved function's lines left out. */
  function pairApart(A, B, [a0, a1, b0, b1], L) {
    const anyIn = (flags, start, end) => { for (let t = start; t < end; t++) if (flags[t]) return true; return false; };
    if (!L.movedA || (!anyIn(L.movedA, a0, a1) && !anyIn(L.movedB, b0, b1))) return pairBlock(A.lines, B.lines, a0, a1, b0, b1);
    const rowsA = [], rowsB = [];
    for (let i = a0; i < a1; i++) if (!L.movedA[i]) rowsA.push(i);
    for (let j = b0; j < b1; j++) if (!L.movedB[j]) rowsB.push(j);
    const pairs = pairBlock(rowsA.map((i) => A.lines[i]), rowsB.map((j) => B.lines[j]), 0, rowsA.length, 0, rowsB.length);
    return pairs.map(([i, j]) => [rowsA[i], rowsB[j]]);
  }

  function changedBlocks(A, B, segments) {
    const blocks = [];
    for (const [a0, a1, b0, b1] of segments) {
      let same = a1 - a0 === b1 - b0;
      for (let t = 0; same && t < a1 - a0; t++) same = A.ids[a0 + t] === B.ids[b0 + t];
      if (same) continue;
      const matches = matchSeq(A.ids, B.ids, a0, a1, b0, b1, MAX_LINE_EDITS, []);
      let i = a0, j = b0;
      for (let t = 0; t <= matches.length; t += 2) {
        const mi = t < matches.length ? matches[t] : a1, mj = t < matches.length ? matches[t + 1] : b1;
        if (mi > i || mj > j) {
          const last = blocks[blocks.length - 1];
          // diff.py's pieces: the block's part in each segment, paired apart
          if (last && last[1] === i && last[3] === j) { last[1] = mi; last[3] = mj; last[4].push([i, mi, j, mj]); }
          else blocks.push([i, mi, j, mj, [[i, mi, j, mj]]]);
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

  /** diff.py's _MovesByEnd: a hunk's own moves found by either end with two bisections. */
  function movesByEnd(moves) {
    const byA = moves, byB = moves.slice().sort((x, y) => x[1] - y[1]);
    const from = (list, side, value) => {
      let lo = 0, hi = list.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (list[mid][side] < value) lo = mid + 1; else hi = mid; }
      return lo;
    };
    const touching = (a0, a1, b0, b1) => {
      const found = new Set(byA.slice(from(byA, 0, a0), from(byA, 0, a1)));
      for (const m of byB.slice(from(byB, 1, b0), from(byB, 1, b1))) found.add(m);
      return [...found].sort((x, y) => x[0] - y[0]);
    };
    return { touching };
  }

  /** Changed ranges of a paired line: exact, or skipping what linePieces(line) leaves out. */
  const emphasis = (linePieces) => (linePieces
    ? (x, y) => changedRangesIgnoring(x, y, linePieces(x), linePieces(y)) : changedRanges);

  /** @param {any} A @param {any} B @param {number[]} block [a0, a1, b0, b1] */
  function hunk(A, B, [a0, a1, b0, b1], pairs, moved, mark) {
    const a = A.lines, b = B.lines;
    const row = [a0, a1, b0, b1, b.slice(b0, b1), pairs.map(([i, j]) => [i, j, ...mark(a[i], b[j])])];
    const extras = {};
    const mine = moved.touching(a0, a1, b0, b1);
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
    const L = layout(A, B);
    const paired = changedBlocks(L.A, L.B, L.segments)
      .map((block) => [block.slice(0, 4), block[4].flatMap((piece) => pairApart(A, B, piece, L))]);
    const moved = movesByEnd(moves(L.A, L.B, paired).concat(L.movedLines).sort((x, y) => x[0] - y[0]));
    const emphasise = emphasis(options.linePieces);
    // options.lazyMarks (the viewer): a pair's ranges are null and its fifth element works them
    // out, so only the rows shown pay for their emphasis.
    const mark = options.lazyMarks ? (x, y) => [null, null, () => emphasise(x, y)] : emphasise;
    return paired.map(([block, pairs]) => hunk(A, B, block, pairs, moved, mark));
  }

  return { diffSnapshots, changedRanges, changedRangesIgnoring, pairBlock };
})();
