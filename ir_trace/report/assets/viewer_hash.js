// needs: viewer_links.js
/* pypto-ir-trace viewer: the URL fragment applied and written (IRTraceHash).
 * Restores the view a link names (#pass=12&change=5&fn=...: read by viewer_links.js), fills the
 * filter and Find boxes from it, says in the link notice what it names that this report lacks, and
 * writes the fragment of what is shown. viewer.js creates it with the viewer's state and parts. */
const IRTraceHash = (() => {
  'use strict';

  const { RUN_VIEW_NAMES, linkProblem, filtersOf } = IRTraceLinks;
  /** @type {(id: string) => any} (see viewer_dom.js) */
  const $ = (id) => document.getElementById(id);

  /** ctx: the model, links, finder, the state's owner (viewer_state.js), sidebar, panels and painter,
   *  changeCount() (the changes of the pass shown), the ignore part's functions, and the viewer's
   *  setLayout, runFind, selectPass and firstChanged. */
  function create(ctx) {
    const { model, links, finder, sidebar, panels, painter, ignore, setLayout, runFind, selectPass, firstChanged } = ctx;
    /** @type {ViewerStateOwner} */
    const owner = ctx.owner;
    const { state, set } = owner;
    const { against, firstEntry } = model;

    /** #pass=12&change=5&fn=Program.kernel&layout=stacked&find=pl.alloc(&filter=conv (run against
     *  run: #a=12&b=12&view=a&...): see viewer_links.js. */
    function updateHash() {
      if (state.sel < 0) return;
      const hash = links.fragment(painter.cursor, { filter: $('filter-text').value.trim(), fnFilter: $('fn-filter').value.trim() });
      if (location.hash !== hash) history.replaceState(null, '', hash);
    }

    /** Show every problem of the fragment in the link notice, or hide a notice about an earlier link. */
    function noteLinkProblems(problems) {
      if (problems.length) panels.showLinkNote(problems.join(' '));
      else panels.hideLinkNote();
    }

    /** Restore the view from the fragment; false when it names neither a pass nor a function (the
     *  caller picks the pass). Whatever it names that the report lacks is said in the link notice and
     *  left out of the fragment, which updateHash rewrites for what is shown. */
    function applyHash() {
      const params = new URLSearchParams(location.hash.slice(1));
      if (params.has('layout')) setLayout(params.get('layout'));
      const problems = links.unreadKeys(params);
      const modes = ignore.ignoreFromParams(params);
      if (!against && modes !== undefined && ignore.ignoreKeyOf(modes) !== ignore.ignoreKeyOf(state.ignore)) {
        ignore.writeIgnoreControls(modes || null);
        ignore.setIgnore(modes || null);
      }
      applyFindOfHash(params);
      writeFilters(filtersOf(params));
      writeBehaviours(links.behavioursOfHash(params, problems));
      const namesPass = params.has('pass') || params.has('trace') || (against && (params.has('a') || params.has('b')));
      if (!namesPass && !params.has('fn')) {
        noteLinkProblems(problems);
        if (state.sel >= 0) sidebar.applyFilters();
        if (problems.length && state.sel >= 0) updateHash();
        return false;
      }
      let k = links.entryFromHash(params);
      if (k < firstEntry) {
        const current = state.sel >= 0;
        k = current ? state.sel : firstChanged();
        const instead = current ? `staying on ${links.passWords(k)}` : `showing ${links.passWords(k)}, the first that changed`;
        problems.unshift(linkProblem(namesPass ? links.missingPass(params) : `names function ${params.get('fn')} but no pass`, instead));
      } else {
        writeFilters(links.filtersShowing(params, k, problems));
        writeBehaviours(links.behavioursShowing([...state.behaviours], k, problems));
      }
      set({ fn: params.get('fn') || '' });
      if (state.fn && !model.functionExists(state.fn)) {
        problems.push(linkProblem(`names function ${state.fn}, which no snapshot of this report has`, 'showing the whole file'));
        set({ fn: '' });
      }
      set({ fnOnly: params.get('history') === '1' });
      $('filter-fn').checked = state.fnOnly;
      if (against) set({ runView: Object.hasOwn(RUN_VIEW_NAMES, params.get('view')) ? params.get('view') : 'ab' });
      else set({ from: links.fromOfHash(params, k, problems) });
      set({ sel: -1 });         // force a full rebuild even when the pass is unchanged
      selectPass(k, { initial: true });
      const change = links.changeOfHash(params, ctx.changeCount(), problems);
      if (change > 0) painter.goToChange(change);
      sidebar.applyFilters();
      noteLinkProblems(problems);
      return true;
    }

    /** Find as the fragment says; it runs again only when the fragment asks for another query. */
    function applyFindOfHash(params) {
      const same = params.has('find') === Boolean(finder.text) && (params.get('find') || '') === finder.text &&
        (params.get('regex') === '1') === finder.regex && (params.get('case') === '1') === finder.matchCase &&
        (params.get('word') === '1') === finder.wholeWord;
      if (same) return;
      $('find-text').value = params.get('find') || '';
      $('find-regex').checked = params.get('regex') === '1';
      $('find-case').checked = params.get('case') === '1';
      $('find-word').checked = params.get('word') === '1';
      runFind();
    }

    /** The sidebar filters and the Function filter box as a link names them (viewer_links.js filtersOf). */
    function writeFilters({ showChanged, showNoop, filterText, fnFilterText }) {
      set({ showChanged, showNoop, query: filterText.trim().toLowerCase() });
      $('filter-changed').checked = showChanged;
      $('filter-noop').checked = showNoop;
      $('filter-text').value = filterText;
      $('fn-filter').value = fnFilterText;
    }

    /** The Behaviour filters pressed as a link names them (run against run). */
    function writeBehaviours(keys) {
      owner.setBehaviours(keys);
      panels.writeBehaviourFilters();
    }

    /** Clear filters: every pass listed again; focus goes to the filter box (the button hides). */
    function clearFilters() {
      writeFilters({ showChanged: true, showNoop: true, filterText: '', fnFilterText: $('fn-filter').value });
      writeBehaviours([]);
      set({ fnOnly: false });
      $('filter-fn').checked = false;
      sidebar.applyFilters();
      updateHash();
      $('filter-text').focus();
    }

    return { updateHash, applyHash, clearFilters };
  }

  return { create };
})();
