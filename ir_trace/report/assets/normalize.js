// needs: nothing
/* pypto-ir-trace: ignore modes as line normalisers, the twin of ir_trace/noise/normalize.py.
 * A mode maps a printed line to a key; lines with equal keys count as unchanged. The rules
 * (which SSA suffixes, which memory annotations, which regex subset) are documented there;
 * tests hold the two files to each other on every real sample. Every scan is linear.
 * Pure functions on strings: no DOM. Inlined before viewer.js in the same script element. */
const IRTraceNormalize = (() => {
  'use strict';

  // shared constants: the page gets them from ir_trace/report/shared_constants.py
  const MODES = ["ssa", "memref", "loc", "whitespace"];
  const LABELS = {"ssa": "SSA versions", "memref": "memory annotations", "loc": "locations", "whitespace": "whitespace", "regex": "regex"};
  const MEMREF = "pl.MemRef(";
  const IGNORED_LINE = "\u0000ignored\u0000";
  // end of shared constants
  const isLower = (c) => c >= 97 && c <= 122;
  const isDigit = (c) => c >= 48 && c <= 57;
  const isLowerDigit = (c) => isLower(c) || isDigit(c);
  const isNameChar = (c) => isLowerDigit(c) || (c >= 65 && c <= 90) || c === 95;

  /* ---------- SSA version suffixes: `__<kind>_v<N>` ---------- */

  const stripSsaVersions = (line) => withoutSpans(line, ssaVersionSpans(line));

  /** [start, end] of each `__<kind>_v<N>` suffix of `line`, in order. */
  function ssaVersionSpans(line) {
    const spans = [];
    let at = line.indexOf('__');
    while (at >= 0) {
      const end = ssaSuffixEnd(line, at);
      if (end > at && at > 0 && isNameChar(line.charCodeAt(at - 1))) {
        spans.push([at, end]);
        at = end;
      } else {
        at += 1;
      }
      at = line.indexOf('__', at);
    }
    return spans;
  }

  /** End of `__word(_word)*_vN` at `at` (vN ends the name or is followed by "_"), else `at`.
   *  A scan stops at the next "__" or non-name character: the scans of one line do not overlap. */
  function ssaSuffixEnd(line, at) {
    const n = line.length;
    let i = at + 2, words = 0;
    while (i < n && isLower(line.charCodeAt(i))) {
      let j = i + 1, digitsOnly = true;
      while (j < n && isLowerDigit(line.charCodeAt(j))) {
        digitsOnly = digitsOnly && isDigit(line.charCodeAt(j));
        j++;
      }
      const endsName = j === n || !isNameChar(line.charCodeAt(j)) || line.charCodeAt(j) === 95;
      if (words && line.charCodeAt(i) === 118 && j > i + 1 && digitsOnly && endsName) return j;
      if (j < n && line.charCodeAt(j) === 95) { i = j + 1; words++; } else break;
    }
    return at;
  }

  /** [start, end) of the first SSA suffix in `text`, or null (for building a Find across versions). */
  function firstSsaSuffix(text) {
    for (let at = text.indexOf('__'); at >= 0; at = text.indexOf('__', at + 1)) {
      const end = ssaSuffixEnd(text, at);
      if (end > at && at > 0 && isNameChar(text.charCodeAt(at - 1))) return [at, end];
    }
    return null;
  }

  /* ---------- memory annotations: `pl.MemRef(...)` arguments ---------- */

  const stripMemrefs = (line) => withoutSpans(line, memrefSpans(line));

  /** [start, end] of each `pl.MemRef(...)` argument of `line` with its ", " separator, in order. */
  function memrefSpans(line) {
    const spans = [];
    let kept = 0, at = line.indexOf(MEMREF);
    while (at >= 0) {
      const before = at > 0 ? line.charCodeAt(at - 1) : 32;
      if (isNameChar(before) || before === 46) { at = line.indexOf(MEMREF, at + 1); continue; }
      const close = closingParen(line, at + MEMREF.length);
      if (close < 0) break;   // unbalanced: leave the rest as printed rather than hide text
      let start = at, end = close + 1;
      if (start - 2 >= kept && line.startsWith(', ', start - 2)) start -= 2;
      else if (line.startsWith(', ', end)) end += 2;
      spans.push([start, end]);
      kept = end;
      at = line.indexOf(MEMREF, end);
    }
    return spans;
  }

  /** Index of the ")" closing a "(" just before i; string literals are skipped. -1 if none. */
  function closingParen(line, i) {
    let depth = 1, quote = '';
    for (const n = line.length; i < n; i++) {
      const c = line[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return i;
    }
    return -1;
  }

  /* ---------- MLIR: value, block and alias numbering; locations (mlir/normalize.py) ---------- */

  const SSA_SIGILS = /["%^#]/g;
  const VALUE_NAME = /[A-Za-z0-9_$.\-]+/y;
  const RESULT_NUMBER = /#[0-9]+/y;
  const ALIAS_NAME = /[A-Za-z_][A-Za-z0-9_$.]*/y;
  const TRAILING_DIGITS = /[0-9]+$/;
  const MLIR_NAME_CHARS = /[A-Za-z0-9_$.]/;
  const LOC_OR_STRING = /"|loc\(/g;
  const PAREN_OR_STRING = /[()"]/g;
  const LOC_ALIAS_LINE = /^#[A-Za-z_][A-Za-z0-9_$.]* = loc\(/;

  /** The match of the sticky regex `re` exactly at `at`, or null. */
  function matchAt(re, line, at) {
    re.lastIndex = at;
    return re.exec(line);
  }

  /** The next match of the global regex `re` from `at` on, or null. */
  function searchFrom(re, line, at) {
    re.lastIndex = at;
    return re.exec(line);
  }

  /** Index of the '"' closing a string whose text starts at `at` (backslash escapes honoured), else -1. */
  function closingQuote(line, at) {
    for (;;) {
      const found = line.indexOf('"', at);
      if (found < 0) return -1;
      let before = found;
      while (before > at && line[before - 1] === '\\') before--;
      if ((found - before) % 2 === 0) return found;
      at = found + 1;
    }
  }

  /** [start, end] of each value, block and alias number `ssa` removes from an MLIR line, in order. */
  function mlirSsaSpans(line) {
    const spans = [];
    let at = 0;
    for (;;) {
      const m = searchFrom(SSA_SIGILS, line, at);
      if (!m) return spans;
      const sigil = m[0];
      at = m.index + 1;
      if (sigil === '"') {
        const close = closingQuote(line, at);
        if (close < 0) return spans;   // an unclosed string: the rest is its text
        at = close + 1;
      } else if (sigil === '#') {
        at = aliasNumber(line, at, spans);
      } else {
        const name = matchAt(VALUE_NAME, line, at);
        if (!name) continue;
        let end = at + name[0].length;
        if (sigil === '%') {
          const number = matchAt(RESULT_NUMBER, line, end);
          if (number) end += number[0].length;
        }
        spans.push([at, end]);
        at = end;
      }
    }
  }

  /** After the '#' at at - 1: add the trailing digits of an alias name; return where to go on. */
  function aliasNumber(line, at, spans) {
    const name = matchAt(ALIAS_NAME, line, at);
    if (!name || (at > 1 && MLIR_NAME_CHARS.test(line[at - 2]))) return at;
    const text = name[0], end = at + text.length;
    const digits = text.includes('.') ? null : TRAILING_DIGITS.exec(text);
    if (digits) spans.push([at + digits.index, end]);
    return end;
  }

  const isLocAliasLine = (line) => LOC_ALIAS_LINE.test(line);

  /** [start, end] of each `loc(...)` of a line with the space before it; the whole of an alias table line. */
  function locSpans(line) {
    if (!line.includes('loc(')) return [];
    if (isLocAliasLine(line)) return [[0, line.length]];
    const spans = [];
    let at = 0;
    for (;;) {
      const m = searchFrom(LOC_OR_STRING, line, at);
      if (!m) return spans;
      const start = m.index;
      at = start + m[0].length;
      if (m[0] === '"') {
        const close = closingQuote(line, at);
        if (close < 0) return spans;
        at = close + 1;
        continue;
      }
      if (start > 0 && MLIR_NAME_CHARS.test(line[start - 1])) continue;   // `alloc(`, `#loc(`: not a location
      const close = closingMlirParen(line, at);
      if (close < 0) return spans;   // unbalanced: leave the rest as printed rather than hide text
      spans.push([start > 0 && line[start - 1] === ' ' ? start - 1 : start, close + 1]);
      at = close + 1;
    }
  }

  /** Index of the ")" closing a "(" just before `at`; double-quoted strings skipped. -1 if none. */
  function closingMlirParen(line, at) {
    let depth = 1;
    for (;;) {
      const m = searchFrom(PAREN_OR_STRING, line, at);
      if (!m) return -1;
      at = m.index + 1;
      if (m[0] === '"') {
        const close = closingQuote(line, at);
        if (close < 0) return -1;
        at = close + 1;
      } else if (m[0] === '(') depth++;
      else if (--depth === 0) return m.index;
    }
  }

  const stripMlirSsa = (line) => withoutSpans(line, mlirSsaSpans(line));
  const stripLocs = (line) => (isLocAliasLine(line) ? IGNORED_LINE + line : withoutSpans(line, locSpans(line)));

  /* ---------- whitespace ---------- */

  const SPACES = /\s+/gu;   // ECMAScript WhiteSpace + LineTerminator: normalize.JS_SPACES
  const stripWhitespace = (line) => line.replace(SPACES, '');
  const whitespaceSpans = (line) => matchSpans(line, SPACES);

  /** [start, end] of each non-empty match of the global regex `re` (the text `replace` removes). */
  function matchSpans(line, re) {
    const spans = [];
    re.lastIndex = 0;   // matchAll starts at the regex's lastIndex
    for (const m of line.matchAll(re)) if (m[0]) spans.push([m.index, m.index + m[0].length]);
    return spans;
  }

  /** `line` with the `spans` (sorted, disjoint) cut out. */
  function withoutSpans(line, spans) {
    if (!spans.length) return line;
    let out = '', kept = 0;
    for (const [start, end] of spans) { out += line.slice(kept, start); kept = end; }
    return out + line.slice(kept);
  }

  /* ---------- custom regex: a subset both engines read the same way ---------- */

  const ESCAPABLE = new Set('^$\\.*+?()[]{}|/');
  const CLASS_ESCAPES = new Set('dDwWstnrfv');
  const ESCAPES = new Set([...CLASS_ESCAPES, 'S', 'b', 'B']);
  const QUANTIFIER = /\{(\d+)(,(\d*))?\}/y;

  /** null when `pattern` is in the subset (see normalize.py's CustomRegex), else why not. */
  function checkRegex(pattern) {
    if (!pattern) return 'the regex is empty';
    try {
      subsetCheck(pattern);
      new RegExp(pattern, 'u');
    } catch (error) {
      return error.message;
    }
    return null;
  }

  /** One left-to-right pass, as normalize.py's _Translator, throwing on anything outside the subset. */
  function subsetCheck(p) {
    let i = 0, atom = null;          // atom: null, or { nested } for the last repeatable item
    const groups = [{ held: false, at: 0 }];   // per open group: holds a quantifier; where its '(' is
    // The message names the 1-based position of the offending character (`at`, default: the current one).
    const fail = (why, at = i) => { throw new Error(`${why} at position ${at + 1}`); };
    const escape = (inClass) => {
      if (i + 1 >= p.length) fail("a trailing '\\'");
      const c = p[i + 1];
      const ok = ESCAPABLE.has(c) || (inClass && c === '-') || (inClass ? CLASS_ESCAPES.has(c) : ESCAPES.has(c));
      if (!ok) fail(`escape '\\${c}' is not in the supported subset`);
      i += 2;
      return c;
    };
    while (i < p.length) {
      const c = p[i];
      if (c === '\\') {
        const e = escape(false);
        atom = e === 'b' || e === 'B' ? null : { nested: false };
      } else if (c === '[') {
        const start = i;
        i += 1;
        if (p[i] === '^') i++;
        let items = 0;
        while (i < p.length && p[i] !== ']') {
          if (p[i] === '\\') escape(true);
          else if (p[i] === '[') fail("'[' inside a class must be escaped");
          else i++;
          items++;
        }
        if (i >= p.length) { i = start; fail("unclosed '['"); }
        if (!items) fail('an empty class', start);
        i++;
        atom = { nested: false };
      } else if (c === '(') {
        const start = i;
        if (p.startsWith('(?:', i)) i += 3;
        else if (p.startsWith('(?', i)) fail('lookaround, named groups and inline flags are not supported');
        else i++;
        groups.push({ held: false, at: start });
        atom = null;
      } else if (c === ')') {
        if (groups.length === 1) fail("unbalanced ')'");
        const { held } = groups.pop();
        groups[groups.length - 1].held ||= held;
        i++;
        atom = { nested: held };
      } else if (c === '|' || c === '^' || c === '$') {
        i++;
        atom = null;
      } else if (c === '*' || c === '+' || c === '?' || c === '{') {
        if (!atom) fail('nothing to repeat');
        const start = i;
        if (c === '{') {
          QUANTIFIER.lastIndex = i;
          const m = QUANTIFIER.exec(p);
          if (!m) fail("unescaped '{' (write '\\{' for the character)");
          if (m[3] && Number(m[3]) < Number(m[1])) fail('numbers out of order in {n,m}');
          i += m[0].length;
        } else i++;
        if (p[i] === '?') i++;
        if (atom.nested) fail('a quantifier on a group that holds a quantifier (it can take exponential time)', start);
        if ('*+?{'.includes(p[i] || '\u0000')) fail('nothing to repeat');
        groups[groups.length - 1].held = true;
        atom = null;
      } else if (c === ']' || c === '}') {
        fail(`unescaped '${c}'`);
      } else {
        i++;
        atom = { nested: false };
      }
    }
    if (groups.length > 1) fail("unclosed '('", groups[groups.length - 1].at);
  }

  /* ---------- modes together ---------- */

  /** { modes: ['ssa', ...], regex: string|null } from loose input; unknown names are dropped. */
  function cleanModes(modes, regex) {
    const set = new Set(modes || []);
    return { modes: MODES.filter((m) => set.has(m)), regex: regex && !checkRegex(regex) ? regex : null };
  }

  const isOn = (spec) => !!spec && (spec.modes.length > 0 || !!spec.regex);

  function names(spec) {
    return [...spec.modes, ...(spec.regex ? ['regex'] : [])];
  }

  /** "SSA versions and memory annotations" */
  function describe(spec) {
    const words = names(spec).map((m) => LABELS[m]);
    return words.length < 3 ? words.join(' and ') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
  }

  /** [strip, spans] per mode on for lines printed as `kind` ('pypto' or 'mlir'); same order as
   *  normalize.py (regex first, whitespace last). */
  function steps(spec, kind) {
    const out = [];
    if (spec.regex) {
      const re = new RegExp(spec.regex, 'gu');
      out.push([(line) => line.replace(re, ''), (line) => matchSpans(line, re)]);
    }
    if (spec.modes.includes('memref')) out.push([stripMemrefs, memrefSpans]);
    if (spec.modes.includes('loc')) out.push([stripLocs, locSpans]);
    if (spec.modes.includes('ssa')) out.push(kind === 'mlir' ? [stripMlirSsa, mlirSsaSpans] : [stripSsaVersions, ssaVersionSpans]);
    if (spec.modes.includes('whitespace')) out.push([stripWhitespace, whitespaceSpans]);
    return out;
  }

  /** line -> key under `spec`, for lines printed as `kind` (default 'pypto'). */
  function normaliser(spec, kind = 'pypto') {
    const strips = steps(spec, kind).map(([strip]) => strip);
    return (line) => {
      for (const strip of strips) line = strip(line);
      return line;
    };
  }

  /** line -> the [start, end] pieces of it its key is made of, or null when `spec` removes
   *  nothing from it (normalize.py's kept_pieces): the emphasis skips what is ignored. */
  function keptPieces(spec, kind = 'pypto') {
    const finders = steps(spec, kind).map(([, spans]) => spans);
    return (line) => {
      let kept = null, text = line;
      for (const find of finders) {
        const spans = find(text);
        if (!spans.length) continue;
        kept = cutPieces(kept || [[0, line.length]], spans);
        text = withoutSpans(text, spans);
      }
      return kept;
    };
  }

  /** `pieces` of a line (whose concatenation is a text) minus `spans` of that text: one merge. */
  function cutPieces(pieces, spans) {
    const out = [];
    let k = 0, at = 0;   // at: where the current piece starts in the text
    for (const [start, end] of pieces) {
      const top = at + end - start;
      let cur = at;
      while (k < spans.length && spans[k][0] < top) {
        const [s, e] = spans[k];
        if (s > cur) out.push([start + cur - at, start + s - at]);
        cur = Math.max(cur, Math.min(e, top));
        if (e > top) break;   // the span goes on into the next piece
        k++;
      }
      if (cur < top) out.push([start + cur - at, end]);
      at = top;
    }
    return out;
  }

  return {
    MODES, LABELS, stripSsaVersions, firstSsaSuffix, stripMemrefs, stripWhitespace, checkRegex, cleanModes, isOn, names, describe,
    normaliser, keptPieces,
  };
})();
