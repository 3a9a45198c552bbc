// needs: viewer_traces.js
/* pypto-ir-trace viewer, deep links (IRTraceLinks), before the controls (viewer.js).
 * The URL fragment a view writes (#pass=12&change=5&fn=...&filter=conv) and how a fragment is read
 * back: which entry, change, filters and comparison it names, and the sentence the link notice says
 * about what it names that this report lacks. No DOM; the viewer applies what is read. */
const IRTraceLinks = (() => {
  'use strict';

  const LAYOUTS = ['side', 'stacked', 'unified'];
  const LAYOUT_NAMES = { side: 'side by side', stacked: 'stacked', unified: 'unified' };
  const RUN_VIEW_NAMES = { ab: 'A vs B', a: "run A's pass", b: "run B's pass", change: 'Changes' };
  /** The keys `fragment` writes; a fragment's other keys are named in the link notice. */
  const HASH_KEYS = ['trace', 'pass', 'from', 'change', 'fn', 'history', 'layout', 'ignore', 'ignore-regex', 'find', 'regex', 'case',
    'word', 'a', 'b', 'view', 'changed', 'noop', 'filter', 'fn-filter', 'behaviour'];

  /** One sentence of the link notice: what the fragment asked for, and what is shown instead. */
  function linkProblem(asked, instead) {
    return `This link ${asked}: ${instead}.`;
  }

  /** The sidebar filters a fragment names (a key left out is the filter's default). */
  function filtersOf(params) {
    return {
      showChanged: params.get('changed') !== '0',
      showNoop: params.get('noop') !== '0',
      filterText: params.get('filter') || '',
      fnFilterText: params.get('fn-filter') || '',
    };
  }

  /** Links over a model; `state` and `finder` are the viewer's, read when a fragment is written.
   *  @param {ViewerState} state (read only: viewer_state.js owns it) */
  function createLinks(model, state, finder) {
    const { against, runs, entries, payload } = model;

    /** The fragment of what is shown: `change` is the change in sight (0-based, -1 none), `texts`
     *  the pass filter and Function filter boxes as typed. */
    function fragment(change, texts) {
      const params = new URLSearchParams();
      if (against) {
        const m = entries[state.sel].match;
        if (m.a != null) params.set('a', String(runs[0].passes[m.a].index));
        if (m.b != null) params.set('b', String(runs[1].passes[m.b].index));
        if (state.runView !== 'ab') params.set('view', state.runView);
      } else {
        const { run } = entries[state.sel];
        if (runs.length > 1) params.set('trace', IRTraceTraces.linkName(payload, run));
        params.set('pass', String(entries[state.sel].index));
        const j = model.fromOf(state.sel, state.from);
        if (j !== model.previousOf(state.sel)) params.set('from', String(runs[run].passes[j].index));
      }
      if (change > 0) params.set('change', String(change + 1));   // the first change is where a pass opens
      if (state.fn) params.set('fn', state.fn);
      if (state.fnOnly) params.set('history', '1');
      params.set('layout', state.layout);
      if (state.ignore && state.ignore.modes.length) params.set('ignore', state.ignore.modes.join(','));
      if (state.ignore && state.ignore.regex) params.set('ignore-regex', state.ignore.regex);
      if (!state.ignore && model.payload.ignore) params.set('ignore', '');   // off, although the report starts with modes on
      if (finder.text) {
        params.set('find', finder.text);
        if (finder.regex) params.set('regex', '1');
        if (finder.matchCase) params.set('case', '1');
        if (finder.wholeWord) params.set('word', '1');
      }
      if (!state.showChanged) params.set('changed', '0');
      if (!state.showNoop) params.set('noop', '0');
      if (texts.filter) params.set('filter', texts.filter);
      if (texts.fnFilter) params.set('fn-filter', texts.fnFilter);
      const pressed = model.behaviourFilters.map(({ key }) => key).filter((key) => state.behaviours.has(key));
      if (pressed.length) params.set('behaviour', pressed.join(','));   // in the buttons' order: one link per choice
      return `#${params.toString()}`;
    }

    /** The Behaviour filters the fragment presses (`behaviour=different,same`), with why a name is
     *  left out in `problems` when this report has no such filter (a pass-by-pass report has none). */
    function behavioursOfHash(params, problems) {
      const known = model.behaviourFilters.map(({ key }) => key);
      const asked = (params.get('behaviour') || '').split(',').filter(Boolean);
      for (const name of asked.filter((key) => !known.includes(key))) {
        problems.push(linkProblem(`names behaviour ${name}, which this report does not have`, 'ignoring it'));
      }
      return asked.filter((key) => known.includes(key));
    }

    /** The Behaviour filters `keys` a link presses, released where they would hide entry k, the pass
     *  it names (a link to a pass opens that pass), which is said in `problems`. */
    function behavioursShowing(keys, k, problems) {
      const { behaviour } = entries[k];
      if (!keys.length || keys.includes(behaviour)) return keys;
      const { label } = model.behaviourFilters.find(({ key }) => key === behaviour) || { label: behaviour };
      problems.push(linkProblem(`names ${passWords(k)} (${label}) with behaviour=${keys.join(',')}`,
        'showing it, with the Behaviour filters released'));
      return [];
    }

    function entryFromHash(params) {
      if (against) {
        // One side names the entry (each run's pass is in one entry): `#a=15` is run A's pass 15
        // whatever it is matched with, and a pass-by-pass report's `#pass=15` reads as `#a=15`.
        const side = (name) => (params.has(name) ? Number(params.get(name)) : null);
        const a = side('a') ?? (params.has('b') ? null : side('pass')), b = side('b');
        if (a === null && b === null) return -1;
        const indexIn = (run, pos) => (pos != null ? runs[run].passes[pos].index : null);
        return entries.findIndex(({ match: m }) => (a === null || indexIn(0, m.a) === a) && (b === null || indexIn(1, m.b) === b));
      }
      const index = Number(params.get('pass'));
      const run = params.has('trace') ? IRTraceTraces.runOfUnit(payload, params.get('trace')) : 0;
      if (run === null) return -1;
      if (params.has('trace') && !params.has('pass')) {   // #trace=<unit> alone: that trace's first changed pass, else its first
        const own = entries.filter((e) => e && e.run === run);
        return (own.find((e) => !e.start && e.changed) || own[0] || { k: -1 }).k;
      }
      return params.has('pass') ? entries.findIndex((e) => e && e.run === run && e.index === index) : -1;
    }

    function passWords(k) {
      return `pass ${against ? entries[k].label : entries[k].index}`;
    }

    /** Why the fragment's pass cannot be shown (it names one, and none of this report's entries is it). */
    function missingPass(params) {
      if (against) {
        const asked = ['a', 'b'].filter((n) => params.has(n)).map((n) => `${n.toUpperCase()}${params.get(n)}`);
        if (!asked.length) asked.push(`A${params.get('pass')}`);   // a pass-by-pass link's pass=N
        return `names pass ${asked.join(' / ')}, which this report does not have`;
      }
      const asked = params.get('pass');
      if (params.has('trace') && IRTraceTraces.runOfUnit(payload, params.get('trace')) === null) {
        return `names trace ${params.get('trace')}, which this report does not have`;
      }
      if (asked === null) return 'names a trace but no pass';
      if (asked.trim() === '') return 'names no pass (pass= is empty)';
      if (Number(asked) === 0) return 'names pass 0, the frontend, which is not a pass';
      return `names pass ${asked}, which this report does not have`;
    }

    /** The fragment's sidebar filters, lifted where they would hide entry k, the pass it names: a link
     *  to a pass opens that pass (the sidebar would move to another, maybe in another trace), and
     *  each filter lifted is said in `problems`. */
    function filtersShowing(params, k, problems) {
      const filters = filtersOf(params), e = model.refreshEntry(k), words = passWords(k);
      const failed = e.badges.some(([cls]) => cls === 'failed');   // listed whatever the No-op box says
      if (!e.changed && !filters.showNoop && !failed) {
        filters.showNoop = true;
        problems.push(linkProblem(`names ${words}, a no-op, with noop=0`, 'showing it, with no-op passes listed'));
      }
      if (e.changed && !filters.showChanged) {
        filters.showChanged = true;
        problems.push(linkProblem(`names ${words}, which changes the IR, with changed=0`, 'showing it, with changed passes listed'));
      }
      if (filters.filterText.trim() && !e.name.toLowerCase().includes(filters.filterText.trim().toLowerCase())) {
        problems.push(linkProblem(`names ${words} with filter=${filters.filterText}, which its name does not match`,
          'showing it, with the pass filter cleared'));
        filters.filterText = '';
      }
      return filters;
    }

    /** The fragment's keys this viewer does not read, and its layout and run view when they name none. */
    function unreadKeys(params) {
      const problems = [];
      for (const [key, value] of params) {
        if (!HASH_KEYS.includes(key)) problems.push(linkProblem(`has ${key}=${value}, which this viewer does not read`, 'ignoring it'));
      }
      if (params.has('layout') && !LAYOUTS.includes(params.get('layout'))) {
        problems.push(linkProblem(`names layout ${params.get('layout')}, which this viewer does not have`,
          `showing ${LAYOUT_NAMES[state.layout]}`));
      }
      if (against && params.has('view') && !Object.hasOwn(RUN_VIEW_NAMES, params.get('view'))) {
        problems.push(linkProblem(`names view ${params.get('view')}, which this viewer does not have`, `showing ${RUN_VIEW_NAMES.ab}`));
      }
      return problems;
    }

    /** Compare with: the position of the fragment's `from` before entry k, else -1 and why not in `problems`. */
    function fromOfHash(params, k, problems) {
      if (!params.has('from')) return -1;
      const { run, pos } = entries[k];
      const asked = params.get('from'), j = asked.trim() === '' ? -1 : runs[run].passes.findIndex((p) => p.index === Number(asked));
      if (j >= 0 && j < pos) return j;
      const why = asked.trim() === '' ? 'compares with no pass (from= is empty)'
        : j < 0 ? `compares with pass ${asked}, which this report does not have`
          : `compares ${passWords(k)} with pass ${asked}, which is not before it`;
      problems.push(linkProblem(why, pos > 0 ? `comparing with pass ${runs[run].passes[pos - 1].index}, the previous one` : 'showing it whole'));
      return -1;
    }

    /** The change the fragment names (0-based), given the `count` the shown pass has; -1 for none
     *  (a pass opens on its first), with why not in `problems` when it names one that is not there. */
    function changeOfHash(params, count, problems) {
      if (!params.has('change')) return -1;
      const asked = params.get('change'), n = Number(asked);
      if (Number.isInteger(n) && n >= 1 && n <= count) return n - 1;
      const has = count ? `this view has ${count} change${count === 1 ? '' : 's'}` : 'this view has no change';
      problems.push(linkProblem(`names change ${asked}, but ${has}`, count ? 'showing the first' : 'showing the whole pass'));
      return -1;
    }

    return { fragment, behavioursOfHash, behavioursShowing, entryFromHash, passWords, missingPass, filtersShowing, unreadKeys, fromOfHash, changeOfHash };
  }

  return { LAYOUTS, RUN_VIEW_NAMES, linkProblem, filtersOf, createLinks };
})();
